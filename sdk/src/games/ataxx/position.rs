//! The Ataxx [`Position`]: board, side to move, counters and rule set, with accessors and a
//! builder. The rules (playing, outcome) are in `rules.rs`, move generation in `movegen.rs`.

use std::fmt;

use super::moves::Move;
use super::square::{dilate2, Bitboard, Square, FULL, NEIGHBOURS};
use super::Variant;
use crate::Color;

/// The halfmove clock value (plies without a clone) at which the game is drawn.
pub const MOVE_LIMIT: u32 = 100;

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing: a piece may clone or jump here.
    Empty,
    /// A blocked square that is never occupied.
    Gap,
    /// A piece of this colour.
    Piece(Color),
}

impl Cell {
    /// The board symbol: `x` White, `o` Black, `-` gap, `.` empty (FEN writes empty runs as digits).
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Gap => '-',
            Cell::Piece(Color::White) => 'x',
            Cell::Piece(Color::Black) => 'o',
        }
    }
}

/// An Ataxx position: pieces, gaps, side to move, halfmove clock, fullmove number and rule set.
///
/// `Display` writes FEN (`x5o/7/7/7/7/7/o5x x 0 1`); [`Position::from_fen`] reads it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) pieces: [u64; 2],
    pub(super) gaps: u64,
    pub(super) side: Color,
    pub(super) halfmove_clock: u32,
    pub(super) fullmove_number: u32,
    pub(super) rules: Variant,
}

/// What the side to move can do; the single test behind move generation and
/// [`crate::Position::outcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mobility {
    /// The game is over.
    GameOver,
    /// The only legal move is [`Move::Pass`].
    MustPass,
    /// There is at least one clone or jump.
    Moves,
}

impl Position {
    /// The start position: White (`x`) on a7 and g1, Black (`o`) on g7 and a1, White to move.
    #[must_use]
    pub fn start(rules: Variant) -> Position {
        let corner =
            |file, rank| Square::from_coords(file, rank).map_or(0, |s| s.bitboard().bits());
        Position {
            pieces: [corner(0, 6) | corner(6, 0), corner(6, 6) | corner(0, 0)],
            ..Position::empty(rules)
        }
    }

    /// An empty board (no pieces, no gaps), White to move, clocks `0 1`: a base for building positions.
    #[must_use]
    pub const fn empty(rules: Variant) -> Position {
        Position {
            pieces: [0, 0],
            gaps: 0,
            side: Color::White,
            halfmove_clock: 0,
            fullmove_number: 1,
            rules,
        }
    }

    /// The rule set this position is played under.
    #[must_use]
    pub const fn rules(&self) -> Variant {
        self.rules
    }

    /// Changes the rule set (the board and counters stay).
    pub fn set_rules(&mut self, rules: Variant) {
        self.rules = rules;
    }

    /// The squares holding `color`'s pieces.
    #[must_use]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        Bitboard::from_bits(self.pieces[color.index()])
    }

    /// The gaps (blocked squares).
    #[must_use]
    pub const fn gaps(&self) -> Bitboard {
        Bitboard::from_bits(self.gaps)
    }

    /// The empty squares (neither a piece nor a gap).
    #[must_use]
    pub const fn empty_squares(&self) -> Bitboard {
        Bitboard::from_bits(self.empty_bits())
    }

    /// The number of `color`'s pieces.
    #[must_use]
    pub const fn count(&self, color: Color) -> u32 {
        self.pieces[color.index()].count_ones()
    }

    /// What stands on `square`.
    #[must_use]
    pub const fn cell(&self, square: Square) -> Cell {
        let bit = square.bitboard().bits();
        if self.pieces[0] & bit != 0 {
            Cell::Piece(Color::White)
        } else if self.pieces[1] & bit != 0 {
            Cell::Piece(Color::Black)
        } else if self.gaps & bit != 0 {
            Cell::Gap
        } else {
            Cell::Empty
        }
    }

    /// Puts `cell` on `square`, replacing what was there.
    pub fn set_cell(&mut self, square: Square, cell: Cell) {
        let bit = square.bitboard().bits();
        self.pieces[0] &= !bit;
        self.pieces[1] &= !bit;
        self.gaps &= !bit;
        match cell {
            Cell::Empty => {}
            Cell::Gap => self.gaps |= bit,
            Cell::Piece(color) => self.pieces[color.index()] |= bit,
        }
    }

    /// Sets whose turn it is.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// Plies since the last clone (jumps and passes count); the game is drawn at 100.
    #[must_use]
    pub const fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Sets the halfmove clock.
    pub fn set_halfmove_clock(&mut self, plies: u32) {
        self.halfmove_clock = plies;
    }

    /// The move number: 1 at the start, incremented after each move of Black (`o`).
    #[must_use]
    pub const fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Sets the fullmove number.
    pub fn set_fullmove_number(&mut self, number: u32) {
        self.fullmove_number = number;
    }

    /// How many enemy pieces `mv` would convert (whether or not it is legal; 0 for a pass).
    #[must_use]
    pub const fn converts(&self, mv: Move) -> u32 {
        match mv.to() {
            Some(to) => {
                (NEIGHBOURS[to.index()] & self.pieces[self.side.other().index()]).count_ones()
            }
            None => 0,
        }
    }

    #[inline]
    pub(super) const fn empty_bits(&self) -> u64 {
        !(self.pieces[0] | self.pieces[1] | self.gaps) & FULL
    }

    /// Whether neither a lack of pieces nor the move limit has ended the game; the remaining
    /// endings depend on mobility.
    #[inline]
    pub(super) const fn is_live(&self) -> bool {
        self.pieces[0] != 0 && self.pieces[1] != 0 && self.halfmove_clock < MOVE_LIMIT
    }

    #[inline]
    pub(super) fn mobility(&self) -> Mobility {
        if !self.is_live() {
            return Mobility::GameOver;
        }
        let empty = self.empty_bits();
        if dilate2(self.pieces[self.side.index()]) & empty != 0 {
            Mobility::Moves
        } else if self.rules == Variant::Attax
            || dilate2(self.pieces[self.side.other().index()]) & empty == 0
        {
            Mobility::GameOver
        } else {
            Mobility::MustPass
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("fen", &format_args!("{self}"))
            .field("rules", &self.rules)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position as _;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn accessors_and_builder() {
        let mut position = Position::empty(Variant::Attax);
        position.set_cell(sq("c5"), Cell::Piece(Color::Black));
        position.set_cell(sq("d4"), Cell::Gap);
        position.set_cell(sq("a1"), Cell::Piece(Color::White));
        position.set_cell(sq("a1"), Cell::Piece(Color::Black));
        position.set_side_to_move(Color::Black);
        position.set_halfmove_clock(4);
        position.set_fullmove_number(12);
        assert_eq!(position.to_string(), "7/7/2o4/3-3/7/7/o6 o 4 12");
        assert_eq!(position.cell(sq("c5")), Cell::Piece(Color::Black));
        assert_eq!(position.cell(sq("d4")), Cell::Gap);
        assert_eq!(position.cell(sq("e4")), Cell::Empty);
        assert_eq!(
            (position.count(Color::Black), position.count(Color::White)),
            (2, 0)
        );
        assert_eq!(position.gaps().count(), 1);
        assert_eq!(position.empty_squares().count(), 46);
        assert_eq!(
            position
                .pieces(Color::Black)
                .into_iter()
                .collect::<Vec<_>>(),
            [sq("a1"), sq("c5")]
        );
        position.set_rules(Variant::Standard);
        assert_eq!(position.variant(), "standard");
    }
}
