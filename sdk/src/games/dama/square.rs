//! The 32 dark squares, their numbering, diagonal directions and the shift tables of the
//! 32-square bitboard.
//!
//! Square `n` (1-32) is bit `n - 1`. Seen from White, square 1 is the top-left corner (a8), the
//! numbering runs left to right, row by row, and square 32 is the bottom-right corner (h1). Rows
//! alternate between the files a c e g (rows holding 1-4, 9-12, ...) and b d f h, so a diagonal
//! step is a shift by 3, 4 or 5 depending on the row; a jump (two steps) is a shift by 7 or 9.

use crate::games::bitboard::integer_bitboard;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The rows holding squares 1-4, 9-12, 17-20 and 25-28 (files a c e g).
pub(crate) const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// The rows holding squares 5-8, 13-16, 21-24 and 29-32 (files b d f h).
pub(crate) const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// File a: squares 1, 9, 17, 25.
const FILE_A: u32 = 0x0101_0101;
/// File h: squares 8, 16, 24, 32.
const FILE_H: u32 = 0x8080_8080;
/// The top row, squares 1-4: where White's men become kings.
pub(crate) const TOP_ROW: u32 = 0x0000_000F;
/// The bottom row, squares 29-32: where Black's men become kings.
pub(crate) const BOTTOM_ROW: u32 = 0xF000_0000;

/// A diagonal direction, as seen from White: up is towards square 1 (White's forward).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// Up and to the left (towards a8).
    UpLeft = 0,
    /// Up and to the right (towards h8).
    UpRight = 1,
    /// Down and to the left (towards a1).
    DownLeft = 2,
    /// Down and to the right (towards h1).
    DownRight = 3,
}

impl Direction {
    /// All four directions, in the order of their codes.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The direction with this code (only the low two bits count).
    #[must_use]
    pub const fn from_code(code: u8) -> Direction {
        Direction::ALL[(code & 3) as usize]
    }

    /// The directions a man of `white` moves and captures in (forward).
    pub(crate) const fn forward(white: bool) -> &'static [Direction] {
        if white {
            &[Direction::UpLeft, Direction::UpRight]
        } else {
            &[Direction::DownLeft, Direction::DownRight]
        }
    }

    /// Shifts every square of `bits` one step this way; squares that would leave the board vanish.
    #[inline]
    #[must_use]
    pub(crate) const fn shift(self, bits: u32) -> u32 {
        match self {
            Direction::UpLeft => ((bits & EVEN_ROWS & !FILE_A) >> 5) | ((bits & ODD_ROWS) >> 4),
            Direction::UpRight => ((bits & EVEN_ROWS) >> 4) | ((bits & ODD_ROWS & !FILE_H) >> 3),
            Direction::DownLeft => ((bits & EVEN_ROWS & !FILE_A) << 3) | ((bits & ODD_ROWS) << 4),
            Direction::DownRight => ((bits & EVEN_ROWS) << 4) | ((bits & ODD_ROWS & !FILE_H) << 5),
        }
    }

    /// The opposite direction.
    #[must_use]
    pub const fn reverse(self) -> Direction {
        Direction::from_code(self as u8 ^ 3)
    }
}

/// One of the 32 dark squares, numbered 1-32 as the FID does (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The square one step away in each direction (index), or `NONE`.
pub(crate) const STEP: [[u8; 4]; 32] = table(1);
/// The landing square of a jump in each direction (index), or `NONE`.
pub(crate) const JUMP: [[u8; 4]; 32] = table(2);
/// No square: off the board.
pub(crate) const NONE: u8 = 0xFF;

/// The square `steps` diagonal steps away from each square in each direction.
const fn table(steps: usize) -> [[u8; 4]; 32] {
    let mut out = [[NONE; 4]; 32];
    let mut index = 0;
    while index < 32 {
        let mut d = 0;
        while d < 4 {
            let mut bits = 1u32 << index;
            let mut i = 0;
            while i < steps {
                bits = Direction::ALL[d].shift(bits);
                i += 1;
            }
            if bits != 0 {
                out[index][d] = bits.trailing_zeros() as u8;
            }
            d += 1;
        }
        index += 1;
    }
    out
}

impl Square {
    /// Every square, 1 to 32.
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square numbered `number` (1-32).
    #[must_use]
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The square with bit index `index` (0-31: the number minus one).
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 32 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square at `row` (0 = the top row seen from White) and `column` (0 = file a), if that
    /// is a dark square.
    #[must_use]
    pub const fn from_coords(row: u8, column: u8) -> Option<Square> {
        if row < 8 && column < 8 && (row + column) % 2 == 0 {
            Some(Square(row * 4 + column / 2))
        } else {
            None
        }
    }

    /// The number, 1-32.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The bit index, 0-31.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, 0 (the top row seen from White, squares 1-4) to 7 (squares 29-32).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// The column, 0 (file a) to 7 (file h).
    #[must_use]
    pub const fn column(self) -> u8 {
        (self.0 % 4) * 2 + (self.0 / 4) % 2
    }

