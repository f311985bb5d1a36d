//! Running a match: worker threads play the scheduled games, the calling thread writes each result
//! as it comes (a JSON line, a record) and keeps the running score.
//!
//! The pool threads live for the whole match, so the bots' worker processes they spawn (which die
//! with the thread that started them) live exactly as long as their game. Every game has fresh
//! seats: a bot that crashed in one game is started again for the next.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

use anyhow::{bail, Context as _};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use tavola_sdk::{Color, Game, Position};

use super::schedule::{self, Format, ScheduleSpec, ScheduledGame};
use super::stats::{Pentanomial, Sprt, SprtModel, SprtStatus, Wdl};
use crate::builtin::Evaluate;
use crate::record::GameRecord;
use crate::referee::{GameResult, Referee, Settings, Termination};
use crate::seat::worker::WorkerOptions;
use crate::seat::{SeatKind, SeatSpec};
use crate::text_ui::{seat_for, GameSetup};

/// What to play.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// Player A and player B.
    pub players: [SeatSpec; 2],
    /// The variant, `None` for the game's default.
    pub variant: Option<String>,
    /// Clocks.
    pub settings: Settings,
    /// The number of games (played as pairs with colours swapped).
    pub games: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The seed of everything random; `None` to take it from the resumed file or the clock.
    pub seed: Option<u64>,
    /// Random plies from the start for each pair's opening; 0 for the start position.
    pub opening_plies: u32,
    /// Openings from a file: one position a line in the game's own text (blank lines and lines
    /// starting with `#` skipped); overrides `opening_plies`.
    pub openings: Option<PathBuf>,
    /// Adjudicate a draw after this many plies.
    pub max_plies: Option<usize>,
    /// One JSON line per finished game.
    pub results: Option<PathBuf>,
    /// Finished games whose results are in this file are not played again (implies `results`).
    pub resume: Option<PathBuf>,
    /// Each game's record.
    pub pgn: Option<PathBuf>,
    /// The final summary as JSON.
    pub summary: Option<PathBuf>,
    /// How plugins run.
    pub isolation: Option<WorkerOptions>,
    /// Stop when this test is decided.
    pub sprt: Option<Sprt>,
}

/// One finished game, as a line of the results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's index in the schedule.
    pub index: usize,
    /// The pair it belongs to.
    pub pair: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The index of the player with White (0 for A, 1 for B).
    pub white_player: usize,
    /// The start position's text.
    pub opening: String,
    /// The moves, separated by spaces.
    pub moves: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination, as the record's tag says it.
    pub termination: String,
    /// The reason in words.
    pub reason: String,
    /// Plies played (including the opening's).
    pub plies: usize,
    /// Wall time of the game, in seconds.
    pub duration: f64,
    /// The match's seed (so that a resumed run plays the same openings).
    pub match_seed: u64,
    /// The game's own seed.
    pub seed: u64,
}

impl GameLine {
    /// The score of player `player` (0 or 1) in this game.
    #[must_use]
    pub fn score_of(&self, player: usize) -> f64 {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if player == self.white_player {
            white
        } else {
            1.0 - white
        }
    }

    /// The player who lost, if any.
    #[must_use]
    pub fn loser(&self) -> Option<usize> {
        match self.result.as_str() {
            "1-0" => Some(1 - self.white_player),
            "0-1" => Some(self.white_player),
            _ => None,
        }
    }
}

/// Per-player statistics of a match, from A's point of view where it matters.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PlayerSummary {
    /// The player's name.
    pub name: String,
    /// The seat spec.
    pub spec: String,
    /// Games played.
    pub games: u64,
    /// Wins, draws and losses of this player.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Score in percent.
    pub score_percent: Option<f64>,
    /// Elo against the other player.
    pub elo: Option<f64>,
    /// Half-width of the 95 % interval of `elo`.
    pub elo_error95: Option<f64>,
    /// Normalised Elo.
    pub nelo: Option<f64>,
    /// Half-width of the 95 % interval of `nelo`.
    pub nelo_error95: Option<f64>,
    /// Likelihood of superiority, in percent.
    pub los_percent: Option<f64>,
    /// Draw ratio, in percent.
    pub draw_percent: Option<f64>,
    /// Pair counts: LL, LD, WL+DD, WD, WW.
    pub pentanomial: [u64; 5],
    /// How this player's games ended: termination → count.
    pub terminations: BTreeMap<String, u64>,
    /// How this player lost: termination → count.
    pub losses_by: BTreeMap<String, u64>,
    /// Games this player lost on time.
    pub time_losses: u64,
}

