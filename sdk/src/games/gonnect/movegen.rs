//! Move generation, legality and perft on bitboards.
//!
//! All legal placements come out of a handful of whole-board operations:
//! - an empty point with an empty neighbour is never suicide;
//! - a point that is the only liberty of an opposing chain captures it, so it is never suicide;
//! - any other empty point (every neighbour a stone, no capture) is legal exactly when it joins
//!   one of the mover's chains that has a second liberty.
//!
//! Only the chains next to the few points of the last two kinds are looked at. Chains are found
//! by flooding ([`Bitboard::flood`]); chains holding a stone with two empty neighbours surely
//! have two liberties and are flooded all at once, so only the chains short of liberties are
//! looked at one by one.
//!
//! Positional superko is checked only when it can matter. A board after the move has one more
//! stone of the mover than the board before; it can equal an earlier board only if the mover once
//! had that many stones, which the history's peak counts tell at once (as long as the mover has
//! never lost stones, nothing is checked). Otherwise quiet placements are compared with the few
//! earlier keys having exactly the counts they would produce, and captures one by one.

use super::bitboard::Bitboard;
use super::history::{count_bits, count_in, zobrist, COUNT_BITS};
use super::moves::Move;
use super::point::Point;
use super::position::Position;
use crate::Color;

/// The liberties of the chains of `stones` that have exactly one: where the opponent captures.
fn single_liberties(stones: Bitboard, empty: Bitboard) -> Bitboard {
    let safe = stones.with_two_neighbours_in(empty).flood(stones);
    let mut rest = stones.and_not(safe);
    let mut points = Bitboard::EMPTY;
    while let Some(seed) = rest.first() {
        let chain = seed.bitboard().flood(rest);
        rest = rest.and_not(chain);
        let liberties = chain.neighbours() & empty;
        if liberties.count() == 1 {
            points |= liberties;
        }
    }
    points
}

/// The stones of the chains of `stones` that have at least two liberties.
fn well_breathing(stones: Bitboard, empty: Bitboard) -> Bitboard {
    let mut safe = stones.with_two_neighbours_in(empty).flood(stones);
    let mut rest = stones.and_not(safe);
    while let Some(seed) = rest.first() {
        let chain = seed.bitboard().flood(rest);
        rest = rest.and_not(chain);
        if (chain.neighbours() & empty).count() >= 2 {
            safe |= chain;
        }
    }
    safe
}

impl Position {
    /// The points where the side to move may place a stone: empty, not suicide, not recreating an
    /// earlier board. Empty when the game is over.
    #[must_use]
    pub fn legal_points(&self) -> Bitboard {
        if self.connected.is_some() {
            return Bitboard::EMPTY;
        }
        let (own, opp) = (self.stones(self.side), self.stones(self.side.other()));
        let empty = !(own | opp);
        let breathing = empty & empty.neighbours();
        let tight = empty.and_not(breathing);
        let superko = self.superko_can_matter();
        if tight.is_empty() && !superko {
            return breathing;
        }
        // Without superko, captures matter only at tight points: look only at the chains there.
        let near = if superko {
            opp
        } else {
            (tight.neighbours() & opp).flood(opp)
        };
        let captures = single_liberties(near, empty);
        let mut legal = breathing | captures;
        let smothered = tight.and_not(captures);
        if !smothered.is_empty() {
            let friends = (smothered.neighbours() & own).flood(own);
            legal |= smothered & well_breathing(friends, empty).neighbours();
        }
        if superko {
            legal = self.without_repetitions(legal, captures);
        }
        legal
    }

    /// The opposing stones that placing a stone of the side to move on `point` would capture
    /// (whether or not the move is legal): the chains whose only liberty is `point`.
    #[must_use]
    pub fn captures(&self, point: Point) -> Bitboard {
        let opp = self.stones(self.side.other());
        let empty = self.empty_points();
        let mut seen = Bitboard::EMPTY;
        let mut captured = Bitboard::EMPTY;
        for neighbour in point.neighbours() & opp {
            if seen.contains(neighbour) {
                continue;
            }
            let chain = neighbour.bitboard().flood(opp);
            seen |= chain;
            if chain.neighbours() & empty == point.bitboard() {
                captured |= chain;
            }
        }
        captured
    }

    /// The number of legal moves, without building a list.
    #[must_use]
    pub fn count_moves(&self) -> u32 {
        self.legal_points().count() + u32::from(self.swap_is_legal())
    }

