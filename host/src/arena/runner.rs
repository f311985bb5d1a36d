//! Running a match or a tournament: pool threads play the scheduled games, the calling thread
//! writes each result as it comes (the record, then the JSON line), keeps the running tally and
//! shows the progress; at the end (or on the first Ctrl-C, once the games being played are over)
//! the summary.
//!
//! A match is the tournament of two players: both go through [`run`]. The pool threads live for
//! the whole run, so the bots' worker processes they spawn (which die with the thread that started
//! them) live exactly as long as their game. Every game has fresh seats: a bot that crashed in one
//! game is started again for the next.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand::rngs::StdRng;
use rand::SeedableRng;
use tavola_sdk::{Color, Game, Position};

use super::progress::{say, Progress, ProgressMode};
use super::results::{self, GameLine};
use super::resume::{self, Defaulted, RunSettings};
use super::schedule::{self, Format, ScheduleSpec, ScheduledGame};
use super::stats::{Sprt, SprtModel};
use super::summary::{RunFacts, Summary, Tally};
use super::verify::{self, RunRules};
use crate::builtin::search::{Limits, Searcher};
use crate::builtin::Evaluate;
use crate::record::GameRecord;
use crate::referee::{GameResult, Referee, Settings, Termination};
use crate::seat::worker::{self, WorkerOptions};
use crate::seat::{SeatKind, SeatSpec};
use crate::text_ui::{seat_for, GameSetup};

/// What to play.
#[derive(Debug, Clone)]
pub struct ArenaConfig {
    /// The players (a match: A and B).
    pub players: Vec<SeatSpec>,
    /// Who meets whom (a match is a round robin of two).
    pub format: Format,
    /// The variant, `None` for the game's default.
    pub variant: Option<String>,
    /// Clocks, or the time per move.
    pub settings: Settings,
    /// The number of games of each encounter (played as pairs with colours swapped).
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
    /// Stop when this test is decided (a match only).
    pub sprt: Option<Sprt>,
    /// How progress is shown.
    pub progress: ProgressMode,
    /// The settings the command line left at their defaults: a resumed run takes them from its
    /// results file instead.
    pub defaulted: Defaulted,
    /// Play only the `k`-th of `n` slices of the run (`(k, n)`, `1 <= k <= n`): the pairs whose
    /// number is `k - 1` modulo `n`, with the openings and seeds the whole run gives them.
    pub shard: Option<(u32, u32)>,
}

/// Whether `game` belongs to `shard` (`None`: the whole run): whole pairs go to one shard, so
/// that each keeps its pairs' pentanomial counts.
#[must_use]
pub fn in_shard(game: &ScheduledGame, shard: Option<(u32, u32)>) -> bool {
    shard.is_none_or(|(k, n)| game.pair % n.max(1) as usize == (k.max(1) - 1) as usize)
}

