//! `tavola match` and `tavola tournament`: their flags, their files, and the run.

use super::play::window_game;
use super::*;

#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// The game [default with --resume: the resumed run's].
    #[arg(long, short, value_enum, required_unless_present = "resume")]
    pub(crate) game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// Player A: builtin, random, or the path to a bot library, with :key=value,... options
    /// [default with --resume: the resumed run's players].
    #[arg(required_unless_present = "resume", requires = "b")]
    pub(crate) a: Option<SeatSpec>,
    /// Player B (see A).
    pub(crate) b: Option<SeatSpec>,
    /// Stop when a sequential probability ratio test is decided: `elo0=X elo1=Y [alpha=0.05]
    /// [beta=0.05] [model=normalized|logistic]` (one quoted word, or words before the players)
    /// [default with --resume: the resumed run's test, if it had one].
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    pub(crate) sprt: Vec<String>,
    #[command(flatten)]
    pub(crate) arena: ArenaArgs,
}

#[derive(Debug, Args)]
pub(crate) struct TournamentArgs {
    /// The game [default with --resume: the resumed run's].
    #[arg(long, short, value_enum, required_unless_present = "resume")]
    pub(crate) game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// The players (two or more): builtin, random, or paths to bot libraries, each with
    /// :key=value,... options [default with --resume: the resumed run's].
    #[arg(required_unless_present = "resume", num_args = 2.., value_name = "PLAYER")]
    pub(crate) players: Vec<SeatSpec>,
    /// Who meets whom: each player every other (round-robin), or the first player each of the
    /// others (gauntlet).
    /// [default: round-robin; a resumed run's own]
    #[arg(long, value_enum)]
    pub(crate) format: Option<FormatName>,
    #[command(flatten)]
    pub(crate) arena: ArenaArgs,
}

/// Tournament formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatName {
    /// Every player meets every other.
    RoundRobin,
    /// The first player meets each of the others.
    Gauntlet,
}

/// What matches and tournaments share.
#[derive(Debug, Args)]
pub(crate) struct ArenaArgs {
    /// Games of each encounter (a match: the number of games), played as pairs from one opening
    /// with colours swapped [default: 100; a resumed run's own].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) games: Option<u32>,
    /// Time control: BASE+INCREMENT in seconds, or BASE alone (0 for no clock) [default: 10+0.1;
    /// a resumed run's own].
    #[arg(long, value_parser = time_control)]
    pub(crate) tc: Option<(Duration, Duration)>,
    /// A fixed time per move in milliseconds, instead of --tc: each bot is told it with every
    /// request, and loses on time if it takes longer.
    #[arg(long, value_name = "MS", conflicts_with = "tc", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub(crate) movetime: Option<u64>,
    /// How far past its clock or time per move a bot may go before it loses on time, in
    /// milliseconds (as fastchess's timemargin) [default: 25; a resumed run's own]. The time
    /// counted is the bot's own: not what a busy machine or the host took.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub(crate) timemargin: Option<u64>,
    /// Games played at the same time [default: the cores less one, at least one; with --resume,
    /// the resumed run's, at most the cores].
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub(crate) concurrency: Option<usize>,
    /// Allow a concurrency above the number of cores.
    #[arg(long)]
    pub(crate) force_concurrency: bool,
    /// Pin each game, its thread and its players' processes, to one CPU (round the CPUs this
    /// process may use, as fastchess's -use-affinity): faster hand-offs between the host and
    /// isolated or outside players; a multi-threaded bot gets one CPU.
    #[arg(long)]
    pub(crate) affinity: bool,
    /// Seed of the openings and of every random choice (default: the resumed run's, or the clock).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Each pair starts from N random legal plies (default 4 for Ataxx, 0 otherwise): of four
    /// random lines, the most even by a short built-in search; 0 for the start position.
    #[arg(long, value_name = "N")]
    pub(crate) opening_plies: Option<u32>,
    /// Openings from a file: one position a line in the game's own text, each played twice with
    /// colours swapped, in order, cycling (instead of random openings).
    #[arg(long, value_name = "FILE", conflicts_with = "opening_plies")]
    pub(crate) openings: Option<PathBuf>,
    /// Adjudicate a draw after N plies.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub(crate) max_plies: Option<usize>,
    /// Append one JSON line per finished game to this file, as each game ends (default: a new
    /// file in tavola-runs/, named after the run and the time).
    #[arg(long, value_name = "FILE")]
    pub(crate) results: Option<PathBuf>,
    /// Continue an interrupted run from its results file: finished games are not played again,
    /// and new ones are appended to it (unless --results names another file).
    #[arg(long, value_name = "FILE")]
    pub(crate) resume: Option<PathBuf>,
    /// Append each game's record (PGN-style) to this file (default: the results file's name
    /// with .pgn).
    #[arg(long, value_name = "FILE")]
    pub(crate) pgn: Option<PathBuf>,
    /// Write the final summary as JSON to this file (default: the results file's name with
    /// .summary.json).
    #[arg(long, value_name = "FILE")]
    pub(crate) summary: Option<PathBuf>,
    /// Append training positions to this file: for each game that ended by the rules, a line
    /// `POSITION | SCORE | RESULT` per position whose mover reported a score (the score in
    /// hundredths from the side to move's view, the result for it: 1, 0.5 or 0)
    #[arg(long, value_name = "FILE")]
    pub(crate) positions: Option<PathBuf>,
    /// Play only the K-th of N slices of the run (whole pairs, the same openings and seeds as
    /// the whole run gives them; needs --seed); `tavola merge` puts the N results files together.
    #[arg(long, value_name = "K/N", value_parser = tavola::arena::resume::parse_shard)]
    pub(crate) shard: Option<(u32, u32)>,
    #[command(flatten)]
    pub(crate) bots: BotArgs,
}

