//! The `tavola` command: play board games against bots, in a window or in the terminal.
//!
//! Exit codes: 0 done (whatever the game's result), 1 an error (bad position, move or file),
//! 2 a bad command line, 3 a bot library that cannot be used (missing, not a bot, built against
//! another SDK, refusing the game), 130 a match or tournament stopped by Ctrl-C (its finished games
//! and summary written).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context as _};
use clap::{Args, Parser, Subcommand, ValueEnum};
use tavola::arena::progress::ProgressMode;
use tavola::arena::resume::Defaulted;
use tavola::arena::runner::{self, ArenaConfig};
use tavola::arena::schedule::Format;
use tavola::builtin::Evaluate;
use tavola::gui::{self, GameKind, GuiOptions};
use tavola::referee::Settings;
use tavola::seat::plugin::LoadError;
use tavola::seat::worker::{self, WorkerOptions};
use tavola::seat::{ParseSeatSpecError, SeatKind, SeatSpec};
use tavola::text_ui::{self, GameSetup};
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{perft, Game, Position};

/// Exit code for an error of the user's input or the environment.
const EXIT_ERROR: u8 = 1;
/// Exit code for a bad command line (clap uses it too).
const EXIT_USAGE: u8 = 2;
/// Exit code for a bot library that cannot be used.
const EXIT_BOT: u8 = 3;
/// Exit code of a match or tournament stopped early by Ctrl-C (128 + SIGINT, as a shell reports a
/// process that SIGINT ended): the finished games and the summary are written.
const EXIT_INTERRUPTED: u8 = 130;

#[derive(Debug, Parser)]
#[command(
    name = "tavola",
    version,
    about = "Play board games against AI bots, and compare bots head-to-head",
    after_help = "Players (--white, --black): human, builtin, random, or the path to a bot library \
                  (a cdylib built with tavola-sdk), optionally followed by :key=value,... options.\n\
                  Exit codes: 0 done, 1 error, 2 bad command line, 3 a bot library cannot be used, \
                  130 a match or tournament stopped by Ctrl-C."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    window: WindowArgs,
}

/// `tavola` without a subcommand: the window. With a player flag it opens straight into the game,
/// else on the start screen.
#[derive(Debug, Args)]
struct WindowArgs {
    /// The game.
    #[arg(long, short, value_enum)]
    game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    variant: Option<String>,
    /// White's player (opens the game straight away; an omitted colour is the built-in bot).
    #[arg(long)]
    white: Option<SeatSpec>,
    /// Black's player (see --white).
    #[arg(long)]
    black: Option<SeatSpec>,
    /// Seconds per player for the whole game; 0 for no clock.
    #[arg(long = "time", short = 't', default_value = "300", value_name = "SECONDS", value_parser = seconds)]
    time: Duration,
    /// Seconds added to a player's clock after each of their moves.
    #[arg(long = "inc", default_value = "0", value_name = "SECONDS", value_parser = seconds)]
    increment: Duration,
    /// Start from this position (in the game's position text) instead of the start.
    #[arg(long)]
    position: Option<String>,
    /// Seed for every random choice.
    #[arg(long)]
    seed: Option<u64>,
    /// Close the window after this many frames and print frame-time statistics (tests).
    #[arg(long, hide = true)]
    frames: Option<u64>,
    /// Close the window after this many seconds, as --frames does (tests).
    #[arg(long, hide = true)]
    seconds: Option<f64>,
    /// With --frames or --seconds: save the last frame as a PNG (tests).
    #[arg(long, hide = true, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    #[command(flatten)]
    bots: BotArgs,
}

/// How plugins run: each in a worker process of its own (the default), with limits.
#[derive(Debug, Args)]
struct BotArgs {
    /// Run plugins inside this process instead of each in a worker process of its own (faster to
    /// start, and debuggable; but a crashing or hanging bot then takes the host down).
    #[arg(long)]
    in_process: bool,
    /// Address-space limit of each bot's worker process, in MiB; 0 for none.
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    bot_memory: u64,
    /// CPU-time limit of each bot's worker process, in seconds; 0 for none.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    bot_cpu: u64,
    /// Seconds a bot's worker process may take to load the library and create its player.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    bot_startup: Duration,
}

