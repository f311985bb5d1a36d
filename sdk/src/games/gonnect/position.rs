//! The Gonnect [`Position`]: stones, side to move, move number and the history of boards, with
//! accessors and a builder. Playing and the outcome are in `rules.rs`, move generation in
//! `movegen.rs`, the position text in `text.rs`.

use std::fmt;

use super::bitboard::Bitboard;
use super::history::{count_bits, zobrist, History, COUNT_BITS};
use super::point::Point;
use crate::Color;

/// The board symbol of a colour: `X` Black, `O` White.
#[must_use]
pub const fn symbol(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// A Gonnect position: the stones, the side to move, the number of the move about to be played,
/// and the keys of every board of the game so far (for positional superko).
///
/// `Display` writes the position text: 13 rows of `.XO` joined by `/`, the side to move and the
/// move number, like `............./.../............. X 1` (see the [module docs](super));
/// [`Position::from_text`] reads it. Cloning is cheap: the history is shared (see `history.rs`).
/// Two positions are equal when their boards, sides to move, move numbers and histories are.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// The stones by colour index.
    pub(super) stones: [Bitboard; 2],
    /// The key of the board: Zobrist hash and stone counts (see `history.rs`).
    pub(super) key: u64,
    pub(super) side: Color,
    pub(super) move_number: u32,
    /// The colour one of whose chains spans two opposite sides: the winner.
    pub(super) connected: Option<Color>,
    pub(super) history: History,
}

impl Position {
    /// The start position: the empty board, Black to move, move 1.
    #[must_use]
    pub fn start() -> Position {
        Position {
            stones: [Bitboard::EMPTY; 2],
            key: 0,
            side: Color::Black,
            move_number: 1,
            connected: None,
            history: History::new(0),
        }
    }

    /// The stones of `color`.
    #[must_use]
    pub const fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// The empty points.
    #[must_use]
    pub fn empty_points(&self) -> Bitboard {
        !(self.stones[0] | self.stones[1])
    }

    /// The number of `color`'s stones.
    #[must_use]
    pub const fn count(&self, color: Color) -> u32 {
        self.stones[color.index()].count()
    }

    /// The colour of the stone on `point`, or `None` when it is empty.
    #[must_use]
    pub const fn stone(&self, point: Point) -> Option<Color> {
        if self.stones[Color::White.index()].contains(point) {
            Some(Color::White)
        } else if self.stones[Color::Black.index()].contains(point) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The chain (orthogonally connected stones of one colour) through `point`; empty when the
    /// point is empty.
    #[must_use]
    pub fn chain(&self, point: Point) -> Bitboard {
        match self.stone(point) {
            Some(color) => point.bitboard().flood(self.stones(color)),
            None => Bitboard::EMPTY,
        }
    }

    /// The liberties (empty neighbours) of the chain through `point`; empty when the point is.
    #[must_use]
    pub fn liberties(&self, point: Point) -> Bitboard {
        self.chain(point).neighbours() & self.empty_points()
    }

    /// The number of the move about to be played, counting from 1 (the swap is legal at 2).
    #[must_use]
    pub const fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The colour that has connected two opposite sides with one chain, if any: the winner.
    #[must_use]
    pub const fn connected(&self) -> Option<Color> {
        self.connected
    }

    /// The number of boards in the history superko compares against: 1 for a parsed or built
    /// position, one more for each move played since.
    #[must_use]
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// A hash of the board and the side to move, for transposition tables. Equal boards with the
    /// same side to move hash alike whatever their histories (which superko also depends on).
    #[must_use]
    pub const fn zobrist_hash(&self) -> u64 {
        // An odd constant: flipping the side changes the count bits too, which is harmless.
        match self.side {
            Color::Black => self.key,
            Color::White => self.key ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Puts a stone of `stone`'s colour on `point`, or empties it for `None`. The history is reset
    /// to the new board, as for a parsed position.
    ///
    /// The builder does not capture anything: a chain left without liberties cannot arise in
    /// play (and [`Position::from_text`] refuses it); with one on the board the moves generated
    /// are unspecified.
    pub fn set_stone(&mut self, point: Point, stone: Option<Color>) {
        let bit = point.bitboard();
        self.stones[0] = self.stones[0].and_not(bit);
        self.stones[1] = self.stones[1].and_not(bit);
        if let Some(color) = stone {
            self.stones[color.index()] |= bit;
        }
        self.reset_history();
    }

    /// Sets whose turn it is.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
        self.connected = self.find_connection();
    }

    /// Sets the number of the move about to be played (at least 1).
    pub fn set_move_number(&mut self, number: u32) {
        self.move_number = number.max(1);
    }

    /// Recomputes the key and the connection from the stones and starts a new history.
    pub(super) fn reset_history(&mut self) {
        self.key = board_key(self.stones);
        self.connected = self.find_connection();
        self.history = History::new(self.key);
    }

    /// The colour with a chain spanning two opposite sides. Both can only have one in a set-up
    /// position; then the side that moved last (not the side to move) is taken as the winner.
    fn find_connection(&self) -> Option<Color> {
        let spans = |color: Color| {
            let stones = self.stones(color);
            let from_left = (stones & super::bitboard::LEFT).flood(stones);
            let from_bottom = (stones & super::bitboard::BOTTOM).flood(stones);
            !(from_left & super::bitboard::RIGHT).is_empty()
                || !(from_bottom & super::bitboard::TOP).is_empty()
        };
        let mover = self.side.other();
        [mover, self.side].into_iter().find(|&c| spans(c))
    }

    /// The chains of `color` without any liberty, as the lowest point of each.
    pub(super) fn dead_chains(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        let stones = self.stones(color);
        let empty = self.empty_points();
        let mut rest = stones;
        std::iter::from_fn(move || {
            while let Some(seed) = rest.first() {
                let chain = seed.bitboard().flood(stones);
                rest = rest.and_not(chain);
                if (chain.neighbours() & empty).is_empty() {
                    return Some(seed);
                }
            }
            None
        })
    }
}

/// The key of a board: its Zobrist hash and stone counts.
pub(super) fn board_key(stones: [Bitboard; 2]) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        for point in stones[color.index()] {
            key ^= zobrist(color, point);
        }
    }
    (key & !COUNT_BITS) | count_bits(stones[0].count(), stones[1].count())
}

