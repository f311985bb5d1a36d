//! The terminal front end: one game in the terminal, the board printed after each move.

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use tavola_sdk::{Color, Game, Position, SearchInfo};

use crate::builtin::mcts::MctsBrain;
use crate::builtin::{BuiltinBrain, Evaluate};
use crate::record::GameRecord;
use crate::referee::{GameResult, MoveEvent, Referee, Settings};
use crate::seat::challenge::ChallengeBrain;
use crate::seat::engine::EngineBrain;
use crate::seat::human::TerminalHuman;
use crate::seat::plugin::{Library, PluginBrain};
use crate::seat::random::RandomBrain;
use crate::seat::worker::{WorkerBrain, WorkerOptions};
use crate::seat::{Brain, ParseSeatSpecError, Seat, SeatKind, SeatSpec};

/// What to play: the game's setup, as the command line gives it.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The variant, `None` for the game's default.
    pub variant: Option<String>,
    /// A start position in the game's text, `None` for the variant's start.
    pub position: Option<String>,
    /// A recorded game to continue (its start and moves); overrides `variant` and `position`.
    pub resume: Option<GameRecord>,
    /// A file to append the finished game's record to.
    pub record_path: Option<PathBuf>,
    /// White's and Black's players.
    pub players: [SeatSpec; 2],
    /// Clocks.
    pub settings: Settings,
    /// The seed of all randomness in the game.
    pub seed: u64,
    /// How plugins run: in worker processes with these options (the default), or in-process.
    pub isolation: Option<WorkerOptions>,
}

/// A seat ready to play, with a description for people.
#[derive(Debug)]
pub struct Seated<G: Game> {
    /// The seat.
    pub seat: Seat<G>,
    /// What sits there, for example `greedy 0.1.0 (plugin /path/libgreedy_bot.so)`.
    pub description: String,
}

/// The games whose `builtin` is the Monte Carlo tree search by default (the others: alpha-beta).
/// The one-line switch: `&["gonnect"]` makes plain `builtin` play Gonnect by MCTS.
const MCTS_GAMES: &[&str] = &[];

/// Whether a `builtin` seat is the Monte Carlo tree search (`builtin:engine=mcts`) rather than the
/// alpha-beta search (`engine=alphabeta`, or no `engine`).
fn wants_mcts<G: Game>(options: &[(String, String)]) -> bool {
    let default_mcts = MCTS_GAMES.contains(&G::NAME);
    options
        .iter()
        .find(|(key, _)| key == "engine")
        .map_or(default_mcts, |(_, value)| value == "mcts")
}

/// Builds the seat for `spec` playing `color` in `variant`.
///
/// # Errors
/// [`ParseSeatSpecError`] for a bad option; [`crate::seat::plugin::LoadError`] for a plugin that
/// cannot be loaded or refuses the game.
pub fn seat_for<G: Evaluate>(
    spec: &SeatSpec,
    color: Color,
    variant: &str,
    setup: &GameSetup,
) -> anyhow::Result<Seated<G>> {
    let made = brain_for::<G>(spec, color, variant, setup)?;
    Ok(Seated {
        seat: Seat::new(made.name, made.brain),
        description: made.description,
    })
}

