//! `tavola bench`: the built-in search's node signature and speed.

use super::*;

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// One game (all four if omitted).
    #[arg(long, short, value_enum)]
    pub(crate) game: Option<GameName>,
    /// The depth (each game's default if omitted: ataxx 7, tablut 7, gonnect 4, dama 15).
    #[arg(long, short)]
    pub(crate) depth: Option<u32>,
    /// The transposition table per position, in megabytes.
    #[arg(long, default_value_t = 16)]
    pub(crate) hash: usize,
}

pub(crate) fn bench_command(args: &BenchArgs) -> anyhow::Result<ExitCode> {
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