/// The summary of a match.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// The time control, `base+increment` in seconds.
    pub time_control: String,
    /// The seed.
    pub seed: u64,
    /// Games finished.
    pub games: u64,
    /// Games scheduled.
    pub scheduled: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Players A and B.
    pub players: Vec<PlayerSummary>,
    /// Games lost on time.
    pub time_losses: u64,
    /// Time losses per finished game, in percent.
    pub time_loss_percent: Option<f64>,
    /// The sequential test, if one was asked for.
    pub sprt: Option<SprtSummary>,
}

/// Where the sequential test stands at the end.
#[derive(Debug, Clone, Serialize)]
pub struct SprtSummary {
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// False-H1 rate.
    pub alpha: f64,
    /// False-H0 rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: String,
    /// The log-likelihood ratio (of pairs when there are any, else of games).
    pub llr: f64,
    /// The lower bound (accept H0).
    pub lower: f64,
    /// The upper bound (accept H1).
    pub upper: f64,
    /// `H0 accepted`, `H1 accepted` or `undecided`.
    pub result: String,
}

/// Parses the SPRT's settings: `elo0=X elo1=Y [alpha=0.05] [beta=0.05] [model=normalized|logistic]`,
/// as separate words or separated by commas.
///
/// # Errors
/// A word that is not one of those, a bad number, or a missing `elo0` or `elo1`.
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = SprtModel::Normalized;
    for word in words
        .iter()
        .flat_map(|w| w.split([',', ' ']))
        .filter(|w| !w.is_empty())
    {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--sprt: expected KEY=VALUE, got {word:?}"))?;
        let number = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("--sprt: {key} must be a number (got {value:?})"))
        };
        match key {
            "elo0" => elo0 = Some(number()?),
            "elo1" => elo1 = Some(number()?),
            "alpha" => alpha = number()?,
            "beta" => beta = number()?,
            "model" => {
                model = match value {
                    "normalized" | "normalised" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    _ => {
                        return Err(format!(
                            "--sprt: model is normalized or logistic, not {value:?}"
                        ))
                    }
                }
            }
            _ => {
                return Err(format!(
                    "--sprt: unknown key {key:?} (elo0, elo1, alpha, beta, model)"
                ))
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0=.. and elo1=..".to_owned());
    };
    if elo0 >= elo1 {
        return Err(format!("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"));
    }
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        return Err("--sprt: alpha and beta must be between 0 and 0.5".to_owned());
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
        model,
    })
}

/// Running statistics from A's view.
#[derive(Debug, Default)]
struct Tally {
    wdl: Wdl,
    pentanomial: Pentanomial,
    /// First finished game's score (A's) of each pair not yet complete.
    open_pairs: HashMap<usize, f64>,
    terminations: [BTreeMap<String, u64>; 2],
    losses_by: [BTreeMap<String, u64>; 2],
    time_losses: [u64; 2],
}

impl Tally {
    fn add(&mut self, line: &GameLine) {
        let score = line.score_of(0);
        if score == 1.0 {
            self.wdl.wins += 1;
        } else if score == 0.0 {
            self.wdl.losses += 1;
        } else {
            self.wdl.draws += 1;
        }
        match self.open_pairs.remove(&line.pair) {
            Some(first) => self.pentanomial.add_pair(first, score),
            None => {
                self.open_pairs.insert(line.pair, score);
            }
        }
        for player in 0..2 {
            *self[player].entry(line.termination.clone()).or_default() += 1;
        }
        if let Some(loser) = line.loser() {
            *self.losses_by[loser]
                .entry(line.termination.clone())
                .or_default() += 1;
            if line.termination == Termination::TimeForfeit.as_str() {
                self.time_losses[loser] += 1;
            }
        }
    }