    /// Whether the side to move has a legal move (false when the game is over).
    pub(super) fn can_move(&self) -> bool {
        if self.connected.is_some() {
            return false;
        }
        let empty = self.empty_points();
        if !self.superko_can_matter() && !(empty & empty.neighbours()).is_empty() {
            return true;
        }
        !self.legal_points().is_empty() || self.swap_is_legal()
    }

    /// Appends the legal moves: placements from `A1` row by row, then the swap.
    pub(super) fn push_moves(&self, moves: &mut Vec<Move>) {
        moves.extend(self.legal_points().into_iter().map(Move::Place));
        if self.swap_is_legal() {
            moves.push(Move::Swap);
        }
    }

    /// Whether `mv` is legal; agrees with [`Position::push_moves`] for every move.
    pub(super) fn check_legal(&self, mv: Move) -> bool {
        let point = match mv {
            Move::Swap => return self.swap_is_legal(),
            Move::Place(point) => point,
        };
        let empty = self.empty_points();
        if self.connected.is_some() || !empty.contains(point) {
            return false;
        }
        let captured = self.captures(point);
        if captured.is_empty() && (point.neighbours() & empty).is_empty() {
            // Every neighbour is a stone and none is captured: the mover's chains joined here
            // need a liberty besides this point.
            let own = self.stones(self.side);
            let joined = (point.neighbours() & own).flood(own);
            if (joined.neighbours() & empty.and_not(point.bitboard())).is_empty() {
                return false;
            }
        }
        !(self.superko_can_matter() && self.history.contains(self.key_after(point, captured)))
    }

    /// The swap: White's first move (move 2), with exactly one stone, a black one, on the board.
    pub(super) fn swap_is_legal(&self) -> bool {
        self.move_number == 2
            && self.side == Color::White
            && self.connected.is_none()
            && self.stones(Color::White).is_empty()
            && self.count(Color::Black) == 1
            && !self.history.contains(self.key_after_swap())
    }

    /// Whether any placement could recreate an earlier board: only if the mover once had more
    /// stones than now.
    #[inline]
    fn superko_can_matter(&self) -> bool {
        self.history
            .ever_above(self.side, count_in(self.key, self.side))
    }

    /// `legal` less the placements that recreate an earlier board; `captures` are the points
    /// where a placement captures.
    fn without_repetitions(&self, mut legal: Bitboard, captures: Bitboard) -> Bitboard {
        // Quiet placements: the earlier boards with the counts they produce are few; keep up to
        // eight and compare, or fall back to a full look-up if there are more.
        let quiet_counts = self.key_after(Point::ALL[0], Bitboard::EMPTY) & COUNT_BITS;
        let mut earlier = [0u64; 8];
        let mut found = 0;
        self.history.for_each_with_counts(quiet_counts, |key| {
            if let Some(slot) = earlier.get_mut(found) {
                *slot = key;
            }
            found += 1;
        });
        if found > 0 {
            for point in legal.and_not(captures) {
                let key = self.key_after(point, Bitboard::EMPTY);
                let repeats = match earlier.get(..found) {
                    Some(few) => few.contains(&key),
                    None => self.history.contains(key),
                };
                if repeats {
                    legal = legal.and_not(point.bitboard());
                }
            }
        }
        for point in legal & captures {
            if self
                .history
                .contains(self.key_after(point, self.captures(point)))
            {
                legal = legal.and_not(point.bitboard());
            }
        }
        legal
    }

    /// The key of the board after the side to move places on `point`, capturing `captured`.
    #[inline]
    pub(super) fn key_after(&self, point: Point, captured: Bitboard) -> u64 {
        let (us, them) = (self.side, self.side.other());
        let mut hash = self.key ^ zobrist(us, point);
        for stone in captured {
            hash ^= zobrist(them, stone);
        }
        let own = count_in(self.key, us) + 1;
        let opp = count_in(self.key, them).saturating_sub(captured.count());
        let counts = match us {
            Color::White => count_bits(own, opp),
            Color::Black => count_bits(opp, own),
        };
        (hash & !COUNT_BITS) | counts
    }

    /// The key of the board after the swap (every black stone turned white).
    pub(super) fn key_after_swap(&self) -> u64 {
        let black = self.stones(Color::Black);
        super::position::board_key([self.stones(Color::White) | black, Bitboard::EMPTY])
    }

