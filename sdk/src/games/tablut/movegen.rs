//! Move generation, legality and perft on 128-bit bitboards.
//!
//! Each piece slides along four precomputed rays ([`RAYS`]) up to the first *blocker*: any piece,
//! the castle (always: nothing passes or stops on it), and the camps for a piece standing outside
//! them. A piece standing in a camp may cross camp squares but may not end on a camp square more
//! than 5 squares away ([`FAR_CAMPS`]). Counting moves uses popcounts and builds no list.

use super::moves::Move;
use super::position::Position;
use super::square::{
    Square, Squares, CAMPS, CASTLE, EAST, FAR_CAMPS, NORTH, RAYS, SIDE, SOUTH, SQUARES, WEST,
};

/// The squares a piece on `from` can move to, with `occupied` the occupied squares.
#[inline]
pub(super) fn targets(from: usize, occupied: u128) -> u128 {
    let in_camp = CAMPS & (1 << from) != 0;
    let blockers = occupied | CASTLE | if in_camp { 0 } else { CAMPS };
    let mut targets = 0;
    // Towards higher indices: the squares below the lowest blocker (all of the ray if none).
    for dir in [EAST, SOUTH] {
        let ray = RAYS[dir][from];
        let hit = ray & blockers;
        targets |= ray & (hit & hit.wrapping_neg()).wrapping_sub(1);
    }
    // Towards lower indices: the squares above the highest blocker.
    for dir in [WEST, NORTH] {
        let ray = RAYS[dir][from];
        let hit = ray & blockers;
        targets |= if hit == 0 {
            ray
        } else {
            ray & (u128::MAX << (128 - hit.leading_zeros()))
        };
    }
    if in_camp {
        targets &= !FAR_CAMPS[from];
    }
    targets
}

/// The number of squares on each ray ([`RAYS`]).
const RAY_LENGTHS: [[u8; SQUARES]; 4] = {
    let mut table = [[0; SQUARES]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            table[dir][sq] = RAYS[dir][sq].count_ones() as u8;
            sq += 1;
        }
        dir += 1;
    }
    table
};

/// The number of squares a piece on `from` can move to: `targets(from, occupied).count_ones()`,
/// without building the set. Outside the camps, each ray's count is its distance to the first
/// blocker (one bit scan a ray); a piece in a camp, whose far camp squares are out of reach,
/// counts its targets.
#[inline(always)]
pub(super) fn count_targets(from: usize, occupied: u128) -> u32 {
    if CAMPS & (1 << from) != 0 {
        return targets(from, occupied).count_ones();
    }
    let blockers = occupied | CASTLE | CAMPS;
    let mut count = 0;
    // Towards higher indices: the squares before the lowest blocker.
    for (dir, step) in [(EAST, 1), (SOUTH, u32::from(SIDE))] {
        let hit = RAYS[dir][from] & blockers;
        count += if hit == 0 {
            u32::from(RAY_LENGTHS[dir][from])
        } else {
            (hit.trailing_zeros() - from as u32) / step - 1
        };
    }
    // Towards lower indices: the squares after the highest blocker.
    for (dir, step) in [(WEST, 1), (NORTH, u32::from(SIDE))] {
        let hit = RAYS[dir][from] & blockers;
        count += if hit == 0 {
            u32::from(RAY_LENGTHS[dir][from])
        } else {
            (from as u32 - (127 - hit.leading_zeros())) / step - 1
        };
    }
    count
}

/// The number of moves of the pieces `movers`, with `occupied` the occupied squares.
#[inline(always)]
pub(super) fn count_all(movers: u128, occupied: u128) -> u32 {
    Squares::of(movers)
        .map(|from| count_targets(from.index(), occupied))
        .sum()
}

impl Position {
    /// The number of legal moves, counted with popcounts (no move list); 0 when the game is over.
    #[must_use]
    pub fn count_moves(&self) -> u32 {
        self.count_moves_inline()
    }

    /// [`Position::count_moves`], inlined wherever it is called: into each copy of perft.
    #[inline(always)]
    fn count_moves_inline(&self) -> u32 {
        if self.is_decided() {
            return 0;
        }
        count_all(self.movers(), self.occupied().bits())
    }

    /// Whether the side to move has a legal move, ignoring whether the game is already decided.
    pub(super) fn has_moves(&self) -> bool {
        let occupied = self.occupied().bits();
        Squares::of(self.movers()).any(|from| targets(from.index(), occupied) != 0)
    }

    /// Appends the legal moves, by origin then destination (lowest index first).
    pub(super) fn push_moves(&self, moves: &mut Vec<Move>) {
        if self.is_decided() {
            return;
        }
        let occupied = self.occupied().bits();
        for from in Squares::of(self.movers()) {
            let to = Squares::of(targets(from.index(), occupied));
            moves.extend(to.map(|to| Move { from, to }));
        }
    }

    /// Whether `mv` is legal; agrees with [`Position::push_moves`] for every move.
    pub(super) fn check_legal(&self, mv: Move) -> bool {
        !self.is_decided()
            && self.movers() & mv.from.bitboard().bits() != 0
            && targets(mv.from.index(), self.occupied().bits()) & mv.to.bitboard().bits() != 0
    }