impl BotArgs {
    /// The worker options these flags ask for, `None` for in-process plugins.
    fn isolation(&self) -> anyhow::Result<Option<WorkerOptions>> {
        if self.in_process {
            return Ok(None);
        }
        let mut options = WorkerOptions::new().context("finding the tavola executable")?;
        options.memory = (self.bot_memory > 0).then_some(self.bot_memory << 20);
        options.cpu_seconds = (self.bot_cpu > 0).then_some(self.bot_cpu);
        options.startup_timeout = self.bot_startup;
        Ok(Some(options))
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play one game, printing the board after each move.
    Play(Box<PlayArgs>),
    /// Play a match between two bots: pairs of games from one opening with colours swapped, with
    /// statistics (Elo, nElo, LOS, pentanomial counts).
    Match(Box<MatchArgs>),
    /// Play a tournament between bots (round-robin or gauntlet), with a crosstable and a rating
    /// list fitted over all games.
    Tournament(Box<TournamentArgs>),
    /// Count the leaf nodes of the move tree (tests and benchmarks move generation).
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth: total nodes (a signature of the search) and nodes
    /// per second, per game.
    Bench(BenchArgs),
    /// Be the built-in Ataxx bot as a UAI engine on stdin/stdout (for Ataxx GUIs and match
    /// runners; `x` moves first and uses btime).
    Uai,
    /// Show what a bot library says about itself (asked of a worker process, so that none of its
    /// code runs in this one unless --in-process).
    Info {
        /// The bot library (`.so`, `.dylib` or `.dll`).
        library: PathBuf,
        #[command(flatten)]
        bots: BotArgs,
    },
    /// Serve one bot library to a host over pipes (started by the host itself).
    #[command(hide = true)]
    Worker {
        /// The bot library.
        library: PathBuf,
        /// The folder the bot works in, and the only one it may write to.
        #[arg(long)]
        scratch: Option<PathBuf>,
        /// The most verbose log level the host wants: 0 off, 1 error .. 5 trace.
        #[arg(long, default_value_t = 2)]
        log_level: u8,
        /// Sandbox layers to leave out, comma-separated (the host's TAVOLA_SANDBOX_WITHOUT).
        #[arg(long, default_value = "")]
        sandbox_without: String,
    },
}

/// The games Tavola plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GameName {
    /// Ataxx, 7x7 (variants: standard, attax).
    Ataxx,
    /// Tablut, Ashton rules, 9x9 (variant: ashton).
    Tablut,
    /// Gonnect, Go meets Hex, 13x13 (variant: standard).
    Gonnect,
    /// Dama, Italian draughts, 8x8 (variants: fid, school).
    Dama,
}

/// Calls `$body` with the type alias `$g` naming the game `$name`.
macro_rules! with_game {
    ($name:expr, $g:ident => $body:expr) => {
        match $name {
            GameName::Ataxx => {
                type $g = Ataxx;
                $body
            }
            GameName::Tablut => {
                type $g = Tablut;
                $body
            }
            GameName::Gonnect => {
                type $g = Gonnect;
                $body
            }
            GameName::Dama => {
                type $g = Dama;
                $body
            }
        }
    };
}

#[derive(Debug, Args)]
struct PlayArgs {
    /// Play in the terminal, without a window (else the window opens on this game).
    #[arg(long)]
    headless: bool,
    /// The game (with --load, the recorded game's; else ataxx).
    #[arg(long, short, value_enum)]
    game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    variant: Option<String>,
    /// White's player (Ataxx: `x`, moves first).
    #[arg(long, default_value = "builtin")]
    white: SeatSpec,
    /// Black's player (Ataxx: `o`).
    #[arg(long, default_value = "builtin")]
    black: SeatSpec,
    /// Seconds per player for the whole game; 0 for no clock.
    #[arg(long = "time", short = 't', default_value = "120", value_name = "SECONDS", value_parser = seconds)]
    time: Duration,
    /// Seconds added to a player's clock after each of their moves.
    #[arg(long = "inc", default_value = "0", value_name = "SECONDS", value_parser = seconds)]
    increment: Duration,
    /// Start from this position (in the game's position text) instead of the start.
    #[arg(long, conflicts_with = "load")]
    position: Option<String>,
    /// Continue the last game recorded in this file (its game, variant, start and moves).
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Append the game's record (PGN-style) to this file when it ends (terminal play).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Seed for every random choice (random players, tie-breaks); printed, so a game can be replayed.
    #[arg(long)]
    seed: Option<u64>,
    /// Print only the players and the result, not the board after each move.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    bots: BotArgs,
}