/// The configuration of a match or tournament from the command line (a round robin, no SPRT).
/// The results, records and summary files of a run: as the command line says, else beside the
/// results file (`R.pgn`, `R.summary.json`), the results file being the resumed one or a new one
/// in `tavola-runs/` (so that every run can be resumed and nothing finished is lost).
pub(crate) fn output_files(
    args: &ArenaArgs,
    kind: &str,
    game: GameName,
) -> anyhow::Result<(PathBuf, PathBuf, PathBuf)> {
    let results = match (&args.results, &args.resume) {
        (Some(path), _) | (None, Some(path)) => path.clone(),
        (None, None) => new_run_file(Path::new("tavola-runs"), kind, window_game(game).name())?,
    };
    let pgn = args.pgn.clone().unwrap_or_else(|| beside(&results, "pgn"));
    let summary = args
        .summary
        .clone()
        .unwrap_or_else(|| beside(&results, "summary.json"));
    let files = [
        ("results", &results),
        ("records (--pgn)", &pgn),
        ("summary", &summary),
    ];
    for (i, (first, a)) in files.iter().enumerate() {
        for (second, b) in &files[i + 1..] {
            if same_file(a, b) {
                bail!(
                    "the {first} and the {second} would be the same file, {}: give each its own",
                    b.display()
                );
            }
        }
    }
    Ok((results, pgn, summary))
}

/// The file beside `results` with the extension `extension`: `R.jsonl` (or `R.json`) gives
/// `R.EXTENSION`; any other name gets `.EXTENSION` appended (`games.pgn` → `games.pgn.pgn`), so
/// that the derived file is never the results file itself.
pub(crate) fn beside(results: &Path, extension: &str) -> PathBuf {
    match results.extension().and_then(|e| e.to_str()) {
        Some("jsonl" | "json") => results.with_extension(extension),
        _ => {
            let mut name = results.as_os_str().to_os_string();
            name.push(".");
            name.push(extension);
            PathBuf::from(name)
        }
    }
}

/// Whether `a` and `b` name the same file, existing or not: their folders canonicalised (when
/// they exist), then their names compared.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    let resolve = |path: &Path| {
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let folder = folder
            .canonicalize()
            .unwrap_or_else(|_| folder.to_path_buf());
        folder.join(path.file_name().unwrap_or_default())
    };
    resolve(a) == resolve(b)
}

