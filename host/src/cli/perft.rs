//! `tavola perft`: the leaves of the move tree, to check a move generator.

use super::*;

#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// The game.
    #[arg(long, short, value_enum, default_value = "ataxx")]
    pub(crate) game: GameName,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// The position to count from (the start if omitted).
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// Moves to play from the position first, separated by spaces.
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// Print each legal move with its count, then the total.
    #[arg(long)]
    pub(crate) divide: bool,
    /// Depth in plies.
    #[arg(long, short)]
    pub(crate) depth: u32,
}

pub(crate) fn perft_command<G: Game>(args: &PerftArgs) -> anyhow::Result<ExitCode> {
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
        for (mv, count) in tavola_sdk::perft::divide(&position, args.depth) {
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