#[derive(Debug, Args)]
struct MatchArgs {
    /// The game [default with --resume: the resumed run's].
    #[arg(long, short, value_enum, required_unless_present = "resume")]
    game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    variant: Option<String>,
    /// Player A: builtin, random, or the path to a bot library, with :key=value,... options
    /// [default with --resume: the resumed run's players].
    #[arg(required_unless_present = "resume", requires = "b")]
    a: Option<SeatSpec>,
    /// Player B (see A).
    b: Option<SeatSpec>,
    /// Stop when a sequential probability ratio test is decided: `elo0=X elo1=Y [alpha=0.05]
    /// [beta=0.05] [model=normalized|logistic]` (one quoted word, or words before the players).
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    #[command(flatten)]
    arena: ArenaArgs,
}

#[derive(Debug, Args)]
struct TournamentArgs {
    /// The game [default with --resume: the resumed run's].
    #[arg(long, short, value_enum, required_unless_present = "resume")]
    game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    variant: Option<String>,
    /// The players (two or more): builtin, random, or paths to bot libraries, each with
    /// :key=value,... options [default with --resume: the resumed run's].
    #[arg(required_unless_present = "resume", num_args = 2.., value_name = "PLAYER")]
    players: Vec<SeatSpec>,
    /// Who meets whom: each player every other (round-robin), or the first player each of the
    /// others (gauntlet).
    /// [default: round-robin; a resumed run's own]
    #[arg(long, value_enum)]
    format: Option<FormatName>,
    #[command(flatten)]
    arena: ArenaArgs,
}

/// Tournament formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatName {
    /// Every player meets every other.
    RoundRobin,
    /// The first player meets each of the others.
    Gauntlet,
}

/// What matches and tournaments share.
#[derive(Debug, Args)]
struct ArenaArgs {
    /// Games of each encounter (a match: the number of games), played as pairs from one opening
    /// with colours swapped [default: 100; a resumed run's own].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: Option<u32>,
    /// Time control: BASE+INCREMENT in seconds, or BASE alone (0 for no clock) [default: 10+0.1;
    /// a resumed run's own].
    #[arg(long, value_parser = time_control)]
    tc: Option<(Duration, Duration)>,
    /// A fixed time per move in milliseconds, instead of --tc: each bot is told it with every
    /// request, and loses on time if it takes longer.
    #[arg(long, value_name = "MS", conflicts_with = "tc", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// How far past its clock or time per move a bot may go before it loses on time, in
    /// milliseconds (as fastchess's timemargin) [default: 10; a resumed run's own]. The time
    /// counted is the bot's own: not what a busy machine or the host took.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    timemargin: Option<u64>,
    /// Games played at the same time (default: the cores less one, at least one).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    concurrency: Option<usize>,
    /// Allow a concurrency above the number of cores.
    #[arg(long)]
    force_concurrency: bool,
    /// Seed of the openings and of every random choice (default: the resumed run's, or the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Each pair starts from N random legal plies (default 4 for Ataxx, 0 otherwise): of four
    /// random lines, the most even by a short built-in search; 0 for the start position.
    #[arg(long, value_name = "N")]
    opening_plies: Option<u32>,
    /// Openings from a file: one position a line in the game's own text, each played twice with
    /// colours swapped, in order, cycling (instead of random openings).
    #[arg(long, value_name = "FILE", conflicts_with = "opening_plies")]
    openings: Option<PathBuf>,
    /// Adjudicate a draw after N plies.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_plies: Option<usize>,
    /// Append one JSON line per finished game to this file, as each game ends (default: a new
    /// file in tavola-runs/, named after the run and the time).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Continue an interrupted run from its results file: finished games are not played again,
    /// and new ones are appended to it (unless --results names another file).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Append each game's record (PGN-style) to this file (default: the results file's name
    /// with .pgn).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Write the final summary as JSON to this file (default: the results file's name with
    /// .summary.json).
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    #[command(flatten)]
    bots: BotArgs,
}

