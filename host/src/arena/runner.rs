//! Running a match or a tournament: the pool's threads (see `pool`) play the scheduled games and
//! write each result as it comes (the record, then the JSON line), keeping the running tally and
//! the progress; the calling thread waits for them, watches for Ctrl-C (on the first, the games
//! being played finish and are written), and makes the summary.
//!
//! A match is the tournament of two players: both go through [`run`]. Every game has fresh
//! players; a worker process is kept from one game of its player to the next, and one that
//! crashed is started again.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context as _};
use rand::rngs::StdRng;
use rand::SeedableRng;
use tavola_sdk::{Color, Game, Position};

use super::pool::{self, Done, Shared, Writer};
use super::progress::{say, Progress, ProgressMode};
use super::results::{self, GameLine};
use super::resume::{self, Defaulted, RunSettings};
use super::schedule::{self, Format, ScheduleSpec, ScheduledGame};
use super::stats::{Sprt, SprtModel};
use super::summary::{RunFacts, Summary, Tally};
use super::verify::{self, RunRules};
use crate::builtin::search::{Limits, Searcher};
use crate::builtin::Evaluate;
use crate::referee::Settings;
use crate::seat::worker::{self, WorkerOptions};
use crate::seat::{SeatKind, SeatSpec};
use crate::text_ui::{brain_for, GameSetup};

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
    /// Pin each game's thread to one CPU, round the CPUs this process may use, with the
    /// processes of its players (workers, engines): the move changes hands on one CPU
    /// (`--affinity`, as fastchess's `-use-affinity`). A bot's own threads share its CPU.
    pub affinity: bool,
    /// Training positions: for each game that ended by the rules, a line per position whose
    /// mover reported a score (see [`super::positions`]).
    pub positions: Option<PathBuf>,
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

/// The SPRT's settings as [`parse_sprt`] reads them back: `elo0=0 elo1=5 alpha=0.05 beta=0.05
/// model=normalized` (every key, so that two tests compare by their words).
#[must_use]
pub fn sprt_words(sprt: &Sprt) -> String {
    let model = match sprt.model {
        SprtModel::Normalized => "normalized",
        SprtModel::Logistic => "logistic",
    };
    format!(
        "elo0={} elo1={} alpha={} beta={} model={model}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    )
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
    parse_openings::<G>(&text, &path.display().to_string(), variant)
}

/// The openings of a file's text, as [`read_openings`] reads them, naming the file `name`.
///
/// # Errors
/// A bad or decided position, or none.
pub fn parse_openings<G: Game>(
    text: &str,
    name: &str,
    variant: &str,
) -> anyhow::Result<Vec<String>> {
    // Editors on Windows start a UTF-8 file with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{name}:{}", number + 1);
        let position = G::parse_position(line, Some(variant)).with_context(at)?;
        if position.is_game_over() {
            bail!("{}: the game is already over in {line:?}", at());
        }
        openings.push(position.to_string());
    }
    if openings.is_empty() {
        bail!("{name} holds no opening");
    }
    Ok(openings)
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
        // The brain alone: its name is all that is wanted of it.
        let made = brain_for::<G>(spec, Color::White, variant, &setup)
            .with_context(|| format!("player {}", letter(player)))?;
        names.push(made.name);
    }
    let copies = names.clone();
    for (player, name) in names.iter_mut().enumerate() {
        if copies.iter().filter(|other| *other == name).count() > 1 {
            name.push_str(&format!(" ({})", letter(player)));
        }
    }
    Ok(names)
}

pub(super) fn setup_for(config: &ArenaConfig, seed: u64) -> GameSetup {
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
pub(super) struct Openings {
    spec: ScheduleSpec,
    plies: u32,
    variant: String,
    start: String,
    from_file: Option<Vec<String>>,
    made: Mutex<std::collections::HashMap<usize, String>>,
}

impl Openings {
    /// The position text game `index` of the schedule starts from (`None`: the start).
    pub(super) fn of<G: Evaluate>(&self, index: Option<usize>) -> anyhow::Result<String> {
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
        let mut rng = StdRng::seed_from_u64(schedule::opening_seed(&self.spec, round));
        let text = schedule::balanced_opening::<G>(
            &mut rng,
            self.plies,
            Some(&self.variant),
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
        spec,
        plies: config.opening_plies,
        variant: variant.clone(),
        start: start.to_string(),
        from_file: file_openings,
        made: Mutex::default(),
    };
    // The first opening now: one that cannot be made is an error before any game.
    if let Some(first) = games.iter().find_map(|game| game.opening_index) {
        openings.of::<G>(Some(first))?;
    }

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
    let finished = done.len();
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
    let pool_size = config.concurrency.max(1);
    let decided = tally.decided();
    let writer = Writer {
        results: results_file,
        positions: config
            .positions
            .as_deref()
            .map(results::open_append)
            .transpose()?,
        progress,
        tally,
        finished,
        played: 0,
        total,
        error: None,
    };
    let shared = Arc::new(Shared::<G>::new(
        config.clone(),
        names.clone(),
        openings,
        seed,
        todo,
        writer,
    ));
    if decided {
        shared.stop_queue();
    }
    let (sender, receiver) = mpsc::channel::<Done>();
    let timer = match pool::start(&shared, pool_size, &sender) {
        Ok(timer) => timer,
        Err(e) => {
            // The threads that did start play no more.
            shared.stop_queue();
            return Err(anyhow::Error::new(e).context("starting the arena's threads"));
        }
    };
    drop(sender);
    let mut interrupted = false;
    let mut pool_done = 0;
    while pool_done < pool_size {
        match receiver.recv_timeout(Duration::from_millis(50)) {
            Ok(Done) => pool_done += 1,
            Err(RecvTimeoutError::Timeout) => {}
            // The timer holds a sender: not before it stops.
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if !interrupted && worker::interrupt_requested() {
            interrupted = true;
            shared.stop_queue();
            let writer = shared.writer.lock().ok();
            if let Some(writer) = writer.as_ref().and_then(|w| w.as_ref()) {
                let playing = shared
                    .started
                    .load(Ordering::SeqCst)
                    .saturating_sub(writer.played);
                writer.progress.note(&format!(
                    "Interrupted: finishing the {playing} game(s) being played, then the summary \
                     (Ctrl-C again to stop at once; --resume continues)"
                ));
            }
        }
    }
    pool::stop_timer(&shared, timer);
    let Writer {
        progress,
        tally,
        finished,
        error,
        ..
    } = shared
        .writer
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
        .expect("the writer is there until the pool is done");
    let written = error.map_or(Ok(()), Err);
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
    if let Some(e) = shared.opening_error.lock().ok().and_then(|mut e| e.take()) {
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
