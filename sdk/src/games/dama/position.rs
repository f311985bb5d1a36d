//! The Dama [`Position`]: pieces, side to move, counters, the history the repetition rule needs,
//! accessors and a builder. Playing and the outcome are in `rules.rs`, move generation in
//! `movegen.rs`, the position text in `fen.rs`.

use std::fmt::{self, Write as _};
use std::hash::{Hash, Hasher};

use super::square::{Bitboard, Square};
use super::Variant;
use crate::Color;

/// The number of plies in a row without a capture or a man move that draws the game.
pub const MOVE_LIMIT: u32 = 80;

/// A piece: a man or a king (*dama*) of either colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A white man (integer 1, `w`).
    WhiteMan,
    /// A white king (integer 2, `W`).
    WhiteKing,
    /// A black man (integer 3, `b`).
    BlackMan,
    /// A black king (integer 4, `B`).
    BlackKing,
}

impl Piece {
    /// The piece of `color`, a king when `king`.
    #[must_use]
    pub const fn new(color: Color, king: bool) -> Piece {
        match (color, king) {
            (Color::White, false) => Piece::WhiteMan,
            (Color::White, true) => Piece::WhiteKing,
            (Color::Black, false) => Piece::BlackMan,
            (Color::Black, true) => Piece::BlackKing,
        }
    }

    /// Its colour.
    #[must_use]
    pub const fn color(self) -> Color {
        match self {
            Piece::WhiteMan | Piece::WhiteKing => Color::White,
            Piece::BlackMan | Piece::BlackKing => Color::Black,
        }
    }

    /// Whether it is a king.
    #[must_use]
    pub const fn is_king(self) -> bool {
        matches!(self, Piece::WhiteKing | Piece::BlackKing)
    }

    /// The board integer: 1 white man, 2 white king, 3 black man, 4 black king (0 is empty).
    #[must_use]
    pub const fn to_integer(self) -> u8 {
        self as u8 + 1
    }

    /// The letter [`crate::Position::pretty`] draws: `w`, `W`, `b`, `B`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Piece::WhiteMan => 'w',
            Piece::WhiteKing => 'W',
            Piece::BlackMan => 'b',
            Piece::BlackKing => 'B',
        }
    }
}

/// A Dama position: pieces, side to move, rule set, ply count, and the king steps since the last
/// capture or man move (what the 80-ply and repetition rules need).
///
/// `Display` writes the PDN FEN (`W:W21,...,32:B1,...,12`); [`Position::from_fen`] reads it.
/// Cloning copies about 100 bytes and never allocates. Equality and hashing cover the board, the
/// side, the rules, the ply and that history.
#[derive(Clone)]
pub struct Position {
    /// Each colour's pieces, men and kings.
    pub(super) pieces: [u32; 2],
    /// The kings of both colours.
    pub(super) kings: u32,
    pub(super) side: Color,
    pub(super) rules: Variant,
    pub(super) ply: u32,
    /// Whether this position occurred for the third time (set by the move that reached it).
    pub(super) repeated: bool,
    /// The number of king steps in `history`: plies since the last capture or man move.
    pub(super) quiet: u8,
    /// The king steps since the last capture or man move, oldest first, as `from index | direction
    /// << 5`. Only kings move in between, so these steps alone say which positions repeat.
    pub(super) history: [u8; MOVE_LIMIT as usize],
}

impl Position {
    /// The start position: Black men on 1-12, White men on 21-32, White to move.
    #[must_use]
    pub fn start(rules: Variant) -> Position {
        Position {
            pieces: [0xFFF0_0000, 0x0000_0FFF],
            ..Position::empty(rules)
        }
    }