/// A results file of its own in `folder` (the folder created if need be, the file by the run once
/// everything is checked, so that a refused run leaves no empty file behind):
/// `KIND-GAME-YYYYMMDD-HHMMSS.jsonl`, in UTC, with `-2`, `-3`, ... when runs start in the same
/// second.
pub(crate) fn new_run_file(folder: &Path, kind: &str, game: &str) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(folder).with_context(|| {
        format!(
            "creating the folder {} for the run's files",
            folder.display()
        )
    })?;
    let stamp = utc_stamp(std::time::SystemTime::now());
    for n in 1u32.. {
        let suffix = if n == 1 {
            String::new()
        } else {
            format!("-{n}")
        };
        let path = folder.join(format!("{kind}-{game}-{stamp}{suffix}.jsonl"));
        if !path.exists() {
            return Ok(path);
        }
    }
    unreachable!("a free file name exists")
}

/// `time` as `YYYYMMDD-HHMMSS` in UTC.
pub(crate) fn utc_stamp(time: std::time::SystemTime) -> String {
    let seconds = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm), in unsigned steps.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The game, variant and players of a match or tournament (`kind`): those given, or where
/// `--resume` is given without them, the resumed run's (from its results file's settings line).
pub(crate) fn resumed_or_given(
    args: &ArenaArgs,
    kind: &str,
    game: Option<GameName>,
    variant: &Option<String>,
    players: Vec<SeatSpec>,
) -> anyhow::Result<(GameName, Option<String>, Vec<SeatSpec>)> {
    if let (Some(game), false) = (game, players.is_empty()) {
        return Ok((game, variant.clone(), players));
    }
    // Clap asks for the game and players unless --resume is given.
    let path = args.resume.as_deref().context("no game or players given")?;
    let stored = tavola::arena::results::read_settings(path)?.with_context(|| {
        format!(
            "{} does not say which game and players it was (a file of an older version): give \
             --game and the players as they were",
            path.display()
        )
    })?;
    if kind == "match" && stored.players.len() != 2 {
        bail!(
            "{} is a tournament's run ({} players): continue it with `tavola tournament --resume`",
            path.display(),
            stored.players.len()
        );
    }
    let game = match game {
        Some(game) => game,
        None => GameName::from_str(&stored.game, true).map_err(|_| {
            anyhow::anyhow!(
                "{}: the recorded game {:?} is not one Tavola plays",
                path.display(),
                stored.game
            )
        })?,
    };
    let players = if players.is_empty() {
        stored
            .players
            .iter()
            .map(|spec| {
                spec.parse().map_err(|e: ParseSeatSpecError| {
                    anyhow::anyhow!("{}: the recorded player {spec:?}: {e}", path.display())
                })
            })
            .collect::<anyhow::Result<_>>()?
    } else {
        players
    };
    Ok((game, variant.clone().or(Some(stored.variant)), players))
}

pub(crate) fn arena_config(
    args: &ArenaArgs,
    kind: &str,
    game: GameName,
    variant: Option<String>,
    players: Vec<SeatSpec>,
) -> anyhow::Result<ArenaConfig> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let concurrency = args.concurrency.unwrap_or(cores.saturating_sub(1)).max(1);
    if concurrency > cores && !args.force_concurrency {
        bail!(
            "--concurrency {concurrency} is more than the {cores} cores: the bots' clocks would be \
             unfair (--force-concurrency to do it anyway)"
        );
    }
    let (results, pgn, summary) = output_files(args, kind, game)?;
    let (time, increment) = args
        .tc
        .unwrap_or((Duration::from_secs(10), Duration::from_millis(100)));
    let margin = args
        .timemargin
        .map_or(tavola::referee::DEFAULT_MARGIN, Duration::from_millis);
    let settings = match args.movetime {
        Some(ms) => Settings {
            time: None,
            increment: Duration::ZERO,
            movetime: Some(Duration::from_millis(ms)),
            margin,
        },
        None => Settings {
            time: (!time.is_zero()).then_some(time),
            increment,
            movetime: None,
            margin,
        },
    };
    Ok(ArenaConfig {
        players,
        format: Format::RoundRobin,
        variant,
        settings,
        games: args.games.unwrap_or(100),
        concurrency,
        seed: args.seed,
        opening_plies: args.opening_plies.unwrap_or(match game {
            GameName::Ataxx => 4,
            _ => 0,
        }),
        openings: args.openings.clone(),
        max_plies: args.max_plies,
        results: Some(results),
        resume: args.resume.clone(),
        pgn: Some(pgn),
        summary: Some(summary),
        isolation: args.bots.isolation()?,
        sprt: None,
        positions: args.positions.clone(),
        progress: ProgressMode::Auto,
        defaulted: Defaulted {
            games: args.games.is_none(),
            time_control: args.tc.is_none() && args.movetime.is_none(),
            openings: args.opening_plies.is_none() && args.openings.is_none(),
            max_plies: args.max_plies.is_none(),
            // A match is always a round robin; a tournament says below.
            format: false,
            margin: args.timemargin.is_none(),
            // A match says below.
            sprt: true,
            concurrency: args.concurrency.is_none(),
        },
        shard: args.shard,
        affinity: args.affinity,
    })
}

