//! The Tablut [`Position`]: pieces, side to move, the repetition history and a result decided by
//! the last move, with accessors and a builder. The rules (playing, outcome) are in `rules.rs`,
//! move generation in `movegen.rs`, the text in `text.rs`.

use std::fmt;

use super::history::{keys_of, History, BLACK_KEYS, BLACK_TO_MOVE, KING_KEYS, WHITE_KEYS};
use super::moves::Move;
use super::square::{Bitboard, Square, CASTLE};
use crate::{Color, Outcome};

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing (on e5: the empty castle).
    Empty,
    /// A white soldier.
    White,
    /// A black soldier.
    Black,
    /// The white king.
    King,
}

impl Cell {
    /// The letter of the position text: `O` empty, `W`, `B`, `K` (the empty castle is written `T`).
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Cell::Empty => 'O',
            Cell::White => 'W',
            Cell::Black => 'B',
            Cell::King => 'K',
        }
    }

    /// The side the piece belongs to (the king is White's), `None` for an empty square.
    #[must_use]
    pub const fn color(self) -> Option<Color> {
        match self {
            Cell::Empty => None,
            Cell::White | Cell::King => Some(Color::White),
            Cell::Black => Some(Color::Black),
        }
    }
}

/// A Tablut position: soldiers, the king, the side to move, the hashes of the states reached
/// since the last capture (for the repetition rule) and a result decided by the last move.
///
/// `Display` writes the one-line position text (`OOOBBBOOO/.../OOOBBBOOO - W`);
/// [`Position::from_text`] reads it and the challenge's multi-line form. Cloning copies at most
/// 16 history hashes and bumps one reference count. Two positions are equal when their boards,
/// sides to move, results, ply counts and histories are; compare [`Position::zobrist`] or the
/// text to compare boards only.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) white: u128,
    pub(super) black: u128,
    /// The king's bit; empty only on a board built without one.
    pub(super) king: u128,
    pub(super) side: Color,
    pub(super) ply: u32,
    /// Zobrist hash of the board and the side to move.
    pub(super) hash: u64,
    /// The ending decided by the last move: the king's escape or capture (the captured king
    /// stays on the board, as on the reference server) or a repeated state.
    pub(super) result: Option<Outcome>,
    pub(super) history: History,
}

/// Moves the piece on `mv.from` to `mv.to` on the boards given (white soldiers, black soldiers,
/// the king): its kind ([`KING_KEYS`] and the like) and the change to the Zobrist hash, or
/// `None` when `mv.from` is empty.
#[inline]
pub(super) fn shift_piece(
    white: &mut u128,
    black: &mut u128,
    king: &mut u128,
    mv: Move,
) -> Option<(usize, u64)> {
    let (from, to) = (mv.from.index(), mv.to.index());
    let (board, kind) = if *king & (1 << from) != 0 {
        (king, KING_KEYS)
    } else if *white & (1 << from) != 0 {
        (white, WHITE_KEYS)
    } else if *black & (1 << from) != 0 {
        (black, BLACK_KEYS)
    } else {
        return None;
    };
    *board ^= (1u128 << from) | (1u128 << to);
    Some((
        kind,
        super::history::ZOBRIST[kind][from] ^ super::history::ZOBRIST[kind][to],
    ))
}

