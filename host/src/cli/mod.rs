//! The command line: clap's definitions of the flags every subcommand shares, and the
//! dispatch to one module per subcommand (as ripgrep keeps its flags apart from its search).

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
use tavola_sdk::{Game, Position};

/// Exit code for an error of the user's input or the environment.
pub(crate) const EXIT_ERROR: u8 = 1;

/// Exit code for a bad command line (clap uses it too).
pub(crate) const EXIT_USAGE: u8 = 2;

/// Exit code for a bot library that cannot be used.
pub(crate) const EXIT_BOT: u8 = 3;

/// Exit code of a match or tournament stopped early by Ctrl-C (128 + SIGINT, as a shell reports a
/// process that SIGINT ended): the finished games and the summary are written.
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

#[derive(Debug, Parser)]
#[command(
    name = "tavola",
    version,
    about = "Play board games against AI bots, and compare bots head-to-head",
    after_help = "Players (--white, --black): human, builtin, random, the path to a bot library \
                  (a cdylib built with tavola-sdk), or an outside program (ugi:COMMAND, uai:COMMAND, \
                  challenge:COMMAND), optionally followed by :key=value,... options. Attax's \
                  -hw | -w FILE, -hb | -b FILE work too.\n\
                  Exit codes: 0 done, 1 error, 2 bad command line, 3 a bot library cannot be used, \
                  130 a match or tournament stopped by Ctrl-C."
)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) window: WindowArgs,
}

/// `tavola` without a subcommand: the window. With a player flag it opens straight into the game,
/// else on the start screen.
#[derive(Debug, Args)]
pub(crate) struct WindowArgs {
    /// The game.
    #[arg(long, short, value_enum)]
    pub(crate) game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// White's player (opens the game straight away; an omitted colour is the built-in bot).
    #[arg(long)]
    pub(crate) white: Option<SeatSpec>,
    /// Black's player (see --white).
    #[arg(long)]
    pub(crate) black: Option<SeatSpec>,
    /// Seconds per player for the whole game; 0 for no clock.
    #[arg(long = "time", short = 't', default_value = "120", value_name = "SECONDS", value_parser = seconds)]
    pub(crate) time: Duration,
    /// Seconds added to a player's clock after each of their moves.
    #[arg(long = "inc", default_value = "0", value_name = "SECONDS", value_parser = seconds)]
    pub(crate) increment: Duration,
    /// Start from this position (in the game's position text) instead of the start.
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// Seed for every random choice.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Close the window after this many frames and print frame-time statistics (tests).
    #[arg(long, hide = true)]
    pub(crate) frames: Option<u64>,
    /// Close the window after this many seconds, as --frames does (tests).
    #[arg(long, hide = true)]
    pub(crate) seconds: Option<f64>,
    /// With --frames or --seconds: save the last frame as a PNG (tests).
    #[arg(long, hide = true, value_name = "PNG")]
    pub(crate) screenshot: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) bots: BotArgs,
}

/// How plugins run: each in a worker process of its own (the default), with limits.
#[derive(Debug, Args)]
pub(crate) struct BotArgs {
    /// Run plugins inside this process instead of each in a worker process of its own (faster to
    /// start, and debuggable; but a crashing or hanging bot then takes the host down).
    #[arg(long)]
    pub(crate) in_process: bool,
    /// Address-space limit of each bot's worker process, in MiB; 0 for none.
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub(crate) bot_memory: u64,
    /// CPU-time limit of each bot's worker process, in seconds; 0 for none.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub(crate) bot_cpu: u64,
    /// Seconds a bot's worker process may take to load the library and create its player.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub(crate) bot_startup: Duration,
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
pub(crate) enum Command {
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
    /// Be an Ataxx UAI engine on stdin/stdout (for Ataxx GUIs and match runners such as
    /// cuteataxx; `x` moves first and uses btime): the built-in bot, or any player with --bot.
    Uai(EngineArgs),
    /// Be a UGI engine (cutegames' Universal Game Interface) on stdin/stdout, for any game: the
    /// built-in bot, random, or a bot library (in its worker process, as usual).
    Ugi(EngineArgs),
    /// Merge the results files of a run's shards (`--shard K/N`) into the results file of the
    /// whole run, and show its summary (Elo, SPRT, ... computed again on the union).
    Merge(merge::MergeArgs),
    /// One self-contained HTML page of runs' results: the Elo and its band against games played,
    /// W/D/L and pentanomial bars, the SPRT's LLR, terminations, crosstable, per opening.
    Report(report::ReportArgs),
    /// A numbered menu in the terminal (the Dama exam's): start a game, make a move piece by
    /// piece, find the best move, end the game, exit; for every game.
    Menu(Box<menu::MenuArgs>),
    /// Play Tablut on a challenge server (the University of Bologna's TablutCompetition, or
    /// Tavola's own `challenge:` seat) with any player: one game, as White or Black.
    Challenge(challenge::ChallengeArgs),
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
        /// The descriptor of the host's page for the fast path, if it gives one.
        #[arg(long)]
        page: Option<i32>,
    },
}

/// The games Tavola plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GameName {
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
                type $g = tavola_sdk::games::ataxx::Ataxx;
                $body
            }
            GameName::Tablut => {
                type $g = tavola_sdk::games::tablut::Tablut;
                $body
            }
            GameName::Gonnect => {
                type $g = tavola_sdk::games::gonnect::Gonnect;
                $body
            }
            GameName::Dama => {
                type $g = tavola_sdk::games::dama::Dama;
                $body
            }
        }
    };
}