impl ArenaConfig {
    /// `match` for two players in a round robin, else the format's name.
    #[must_use]
    pub fn format_name(&self) -> &'static str {
        match self.format {
            Format::RoundRobin if self.players.len() == 2 => "match",
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// The time control in words: `10+0.1` (seconds), `0.1 s/move`, or `-`.
#[must_use]
pub fn time_control_words(settings: &Settings) -> String {
    match settings.movetime {
        Some(movetime) => format!("{} s/move", movetime.as_secs_f64()),
        None => settings.tag(),
    }
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

/// The openings of a file: one position a line, in the game's text; blank lines and `#` comments
/// skipped. A position that does not parse, or where the game is already over, is an error naming
/// the line.
///
/// # Errors
/// The file cannot be read, holds a bad or decided position, or holds none.
pub fn read_openings<G: Game>(path: &Path, variant: &str) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the openings {}", path.display()))?;
    // Editors on Windows start a UTF-8 file with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
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

/// What a pool thread sends back: a finished game, with its record unless a seat could not start.
struct Finished {
    line: GameLine,
    record: Option<GameRecord>,
}

/// A letter for player `index`: A, B, ... Z, then numbers.
fn letter(index: usize) -> String {
    u8::try_from(index).ok().filter(|&i| i < 26).map_or_else(
        || (index + 1).to_string(),
        |i| char::from(b'A' + i).to_string(),
    )
}

/// The names the players go by: the bots' own names, made unique with the player's letter.
fn player_names<G: Evaluate>(config: &ArenaConfig, variant: &str) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::with_capacity(config.players.len());
    for (player, spec) in config.players.iter().enumerate() {
        if spec.kind == SeatKind::Human {
            bail!("the arena is for bots: {spec} cannot play");
        }
        let setup = setup_for(config, 0);
        let seated = seat_for::<G>(spec, Color::White, variant, &setup)
            .with_context(|| format!("player {}", letter(player)))?;
        names.push(seated.seat.name().to_owned());
    }
    let copies = names.clone();
    for (player, name) in names.iter_mut().enumerate() {
        if copies.iter().filter(|other| *other == name).count() > 1 {
            name.push_str(&format!(" ({})", letter(player)));
        }
    }
    Ok(names)
}

fn setup_for(config: &ArenaConfig, seed: u64) -> GameSetup {
    GameSetup {
        variant: config.variant.clone(),
        position: None,
        resume: None,
        record_path: None,
        players: [config.players[0].clone(), config.players[1].clone()],
        settings: config.settings,
        seed,
        isolation: config.isolation.clone(),
    }
}

/// Plays one scheduled game from `opening` with fresh seats.
fn play_game<G: Evaluate>(
    config: &ArenaConfig,
    names: &[String],
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
            let mut record = referee.record(&names[game.white], &names[game.black]);
            record.set_tag("Round", results::round_tag(game.index));
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
            black_player: Some(game.black),
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

/// The seed of the run: the one given, else the resumed run's, else from the clock.
fn run_seed(config: &ArenaConfig, previous: &[GameLine]) -> anyhow::Result<u64> {
    Ok(match (config.seed, previous.first()) {
        (Some(seed), Some(first)) if first.match_seed != seed => bail!(
            "the results to resume were played with --seed {}, not {seed}",
            first.match_seed
        ),
        (Some(seed), _) => seed,
        (None, Some(first)) => first.match_seed,
        (None, None) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    })
}

/// How deep, and within how many nodes, the built-in search judges how even a random opening
/// is (see [`schedule::balanced_opening`]).
const OPENING_CHECK: Limits = Limits {
    depth: Some(4),
    nodes: Some(20_000),
    soft: None,
    hard: None,
    wall_clock: false,
};

/// How far from even `position` is: the built-in search's score for either side, in hundredths.
fn imbalance<G: Evaluate>(position: &G::Position) -> u32 {
    let mut searcher = Searcher::<G>::new(1);
    let stop = AtomicBool::new(false);
    searcher
        .search(position, OPENING_CHECK, &stop, &mut |_| {})
        .value
        .unsigned_abs()
}

/// The openings of a schedule: from the file, or random plies (the most even of a few random
/// lines each, see [`schedule::balanced_opening`]) made when a game first asks for one, so that a
/// long run does not wait for all of them before its first game.
struct Openings<'a> {
    spec: &'a ScheduleSpec,
    plies: u32,
    variant: &'a str,
    start: String,
    from_file: Option<Vec<String>>,
    made: Mutex<std::collections::HashMap<usize, String>>,
}

impl Openings<'_> {
    /// The position text game `index` of the schedule starts from (`None`: the start).
    fn of<G: Evaluate>(&self, index: Option<usize>) -> anyhow::Result<String> {
        let Some(round) = index else {
            return Ok(self.start.clone());
        };
        if let Some(file) = &self.from_file {
            return Ok(file[round].clone());
        }
        let made = |openings: &Self| openings.made.lock().ok()?.get(&round).cloned();
        if let Some(text) = made(self) {
            return Ok(text);
        }
        // Made outside the lock (each is a few searches); two threads asking at once make the
        // same position from the same seed.
        let mut rng = StdRng::seed_from_u64(schedule::opening_seed(self.spec, round));
        let text = schedule::balanced_opening::<G>(
            &mut rng,
            self.plies,
            Some(self.variant),
            imbalance::<G>,
        )
        .map(|p| p.to_string())
        .with_context(|| {
            format!(
                "no opening of {} random plies that does not end the game",
                self.plies
            )
        })?;
        if let Ok(mut made) = self.made.lock() {
            made.insert(round, text.clone());
        }
        Ok(text)
    }
}

/// Plays the match or tournament, writing the files as games finish and showing the progress on
/// stderr; writes the summary file and returns the summary. The first Ctrl-C stops starting games:
/// those being played finish and are written, then the summary (marked interrupted). A second
/// Ctrl-C ends the process at once (see [`worker::finish_on_first_interrupt`]); every finished game
/// is in the results file by then.
///
/// # Errors
/// Fewer than two players, a player that cannot be seated at the start, a bad variant, an
/// unwritable file, or a results file to resume from that belongs to another run or holds a game
/// that does not replay by the rules (see [`verify::check_games`]).
pub fn run<G: Evaluate>(config: &ArenaConfig) -> anyhow::Result<Summary> {
    let players = config.players.len();
    if players < 2 {
        bail!("a {} needs at least two players", config.format_name());
    }
    if config.sprt.is_some() && players != 2 {
        bail!("--sprt is for a match of two players, not {players}");
    }
    let read = match &config.resume {
        Some(path) if !path.exists() => bail!("{}: no results file to resume", path.display()),
        Some(path) => results::read_run(path)?,
        None => results::RunFile::default(),
    };
    let stored = read.settings.clone();
    // Not counted before they are checked, below.
    let previous: Vec<GameLine> = read.games.iter().map(|r| r.game.clone()).collect();
    let openings_hash = |path: &Path| {
        std::fs::read(path)
            .map(|bytes| resume::content_hash(&bytes))
            .with_context(|| format!("reading the openings {}", path.display()))
    };
    let adopted;
    let config = match &stored {
        Some(stored) => {
            let variant = G::start(config.variant.as_deref())?.variant().to_owned();
            let hash = config.openings.as_deref().map(openings_hash).transpose()?;
            adopted = resume::adopt(config, stored, G::NAME, &variant, hash.as_deref())?;
            &adopted
        }
        None => config,
    };
    // After the resumed run's settings are adopted: a resumed shard is a shard.
    if let Some((k, n)) = config.shard {
        if config.sprt.is_some() {
            bail!(
                "--sprt stops a run early, which a shard cannot do alone: give it to tavola merge, \
                 which tests the union of the shards"
            );
        }
        if config.seed.is_none() {
            bail!("--shard {k}/{n} needs --seed S: every shard must play the openings and seeds of the same run");
        }
    }
    let hash = config.openings.as_deref().map(openings_hash).transpose()?;
    if let Some(stored) = stored.as_ref().and_then(|s| s.openings_hash.as_ref()) {
        if hash.as_ref() != Some(stored) {
            bail!(
                "the openings file {} changed since the run started",
                config
                    .openings
                    .as_deref()
                    .unwrap_or(Path::new(""))
                    .display()
            );
        }
    }
    let results_path = config.results.clone().or_else(|| config.resume.clone());
    let seed = run_seed(config, &previous)?;
    let start = G::start(config.variant.as_deref())?;
    let variant = start.variant().to_owned();
    let names = player_names::<G>(config, &variant)?;
    if let (Some(path), None) = (&config.results, &config.resume) {
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            bail!(
                "{} already holds results: --resume {0} to continue that run, or another file",
                path.display()
            );
        }
    }

