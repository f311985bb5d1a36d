//! `tavola challenge`: a Tavola player on a Tablut challenge server.

use super::*;
use tavola::protocol::challenge as wire;
use tavola::protocol::challenge_client::{self, ClientSetup, Ending};
use tavola_sdk::Color;

/// The server, the colour and the player. The launch convention of the challenge's players,
/// `tavola challenge ROLE TIMEOUT SERVER --bot P`, works too, so that `challenge:tavola
/// challenge --bot P` is a seat of Tavola's own.
#[derive(Debug, Args)]
pub(crate) struct ChallengeArgs {
    /// The colour to play, as the launch convention gives it (white or black).
    #[arg(value_name = "ROLE", conflicts_with = "color")]
    pub(crate) role: Option<ColorName>,
    /// The server's time per move in seconds, as the launch convention gives it.
    #[arg(value_name = "TIMEOUT", conflicts_with = "timeout")]
    pub(crate) timeout_seconds: Option<u64>,
    /// The server's host name or address, as the launch convention gives it.
    #[arg(value_name = "SERVER", conflicts_with = "server")]
    pub(crate) server_address: Option<String>,
    /// The colour to play.
    #[arg(long, value_enum)]
    pub(crate) color: Option<ColorName>,
    /// The server's host name or address.
    #[arg(long, value_name = "HOST")]
    pub(crate) server: Option<String>,
    /// The server's port [default: 5800 for White, 5801 for Black].
    #[arg(long, value_name = "N")]
    pub(crate) port: Option<u16>,
    /// The name declared to the server.
    #[arg(long, default_value = "Tavola")]
    pub(crate) name: String,
    /// The server's time per move, in seconds (its -t).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) timeout: Option<u64>,
    /// How much of the time per move the player leaves unused, in milliseconds, for the network
    /// and the server's own timing (at most half of it).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub(crate) safety: u64,
    /// The player: builtin, random, a bot library, or an outside engine (ugi:COMMAND), with
    /// :key=value options [default: builtin].
    #[arg(long, value_name = "PLAYER")]
    pub(crate) bot: Option<SeatSpec>,
    /// The seed of the player's randomness.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    #[command(flatten)]
    pub(crate) bots: BotArgs,
}

/// A colour on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "lower")]
pub(crate) enum ColorName {
    /// White (the king's side; moves first).
    #[value(alias = "WHITE")]
    White,
    /// Black.
    #[value(alias = "BLACK")]
    Black,
}

/// Plays one game on the server; exit code 0 once the server has sent the result, 1 if it
/// closed the connection without one.
pub(crate) fn run(args: &ChallengeArgs) -> anyhow::Result<ExitCode> {
    let color = match args.color.or(args.role) {
        Some(ColorName::White) => Color::White,
        Some(ColorName::Black) => Color::Black,
        None => {
            return Err(UsageError(
                "tavola challenge needs the colour: --color white|black (or white|black first)"
                    .into(),
            )
            .into())
        }
    };
    let timeout = args
        .timeout
        .or(args.timeout_seconds)
        .unwrap_or(wire::DEFAULT_TIMEOUT_SECONDS);
    if timeout == 0 {
        return Err(UsageError("the time per move is at least 1 second".into()).into());
    }
    let spec = args.bot.clone().unwrap_or(SeatSpec {
        kind: SeatKind::Builtin,
        options: Vec::new(),
    });
    if matches!(spec.kind, SeatKind::Human | SeatKind::Challenge(_)) {
        return Err(UsageError(
            "the challenge player is a bot: builtin, random, a bot library or an engine".into(),
        )
        .into());
    }
    let setup = ClientSetup {
        server: args
            .server
            .clone()
            .or_else(|| args.server_address.clone())
            .unwrap_or_else(|| "localhost".to_owned()),
        port: args.port.unwrap_or(wire::port(color)),
        color,
        name: args.name.clone(),
        timeout: Duration::from_secs(timeout),
        safety: Duration::from_millis(args.safety),
        seed: args.seed,
    };
    let movetime = setup.movetime();
    let game_setup = GameSetup {
        variant: None,
        position: None,
        resume: None,
        record_path: None,
        players: [spec.clone(), spec.clone()],
        settings: Settings {
            time: None,
            increment: Duration::ZERO,
            movetime: Some(movetime),
            margin: tavola::referee::DEFAULT_MARGIN,
        },
        seed: args.seed,
        isolation: args.bots.isolation()?,
    };
    let mut out = std::io::stdout();
    let mut described = false;
    let make_seat = || -> anyhow::Result<_> {
        let seated = text_ui::seat_for::<Tablut>(&spec, color, "ashton", &game_setup)?;
        if !described {
            described = true;
            println!("Player: {}", seated.description);
        }
        Ok(seated.seat)
    };
    match challenge_client::play(&setup, make_seat, &mut out)? {
        Ending::Over(_) => Ok(ExitCode::SUCCESS),
        Ending::Closed => Ok(ExitCode::from(EXIT_ERROR)),
    }
}