    /// The SPRT's log-likelihood ratio: of pairs when there are any, else of games.
    fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pentanomial.pairs() > 0 {
            sprt.llr_pentanomial(&self.pentanomial)
        } else {
            sprt.llr(&self.wdl)
        }
    }

    /// `A 12.5/20 (+10 =5 -5), Elo 44 ± 120`.
    fn progress(&self) -> String {
        let w = self.wdl;
        let score = w.wins as f64 + w.draws as f64 / 2.0;
        let elo = match w.elo() {
            Some(e) if e.elo.is_finite() => format!("Elo {:.1} ± {:.1}", e.elo, e.error95),
            Some(e) => format!("Elo {}", e.elo),
            None => "Elo -".to_owned(),
        };
        format!(
            "{score}/{} (+{} ={} -{}), {elo}",
            w.games(),
            w.wins,
            w.draws,
            w.losses
        )
    }
}

impl std::ops::Index<usize> for Tally {
    type Output = BTreeMap<String, u64>;
    fn index(&self, player: usize) -> &Self::Output {
        &self.terminations[player]
    }
}

impl std::ops::IndexMut<usize> for Tally {
    fn index_mut(&mut self, player: usize) -> &mut Self::Output {
        &mut self.terminations[player]
    }
}

/// Reads the finished games of a results file (an unreadable line, such as one cut short by a
/// power loss, is skipped with a warning). A missing file holds no game.
///
/// # Errors
/// The file exists but cannot be read.
pub fn read_results(path: &Path) -> anyhow::Result<Vec<GameLine>> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let mut lines = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameLine>(&line) {
            Ok(game) => lines.push(game),
            Err(e) => log::warn!("{}:{}: skipped ({e})", path.display(), number + 1),
        }
    }
    Ok(lines)
}

/// Opens `path` for appending; a last line cut short (by a kill or a power loss) is removed first,
/// so its game is played again and the file stays one JSON object a line.
fn open_append(path: &Path) -> anyhow::Result<File> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let mut text = Vec::new();
    file.read_to_end(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    if text.last().is_some_and(|&last| last != b'\n') {
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64)
            .with_context(|| format!("cutting the unfinished last line of {}", path.display()))?;
    }
    Ok(file)
}

/// The openings of a file: one position a line, in the game's text; blank lines and `#` comments
/// skipped. A position that does not parse, or where the game is already over, is an error naming
/// the line.
///
/// # Errors
/// The file cannot be read, holds a bad or decided position, or holds none.
pub fn read_openings<G: Game>(path: &Path, variant: &str) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the openings {}", path.display()))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{}:{}", path.display(), number + 1);
        let position = G::parse_position(line, Some(variant)).with_context(at)?;
        if position.is_game_over() {
            bail!("{}: the game is already over in {line:?}", at());
        }
        openings.push(position.to_string());
    }
    if openings.is_empty() {
        bail!("{} holds no opening", path.display());
    }
    Ok(openings)
}

/// What a pool thread sends back: a finished game, or a seat that could not be made.
struct Finished {
    line: GameLine,
    record: Option<GameRecord>,
}

/// The names the players go by: the bots' own names, made unique.
fn player_names<G: Evaluate>(config: &MatchConfig, variant: &str) -> anyhow::Result<[String; 2]> {
    let mut names = [String::new(), String::new()];
    for (player, spec) in config.players.iter().enumerate() {
        if spec.kind == SeatKind::Human {
            bail!("a match is between bots: {spec} cannot play");
        }
        let setup = setup_for(config, 0);
        let seated = seat_for::<G>(spec, Color::White, variant, &setup)
            .with_context(|| format!("player {}", ["A", "B"][player]))?;
        names[player] = seated.seat.name().to_owned();
    }
    if names[0] == names[1] {
        names[0].push_str(" (A)");
        names[1].push_str(" (B)");
    }
    Ok(names)
}