    /// The bit of this square.
    #[must_use]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// The neighbour one diagonal step away in `direction`, if on the board.
    #[must_use]
    pub const fn step(self, direction: Direction) -> Option<Square> {
        Square::from_table(STEP[self.0 as usize][direction as usize])
    }

    /// The landing square of a jump in `direction` (two steps away), if on the board.
    #[must_use]
    pub const fn jump(self, direction: Direction) -> Option<Square> {
        Square::from_table(JUMP[self.0 as usize][direction as usize])
    }

    /// The direction of a diagonal step to `to`, if `to` is a neighbour.
    #[must_use]
    pub fn step_direction(self, to: Square) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| self.step(d) == Some(to))
    }

    /// The direction of a jump landing on `to`, if `to` is two diagonal steps away.
    #[must_use]
    pub fn jump_direction(self, to: Square) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| self.jump(d) == Some(to))
    }

    const fn from_table(index: u8) -> Option<Square> {
        if index == NONE {
            None
        } else {
            Some(Square(index))
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error of parsing a [`Square`] from text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid square {0:?} (expected a number from 1 to 32)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads a number from 1 to 32, ignoring surrounding whitespace.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let digits = s.trim();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseSquareError(s.to_owned()));
        }
        digits
            .parse()
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

integer_bitboard! {
    /// A set of squares: bit `n - 1` is square `n`.
    pub struct Bitboard(pub u32);
    squares: Squares,
    square: Square,
    full: u32::MAX,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    #[test]
    fn numbering_follows_the_fid_board() {
        // 1 is a8, the top-left corner; 5 is b7; 32 is h1, the bottom-right corner.
        assert_eq!((sq(1).row(), sq(1).column()), (0, 0));
        assert_eq!((sq(4).row(), sq(4).column()), (0, 6));
        assert_eq!((sq(5).row(), sq(5).column()), (1, 1));
        assert_eq!((sq(32).row(), sq(32).column()), (7, 7));
        assert_eq!((sq(29).row(), sq(29).column()), (7, 1));
        for s in Square::ALL {
            assert_eq!(Square::from_coords(s.row(), s.column()), Some(s));
            assert_eq!(s.to_string().parse::<Square>(), Ok(s));
        }
        assert_eq!(Square::from_coords(0, 1), None);
        assert_eq!(Square::from_coords(8, 0), None);
        assert_eq!((Square::new(0), Square::new(33)), (None, None));
    }

    #[test]
    fn steps_and_jumps_follow_the_diagonals() {
        for a in Square::ALL {
            for d in Direction::ALL {
                let (dr, dc): (i8, i8) = match d {
                    Direction::UpLeft => (-1, -1),
                    Direction::UpRight => (-1, 1),
                    Direction::DownLeft => (1, -1),
                    Direction::DownRight => (1, 1),
                };
                let at = |k: i8| {
                    let (r, c) = (a.row() as i8 + k * dr, a.column() as i8 + k * dc);
                    u8::try_from(r)
                        .ok()
                        .zip(u8::try_from(c).ok())
                        .and_then(|(r, c)| Square::from_coords(r, c))
                };
                assert_eq!(a.step(d), at(1), "{a} {d:?}");
                assert_eq!(a.jump(d), at(2), "{a} {d:?}");
                if let Some(b) = a.step(d) {
                    assert_eq!(b.step(d.reverse()), Some(a));
                    assert_eq!(a.step_direction(b), Some(d));
                }
                if let Some(b) = a.jump(d) {
                    assert_eq!(a.jump_direction(b), Some(d));
                }
            }
        }
        // The examples of RULES.md: 30 jumps 27 to 23, 31 jumps 28 to 24.
        assert_eq!(sq(30).step(Direction::UpRight), Some(sq(27)));
        assert_eq!(sq(30).jump(Direction::UpRight), Some(sq(23)));
        assert_eq!(sq(31).jump(Direction::UpRight), Some(sq(24)));
        assert_eq!(sq(23).step(Direction::UpLeft), Some(sq(19)));
        assert_eq!(sq(1).step(Direction::UpLeft), None);
        assert_eq!(sq(32).step(Direction::DownRight), None);
    }

    #[test]
    fn square_text() {
        assert_eq!(" 7 ".parse::<Square>(), Ok(sq(7)));
        assert_eq!("07".parse::<Square>(), Ok(sq(7)));
        for bad in ["", "0", "33", "+1", "-1", "1a", "100", "٣"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError(bad.to_owned())));
        }
    }

    #[test]
    fn bitboards() {
        let bb: Bitboard = [sq(1), sq(32), sq(17)].into_iter().collect();
        assert_eq!(bb.bits(), 1 | 1 << 31 | 1 << 16);
        assert_eq!(bb.count(), 3);
        assert!(bb.contains(sq(17)) && !bb.contains(sq(18)));
        let numbers: Vec<u8> = bb.into_iter().map(Square::number).collect();
        assert_eq!(numbers, [1, 17, 32]);
        assert_eq!((!bb & bb), Bitboard::EMPTY);
        assert_eq!((bb | Bitboard(2)).count(), 4);
        assert_eq!(EVEN_ROWS | ODD_ROWS, u32::MAX);
    }
}