    /// Perft with bulk counting: the last ply is counted with [`Position::count_moves`].
    pub(super) fn fast_perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
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
        if position.is_decided() {
            return 0;
        }
        let occupied = position.occupied().bits();
        let mut nodes = 0;
        for from in Squares::of(position.movers()) {
            for to in Squares::of(targets(from.index(), occupied)) {
                let mv = Move { from, to };
                nodes += if depth == 2 {
                    u64::from(position.count_moves_after(mv))
                } else {
                    let mut child = position.clone();
                    crate::Position::play_unchecked(&mut child, mv);
                    perft_inner(&child, depth - 1)
                };
            }
        }
        nodes
    }
}

/// Perft from the start, depths 1 to 5: computed by this engine, and by the naive model of
/// `invariants.rs` up to depth 4 (`naive_perft_agrees`, `naive_perft_agrees_at_depth_4`).
#[cfg(test)]
pub(super) const START_PERFT: [u64; 5] = [56, 4_408, 248_456, 19_159_224, 1_074_150_880];

impl Position {
    /// Why `mv` is not legal (the rule it breaks), for [`crate::Position::why_illegal`].
    pub(super) fn explain_illegal(&self, mv: Move) -> String {
        use super::Cell;
        if self.is_decided() {
            return "the game is over".to_owned();
        }
        let side = self.side;
        match self.cell(mv.from) {
            Cell::Empty => return format!("there is no piece on {}", mv.from),
            cell if cell.color() != Some(side) => {
                return format!(
                    "{} holds a piece of {}'s, and it is {side}'s turn",
                    mv.from,
                    side.other()
                )
            }
            _ => {}
        }
        let (fc, fr) = (mv.from.column(), mv.from.row());
        let (tc, tr) = (mv.to.column(), mv.to.row());
        if mv.from == mv.to || (fc != tc && fr != tr) {
            return "a piece moves along a row or a column".to_owned();
        }
        let from_camp = mv.from.is_camp();
        let steps = u8::abs_diff(fc, tc).max(u8::abs_diff(fr, tr));
        for step in 1..=steps {
            let along = |f: u8, t: u8| match f.cmp(&t) {
                std::cmp::Ordering::Less => f + step,
                std::cmp::Ordering::Greater => f - step,
                std::cmp::Ordering::Equal => f,
            };
            let Some(square) = Square::from_coords(along(fc, tc), along(fr, tr)) else {
                break;
            };
            let last = square == mv.to;
            if self.cell(square) != Cell::Empty {
                return if last {
                    format!("{square} is occupied")
                } else {
                    format!("the way is blocked at {square}")
                };
            }
            if square.is_castle() {
                return "nothing may stop on or pass through the castle (e5) once the king has left it"
                    .to_owned();
            }
            if square.is_camp() && !from_camp {
                return format!(
                    "{square} is a camp square, which a piece from outside a camp may not enter or cross"
                );
            }
        }
        if from_camp && mv.to.is_camp() && steps > 5 {
            return "a move from one camp to another may not be longer than 5 squares".to_owned();
        }
        "it is not a legal move here".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Tablut;
    use super::START_PERFT;
    use crate::perft::perft;
    use crate::{Game, Position as _};

    #[test]
    fn perft_from_the_start() {
        let start = Tablut::start(None).unwrap();
        for (depth, &expected) in (1..=3).zip(&START_PERFT) {
            assert_eq!(start.perft(depth), expected, "depth {depth}");
            assert_eq!(perft(&start, depth), expected, "generic, depth {depth}");
        }
        assert_eq!(start.perft(0), 1);
    }

    #[test]
    #[ignore = "deep perft; run in release"]
    fn perft_from_the_start_deep() {
        let start = Tablut::start(None).unwrap();
        for (depth, &expected) in (1..=5).zip(&START_PERFT).skip(3) {
            let began = std::time::Instant::now();
            assert_eq!(start.perft(depth), expected, "depth {depth}");
            eprintln!("perft {depth}: {:?}", began.elapsed());
        }
    }

    #[test]
    fn counting_targets_agrees_with_building_them() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..2000 {
            let density = rng.gen_range(0.0..0.6);
            let occupied = (0..super::SQUARES)
                .filter(|_| rng.gen_bool(density))
                .fold(0u128, |bits, sq| bits | 1 << sq);
            for from in 0..super::SQUARES {
                assert_eq!(
                    super::count_targets(from, occupied),
                    super::targets(from, occupied).count_ones(),
                    "from {from}, occupied {occupied:#x}"
                );
            }
        }
    }

    #[test]
    fn both_copies_of_perft_agree() {
        let mut position = Tablut::start(None).unwrap();
        for text in ["e4-f4", "d1-d2", "e3-b3"] {
            let mv = position.parse_move(text).unwrap();
            position.play_unchecked(mv);
        }
        for depth in 0..=3 {
            let baseline = super::baseline::perft(&position, depth);
            assert_eq!(super::perft(&position, depth), baseline, "depth {depth}");
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::bit_instructions() {
                // SAFETY: the CPU has the features (just asked).
                assert_eq!(unsafe { super::bits::perft(&position, depth) }, baseline);
            }
        }
    }

    #[test]
    fn count_moves_matches_generation() {
        let start = Tablut::start(None).unwrap();
        assert_eq!(start.count_moves() as usize, start.legal_moves().len());
    }
}