impl Default for Position {
    /// The start position.
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("text", &format_args!("{self}"))
            .field("history_len", &self.history.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(text: &str) -> Point {
        text.parse().unwrap()
    }

    #[test]
    fn start_is_empty_with_black_to_move() {
        let start = Position::start();
        assert_eq!(start.empty_points(), Bitboard::FULL);
        assert_eq!(start.side, Color::Black);
        assert_eq!((start.move_number(), start.history_len()), (1, 1));
        assert_eq!(start.connected(), None);
        assert_eq!(start, Position::default());
    }

    #[test]
    fn builder_and_accessors() {
        let mut position = Position::start();
        for p in ["C3", "C4", "D4"] {
            position.set_stone(pt(p), Some(Color::Black));
        }
        position.set_stone(pt("D3"), Some(Color::White));
        position.set_stone(pt("N13"), Some(Color::White));
        position.set_stone(pt("N13"), None);
        position.set_side_to_move(Color::White);
        position.set_move_number(9);
        assert_eq!(position.stone(pt("C3")), Some(Color::Black));
        assert_eq!(position.stone(pt("D3")), Some(Color::White));
        assert_eq!(position.stone(pt("N13")), None);
        assert_eq!(
            (position.count(Color::Black), position.count(Color::White)),
            (3, 1)
        );
        assert_eq!(position.chain(pt("C3")).count(), 3);
        assert_eq!(position.chain(pt("D3")).count(), 1);
        assert_eq!(position.chain(pt("E5")), Bitboard::EMPTY);
        // C3 C4 D4: B3 C2 B4 C5 D5 E4 free, D3 taken.
        assert_eq!(position.liberties(pt("D4")).count(), 6);
        assert_eq!(position.liberties(pt("D3")).count(), 2);
        assert_eq!(position.move_number(), 9);
        assert_eq!(position.history_len(), 1);
        assert_eq!(position.key, board_key(position.stones));
        assert_ne!(position.zobrist_hash(), {
            let mut black = position.clone();
            black.set_side_to_move(Color::Black);
            black.zobrist_hash()
        });
        position.set_move_number(0);
        assert_eq!(position.move_number(), 1);
    }

    #[test]
    fn connection_is_found_for_either_colour_and_pair_of_sides() {
        let mut position = Position::start();
        for p in Point::ALL.into_iter().filter(|p| p.column() == 3) {
            position.set_stone(p, Some(Color::White));
        }
        assert_eq!(position.connected(), Some(Color::White));
        position.set_stone(pt("D7"), Some(Color::Black));
        assert_eq!(position.connected(), None);
        for p in Point::ALL.into_iter().filter(|p| p.row() == 6) {
            position.set_stone(p, Some(Color::Black));
        }
        assert_eq!(position.connected(), Some(Color::Black));
    }

    #[test]
    fn when_both_connect_in_a_set_up_position_the_last_mover_wins() {
        let mut position = Position::start();
        for p in Point::ALL
            .into_iter()
            .filter(|p| p.row() == 0 || p.row() == 2)
        {
            let color = if p.row() == 0 {
                Color::Black
            } else {
                Color::White
            };
            position.set_stone(p, Some(color));
        }
        // Black to move: White moved last.
        assert_eq!(position.connected(), Some(Color::White));
        position.set_side_to_move(Color::White);
        assert_eq!(position.connected(), Some(Color::Black));
    }

    #[test]
    fn dead_chains_are_listed() {
        let mut position = Position::start();
        position.set_stone(pt("A1"), Some(Color::Black));
        position.set_stone(pt("A2"), Some(Color::White));
        assert_eq!(position.dead_chains(Color::Black).count(), 0);
        position.set_stone(pt("B1"), Some(Color::White));
        assert_eq!(
            position.dead_chains(Color::Black).collect::<Vec<_>>(),
            [pt("A1")]
        );
        assert_eq!(position.dead_chains(Color::White).count(), 0);
    }
}
