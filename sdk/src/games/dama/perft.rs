//! Perft for Dama: counting the leaves of the move tree, with bulk counting at the last ply.

use super::moves::Move;
use super::position::Position;

impl Position {
    /// Perft with bulk counting at the last ply ([`Position::count_moves`]).
    pub(super) fn fast_perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(self.count_moves()),
            _ => {
                let mut buffers: Vec<Vec<Move>> =
                    (1..depth).map(|_| Vec::with_capacity(64)).collect();
                perft_inner(self, depth, &mut buffers)
            }
        }
    }
}

/// Perft for `depth >= 2`, with one move buffer per ply above the last.
fn perft_inner(position: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return u64::from(position.count_moves());
    };
    moves.clear();
    position.push_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        crate::Position::play_unchecked(&mut child, mv);
        nodes += if depth == 2 {
            u64::from(child.count_moves())
        } else {
            perft_inner(&child, depth - 1, rest)
        };
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::super::{Dama, Variant};
    use crate::perft::perft;
    use crate::{Game, Position as _};

    /// Perft from the start (RULES.md): depth 1 onwards.
    const START_PERFT: [u64; 8] = [7, 49, 302, 1469, 7361, 36_473, 177_532, 828_783];

    #[test]
    fn perft_from_the_start() {
        let start = Dama::start(None).unwrap();
        for (depth, &expected) in (1..=6).zip(&START_PERFT) {
            assert_eq!(start.perft(depth), expected, "depth {depth}");
        }
        for depth in 0..=5 {
            assert_eq!(
                perft(&start, depth),
                start.perft(depth),
                "generic, depth {depth}"
            );
        }
        let school = Dama::start(Some("school")).unwrap();
        assert_eq!(school.perft(5), 7361);
    }

    /// Positions full of captures, kings and promotions (the precedence checks of RULES.md and
    /// a few middlegames).
    const POSITIONS: &[&str] = &[
        "W:W31:B12,20,28",
        "W:WK21,31:B10,18,27",
        "W:WK23,31:B19,26,27",
        "W:WK30:B10,12,18,K20,K26,27",
        "W:WK31:B18,20,K27,K28",
        "W:WK29:B10,11,18,19,26",
        "B:W5,K13,17,18,22,23,27,30:B1,3,K9,10,11,14,15,K24",
        "W:W6,7,K16,19,21,22,25,29:B2,K10,12,13,14,K18,K26,28",
    ];

    #[test]
    fn perft_of_capture_positions_matches_the_generic_one() {
        for &fen in POSITIONS {
            for variant in Variant::ALL {
                let position = Dama::parse_position(fen, Some(variant.name())).unwrap();
                for depth in 0..=4 {
                    assert_eq!(position.perft(depth), perft(&position, depth), "{fen}");
                }
            }
        }
    }

    /// Start depths 7 and 8: run with `cargo test --release -- --ignored`.
    #[test]
    #[ignore = "deep perft; run in release"]
    fn perft_from_the_start_deep() {
        let start = Dama::start(None).unwrap();
        for (depth, &expected) in (7..=8).zip(&START_PERFT[6..]) {
            let began = std::time::Instant::now();
            assert_eq!(start.perft(depth), expected, "depth {depth}");
            eprintln!("perft {depth} from the start: {:?}", began.elapsed());
        }
    }
}
