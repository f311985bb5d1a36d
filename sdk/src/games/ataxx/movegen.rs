//! Move generation, legality and perft on bitboards.
//!
//! Clone targets come from shifting the whole own bitboard ([`dilate`]); jump targets from the
//! precomputed distance-2 rings ([`JUMPS`]). Counting moves uses popcounts and never builds a list.

use super::moves::Move;
use super::position::{Mobility, Position};
use super::square::{dilate, dilate2, Square, Squares, JUMPS};
use super::Variant;

impl Position {
    /// The number of legal moves, counted with popcounts (no move list): 0 when the game is over,
    /// 1 when the side to move must pass.
    #[must_use]
    pub fn count_moves(&self) -> u32 {
        self.count_moves_inline()
    }

    /// [`Position::count_moves`], inlined wherever it is called: into each copy of perft.
    #[inline(always)]
    fn count_moves_inline(&self) -> u32 {
        if !self.is_live() {
            return 0;
        }
        let us = self.pieces[self.side.index()];
        let empty = self.empty_bits();
        let clones = (dilate(us) & empty).count_ones();
        let jumps = count_jumps(us, empty);
        if clones + jumps > 0 {
            clones + jumps
        } else if self.rules == Variant::Standard
            && dilate2(self.pieces[self.side.other().index()]) & empty != 0
        {
            1
        } else {
            0
        }
    }

    /// Appends the legal moves: clones by destination, then jumps by origin and destination, or
    /// the lone pass.
    pub(super) fn push_moves(&self, moves: &mut Vec<Move>) {
        match self.mobility() {
            Mobility::GameOver => {}
            Mobility::MustPass => moves.push(Move::Pass),
            Mobility::Moves => {
                let us = self.pieces[self.side.index()];
                let empty = self.empty_bits();
                moves.extend(Squares::of(dilate(us) & empty).map(Move::Clone));
                for from in Squares::of(us) {
                    let targets = Squares::of(JUMPS[from.index()] & empty);
                    moves.extend(targets.map(|to| Move::Jump { from, to }));
                }
            }
        }
    }

    /// Whether `mv` is legal; agrees with [`Position::push_moves`] for every move.
    pub(super) fn check_legal(&self, mv: Move) -> bool {
        let us = self.pieces[self.side.index()];
        let empty = self.empty_bits();
        match mv {
            // A clone or jump existing means the side to move can move, so only the
            // board-independent endings need checking.
            Move::Clone(to) => {
                self.is_live()
                    && empty & to.bitboard().bits() != 0
                    && to.neighbours().bits() & us != 0
            }
            Move::Jump { from, to } => {
                self.is_live()
                    && us & from.bitboard().bits() != 0
                    && empty & to.bitboard().bits() != 0
                    && from.jump_targets().contains(to)
            }
            Move::Pass => self.mobility() == Mobility::MustPass,
        }
    }

    /// Perft without move lists: children are played straight from the bitboards and the last
    /// ply is counted with [`Position::count_moves`].
    pub(super) fn fast_perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

/// The number of jumps from `us` to `empty`: each (origin, destination) pair at distance 2,
/// counted from whichever side has fewer squares (the rings are symmetric).
#[inline]
fn count_jumps(us: u64, empty: u64) -> u32 {
    let (outer, inner) = if us.count_ones() <= empty.count_ones() {
        (us, empty)
    } else {
        (empty, us)
    };
    Squares::of(outer)
        .map(|sq| (JUMPS[sq.index()] & inner).count_ones())
        .sum()
}

crate::multiversion! {
    /// Perft from `position`, `depth` plies deep (see [`crate::cpu`]).
    fn perft(position: &Position, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(position.count_moves_inline()),
            _ => perft_inner(position, depth),
        }
    }

    /// Perft for `depth >= 2`.
    fn perft_inner(position: &Position, depth: u32) -> u64 {
        let child_count = |mv: Move| {
            let mut child = position.clone();
            crate::Position::play_unchecked(&mut child, mv);
            if depth == 2 {
                u64::from(child.count_moves_inline())
            } else {
                perft_inner(&child, depth - 1)
            }
        };
        match position.mobility() {
            Mobility::GameOver => 0,
            Mobility::MustPass => child_count(Move::Pass),
            Mobility::Moves => {
                let us = position.pieces[position.side.index()];
                let empty = position.empty_bits();
                let mut nodes: u64 = Squares::of(dilate(us) & empty)
                    .map(|to| child_count(Move::Clone(to)))
                    .sum();
                for from in Squares::of(us) {
                    for to in Squares::of(JUMPS[from.index()] & empty) {
                        nodes += child_count(Move::Jump { from, to });
                    }
                }
                nodes
            }
        }
    }
}