    /// Perft without move lists: children are played straight from the legal-point bitboard and
    /// the last ply is counted with [`Position::count_moves`].
    pub(super) fn fast_perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(self.count_moves()),
            _ => {
                let child_nodes = |mv: Move| {
                    let mut child = self.clone();
                    crate::Position::play_unchecked(&mut child, mv);
                    child.fast_perft(depth - 1)
                };
                let mut nodes: u64 = self
                    .legal_points()
                    .into_iter()
                    .map(|point| child_nodes(Move::Place(point)))
                    .sum();
                if self.swap_is_legal() {
                    nodes += child_nodes(Move::Swap);
                }
                nodes
            }
        }
    }
}

/// Perft from the start. Depth 1: every point. Depth 2: 168 placements and the swap. Depth 3: 167
/// placements after a placement, 168 after the swap (169 * 168 * 168). Depth 4: 166 after three
/// stones, 167 after the swap, less 1328 suicides (White into a corner between the two black
/// stones: 4 corners * 2 move orders * 166 places for White's stone), 791_823_160. Depths 1-3
/// are also counted by the plain reference implementation of the tests (`naive.rs`); depth 4
/// agrees with the arithmetic.
#[cfg(test)]
pub(super) const START_PERFT: [u64; 4] = [169, 28_561, 4_769_856, 791_823_160];

impl Position {
    /// Why `mv` is not legal (the rule it breaks), for [`crate::Position::why_illegal`].
    pub(super) fn explain_illegal(&self, mv: Move) -> String {
        if self.connected.is_some() {
            return "the game is over".to_owned();
        }
        let point = match mv {
            Move::Swap => {
                return "swap is legal only as White's first move, with one black stone on the board"
                    .to_owned()
            }
            Move::Place(point) => point,
        };
        if !self.empty_points().contains(point) {
            return format!("{point} is occupied");
        }
        let empty = self.empty_points();
        let captured = self.captures(point);
        if captured.is_empty() && (point.neighbours() & empty).is_empty() {
            let own = self.stones(self.side);
            let joined = (point.neighbours() & own).flood(own);
            if (joined.neighbours() & empty.and_not(point.bitboard())).is_empty() {
                return format!("a stone on {point} would have no liberty (no suicide)");
            }
        }
        format!("a stone on {point} would repeat an earlier board (superko)")
    }
}

#[cfg(test)]
mod tests {
    use super::super::Gonnect;
    use super::*;
    use crate::perft::perft;
    use crate::{Game, Position as _};

    fn pos(text: &str) -> Position {
        Gonnect::parse_position(text, None).unwrap()
    }

    #[test]
    fn perft_from_the_start() {
        let start = Position::start();
        for (depth, &expected) in (1..).zip(&START_PERFT[..3]) {
            assert_eq!(start.perft(depth), expected, "depth {depth}");
        }
        assert_eq!(start.perft(0), 1);
        assert_eq!(perft(&start, 2), START_PERFT[1], "generic perft");
    }

    #[test]
    #[ignore = "deep perft; run in release"]
    fn perft_from_the_start_depth_4() {
        assert_eq!(Position::start().perft(4), START_PERFT[3]);
    }

    #[test]
    fn count_matches_generation_and_generic_perft_near_a_corner() {
        // Black can capture B12 at C12; White could capture B13 at A13; A13 is Black's only
        // point without an empty neighbour (legal: A12 still breathes at A11).
        let position = pos(
            ".XO........../XO.O........./.XO........../............./............./\
             ............./............./............./............./............./\
             ............./............./............. X 30",
        );
        let pt = |t: &str| t.parse::<Point>().unwrap();
        assert!(position.legal_points().contains(pt("A13")));
        assert_eq!(position.captures(pt("C12")), pt("B12").bitboard());
        assert_eq!(
            position.count_moves() as usize,
            position.legal_moves().len()
        );
        assert_eq!(position.count_moves(), 169 - 7);
        assert_eq!(position.perft(2), perft(&position, 2));
        assert_eq!(position.perft(3), perft(&position, 3));
    }

    #[test]
    fn captures_lists_the_chains_taken() {
        let position = pos(
            "............./............./............./............./............./\
             ............./............./............./............./............./\
             XX.........../OOX........../.X........... X 20",
        );
        let pt = |t: &str| t.parse::<Point>().unwrap();
        // White A2 B2 breathe only at A1 (A3 B3 C2 B1 are black).
        let taken = position.captures(pt("A1"));
        assert_eq!(taken, [pt("A2"), pt("B2")].into_iter().collect());
        assert!(position.captures(pt("E5")).is_empty());
        assert!(position.captures(pt("A3")).is_empty(), "occupied");
    }
}
