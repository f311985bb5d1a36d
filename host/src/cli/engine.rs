//! `tavola ugi` and `tavola uai --bot P`: a Tavola player as an engine for outside hosts.

use super::*;
use tavola::protocol::ugi::{self, EngineSetup};

/// The engine's game and player.
#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// The game (`tavola uai`: Ataxx only).
    #[arg(long, value_enum)]
    pub(crate) game: Option<GameName>,
    /// The rule set (default: the game's first).
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// The player behind the engine: builtin, random, or a bot library, with :key=value options
    /// (`setoption` adds more) [default: builtin].
    #[arg(long, value_name = "PLAYER")]
    pub(crate) bot: Option<SeatSpec>,
    /// The seed of the player's randomness.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    #[command(flatten)]
    pub(crate) bots: BotArgs,
}

/// Serves the engine protocol on stdin and stdout until `quit`.
pub(crate) fn run(args: &EngineArgs, dialect: Dialect) -> anyhow::Result<ExitCode> {
    let game = match (dialect, args.game) {
        (Dialect::Uai, Some(game)) if game != GameName::Ataxx => {
            return Err(UsageError(
                "tavola uai plays Ataxx only (tavola ugi plays every game)".into(),
            )
            .into())
        }
        (_, Some(game)) => game,
        (Dialect::Uai, None) => GameName::Ataxx,
        (Dialect::Ugi, None) => {
            return Err(UsageError(
                "tavola ugi needs --game (ataxx, tablut, gonnect or dama)".into(),
            )
            .into())
        }
    };
    let spec = args.bot.clone().unwrap_or(SeatSpec {
        kind: SeatKind::Builtin,
        options: Vec::new(),
    });
    if spec.kind == SeatKind::Human {
        return Err(UsageError("an engine's player cannot be human".into()).into());
    }
    let setup = EngineSetup {
        dialect,
        spec,
        variant: args.variant.clone(),
        isolation: args.bots.isolation()?,
        seed: args.seed,
    };
    let stdin = std::io::stdin();
    with_game!(game, G => ugi::run::<G>(stdin.lock(), std::io::stdout(), setup))?;
    Ok(ExitCode::SUCCESS)
}