fn setup_for(config: &MatchConfig, seed: u64) -> GameSetup {
    GameSetup {
        variant: config.variant.clone(),
        position: None,
        resume: None,
        record_path: None,
        players: config.players.clone(),
        settings: config.settings,
        seed,
        isolation: config.isolation.clone(),
    }
}

/// Plays one scheduled game from `opening` with fresh seats.
fn play_game<G: Evaluate>(
    config: &MatchConfig,
    names: &[String; 2],
    game: &ScheduledGame,
    opening: &str,
    match_seed: u64,
) -> Finished {
    let started = Instant::now();
    let setup = setup_for(config, game.seed);
    let players = [game.white, game.black];
    let start = G::parse_position(opening, config.variant.as_deref())
        .expect("openings are made from positions of this game");
    let variant = start.variant().to_owned();
    let mut referee = Referee::<G>::new(start, config.settings).with_max_plies(config.max_plies);
    let mut seats = Vec::with_capacity(2);
    let mut failure = None;
    for (color, &player) in [Color::White, Color::Black].iter().zip(&players) {
        match seat_for::<G>(&config.players[player], *color, &variant, &setup) {
            Ok(seated) => seats.push(seated.seat),
            Err(e) => {
                failure = Some(GameResult {
                    winner: Some(color.other()),
                    termination: Termination::Crash,
                    reason: format!("{color} could not start: {e:#}"),
                });
                break;
            }
        }
    }
    let (result, record) = match (failure, <[_; 2]>::try_from(seats)) {
        (None, Ok(mut seats)) => {
            let result = referee.play(&mut seats, |_| {});
            drop(seats);
            let record = referee.record(&names[game.white], &names[game.black]);
            (result, Some(record))
        }
        (Some(failure), _) => (failure, None),
        (None, Err(_)) => unreachable!("two seats when none failed"),
    };
    let moves: Vec<String> = referee.moves().iter().map(ToString::to_string).collect();
    Finished {
        line: GameLine {
            index: game.index,
            pair: game.pair,
            white: names[game.white].clone(),
            black: names[game.black].clone(),
            white_player: game.white,
            opening: opening.to_owned(),
            plies: moves.len(),
            moves: moves.join(" "),
            result: result.result_str().to_owned(),
            termination: result.termination.as_str().to_owned(),
            reason: result.describe(),
            duration: started.elapsed().as_secs_f64(),
            match_seed,
            seed: game.seed,
        },
        record,
    }
}