#[derive(Debug, Args)]
struct PerftArgs {
    /// The game.
    #[arg(long, short, value_enum, default_value = "ataxx")]
    game: GameName,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    variant: Option<String>,
    /// The position to count from (the start if omitted).
    #[arg(long)]
    position: Option<String>,
    /// Moves to play from the position first, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Print each legal move with its count, then the total.
    #[arg(long)]
    divide: bool,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    // A worker sends its log records to the host over the protocol instead.
    if !matches!(cli.command, Some(Command::Worker { .. })) {
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
            .format_timestamp(None)
            .init();
    }
    match run(cli) {
        Ok(code) => code,
        Err(e) if closed_stdout(&e) => ExitCode::from(BROKEN_PIPE),
        Err(e) => {
            eprintln!("tavola: {e:#}");
            if e.chain().any(|cause| cause.is::<LoadError>()) {
                ExitCode::from(EXIT_BOT)
            } else if e
                .chain()
                .any(|cause| cause.is::<ParseSeatSpecError>() || cause.is::<UsageError>())
            {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::from(EXIT_ERROR)
            }
        }
    }
}

/// A bad command line found after clap's parsing (exit code 2, as clap's own).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct UsageError(String);

/// The exit status of a process killed by SIGPIPE, as shells report it.
const BROKEN_PIPE: u8 = 128 + 13;

/// Whether `error` is the reader of our output having gone (`tavola ... | head`): the bots'
/// pipes are the seats' business and never reach `main`.
fn closed_stdout(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `tavola play --headless ... | head` closes the pipe early: end quietly then, as other
/// command-line tools do, instead of a panic message. (SIGPIPE itself stays ignored, so that
/// writing to a bot's worker that died is an error, not the host's death.)
fn quiet_on_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout")
            && message.to_lowercase().contains("broken pipe")
        {
            std::process::exit(i32::from(BROKEN_PIPE));
        }
        default_hook(info);
    }));
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => window(cli.window),
        Some(Command::Play(args)) => {
            let resume = args
                .load
                .as_deref()
                .map(tavola::record::last_in_file)
                .transpose()?;
            let game = match (args.game, &resume) {
                (Some(game), _) => game,
                (None, Some(record)) => {
                    let name = record.tag("Game").unwrap_or_default();
                    GameName::from_str(name, true).map_err(|_| {
                        anyhow::anyhow!("the recorded game {name:?} is not one Tavola plays")
                    })?
                }
                (None, None) => GameName::Ataxx,
            };
            let setup = GameSetup {
                resume,
                record_path: args.record.clone(),
                ..game_setup(
                    args.variant.clone(),
                    args.position.clone(),
                    [args.white.clone(), args.black.clone()],
                    (args.time, args.increment),
                    args.seed,
                    &args.bots,
                )?
            };
            if args.headless {
                with_game!(game, G => play::<G>(&setup, args.quiet))
            } else {
                gui::run(GuiOptions {
                    game: Some((window_game(game), setup)),
                    ..GuiOptions::default()
                })
            }
        }
        Some(Command::Match(args)) => {
            let sprt = (!args.sprt.is_empty())
                .then(|| runner::parse_sprt(&args.sprt))
                .transpose()
                .map_err(|message| anyhow::Error::new(UsageError(message)))?;
            let given: Vec<SeatSpec> = args.a.iter().chain(&args.b).cloned().collect();
            let (game, variant, players) =
                resumed_or_given(&args.arena, "match", args.game, &args.variant, given)?;
            let mut config = arena_config(&args.arena, "match", game, variant, players)?;
            config.sprt = sprt;
            with_game!(game, G => arena_command::<G>(&config))
        }
        Some(Command::Tournament(args)) => {
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
        Some(Command::Perft(args)) => {
            with_game!(args.game, G => perft_command::<G>(&args))
        }
        Some(Command::Info { library, bots }) => info(&library, &bots),
        Some(Command::Bench(args)) => bench_command(&args),
        Some(Command::Uai) => {
            tavola::uai::run(std::io::stdin().lock(), std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Worker {
            library,
            scratch,
            log_level,
            sandbox_without,
        }) => std::process::exit(worker::serve::serve(
            &library,
            scratch.as_deref(),
            log_level,
            &sandbox_without,
        )),
    }
}