impl Position {
    /// Why `mv` is not legal (the rule it breaks), for [`crate::Position::why_illegal`].
    pub(super) fn explain_illegal(&self, mv: Move) -> String {
        use super::position::Cell;
        if !self.is_live() {
            return "the game is over".to_owned();
        }
        let side = self.side;
        let mine = Cell::Piece(side).symbol();
        let target = |to: Square| match self.cell(to) {
            Cell::Gap => Some(format!("{to} is a gap")),
            Cell::Piece(_) => Some(format!("{to} is occupied")),
            Cell::Empty => None,
        };
        match mv {
            Move::Pass => match self.mobility() {
                Mobility::MustPass => "it is not a legal move here".to_owned(),
                _ => "a pass is allowed only when there is no other move".to_owned(),
            },
            Move::Clone(to) => target(to).unwrap_or_else(|| {
                format!("no {mine} stone next to {to} to grow from (a jump names its origin, like a1c3)")
            }),
            Move::Jump { from, to } => {
                if self.cell(from) != Cell::Piece(side) {
                    return format!("there is no {mine} stone on {from}");
                }
                if let Some(why) = target(to) {
                    return why;
                }
                if from.distance(to) != 2 {
                    return format!("{from} to {to} is not a jump of two squares");
                }
                "it is not a legal move here".to_owned()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Ataxx, Variant};
    use crate::perft::perft;
    use crate::{Game, Position as _};

    /// The perft table of RULES.md section 1: FEN, rule set, counts from depth 1.
    const SUITE: &[(&str, Variant, &[u64])] = &[
        (
            START,
            Variant::Standard,
            &[
                16,
                256,
                6460,
                155_888,
                4_752_668,
                141_865_520,
                5_023_479_496,
            ],
        ),
        (
            START,
            Variant::Attax,
            &[
                16,
                256,
                6460,
                155_888,
                4_752_668,
                141_865_520,
                5_023_479_496,
            ],
        ),
        (
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            Variant::Standard,
            &[14, 196, 4184, 86_528, 2_266_352],
        ),
        (
            "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
            Variant::Standard,
            &[16, 256, 5948, 133_264, 3_639_856],
        ),
        (
            "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
            Variant::Standard,
            &[1, 75, 249, 14_270, 452_980],
        ),
        (
            "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
            Variant::Attax,
            &[0, 0, 0, 0, 0],
        ),
        (
            "x5o/7/7/7/7/7/o5x x 100 1",
            Variant::Standard,
            &[0, 0, 0, 0, 0],
        ),
        (
            "x5o/7/7/7/7/7/o5x x 100 1",
            Variant::Attax,
            &[0, 0, 0, 0, 0],
        ),
    ];

    const START: &str = "x5o/7/7/7/7/7/o5x x 0 1";

    /// Runs the suite for counts up to `max_nodes`, checking the fast perft against the generic
    /// one too when `cross_check` is set.
    fn run_suite(min_nodes: u64, max_nodes: u64, cross_check: bool) {
        for &(fen, variant, counts) in SUITE {
            let position = Ataxx::parse_position(fen, Some(variant.name())).unwrap();
            for (depth, &expected) in (1..).zip(counts) {
                if expected < min_nodes || expected > max_nodes {
                    continue;
                }
                assert_eq!(
                    position.perft(depth),
                    expected,
                    "{fen} ({variant}) depth {depth}"
                );
                if cross_check {
                    assert_eq!(
                        perft(&position, depth),
                        expected,
                        "generic: {fen} depth {depth}"
                    );
                }
            }
        }
    }

    #[test]
    fn perft_suite_matches_rules_and_generic_perft() {
        run_suite(0, 5_000_000, true);
    }

    #[test]
    fn perft_depth_zero_is_one() {
        let finished = Ataxx::parse_position("x5o/7/7/7/7/7/o5x x 100 1", None).unwrap();
        assert_eq!(finished.perft(0), 1);
        assert_eq!(perft(&finished, 0), 1);
    }

    #[test]
    fn count_moves_matches_generation() {
        for &(fen, variant, _) in SUITE {
            let position = Ataxx::parse_position(fen, Some(variant.name())).unwrap();
            assert_eq!(
                position.count_moves() as usize,
                position.legal_moves().len(),
                "{fen}"
            );
        }
    }

    /// Start depth 6 and 7: run with `cargo test --release -- --ignored`.
    #[test]
    #[ignore = "deep perft; run in release"]
    fn perft_suite_deep() {
        run_suite(5_000_001, u64::MAX, false);
    }

    #[test]
    #[ignore = "deep perft; run in release"]
    fn perft_start_depth_6() {
        let start = Ataxx::start(None).unwrap();
        let began = std::time::Instant::now();
        assert_eq!(start.perft(6), 141_865_520);
        eprintln!("perft 6 from the start: {:?}", began.elapsed());
    }
}