/// Plays the match, writing the files as games finish, printing a progress line per game on
/// stderr; returns the summary.
///
/// # Errors
/// A player that cannot be seated at the start, a bad variant, an unwritable file, or a results
/// file to resume from that belongs to another match.
pub fn run_match<G: Evaluate>(config: &MatchConfig) -> anyhow::Result<Summary> {
    let results_path = config.results.clone().or_else(|| config.resume.clone());
    let previous = match &config.resume {
        Some(path) => read_results(path)?,
        None => Vec::new(),
    };
    let seed = match (config.seed, previous.first()) {
        (Some(seed), Some(first)) if first.match_seed != seed => bail!(
            "the results to resume were played with --seed {}, not {seed}",
            first.match_seed
        ),
        (Some(seed), _) => seed,
        (None, Some(first)) => first.match_seed,
        (None, None) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let start = G::start(config.variant.as_deref())?;
    let variant = start.variant().to_owned();
    let names = player_names::<G>(config, &variant)?;
    if let Some(other) = previous.iter().find(|line| {
        let white = usize::from(line.white_player == 1);
        line.white != names[white] || line.black != names[1 - white]
    }) {
        bail!(
            "the results to resume are of another match ({} vs {}, not {} vs {})",
            other.white,
            other.black,
            names[0],
            names[1]
        );
    }
    if let (Some(path), None) = (&config.results, &config.resume) {
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            bail!(
                "{} already holds results: --resume {0} to continue that match, or another file",
                path.display()
            );
        }
    }

    let file_openings = config
        .openings
        .as_deref()
        .map(|path| read_openings::<G>(path, &variant))
        .transpose()?;
    let rounds = schedule::rounds(&ScheduleSpec {
        players: 2,
        format: Format::RoundRobin,
        games_per_encounter: config.games,
        openings: 0,
        seed,
    });
    let spec = ScheduleSpec {
        players: 2,
        format: Format::RoundRobin,
        games_per_encounter: config.games,
        openings: match &file_openings {
            Some(openings) => openings.len(),
            None if config.opening_plies > 0 => rounds,
            None => 0,
        },
        seed,
    };
    let games = schedule::schedule(&spec);
    let openings: Vec<String> = match file_openings {
        Some(openings) => openings,
        None => (0..spec.openings)
            .map(|round| {
                let mut rng = StdRng::seed_from_u64(schedule::opening_seed(&spec, round));
                schedule::random_opening::<G>(&mut rng, config.opening_plies, Some(&variant))
                    .map(|p| p.to_string())
                    .with_context(|| {
                        format!(
                            "no opening of {} random plies that does not end the game",
                            config.opening_plies
                        )
                    })
            })
            .collect::<anyhow::Result<_>>()?,
    };
    let start_text = start.to_string();
    let opening_of =
        |game: &ScheduledGame| game.opening_index.map_or(&start_text, |i| &openings[i]);

    let mut tally = Tally::default();
    let mut done = BTreeSet::new();
    for line in &previous {
        if line.index < games.len() && done.insert(line.index) {
            tally.add(line);
        }
    }
    let todo: Vec<ScheduledGame> = games
        .iter()
        .filter(|g| !done.contains(&g.index))
        .copied()
        .collect();
    let total = games.len();
    eprintln!(
        "Match: {} vs {}, {total} games ({} to play), {} ({}), seed {seed}, concurrency {}",
        names[0],
        names[1],
        todo.len(),
        G::NAME,
        variant,
        config.concurrency
    );

    let mut results_file = results_path.as_deref().map(open_append).transpose()?;
    let decided = |tally: &Tally| {
        config
            .sprt
            .is_some_and(|sprt| sprt.status(tally.llr(&sprt)) != SprtStatus::Continue)
    };
    let stop = AtomicBool::new(decided(&tally));
    let queue = Mutex::new(todo.into_iter());
    let (sender, receiver) = mpsc::channel::<Finished>();
    let mut finished = done.len();
    thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let queue = &queue;
            let names = &names;
            let opening_of = &opening_of;
            let stop = &stop;
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let next = queue.lock().map(|mut q| q.next()).unwrap_or(None);
                let Some(game) = next else { break };
                let outcome = play_game::<G>(config, names, &game, opening_of(&game), seed);
                if sender.send(outcome).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for outcome in receiver {
            let line = &outcome.line;
            if let Some(file) = &mut results_file {
                let json = serde_json::to_string(line)?;
                writeln!(file, "{json}")
                    .and_then(|()| file.flush())
                    .context("writing the results file")?;
            }
            if let (Some(path), Some(record)) = (&config.pgn, &outcome.record) {
                crate::record::append_to_file(path, record)?;
            }
            tally.add(line);
            finished += 1;
            let llr = config
                .sprt
                .map(|sprt| format!(", LLR {:.2}", tally.llr(&sprt)))
                .unwrap_or_default();
            eprintln!(
                "Game {finished}/{total} (#{}): {} vs {} {} ({}); {} {}{llr}",
                line.index + 1,
                line.white,
                line.black,
                line.result,
                line.termination,
                names[0],
                tally.progress()
            );
            if decided(&tally) && !stop.swap(true, Ordering::Relaxed) {
                eprintln!("SPRT decided: finishing the games being played");
            }
        }
        Ok(())
    })?;

    Ok(summarise::<G>(config, &names, seed, total, &tally))
}