mod arena;
mod bench;
mod challenge;
mod engine;
mod info;
mod menu;
mod merge;
mod perft;
mod play;
mod report;

use arena::{MatchArgs, TournamentArgs};
use bench::BenchArgs;
use engine::EngineArgs;
use perft::PerftArgs;
use play::PlayArgs;
use tavola::protocol::ugi::Dialect;

/// Parses the command line, runs it, and prints an error once, with its context.
pub(crate) fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = match Cli::try_parse_from(attax_args(std::env::args_os().collect())) {
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

/// Attax's command line, `attax [-hw | -w file] [-hb | -b file] [-t integer]`, in Tavola's words:
/// for the window (no subcommand), `-hw` is `--white human`, `-w FILE` is `--white FILE`, and
/// likewise `-hb` and `-b` for Black (`-t` is the same flag in both).
pub(crate) fn attax_args(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    use clap::CommandFactory as _;
    let command = Cli::command();
    let is_subcommand = |arg: &std::ffi::OsString| {
        arg.to_str().is_some_and(|name| {
            name == "help"
                || command
                    .get_subcommands()
                    .any(|sub| sub.get_name() == name || sub.get_all_aliases().any(|a| a == name))
        })
    };
    if args.iter().skip(1).any(is_subcommand) {
        return args;
    }
    let mut rewritten = Vec::with_capacity(args.len() + 2);
    for arg in args {
        match arg.to_str() {
            Some("-hw") => rewritten.extend(["--white".into(), "human".into()]),
            Some("-hb") => rewritten.extend(["--black".into(), "human".into()]),
            Some("-w") => rewritten.push("--white".into()),
            Some("-b") => rewritten.push("--black".into()),
            _ => rewritten.push(arg),
        }
    }
    rewritten
}

/// A bad command line found after clap's parsing (exit code 2, as clap's own).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(String);

/// The exit status of a process killed by SIGPIPE, as shells report it.
pub(crate) const BROKEN_PIPE: u8 = 128 + 13;

/// Whether `error` is the reader of our output having gone (`tavola ... | head`): the bots'
/// pipes are the seats' business and never reach `main`.
pub(crate) fn closed_stdout(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `tavola play --headless ... | head` closes the pipe early: end quietly then, as other
/// command-line tools do, instead of a panic message. (SIGPIPE itself stays ignored, so that
/// writing to a bot's worker that died is an error, not the host's death.)
pub(crate) fn quiet_on_closed_stdout() {
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

pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => play::window(cli.window),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Match(args)) => arena::run_match(&args),
        Some(Command::Tournament(args)) => arena::run_tournament(&args),
        Some(Command::Perft(args)) => {
            with_game!(args.game, G => perft::perft_command::<G>(&args))
        }
        Some(Command::Info { library, bots }) => info::info(&library, &bots),
        Some(Command::Bench(args)) => bench::bench_command(&args),
        Some(Command::Uai(args)) if args.bot.is_none() => {
            tavola::uai::run(std::io::stdin().lock(), std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Uai(args)) => engine::run(&args, Dialect::Uai),
        Some(Command::Ugi(args)) => engine::run(&args, Dialect::Ugi),
        Some(Command::Challenge(args)) => challenge::run(&args),
        Some(Command::Menu(args)) => menu::run(&args),
        Some(Command::Merge(args)) => merge::run(&args),
        Some(Command::Report(args)) => report::run(&args),
        Some(Command::Worker {
            library,
            scratch,
            log_level,
            sandbox_without,
            page,
        }) => std::process::exit(worker::serve::serve(
            &library,
            scratch.as_deref(),
            log_level,
            &sandbox_without,
            page,
        )),
    }
}

/// Parses a number of seconds for clap (so a bad value is a usage error, exit code 2): from 0 to
/// a year.
pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|value| *value <= YEAR)
        .and_then(|value| Duration::try_from_secs_f64(value).ok())
        .ok_or_else(|| format!("expected a number of seconds from 0 to {YEAR} (got {text:?})"))
}

/// Parses a time control for clap: `BASE+INCREMENT` or `BASE`, in seconds.
pub(crate) fn time_control(text: &str) -> Result<(Duration, Duration), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<std::ffi::OsString> {
        text.split_whitespace().map(Into::into).collect()
    }

    #[test]
    fn attaxs_command_line_is_understood() {
        assert_eq!(
            attax_args(words("tavola -hw -b bot.so -t 60")),
            words("tavola --white human --black bot.so -t 60")
        );
        assert_eq!(
            attax_args(words("tavola -w a.so -hb")),
            words("tavola --white a.so --black human")
        );
        // Subcommands keep their own flags.
        assert_eq!(
            attax_args(words("tavola perft -b 3")),
            words("tavola perft -b 3")
        );
        let cli = Cli::try_parse_from(attax_args(words("tavola -hw -t 60"))).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.window.white.map(|s| s.kind), Some(SeatKind::Human));
        assert!(cli.window.black.is_none());
        assert_eq!(cli.window.time, Duration::from_secs(60));
        let cli = Cli::try_parse_from(words("tavola")).unwrap();
        assert_eq!(cli.window.time, Duration::from_secs(120));
    }
}