    /// An empty board, White to move, no history: a base for building positions.
    #[must_use]
    pub const fn empty(rules: Variant) -> Position {
        Position {
            pieces: [0, 0],
            kings: 0,
            side: Color::White,
            rules,
            ply: 0,
            repeated: false,
            quiet: 0,
            history: [0; MOVE_LIMIT as usize],
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

    /// What stands on `square`.
    #[must_use]
    pub const fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = square.bit();
        let king = self.kings & bit != 0;
        if self.pieces[0] & bit != 0 {
            Some(Piece::new(Color::White, king))
        } else if self.pieces[1] & bit != 0 {
            Some(Piece::new(Color::Black, king))
        } else {
            None
        }
    }

    /// Puts `piece` on `square` (or empties it), replacing what was there. The history starts
    /// again from the new position.
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) {
        let bit = square.bit();
        self.pieces[0] &= !bit;
        self.pieces[1] &= !bit;
        self.kings &= !bit;
        if let Some(piece) = piece {
            self.pieces[piece.color().index()] |= bit;
            if piece.is_king() {
                self.kings |= bit;
            }
        }
        self.clear_history();
    }

    /// Whose turn it is.
    #[must_use]
    pub const fn side(&self) -> Color {
        self.side
    }

    /// Sets whose turn it is; the history starts again from here.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
        self.clear_history();
    }

    /// Sets the number of plies played so far (what [`crate::Position::ply`] reports).
    pub fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// The squares of `color`'s pieces, men and kings.
    #[must_use]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color.index()])
    }

    /// The squares of `color`'s men.
    #[must_use]
    pub const fn men(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color.index()] & !self.kings)
    }

    /// The squares of `color`'s kings.
    #[must_use]
    pub const fn kings(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color.index()] & self.kings)
    }

    /// The empty squares.
    #[must_use]
    pub const fn empty_squares(&self) -> Bitboard {
        Bitboard(!(self.pieces[0] | self.pieces[1]))
    }

    /// The number of `color`'s pieces, men and kings.
    #[must_use]
    pub const fn count(&self, color: Color) -> u32 {
        self.pieces[color.index()].count_ones()
    }

    /// The number of `color`'s kings.
    #[must_use]
    pub const fn count_kings(&self, color: Color) -> u32 {
        (self.pieces[color.index()] & self.kings).count_ones()
    }

    /// Plies in a row without a capture or a man move (since the last one, or since the position
    /// was set up); the game is drawn at [`MOVE_LIMIT`].
    #[must_use]
    pub const fn quiet_plies(&self) -> u32 {
        self.quiet as u32
    }

    /// Whether this position has occurred three times (with the same side to move) since it was
    /// set up: the game is drawn.
    #[must_use]
    pub const fn is_third_repetition(&self) -> bool {
        self.repeated
    }

    /// A 64-bit hash of the board and the side to move only (not the counters): for bots'
    /// transposition tables. Equal boards with the same side to move have equal keys.
    #[must_use]
    pub const fn key(&self) -> u64 {
        let board = (self.pieces[0] as u64) << 32 | self.pieces[1] as u64;
        let rest = (self.kings as u64) << 1 | self.side as u64;
        Position::mix(board ^ Position::mix(rest.wrapping_add(0x9E37_79B9_7F4A_7C15)))
    }

    /// The board as integers, row by row from the top as White sees it: 0 empty (and the light
    /// squares), 1 white man, 2 white king, 3 black man, 4 black king.
    #[must_use]
    pub fn to_integers(&self) -> [[u8; 8]; 8] {
        let mut rows = [[0; 8]; 8];
        for square in Square::ALL {
            if let Some(piece) = self.piece_at(square) {
                rows[square.row() as usize][square.column() as usize] = piece.to_integer();
            }
        }
        rows
    }

    /// [`Position::to_integers`] as text: eight lines of eight digits separated by spaces.
    #[must_use]
    pub fn integers_text(&self) -> String {
        let mut out = String::with_capacity(8 * 16);
        for row in self.to_integers() {
            for (i, value) in row.iter().enumerate() {
                let sep = if i == 7 { '\n' } else { ' ' };
                let _ = write!(out, "{value}{sep}");
            }
        }
        out
    }

    /// splitmix64's finaliser: every input bit reaches every output bit.
    const fn mix(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }

    /// The live part of the history.
    fn live_history(&self) -> &[u8] {
        &self.history[..usize::from(self.quiet)]
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        (
            self.pieces,
            self.kings,
            self.side,
            self.rules,
            self.ply,
            self.repeated,
        ) == (
            other.pieces,
            other.kings,
            other.side,
            other.rules,
            other.ply,
            other.repeated,
        ) && self.live_history() == other.live_history()
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.pieces, self.kings, self.side, self.rules, self.ply).hash(state);
        self.repeated.hash(state);
        self.live_history().hash(state);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("fen", &format_args!("{self}"))
            .field("rules", &self.rules)
            .field("ply", &self.ply)
            .field("quiet", &self.quiet)
            .field("repeated", &self.repeated)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn start_position() {
        let start = Position::start(Variant::Fid);
        assert_eq!(start.count(Color::White), 12);
        assert_eq!(start.count(Color::Black), 12);
        assert_eq!(start.piece_at(sq(21)), Some(Piece::WhiteMan));
        assert_eq!(start.piece_at(sq(12)), Some(Piece::BlackMan));
        assert_eq!(start.piece_at(sq(13)), None);
        assert_eq!(start.empty_squares().count(), 8);
        assert_eq!(start.side(), Color::White);
    }

    #[test]
    fn builder_and_accessors() {
        let mut position = Position::empty(Variant::School);
        position.set_piece(sq(5), Some(Piece::WhiteKing));
        position.set_piece(sq(18), Some(Piece::BlackMan));
        position.set_piece(sq(19), Some(Piece::BlackKing));
        position.set_piece(sq(19), Some(Piece::WhiteMan));
        position.set_side_to_move(Color::Black);
        assert_eq!(position.piece_at(sq(19)), Some(Piece::WhiteMan));
        assert_eq!(position.count(Color::White), 2);
        assert_eq!(position.count_kings(Color::White), 1);
        assert_eq!(position.count_kings(Color::Black), 0);
        let men: Vec<Square> = position.men(Color::White).into_iter().collect();
        assert_eq!(men, [sq(19)]);
        assert!(position.kings(Color::White).contains(sq(5)));
        assert_eq!(position.pieces(Color::Black).count(), 1);
        position.set_piece(sq(18), None);
        assert_eq!(position.piece_at(sq(18)), None);
        assert_eq!(position.quiet_plies(), 0);
        assert!(!position.is_third_repetition());
    }

    #[test]
    fn pieces_as_integers() {
        for (piece, n, c) in [
            (Piece::WhiteMan, 1, 'w'),
            (Piece::WhiteKing, 2, 'W'),
            (Piece::BlackMan, 3, 'b'),
            (Piece::BlackKing, 4, 'B'),
        ] {
            assert_eq!((piece.to_integer(), piece.symbol()), (n, c));
            assert_eq!(Piece::new(piece.color(), piece.is_king()), piece);
        }
        let mut position = Position::start(Variant::Fid);
        position.set_piece(sq(1), Some(Piece::BlackKing));
        position.set_piece(sq(32), Some(Piece::WhiteKing));
        let rows = position.to_integers();
        assert_eq!(rows[0], [4, 0, 3, 0, 3, 0, 3, 0]);
        assert_eq!(rows[1], [0, 3, 0, 3, 0, 3, 0, 3]);
        assert_eq!(rows[3], [0; 8]);
        assert_eq!(rows[7], [0, 1, 0, 1, 0, 1, 0, 2]);
        let text = position.integers_text();
        assert_eq!(text.lines().count(), 8);
        assert_eq!(text.lines().next(), Some("4 0 3 0 3 0 3 0"));
        assert_eq!(text.lines().last(), Some("0 1 0 1 0 1 0 2"));
    }

    #[test]
    fn key_ignores_counters_but_not_the_board() {
        let start = Position::start(Variant::Fid);
        let mut later = start.clone();
        later.set_ply(40);
        assert_eq!(start.key(), later.key());
        later.set_side_to_move(Color::Black);
        assert_ne!(start.key(), later.key());
        let mut king = start.clone();
        king.set_piece(sq(21), Some(Piece::WhiteKing));
        assert_ne!(start.key(), king.key());
        assert_ne!(start, later);
    }
}