    let file_openings = config
        .openings
        .as_deref()
        .map(|path| read_openings::<G>(path, &variant))
        .transpose()?;
    let mut spec = ScheduleSpec {
        players,
        format: config.format,
        games_per_encounter: config.games,
        openings: 0,
        seed,
    };
    spec.openings = match &file_openings {
        Some(openings) => openings.len(),
        None if config.opening_plies > 0 => schedule::rounds(&spec),
        None => 0,
    };
    let games = schedule::schedule(&spec);
    if let Some(beyond) = previous.iter().find(|line| line.index >= games.len()) {
        bail!(
            "--games {} would leave out finished game {} of the run to resume: give at least its \
             number of games",
            config.games,
            beyond.index + 1
        );
    }
    // Before anything is written: a line that does not replay refuses the run, and nothing is
    // lost.
    if let Some(path) = &config.resume {
        let rules = RunRules {
            variant: &variant,
            names: &names,
            schedule: &games,
            seed,
            max_plies: stored.as_ref().map(|_| config.max_plies),
        };
        verify::check_games::<G>(path, &read.games, &rules)?;
    }
    if let Some(line) = previous.iter().find(|line| {
        games
            .get(line.index)
            .is_some_and(|g| !in_shard(g, config.shard))
    }) {
        let (k, n) = config.shard.unwrap_or((1, 1));
        bail!(
            "game {} of the results to resume is not in shard {k}/{n}: resume a shard with its own --shard",
            line.index + 1
        );
    }
    for warning in &read.warnings {
        say(warning);
    }
    let openings = Openings {
        spec: &spec,
        plies: config.opening_plies,
        variant: &variant,
        start: start.to_string(),
        from_file: file_openings,
        made: Mutex::default(),
    };
    // The first opening now: one that cannot be made is an error before any game.
    if let Some(first) = games.iter().find_map(|game| game.opening_index) {
        openings.of::<G>(Some(first))?;
    }
    let opening_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);

    let mut tally = Tally::new(players);
    let mut done = BTreeSet::new();
    for line in &previous {
        if line.index < games.len() && done.insert(line.index) {
            tally.add(line);
            tally.check_sprt(config.sprt.as_ref());
        }
    }
    // The files written later are checked now, not after hours of games; the results file is
    // made only now that everything else is known to be right.
    if let Some(path) = &config.pgn {
        results::check_appendable(path)?;
    }
    if let Some(path) = &config.summary {
        results::check_replaceable(path)?;
    }
    let mut results_file = results_path
        .as_deref()
        .map(results::open_append)
        .transpose()?;
    if let Some(file) = &mut results_file {
        if file.metadata().map_or(true, |m| m.len() == 0) {
            let settings = RunSettings::of(config, G::NAME, &variant, seed, hash);
            results::write_header(file, &settings)?;
        }
    }
    // A finished game keeps its record, in the schedule or not.
    let finished_anywhere: BTreeSet<usize> = previous.iter().map(|line| line.index).collect();
    if let (Some(path), Some(_)) = (&config.pgn, &config.resume) {
        let dropped = results::resync_records(path, &finished_anywhere)?;
        if dropped > 0 {
            say(&format!(
                "warning: {}: {dropped} record(s) of unfinished or repeated games removed",
                path.display()
            ));
        }
    }
    let todo: Vec<ScheduledGame> = games
        .iter()
        .filter(|g| !done.contains(&g.index) && in_shard(g, config.shard))
        .copied()
        .collect();
    let total = games.iter().filter(|g| in_shard(g, config.shard)).count();
    let heading = if players == 2 {
        format!("Match: {} vs {}", names[0], names[1])
    } else {
        format!(
            "Tournament ({}): {}",
            config.format_name(),
            names.join(", ")
        )
    };
    let mut finished = done.len();
    let progress = Progress::start(config.progress, total as u64, finished as u64);
    progress.note(&format!(
        "{heading}, {total} games ({} to play), {} ({}), tc {}, seed {seed}, concurrency {}",
        todo.len(),
        G::NAME,
        variant,
        time_control_words(&config.settings),
        config.concurrency
    ));

    if let Some(path) = &results_path {
        progress.note(&format!(
            "Results: {0} (an interrupted run continues with --resume {0})",
            path.display()
        ));
    }
    worker::finish_on_first_interrupt();
    let stop = AtomicBool::new(tally.decided());
    let started = AtomicUsize::new(0);
    let queue = Mutex::new(todo.into_iter());
    let (sender, receiver) = mpsc::channel::<Finished>();
    let mut interrupted = false;
    let written = thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (queue, names, openings, opening_error) =
                (&queue, &names, &openings, &opening_error);
            let (stop, started) = (&stop, &started);
            scope.spawn(move || loop {
                let next = queue
                    .lock()
                    .map(|mut q| {
                        // Checked under the lock, so that no game starts after a stop is counted.
                        if stop.load(Ordering::SeqCst) {
                            return None;
                        }
                        let next = q.next();
                        if next.is_some() {
                            started.fetch_add(1, Ordering::SeqCst);
                        }
                        next
                    })
                    .unwrap_or(None);
                let Some(game) = next else { break };
                let opening = match openings.of::<G>(game.opening_index) {
                    Ok(opening) => opening,
                    Err(e) => {
                        let _guard = queue.lock();
                        stop.store(true, Ordering::SeqCst);
                        if let Ok(mut slot) = opening_error.lock() {
                            slot.get_or_insert(e);
                        }
                        break;
                    }
                };
                let outcome = play_game::<G>(config, names, &game, &opening, seed);
                if sender.send(outcome).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        // The receiver lives in this closure: if writing fails (or panics), it goes with it, the
        // pool's next send fails, and no game is played for nothing.
        let receiver = receiver;
        let stop_on_error = |result: anyhow::Result<()>| {
            if result.is_err() {
                let _guard = queue.lock();
                stop.store(true, Ordering::SeqCst);
            }
            result
        };
        let mut played = 0;
        loop {
            match receiver.recv_timeout(Duration::from_millis(50)) {
                Ok(outcome) => {
                    let line = &outcome.line;
                    // The record first: a results line is the promise that the game is whole.
                    if let (Some(path), Some(record)) = (&config.pgn, &outcome.record) {
                        stop_on_error(results::append_record(path, record))?;
                    }
                    if let Some(file) = &mut results_file {
                        stop_on_error(results::append_line(file, line))?;
                    }
                    tally.add(line);
                    finished += 1;
                    played += 1;
                    let llr = config
                        .sprt
                        .map(|sprt| format!(", LLR {:.2}", tally.llr(&sprt)))
                        .unwrap_or_default();
                    progress.game(
                        &format!(
                            "Game {finished}/{total} (#{}): {} vs {} {} ({})",
                            line.index + 1,
                            line.white,
                            line.black,
                            line.result,
                            line.termination,
                        ),
                        &format!("{}{llr}", tally.progress(&names)),
                    );
                    if tally.check_sprt(config.sprt.as_ref()) && !stop.swap(true, Ordering::SeqCst)
                    {
                        progress.note("SPRT decided: finishing the games being played");
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if !interrupted && worker::interrupt_requested() {
                interrupted = true;
                let _guard = queue.lock();
                stop.store(true, Ordering::SeqCst);
                let playing = started.load(Ordering::SeqCst).saturating_sub(played);
                progress.note(&format!(
                    "Interrupted: finishing the {playing} game(s) being played, then the summary \
                     (Ctrl-C again to stop at once; --resume continues)"
                ));
            }
        }
        Ok(())
    });
    progress.finish();

    let summary = Summary::new(
        &RunFacts {
            game: G::NAME,
            format: config.format_name(),
            time_control: time_control_words(&config.settings),
            seed,
            scheduled: total,
            concurrency: config.concurrency,
            time_margin: config.settings.margin,
            interrupted: interrupted && (finished as u64) < total as u64,
            names: &names,
            specs: config.players.iter().map(ToString::to_string).collect(),
            sprt: config.sprt,
        },
        &tally,
    );
    // After a write error too, the summary of what was written, if it can be.
    let summary_written = config.summary.as_ref().map(|path| {
        let json = serde_json::to_string_pretty(&summary)? + "\n";
        results::write_atomically(path, json.as_bytes())
            .with_context(|| format!("writing the summary to {}", path.display()))
    });
    written?;
    summary_written.transpose()?;
    if let Some(e) = opening_error.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn an_openings_file_may_start_with_a_byte_order_mark() {
        use tavola_sdk::games::ataxx::Ataxx;
        let start = Ataxx::start(None).unwrap();
        let path = std::env::temp_dir().join(format!("tavola-bom-{}.txt", std::process::id()));
        std::fs::write(&path, format!("\u{feff}{start}\n")).unwrap();
        let openings = read_openings::<Ataxx>(&path, start.variant());
        let _ = std::fs::remove_file(&path);
        assert_eq!(openings.unwrap(), [start.to_string()]);
    }

    #[test]
    fn players_are_lettered() {
        assert_eq!((0..3).map(letter).collect::<Vec<_>>(), ["A", "B", "C"]);
        assert_eq!(letter(26), "27");
    }

    #[test]
    fn the_time_control_in_words() {
        let mut settings = Settings {
            time: Some(Duration::from_secs(10)),
            increment: Duration::from_millis(100),
            movetime: None,
            margin: crate::referee::DEFAULT_MARGIN,
        };
        assert_eq!(time_control_words(&settings), "10+0.1");
        settings.movetime = Some(Duration::from_millis(250));
        assert_eq!(time_control_words(&settings), "0.25 s/move");
    }
}
