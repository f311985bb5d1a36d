//! The `tavola` command: play board games against bots, in a window or in the terminal.
//!
//! Exit codes: 0 done (whatever the game's result), 1 an error (bad position, move or file),
//! 2 a bad command line, 3 a bot library that cannot be used (missing, not a bot, built against
//! another SDK, refusing the game).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context as _};
use clap::{Args, Parser, Subcommand, ValueEnum};
use tavola::arena::runner::{self, MatchConfig};
use tavola::builtin::Evaluate;
use tavola::gui::{self, GameKind, GuiOptions};
use tavola::referee::Settings;
use tavola::seat::plugin::{Library, LoadError};
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

#[derive(Debug, Parser)]
#[command(
    name = "tavola",
    version,
    about = "Play board games against AI bots, and compare bots head-to-head",
    after_help = "Players (--white, --black): human, builtin, random, or the path to a bot library \
                  (a cdylib built with tavola-sdk), optionally followed by :key=value,... options.\n\
                  Exit codes: 0 done, 1 error, 2 bad command line, 3 a bot library cannot be used."
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
    /// Count the leaf nodes of the move tree (tests and benchmarks move generation).
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth: total nodes (a signature of the search) and nodes
    /// per second, per game.
    Bench(BenchArgs),
    /// Be the built-in Ataxx bot as a UAI engine on stdin/stdout (for Ataxx GUIs and match
    /// runners; `x` moves first and uses btime).
    Uai,
    /// Load a bot library and show what it says about itself.
    Info {
        /// The bot library (`.so`, `.dylib` or `.dll`).
        library: PathBuf,
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
    /// The game.
    #[arg(long, short, value_enum)]
    game: GameName,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    variant: Option<String>,
    /// Player A: builtin, random, or the path to a bot library, with :key=value,... options.
    a: SeatSpec,
    /// Player B (see A).
    b: SeatSpec,
    /// Number of games, played as pairs from one opening with colours swapped.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Time control: BASE+INCREMENT in seconds, or BASE alone (0 for no clock).
    #[arg(long, default_value = "10+0.1", value_parser = time_control)]
    tc: (Duration, Duration),
    /// Games played at the same time (default: the cores less one, at least one).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Allow a concurrency above the number of cores.
    #[arg(long)]
    force_concurrency: bool,
    /// Seed of the openings and of every random choice (default: the resumed run's, or the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Each pair starts from N random legal plies (default 4 for Ataxx, 0 otherwise); 0 for the
    /// start position.
    #[arg(long, value_name = "N")]
    opening_plies: Option<u32>,
    /// Openings from a file: one position a line in the game's own text, each played twice with
    /// colours swapped, in order, cycling (instead of random openings).
    #[arg(long, value_name = "FILE", conflicts_with = "opening_plies")]
    openings: Option<PathBuf>,
    /// Adjudicate a draw after N plies.
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// Append one JSON line per finished game to this file, as each game ends.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Continue an interrupted run from its results file: finished games are not played again,
    /// and new ones are appended to it (unless --results names another file).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Append each game's record (PGN-style) to this file.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Write the final summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Stop when a sequential probability ratio test is decided: `elo0=X elo1=Y [alpha=0.05]
    /// [beta=0.05] [model=normalized|logistic]` (one quoted word, or words before the players).
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    sprt: Vec<String>,
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
        Err(e) => {
            eprintln!("tavola: {e:#}");
            if e.chain().any(|cause| cause.is::<LoadError>()) {
                ExitCode::from(EXIT_BOT)
            } else if e.chain().any(|cause| cause.is::<ParseSeatSpecError>()) {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::from(EXIT_ERROR)
            }
        }
    }
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
            let config = match_config(&args)?;
            with_game!(args.game, G => match_command::<G>(&config))
        }
        Some(Command::Perft(args)) => {
            with_game!(args.game, G => perft_command::<G>(&args))
        }
        Some(Command::Info { library }) => info(&library),
        Some(Command::Bench(args)) => bench_command(&args),
        Some(Command::Uai) => {
            tavola::uai::run(std::io::stdin().lock(), std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Worker {
            library,
            scratch,
            log_level,
        }) => std::process::exit(worker::serve::serve(
            &library,
            scratch.as_deref(),
            log_level,
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
    match text.split_once('+') {
        Some((base, increment)) => Ok((seconds(base)?, seconds(increment)?)),
        None => Ok((seconds(text)?, Duration::ZERO)),
    }
}

/// The match's configuration from the command line.
fn match_config(args: &MatchArgs) -> anyhow::Result<MatchConfig> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let concurrency = args.concurrency.unwrap_or(cores.saturating_sub(1)).max(1);
    if concurrency > cores && !args.force_concurrency {
        bail!(
            "--concurrency {concurrency} is more than the {cores} cores: the bots' clocks would be \
             unfair (--force-concurrency to do it anyway)"
        );
    }
    let (time, increment) = args.tc;
    Ok(MatchConfig {
        players: [args.a.clone(), args.b.clone()],
        variant: args.variant.clone(),
        settings: Settings {
            time: (!time.is_zero()).then_some(time),
            increment,
        },
        games: args.games,
        concurrency,
        seed: args.seed,
        opening_plies: args.opening_plies.unwrap_or(match args.game {
            GameName::Ataxx => 4,
            _ => 0,
        }),
        openings: args.openings.clone(),
        max_plies: args.max_plies,
        results: args.results.clone(),
        resume: args.resume.clone(),
        pgn: args.pgn.clone(),
        summary: args.summary.clone(),
        isolation: args.bots.isolation()?,
        sprt: if args.sprt.is_empty() {
            None
        } else {
            Some(runner::parse_sprt(&args.sprt).map_err(anyhow::Error::msg)?)
        },
    })
}

fn match_command<G: Evaluate>(config: &MatchConfig) -> anyhow::Result<ExitCode> {
    let summary = runner::run_match::<G>(config)?;
    println!("{summary}");
    if let Some(path) = &config.summary {
        let json = serde_json::to_string_pretty(&summary)?;
        std::fs::write(path, json + "\n")
            .with_context(|| format!("writing the summary to {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
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

fn info(path: &Path) -> anyhow::Result<ExitCode> {
    let library = Library::load(path)?;
    let info = library.info();
    println!("name:        {}", info.name);
    println!("version:     {}", info.version);
    println!("author:      {}", info.author);
    println!("description: {}", info.description);
    println!(
        "games:       {}",
        info.games
            .iter()
            .map(|g| g.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("built with:  tavola-sdk {}", info.sdk_version);
    println!("path:        {}", library.path().display());
    Ok(ExitCode::SUCCESS)
}