fn summarise<G: Game>(
    config: &MatchConfig,
    names: &[String; 2],
    seed: u64,
    total: usize,
    tally: &Tally,
) -> Summary {
    let a = tally.wdl;
    let b = Wdl {
        wins: a.losses,
        draws: a.draws,
        losses: a.wins,
    };
    let pa = tally.pentanomial;
    let pb = Pentanomial {
        ll: pa.ww,
        ld: pa.wd,
        wl_dd: pa.wl_dd,
        wd: pa.ld,
        ww: pa.ll,
    };
    let finite = |x: f64| x.is_finite().then_some(x);
    let player = |i: usize, wdl: Wdl, p: Pentanomial| {
        // Pairs give the sounder error bars when there are any; else single games.
        let (elo, nelo, los) = if p.pairs() > 0 {
            (p.elo(), p.nelo(), p.los())
        } else {
            (wdl.elo(), wdl.nelo(), wdl.los())
        };
        PlayerSummary {
            name: names[i].clone(),
            spec: config.players[i].to_string(),
            games: wdl.games(),
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            score_percent: wdl.score().map(|s| s * 100.0),
            elo: elo.and_then(|e| finite(e.elo)),
            elo_error95: elo.and_then(|e| finite(e.error95)),
            nelo: nelo.and_then(|e| finite(e.elo)),
            nelo_error95: nelo.and_then(|e| finite(e.error95)),
            los_percent: los.map(|l| l * 100.0),
            draw_percent: wdl.draw_ratio().map(|d| d * 100.0),
            pentanomial: [p.ll, p.ld, p.wl_dd, p.wd, p.ww],
            terminations: tally.terminations[i].clone(),
            losses_by: tally.losses_by[i].clone(),
            time_losses: tally.time_losses[i],
        }
    };
    let games = a.games();
    let time_losses = tally.time_losses.iter().sum();
    Summary {
        game: G::NAME.to_owned(),
        time_control: match config.settings.time {
            Some(t) => format!(
                "{}+{}",
                t.as_secs_f64(),
                config.settings.increment.as_secs_f64()
            ),
            None => "-".to_owned(),
        },
        seed,
        games,
        scheduled: total as u64,
        concurrency: config.concurrency,
        players: vec![player(0, a, pa), player(1, b, pb)],
        time_losses,
        time_loss_percent: (games > 0).then(|| time_losses as f64 * 100.0 / games as f64),
        sprt: config.sprt.map(|sprt| {
            let llr = tally.llr(&sprt);
            let (lower, upper) = sprt.bounds();
            SprtSummary {
                elo0: sprt.elo0,
                elo1: sprt.elo1,
                alpha: sprt.alpha,
                beta: sprt.beta,
                model: match sprt.model {
                    SprtModel::Normalized => "normalized",
                    SprtModel::Logistic => "logistic",
                }
                .to_owned(),
                llr,
                lower,
                upper,
                result: match sprt.status(llr) {
                    SprtStatus::Continue => "undecided",
                    SprtStatus::AcceptH0 => "H0 accepted",
                    SprtStatus::AcceptH1 => "H1 accepted",
                }
                .to_owned(),
            }
        }),
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let num = |x: Option<f64>, digits: usize| match x {
            Some(x) => format!("{x:.digits$}"),
            None => "-".to_owned(),
        };
        // An Elo left out of the JSON for being infinite (one side won everything).
        let elo = |p: &PlayerSummary| match (p.elo, p.score_percent) {
            (Some(elo), _) => format!("{elo:.2} ± {}", num(p.elo_error95, 2)),
            (None, Some(score)) if score >= 100.0 => "+inf".to_owned(),
            (None, Some(score)) if score <= 0.0 => "-inf".to_owned(),
            _ => "-".to_owned(),
        };
        writeln!(
            f,
            "{} games of {} ({} scheduled), tc {}, seed {}, concurrency {}",
            self.games, self.game, self.scheduled, self.time_control, self.seed, self.concurrency
        )?;
        for p in &self.players {
            writeln!(f, "{} ({})", p.name, p.spec)?;
            writeln!(
                f,
                "  games {}, W/D/L {}/{}/{}, score {} %, draws {} %",
                p.games,
                p.wins,
                p.draws,
                p.losses,
                num(p.score_percent, 1),
                num(p.draw_percent, 1)
            )?;
            writeln!(
                f,
                "  Elo {}, nElo {} ± {}, LOS {} %",
                elo(p),
                num(p.nelo, 2),
                num(p.nelo_error95, 2),
                num(p.los_percent, 2)
            )?;
            let [ll, ld, wl, wd, ww] = p.pentanomial;
            writeln!(f, "  pairs LL {ll}, LD {ld}, WL+DD {wl}, WD {wd}, WW {ww}")?;
            let words = |map: &BTreeMap<String, u64>| {
                map.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            writeln!(f, "  terminations: {}", words(&p.terminations))?;
            writeln!(
                f,
                "  lost by: {}; time losses {}",
                if p.losses_by.is_empty() {
                    "-".to_owned()
                } else {
                    words(&p.losses_by)
                },
                p.time_losses
            )?;
        }
        write!(
            f,
            "Time losses: {} ({} % of games)",
            self.time_losses,
            num(self.time_loss_percent, 2)
        )?;
        if let Some(s) = &self.sprt {
            write!(
                f,
                "\nSPRT ({} Elo [{}, {}], alpha {}, beta {}): LLR {:.2} ({:.2}, {:.2}), {}",
                s.model, s.elo0, s.elo1, s.alpha, s.beta, s.llr, s.lower, s.upper, s.result
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(index: usize, pair: usize, white_player: usize, result: &str, term: &str) -> GameLine {
        GameLine {
            index,
            pair,
            white: String::new(),
            black: String::new(),
            white_player,
            opening: String::new(),
            moves: String::new(),
            result: result.to_owned(),
            termination: term.to_owned(),
            reason: String::new(),
            plies: 0,
            duration: 0.0,
            match_seed: 0,
            seed: 0,
        }
    }

    #[test]
    fn the_tally_scores_from_a_view_and_counts_pairs() {
        let mut tally = Tally::default();
        // Pair 0: A wins as White, then loses on time as Black. Pair 1: A wins both.
        tally.add(&line(0, 0, 0, "1-0", "normal"));
        tally.add(&line(1, 0, 1, "1-0", "time forfeit"));
        tally.add(&line(2, 1, 1, "0-1", "normal"));
        tally.add(&line(3, 1, 0, "1-0", "crash"));
        assert_eq!(
            tally.wdl,
            Wdl {
                wins: 3,
                draws: 0,
                losses: 1
            }
        );
        assert_eq!(tally.pentanomial.wl_dd, 1);
        assert_eq!(tally.pentanomial.ww, 1);
        assert_eq!(tally.time_losses, [1, 0]);
        assert_eq!(tally.losses_by[1].get("crash"), Some(&1));
        assert_eq!(tally.terminations[0].get("normal"), Some(&2));
    }

    #[test]
    fn sprt_settings_parse_with_defaults() {
        let words = |text: &str| vec![text.to_owned()];
        let sprt = parse_sprt(&words("elo0=0,elo1=5")).unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (0.0, 5.0, 0.05, 0.05)
        );
        assert_eq!(sprt.model, SprtModel::Normalized);
        let sprt =
            parse_sprt(&["elo0=-1".into(), "elo1=2 alpha=0.1 model=logistic".into()]).unwrap();
        assert_eq!(
            (sprt.elo0, sprt.alpha, sprt.model),
            (-1.0, 0.1, SprtModel::Logistic)
        );
        assert!(parse_sprt(&words("elo1=5")).is_err());
        assert!(parse_sprt(&words("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&words("elo0=0 elo1=5 gamma=1")).is_err());
        assert!(parse_sprt(&words("elo0=x elo1=5")).is_err());
    }

    #[test]
    fn a_line_round_trips_through_json() {
        let game = line(5, 2, 1, "1/2-1/2", "adjudication");
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(serde_json::from_str::<GameLine>(&json).unwrap(), game);
        assert_eq!(game.score_of(0), 0.5);
        assert_eq!(game.loser(), None);
    }
}