/// Runs a match or tournament and prints its summary; exit code 130 when Ctrl-C stopped it early.
pub(crate) fn arena_command<G: Evaluate>(config: &ArenaConfig) -> anyhow::Result<ExitCode> {
    let show = |path: &Option<PathBuf>| {
        path.as_deref()
            .map_or_else(String::new, |p| p.display().to_string())
    };
    let results = show(&config.results);
    let summary = runner::run::<G>(config)?;
    println!("{summary}");
    println!(
        "Files: results {results}, records {}, summary {}",
        show(&config.pgn),
        show(&config.summary)
    );
    Ok(if summary.interrupted {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

/// `tavola match`.
pub(crate) fn run_match(args: &MatchArgs) -> anyhow::Result<ExitCode> {
    let sprt = (!args.sprt.is_empty())
        .then(|| runner::parse_sprt(&args.sprt))
        .transpose()
        .map_err(|message| anyhow::Error::new(UsageError(message)))?;
    let given: Vec<SeatSpec> = args.a.iter().chain(&args.b).cloned().collect();
    let (game, variant, players) =
        resumed_or_given(&args.arena, "match", args.game, &args.variant, given)?;
    let mut config = arena_config(&args.arena, "match", game, variant, players)?;
    config.defaulted.sprt = sprt.is_none();
    config.sprt = sprt;
    with_game!(game, G => arena_command::<G>(&config))
}

/// `tavola tournament`.
pub(crate) fn run_tournament(args: &TournamentArgs) -> anyhow::Result<ExitCode> {
    let (game, variant, players) = resumed_or_given(
        &args.arena,
        "tournament",
        args.game,
        &args.variant,
        args.players.clone(),
    )?;
    let mut config = arena_config(&args.arena, "tournament", game, variant, players)?;
    config.defaulted.format = args.format.is_none();
    config.format = match args.format {
        Some(FormatName::RoundRobin) | None => Format::RoundRobin,
        Some(FormatName::Gauntlet) => Format::Gauntlet,
    };
    with_game!(game, G => arena_command::<G>(&config))
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::{Duration, UNIX_EPOCH};

    use super::{beside, same_file};

    #[test]
    fn the_records_and_summary_are_named_after_the_results() {
        let names = |results: &str| {
            (
                beside(Path::new(results), "pgn"),
                beside(Path::new(results), "summary.json"),
            )
        };
        assert_eq!(
            names("runs/r.jsonl"),
            ("runs/r.pgn".into(), "runs/r.summary.json".into())
        );
        assert_eq!(
            names("games.pgn"),
            ("games.pgn.pgn".into(), "games.pgn.summary.json".into())
        );
        assert_eq!(
            names("results"),
            ("results.pgn".into(), "results.summary.json".into())
        );
        assert!(same_file(Path::new("a.pgn"), Path::new("./a.pgn")));
        assert!(same_file(Path::new("/tmp/../tmp/a"), Path::new("/tmp/a")));
        assert!(!same_file(Path::new("a.pgn"), Path::new("a.jsonl")));
    }

    #[test]
    fn run_files_are_stamped_with_the_utc_date_and_time() {
        let at = |seconds| super::utc_stamp(UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "19700101-000000");
        assert_eq!(at(951_782_400 + 3723), "20000229-010203");
        assert_eq!(at(1_796_006_611), "20261130-024331");
        assert_eq!(at(4_102_444_799), "20991231-235959");
    }
}