/// Parses a number of seconds for clap (so a bad value is a usage error, exit code 2): from 0 to
/// a year.
fn seconds(text: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|value| *value <= YEAR)
        .and_then(|value| Duration::try_from_secs_f64(value).ok())
        .ok_or_else(|| format!("expected a number of seconds from 0 to {YEAR} (got {text:?})"))
}

/// Parses a time control for clap: `BASE+INCREMENT` or `BASE`, in seconds.
fn time_control(text: &str) -> Result<(Duration, Duration), String> {
    let (base, increment) = match text.split_once('+') {
        Some((base, increment)) => (seconds(base)?, seconds(increment)?),
        None => (seconds(text)?, Duration::ZERO),
    };
    if base.is_zero() && !increment.is_zero() {
        return Err(format!(
            "an increment needs a base time ({text:?}: 0 is no clock at all; give BASE+INC)"
        ));
    }
    Ok((base, increment))
}

/// The configuration of a match or tournament from the command line (a round robin, no SPRT).
/// The results, records and summary files of a run: as the command line says, else beside the
/// results file (`R.pgn`, `R.summary.json`), the results file being the resumed one or a new one
/// in `tavola-runs/` (so that every run can be resumed and nothing finished is lost).
fn output_files(
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
fn beside(results: &Path, extension: &str) -> PathBuf {
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
fn same_file(a: &Path, b: &Path) -> bool {
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
fn new_run_file(folder: &Path, kind: &str, game: &str) -> anyhow::Result<PathBuf> {
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
fn utc_stamp(time: std::time::SystemTime) -> String {
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
fn resumed_or_given(
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

fn arena_config(
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
        progress: ProgressMode::Auto,
        defaulted: Defaulted {
            games: args.games.is_none(),
            time_control: args.tc.is_none() && args.movetime.is_none(),
            openings: args.opening_plies.is_none() && args.openings.is_none(),
            max_plies: args.max_plies.is_none(),
            // A match is always a round robin; a tournament says below.
            format: false,
            margin: args.timemargin.is_none(),
        },
    })
}

/// Runs a match or tournament and prints its summary; exit code 130 when Ctrl-C stopped it early.
fn arena_command<G: Evaluate>(config: &ArenaConfig) -> anyhow::Result<ExitCode> {
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

/// The setup of one game from the command line's values.
fn game_setup(
    variant: Option<String>,
    position: Option<String>,
    players: [SeatSpec; 2],
    (time, increment): (Duration, Duration),
    seed: Option<u64>,
    bots: &BotArgs,
) -> anyhow::Result<GameSetup> {
    let seed = seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    Ok(GameSetup {
        variant,
        position,
        resume: None,
        record_path: None,
        players,
        settings: Settings {
            time: (!time.is_zero()).then_some(time),
            increment,
            movetime: None,
            margin: tavola::referee::DEFAULT_MARGIN,
        },
        seed,
        isolation: bots.isolation()?,
    })
}

/// The window's board for `game` (every game has one).
fn window_game(game: GameName) -> GameKind {
    match game {
        GameName::Ataxx => GameKind::Ataxx,
        GameName::Tablut => GameKind::Tablut,
        GameName::Gonnect => GameKind::Gonnect,
        GameName::Dama => GameKind::Dama,
    }
}

/// `tavola [--game G --white P --black P ...]`: the window.
fn window(args: WindowArgs) -> anyhow::Result<ExitCode> {
    let straight = args.white.is_some() || args.black.is_some();
    let default = |kind| SeatSpec {
        kind,
        options: Vec::new(),
    };
    // Straight into the game, an omitted colour the built-in bot; else the start screen, with
    // the game, variant and clock given, you against the built-in bot.
    let players = if straight {
        [
            args.white
                .clone()
                .unwrap_or_else(|| default(SeatKind::Builtin)),
            args.black
                .clone()
                .unwrap_or_else(|| default(SeatKind::Builtin)),
        ]
    } else {
        [default(SeatKind::Human), default(SeatKind::Builtin)]
    };
    let setup = game_setup(
        args.variant.clone(),
        args.position.clone(),
        players,
        (args.time, args.increment),
        args.seed,
        &args.bots,
    )?;
    let chosen = (window_game(args.game.unwrap_or(GameName::Ataxx)), setup);
    let (game, menu) = if straight {
        (Some(chosen), None)
    } else {
        (None, Some(chosen))
    };
    if args.screenshot.is_some() && args.frames.is_none() && args.seconds.is_none() {
        bail!("--screenshot needs --frames N or --seconds S");
    }
    gui::run(GuiOptions {
        game,
        menu,
        frames: args.frames,
        seconds: args.seconds,
        screenshot: args.screenshot,
    })
}

fn play<G: Evaluate>(setup: &GameSetup, quiet: bool) -> anyhow::Result<ExitCode> {
    text_ui::play::<G>(setup, quiet)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// One game (all four if omitted).
    #[arg(long, short, value_enum)]
    game: Option<GameName>,
    /// The depth (each game's default if omitted: ataxx 7, tablut 7, gonnect 4, dama 15).
    #[arg(long, short)]
    depth: Option<u32>,
    /// The transposition table per position, in megabytes.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

fn bench_command(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let game = args.game.map(|g| match g {
        GameName::Ataxx => Ataxx::NAME,
        GameName::Tablut => Tablut::NAME,
        GameName::Gonnect => Gonnect::NAME,
        GameName::Dama => Dama::NAME,
    });
    let results = tavola::builtin::bench::bench(game, args.depth, args.hash.clamp(1, 4096))
        .map_err(anyhow::Error::msg)?;
    // A closed pipe (`| head`) is not an error worth a panic.
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let (mut nodes, mut micros) = (0u64, 0u128);
    for r in &results {
        let _ = writeln!(
            out,
            "{:<8} depth {:>2}  positions {}  nodes {:>11}  time {:>7.3} s  nps {:>9}",
            r.game,
            r.depth,
            r.positions,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nps()
        );
        nodes += r.nodes;
        micros += r.elapsed.as_micros();
    }
    let nps = u128::from(nodes) * 1_000_000 / micros.max(1);
    let _ = writeln!(out, "total nodes {nodes}  nps {nps}");
    Ok(ExitCode::SUCCESS)
}

fn perft_command<G: Game>(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let mut position = match &args.position {
        Some(text) => G::parse_position(text, args.variant.as_deref())?,
        None => G::start(args.variant.as_deref())?,
    };
    for text in args.moves.iter().flat_map(|m| m.split_whitespace()) {
        let mv = position
            .parse_move(text)
            .with_context(|| format!("--moves: cannot play {text:?}"))?;
        position.play_unchecked(mv);
    }
    let started = std::time::Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, count) in perft::divide(&position, args.depth) {
            println!("{mv}: {count}");
            total += count;
        }
        println!("\nNodes: {total}");
        total
    } else {
        let nodes = position.perft(args.depth);
        println!("{nodes}");
        nodes
    };
    let elapsed = started.elapsed().as_secs_f64();
    log::info!(
        "perft {} in {elapsed:.3} s ({:.0} nodes/s)",
        args.depth,
        nodes as f64 / elapsed.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

/// `tavola info LIB`: what the library says about itself, asked of a worker process (loaded in
/// this one only with `--in-process`).
fn info(path: &Path, bots: &BotArgs) -> anyhow::Result<ExitCode> {
    let isolation = bots.isolation()?;
    let bot = worker::describe(path, isolation.as_ref())?;
    println!("name:        {}", bot.name);
    println!("version:     {}", bot.version);
    println!("author:      {}", bot.author);
    println!("description: {}", bot.description);
    println!("games:       {}", bot.games.join(", "));
    println!("built with:  tavola-sdk {}", bot.sdk_version);
    println!("path:        {}", bot.path.display());
    Ok(ExitCode::SUCCESS)
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