impl Position {
    /// The start position: king e5; White d5 c5 f5 g5 e4 e3 e6 e7; Black d1 e1 f1 e2, d9 e9 f9
    /// e8, a4 a5 a6 b5, i4 i5 i6 h5; White to move.
    #[must_use]
    pub fn start() -> Position {
        let mut position = Position::empty();
        fn squares(list: &str) -> impl Iterator<Item = Square> + '_ {
            list.split(' ').filter_map(|s| s.parse().ok())
        }
        position.set_cell(Square::CASTLE, Cell::King);
        for sq in squares("d5 c5 f5 g5 e4 e3 e6 e7") {
            position.set_cell(sq, Cell::White);
        }
        for sq in squares("d1 e1 f1 e2 d9 e9 f9 e8 a4 a5 a6 b5 i4 i5 i6 h5") {
            position.set_cell(sq, Cell::Black);
        }
        position
    }

    /// An empty board, without a king, White to move: a base for building positions with
    /// [`Position::set_cell`]. (A board without a king counts as won by Black.)
    #[must_use]
    pub const fn empty() -> Position {
        Position {
            white: 0,
            black: 0,
            king: 0,
            side: Color::White,
            ply: 0,
            hash: 0,
            result: None,
            history: History::new(),
        }
    }

    /// What stands on `square`.
    #[must_use]
    pub const fn cell(&self, square: Square) -> Cell {
        let bit = square.bitboard().bits();
        if self.white & bit != 0 {
            Cell::White
        } else if self.black & bit != 0 {
            Cell::Black
        } else if self.king & bit != 0 {
            Cell::King
        } else {
            Cell::Empty
        }
    }

    /// Puts `cell` on `square`, replacing what was there; a king put anywhere leaves its old
    /// square. Editing the board forgets the repetition history and any result decided by the
    /// last move. The builder checks nothing: [`Position::from_text`] is the validating way in.
    pub fn set_cell(&mut self, square: Square, cell: Cell) {
        let bit = square.bitboard().bits();
        self.white &= !bit;
        self.black &= !bit;
        self.king &= !bit;
        match cell {
            Cell::Empty => {}
            Cell::White => self.white |= bit,
            Cell::Black => self.black |= bit,
            Cell::King => self.king = bit,
        }
        self.forget();
    }

    /// Sets whose turn it is (and, like [`Position::set_cell`], forgets the history and result).
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
        self.forget();
    }

    /// The squares of `color`'s soldiers (the king not included).
    #[must_use]
    pub const fn soldiers(&self, color: Color) -> Bitboard {
        Bitboard::from_bits(match color {
            Color::White => self.white,
            Color::Black => self.black,
        })
    }

    /// The number of `color`'s soldiers (the king not included): 8 and 16 at the start.
    #[must_use]
    pub const fn count_soldiers(&self, color: Color) -> u32 {
        self.soldiers(color).count()
    }

    /// The king's square (`None` only on a board built without one).
    #[must_use]
    pub const fn king(&self) -> Option<Square> {
        if self.king == 0 {
            None
        } else {
            Square::from_index(self.king.trailing_zeros() as usize)
        }
    }

    /// Every occupied square.
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard::from_bits(self.white | self.black | self.king)
    }

    /// The number of states in the repetition list: those reached since the last capture (or
    /// since the position was parsed or built). The next move draws if it reaches one of them.
    #[must_use]
    pub const fn states_since_capture(&self) -> usize {
        self.history.len()
    }

    /// A 64-bit Zobrist hash of the board and the side to move (the repetition rule compares
    /// these), handy as a transposition-table key.
    #[must_use]
    pub const fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The enemy soldiers `mv` would capture, whether or not it is legal (the king, when
    /// captured, is not among them: see [`Position::captures_king`]).
    #[must_use]
    pub fn captures(&self, mv: Move) -> Bitboard {
        Bitboard::from_bits(self.victims_of(mv).0)
    }

    /// Whether `mv` would capture the king (a win for Black), whether or not it is legal.
    #[must_use]
    pub fn captures_king(&self, mv: Move) -> bool {
        self.victims_of(mv).1
    }

    /// The game is over by the last move's result or for want of a king (the endings that do
    /// not need move generation).
    #[inline]
    pub(super) const fn is_decided(&self) -> bool {
        self.result.is_some() || self.king == 0
    }

    /// The pieces the side to move may move.
    #[inline]
    pub(super) const fn movers(&self) -> u128 {
        match self.side {
            Color::White => self.white | self.king,
            Color::Black => self.black,
        }
    }

    /// Moves the piece on `mv.from` to `mv.to`, updating the hash; nothing else. Returns whether
    /// it was the king.
    #[inline]
    pub(super) fn move_piece(&mut self, mv: Move) -> bool {
        match shift_piece(&mut self.white, &mut self.black, &mut self.king, mv) {
            Some((kind, keys)) => {
                self.hash ^= keys;
                kind == KING_KEYS
            }
            None => false,
        }
    }

    /// Recomputes the hash and drops the history and result (after an edit).
    fn forget(&mut self) {
        self.hash = keys_of(WHITE_KEYS, self.white)
            ^ keys_of(BLACK_KEYS, self.black)
            ^ keys_of(KING_KEYS, self.king)
            ^ if self.side == Color::Black {
                BLACK_TO_MOVE
            } else {
                0
            };
        self.history.clear();
        self.result = None;
    }

    /// Whether the castle is empty (it is written `T` then).
    #[must_use]
    pub const fn castle_is_empty(&self) -> bool {
        (self.white | self.black | self.king) & CASTLE == 0
    }
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
            .field("ply", &self.ply)
            .field("history", &self.history)
            .field("result", &self.result)
            .finish()
    }
}
