//! `tavola bench`: fixed-depth searches from fixed positions, each with a fresh table, so that the
//! total node count is deterministic — a signature of the search that changes only when the
//! search, its move ordering or an evaluation changes — and the time gives nodes per second.

use std::time::{Duration, Instant};

use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;

use super::search::fixed_depth;
use super::Evaluate;

/// The Ataxx bench positions (FEN).
pub const ATAXX: &[&str] = &[
    "x5o/7/7/7/7/7/o5x x 0 1",
    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    "xxo1o2/1xoo3/x1xo1o1/2xxo2/o1x1xo1/1oxx2x/2o2xx o 3 14",
    "7/1xx4/1xoo3/2ox3/3oo2/7/7 x 0 8",
    "xxoxxo1/oxxooxo/x1oxxoo/ooxo1xx/xoxxoox/oox1oxo/xo1oxxo x 0 30",
];

/// The depth the unit test searches [`ATAXX`] to (small, for debug builds).
pub const TEST_DEPTH: u32 = 4;

/// The total nodes of [`ATAXX`] searched to [`TEST_DEPTH`]: the signature the unit test pins.
/// Update it (with the figure the failing test prints) whenever the search or the Ataxx
/// evaluation changes on purpose, and say so in the commit.
pub const ATAXX_SIGNATURE: u64 = 8148;

/// The Tablut bench positions.
pub const TABLUT: &[&str] = &[
    "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - W",
    "OOOBBOOOO/OOOOBOOOO/OOBOWOOOO/BOOOOOOWB/BBWWTOWBB/BOOKWOOOB/OOOOWOBOO/OOOOBOOOO/OOOBBOOOO - B",
];

/// The Gonnect bench positions.
pub const GONNECT: &[&str] = &[
    "............./............./............./............./............./............./............./............./............./............./............./............./............. X 1",
    "............./............./............./.....O......./......X....../....XO......./......X....../.......O...../............./............./............./............./............. X 7",
];

/// The Dama bench positions.
pub const DAMA: &[&str] = &[
    "W:W21-32:B1-12",
    "W:W17,19,21,22,24,25,26,27,29,31:B2,3,5,6,9,10,11,14,15,16",
    "B:W5,K13,17,18,22,23,27,30:B1,3,K9,10,11,14,15,K24",
];

/// One game's bench result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameBench {
    /// The game.
    pub game: &'static str,
    /// The depth searched.
    pub depth: u32,
    /// Positions searched.
    pub positions: usize,
    /// Total nodes.
    pub nodes: u64,
    /// Total time.
    pub elapsed: Duration,
}

impl GameBench {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

fn run<G: Evaluate>(positions: &[&str], depth: u32, hash_mb: usize) -> GameBench {
    let start = Instant::now();
    let nodes = positions
        .iter()
        .map(|text| {
            let position = G::parse_position(text, None)
                .unwrap_or_else(|e| panic!("a bench position does not parse: {e}"));
            fixed_depth::<G>(&position, depth, hash_mb).nodes
        })
        .sum();
    GameBench {
        game: G::NAME,
        depth,
        positions: positions.len(),
        nodes,
        elapsed: start.elapsed(),
    }
}

/// The default depth per game of `tavola bench` (a few seconds in a release build).
#[must_use]
pub fn default_depth(game: &str) -> u32 {
    match game {
        "ataxx" => 7,
        "tablut" => 7,
        "gonnect" => 4,
        _ => 15,
    }
}

/// Runs the bench of `game` (`None`: all four) at `depth` (`None`: each game's default).
///
/// # Errors
/// An unknown game name.
pub fn bench(
    game: Option<&str>,
    depth: Option<u32>,
    hash_mb: usize,
) -> Result<Vec<GameBench>, String> {
    let games: Vec<&str> = match game {
        Some(g) if tavola_sdk::games::NAMES.contains(&g) => vec![g],
        Some(g) => return Err(format!("unknown game {g:?}")),
        None => tavola_sdk::games::NAMES.to_vec(),
    };
    Ok(games
        .into_iter()
        .map(|g| {
            let depth = depth.unwrap_or_else(|| default_depth(g));
            match g {
                "ataxx" => run::<Ataxx>(ATAXX, depth, hash_mb),
                "tablut" => run::<Tablut>(TABLUT, depth, hash_mb),
                "gonnect" => run::<Gonnect>(GONNECT, depth, hash_mb),
                _ => run::<Dama>(DAMA, depth, hash_mb),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use tavola_sdk::Game;

    use super::*;

    #[test]
    fn every_bench_position_parses() {
        for text in ATAXX {
            Ataxx::parse_position(text, None).unwrap();
        }
        for text in TABLUT {
            Tablut::parse_position(text, None).unwrap();
        }
        for text in GONNECT {
            Gonnect::parse_position(text, None).unwrap();
        }
        for text in DAMA {
            Dama::parse_position(text, None).unwrap();
        }
    }
}