/// The seed of `color`'s player in a game whose seed is `game_seed`.
#[must_use]
pub fn player_seed(game_seed: u64, color: Color) -> u64 {
    game_seed ^ (color as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A player made but not seated: its brain, to be asked on a thread of the caller's choosing.
pub struct Made<G: Game> {
    /// The player's name, as shown to people and written in records.
    pub name: String,
    /// What it is, as [`Seated::description`].
    pub description: String,
    /// The brain.
    pub brain: Box<dyn Brain<G>>,
}

impl<G: Game> fmt::Debug for Made<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Made")
            .field("name", &self.name)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// Makes the brain for `spec` playing `color` in `variant`, as [`seat_for`] does, without a seat.
///
/// # Errors
/// As [`seat_for`].
pub fn brain_for<G: Evaluate>(
    spec: &SeatSpec,
    color: Color,
    variant: &str,
    setup: &GameSetup,
) -> anyhow::Result<Made<G>> {
    let seed = player_seed(setup.seed, color);
    let isolation = setup.isolation.as_ref();
    let bad_spec = |reason: String| ParseSeatSpecError {
        spec: spec.to_string(),
        reason,
    };
    let no_options = |kind: &str| {
        if spec.options.is_empty() {
            Ok(())
        } else {
            Err(bad_spec(format!("{kind} takes no options")))
        }
    };
    let (name, description, brain): (String, String, Box<dyn Brain<G>>) = match &spec.kind {
        SeatKind::Human => {
            no_options("human")?;
            (
                "human".into(),
                "human (terminal)".into(),
                Box::new(TerminalHuman),
            )
        }
        SeatKind::Random => {
            no_options("random")?;
            (
                "random".into(),
                "random (built in)".into(),
                Box::new(RandomBrain::<G>::new(seed)),
            )
        }
        SeatKind::Builtin if wants_mcts::<G>(&spec.options) => {
            let brain =
                MctsBrain::<G>::from_options(&spec.options, seed, G::evaluate).map_err(bad_spec)?;
            // Its leaves may be valued by the evaluation: ready before the first move's clock.
            G::prepare();
            ("builtin".into(), "builtin (mcts)".into(), Box::new(brain))
        }
        SeatKind::Builtin => {
            let options: Vec<_> = (spec.options.iter())
                .filter(|(key, value)| !(key == "engine" && value == "alphabeta"))
                .cloned()
                .collect();
            let brain = BuiltinBrain::<G>::from_options(&options, seed).map_err(bad_spec)?;
            ("builtin".into(), "builtin".into(), Box::new(brain))
        }
        SeatKind::Engine(protocol, command) => {
            if *protocol == crate::seat::engine::Protocol::Uai && G::NAME != "ataxx" {
                return Err(bad_spec(
                    "a UAI engine plays Ataxx only (use ugi: for other games)".into(),
                )
                .into());
            }
            let limits = match isolation {
                Some(options) => options.clone(),
                None => WorkerOptions::new()?,
            };
            let first = G::start(Some(variant)).map_or(Color::White, |p| p.side_to_move());
            let brain = EngineBrain::spawn(*protocol, command, &spec.options, &limits, first)?;
            (
                brain.name().to_owned(),
                format!(
                    "{} ({} engine {})",
                    brain.name(),
                    protocol.name(),
                    command.join(" ")
                ),
                Box::new(brain),
            )
        }
        SeatKind::Challenge(command) => {
            if G::NAME != "tablut" {
                return Err(bad_spec("a challenge player plays Tablut only".into()).into());
            }
            let timeout = challenge_timeout(&spec.options, &setup.settings).map_err(bad_spec)?;
            let limits = match isolation {
                Some(options) => options.clone(),
                None => WorkerOptions::new()?,
            };
            let brain = ChallengeBrain::spawn(command, &limits, color, timeout)?;
            (
                brain.name().to_owned(),
                format!(
                    "{} (challenge player {}, {} s a move{})",
                    brain.name(),
                    command.join(" "),
                    timeout,
                    if brain.is_isolated() {
                        ", own network"
                    } else {
                        ""
                    }
                ),
                Box::new(brain),
            )
        }
        SeatKind::Plugin(path) if isolation.is_some() => {
            let options = isolation.expect("checked by the guard");
            let (brain, bot) =
                WorkerBrain::spawn(path, options, G::NAME, variant, color, seed, &spec.options)?;
            (
                bot.name.clone(),
                format!(
                    "{} {} by {} (plugin {}, own process)",
                    bot.name,
                    bot.version,
                    bot.author,
                    brain.path().display()
                ),
                Box::new(brain),
            )
        }
        SeatKind::Plugin(path) => {
            let library = Library::load(path)?;
            let player = library.new_player(G::NAME, variant, color, seed, &spec.options)?;
            let info = library.info();
            (
                info.name.to_string(),
                format!(
                    "{} {} by {} (plugin {}, in-process)",
                    info.name,
                    info.version,
                    info.author,
                    library.path().display()
                ),
                Box::new(PluginBrain::new(player)),
            )
        }
    };
    Ok(Made {
        name,
        description,
        brain,
    })
}

/// The time per move a challenge player is told at launch, in whole seconds: its `timeout`
/// option, else the time per move rounded up, else with a clock a twentieth of its time plus
/// the increment (rounded down), else the server's default (60). At least 1.
fn challenge_timeout(options: &[(String, String)], settings: &Settings) -> Result<u64, String> {
    let mut timeout = None;
    for (key, value) in options {
        match key.as_str() {
            "timeout" => match value.parse::<u64>() {
                Ok(seconds) if seconds >= 1 => timeout = Some(seconds),
                _ => {
                    return Err(format!(
                        "timeout={value:?} is not a whole number of seconds, at least 1"
                    ))
                }
            },
            _ => {
                return Err(format!(
                    "a challenge player takes only timeout=SECONDS, not {key:?}"
                ))
            }
        }
    }
    let derived = match (settings.movetime, settings.time) {
        (Some(movetime), _) => movetime.as_millis().div_ceil(1000),
        (None, Some(time)) => (time / 20 + settings.increment).as_millis() / 1000,
        (None, None) => u128::from(crate::protocol::challenge::DEFAULT_TIMEOUT_SECONDS),
    };
    Ok(timeout.unwrap_or_else(|| u64::try_from(derived).unwrap_or(u64::MAX).max(1)))
}

/// Plays one game in the terminal: prints the players, the board after each move (unless
/// `quiet`), and the result with its reason.
///
/// # Errors
/// A bad position or variant, a player that cannot be seated, or a failed write to stdout.
pub fn play<G: Evaluate>(setup: &GameSetup, quiet: bool) -> anyhow::Result<GameResult> {
    let (start, moves) = match (&setup.resume, &setup.position) {
        (Some(record), _) => record
            .replay::<G>()
            .context("continuing the recorded game")?,
        (None, Some(text)) => (
            G::parse_position(text, setup.variant.as_deref())?,
            Vec::new(),
        ),
        (None, None) => (G::start(setup.variant.as_deref())?, Vec::new()),
    };
    let variant = start.variant();
    let [white, black] = &setup.players;
    let white = seat_for::<G>(white, Color::White, variant, setup)?;
    let black = seat_for::<G>(black, Color::Black, variant, setup)?;
    let mut out = io::stdout().lock();
    writeln!(out, "{} ({variant})", G::NAME)?;
    writeln!(out, "White: {}", white.description)?;
    writeln!(out, "Black: {}", black.description)?;
    writeln!(
        out,
        "Clock: {}; seed {}",
        describe_clock(&setup.settings),
        setup.seed
    )?;
    let mut referee = Referee::<G>::with_moves(start, &moves, setup.settings);
    if !moves.is_empty() {
        writeln!(out, "Continuing after {} moves", moves.len())?;
    }
    if !quiet {
        writeln!(out, "\n{}", referee.position().pretty())?;
    }
    drop(out);

    let names = [white.seat.name().to_owned(), black.seat.name().to_owned()];
    let mut seats = [white.seat, black.seat];
    let mut write_error = None;
    let result = referee.play(&mut seats, |event| {
        if !quiet && write_error.is_none() {
            write_error = print_move::<G>(event).err();
        }
    });
    if let Some(e) = write_error {
        return Err(e).context("writing to stdout");
    }
    let mut out = io::stdout().lock();
    if quiet {
        writeln!(out, "Final position: {}", referee.position())?;
    }
    let moves: Vec<String> = referee.moves().iter().map(ToString::to_string).collect();
    if moves.is_empty() {
        writeln!(out, "Moves: (none)")?;
    } else {
        writeln!(out, "Moves: {}", moves.join(" "))?;
    }
    writeln!(out, "Result: {result}")?;
    writeln!(out, "Termination: {}", result.termination)?;
    if let Some(path) = &setup.record_path {
        crate::record::append_to_file(path, &referee.record(&names[0], &names[1]))?;
        writeln!(out, "Record appended to {}", path.display())?;
    }
    Ok(result)
}

fn print_move<G: Game>(event: &MoveEvent<'_, G>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let clock = event
        .clock
        .map(|left| format!(", {} left", seconds(left)))
        .unwrap_or_default();
    let info = event
        .info
        .as_ref()
        .map(|info| format!("; {}", describe_info(info)))
        .unwrap_or_default();
    writeln!(
        out,
        "\n{}. {} plays {} ({}{clock}{info})",
        event.ply,
        event.color,
        event.mv,
        seconds(event.elapsed)
    )?;
    writeln!(out, "{}", event.position.pretty())
}

/// A search report in a few words: `depth 3, score +1.25, 1234 nodes, pv b6 f6`.
fn describe_info(info: &SearchInfo) -> String {
    let mut parts = vec![format!("depth {}", info.depth)];
    if let Some(mate) = info.mate {
        parts.push(format!("mate in {mate}"));
    } else if let Some(score) = info.score {
        parts.push(format!("score {:+.2}", f64::from(score) / 100.0));
    }
    parts.push(format!("{} nodes", info.nodes));
    if !info.pv.is_empty() {
        parts.push(format!("pv {}", info.pv));
    }
    if !info.message.is_empty() {
        parts.push(info.message.clone());
    }
    parts.join(", ")
}

fn seconds(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

fn describe_clock(settings: &Settings) -> String {
    match settings.time {
        None => "untimed".to_owned(),
        Some(time) => format!(
            "{} s per player, {} s increment",
            time.as_secs_f64(),
            settings.increment.as_secs_f64()
        ),
    }
}
