//! `tavola menu`: the numbered terminal menu of the Dama exam, for every game.

use super::*;
use tavola::menu::{self, MenuSetup};
use tavola_sdk::Color;

#[derive(Debug, Args)]
pub(crate) struct MenuArgs {
    /// The game [default: dama, the exam's].
    #[arg(long, short, value_enum)]
    pub(crate) game: Option<GameName>,
    /// The variant (rule set) [default: the game's first; for Dama school, the exam's].
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// White's player, if the computer plays White (you then play Black).
    #[arg(long, value_name = "PLAYER", conflicts_with = "black")]
    pub(crate) white: Option<SeatSpec>,
    /// Black's player, if the computer plays Black [default: the computer plays the second
    /// player, random].
    #[arg(long, value_name = "PLAYER")]
    pub(crate) black: Option<SeatSpec>,
    /// How many plies "Find the best move" looks ahead [default: per game, 2 to 6].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=12))]
    pub(crate) depth: Option<u32>,
    /// Print the board as a matrix of integers too (Dama: 0 empty, 1 white man, 2 white king,
    /// 3 black man, 4 black king).
    #[arg(long)]
    pub(crate) matrix: bool,
    /// Seed for every random choice.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    #[command(flatten)]
    pub(crate) bots: BotArgs,
}

pub(crate) fn run(args: &MenuArgs) -> anyhow::Result<ExitCode> {
    let game = args.game.unwrap_or(GameName::Dama);
    // The exam's Dama is the school variant (its draws by one king against one or two).
    let variant = match (&args.variant, game) {
        (None, GameName::Dama) => Some("school".to_owned()),
        (variant, _) => variant.clone(),
    };
    let random = SeatSpec {
        kind: SeatKind::Random,
        options: Vec::new(),
    };
    let second = with_game!(game, G => {
        G::start(variant.as_deref())?.side_to_move().other()
    });
    let (opponent, opponent_color) = match (&args.white, &args.black) {
        (Some(spec), _) => (spec.clone(), Color::White),
        (None, Some(spec)) => (spec.clone(), Color::Black),
        (None, None) => (random, second),
    };
    if opponent.kind == SeatKind::Human {
        return Err(UsageError("the menu's opponent is a bot: you are the human".into()).into());
    }
    let game_setup = play::game_setup(
        variant.clone(),
        None,
        [opponent.clone(), opponent.clone()],
        (Duration::ZERO, Duration::ZERO),
        args.seed,
        &args.bots,
    )?;
    let setup = MenuSetup {
        variant,
        opponent,
        opponent_color,
        depth: args.depth,
        matrix: args.matrix,
        game: game_setup,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    with_game!(game, G => menu::run::<G>(&setup, stdin.lock(), &mut out))?;
    Ok(ExitCode::SUCCESS)
}
