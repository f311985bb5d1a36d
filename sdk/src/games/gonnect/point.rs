//! Points of the 13x13 board and their Go-style names (`G7`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::bitboard::Bitboard;

/// Points per side of the board.
pub const SIZE: u8 = 13;
/// Bits per row in a [`Bitboard`]: the 13 columns and one guard column.
pub(super) const STRIDE: u32 = 14;
/// The column letters, Go style: A to N without I.
const LETTERS: &[u8; 13] = b"ABCDEFGHJKLMN";

/// A point of the 13x13 board, written Go style: a column `A`-`N` without `I`, then a row `1`-`13`
/// counted from the bottom, like `G7`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// Every point, `A1`, `B1`, ... `N13` (row by row from the bottom).
    pub const ALL: [Point; 169] = {
        let mut all = [Point(0); 169];
        let mut i = 0;
        while i < 169 {
            all[i] = Point::from_index_unchecked(i);
            i += 1;
        }
        all
    };

    const fn from_index_unchecked(index: usize) -> Point {
        let (row, col) = (index / SIZE as usize, index % SIZE as usize);
        Point((row * STRIDE as usize + col) as u8)
    }

    /// The point with this dense index (`row * 13 + column`), if it is below 169.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < 169 {
            Some(Point::from_index_unchecked(index))
        } else {
            None
        }
    }

    /// The point in `column` (0 = A .. 12 = N) and `row` (0 = row 1 .. 12 = row 13), if both are
    /// below 13.
    #[must_use]
    pub const fn from_coords(column: u8, row: u8) -> Option<Point> {
        if column < SIZE && row < SIZE {
            Some(Point(row * STRIDE as u8 + column))
        } else {
            None
        }
    }

    /// The dense index, `row * 13 + column`, in `0..169`: for per-point arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self.row() as usize * SIZE as usize + self.column() as usize
    }

    /// The column, 0 (A) to 12 (N).
    #[must_use]
    pub const fn column(self) -> u8 {
        self.0 % STRIDE as u8
    }

    /// The row, 0 (row 1, the bottom) to 12 (row 13, the top).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / STRIDE as u8
    }

    /// The column letter, `A`-`N` without `I`.
    #[must_use]
    pub const fn column_letter(self) -> char {
        LETTERS[self.column() as usize] as char
    }

    /// The bit of this point in a [`Bitboard`] (internal layout with guard columns).
    #[inline]
    pub(super) const fn bit(self) -> usize {
        self.0 as usize
    }

    /// The point of a bitboard bit; `bit` must be a point's bit.
    #[inline]
    pub(super) const fn from_bit(bit: usize) -> Point {
        Point(bit as u8)
    }

    /// The bitboard holding just this point.
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        let mut words = [0; 3];
        words[self.0 as usize / 64] = 1 << (self.0 % 64);
        Bitboard(words)
    }

    /// The (two to four) points orthogonally next to this one.
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        self.bitboard().neighbours()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error of parsing a [`Point`] from text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid point {0:?} (expected a column A-N without I and a row 1-13, like G7)")]
pub struct ParsePointError(pub String);

impl FromStr for Point {
    type Err = ParsePointError;

    /// Reads `G7`, ignoring case and surrounding whitespace.
    fn from_str(text: &str) -> Result<Point, ParsePointError> {
        let error = || ParsePointError(text.to_owned());
        let trimmed = text.trim();
        let (letter, digits) = match trimmed.as_bytes() {
            [letter, rest @ ..] if !rest.is_empty() && rest.len() <= 2 => (*letter, rest),
            _ => return Err(error()),
        };
        let column = LETTERS
            .iter()
            .position(|&l| l == letter.to_ascii_uppercase())
            .ok_or_else(error)?;
        if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
            return Err(error());
        }
        let row = digits
            .iter()
            .fold(0u8, |row, &digit| row * 10 + (digit - b'0'));
        Point::from_coords(column as u8, row.wrapping_sub(1)).ok_or_else(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(text: &str) -> Point {
        text.parse().unwrap()
    }

    #[test]
    fn coordinates() {
        assert_eq!(pt("A1").index(), 0);
        assert_eq!(pt("N1").index(), 12);
        assert_eq!(pt("A13").index(), 156);
        assert_eq!(pt("N13").index(), 168);
        let g7 = pt("G7");
        assert_eq!((g7.column(), g7.row(), g7.column_letter()), (6, 6, 'G'));
        assert_eq!(pt("J1").column(), 8, "I is skipped");
        assert_eq!(Point::from_coords(6, 6), Some(g7));
        assert_eq!(Point::from_coords(13, 0), None);
        assert_eq!(Point::from_index(169), None);
        for (i, p) in Point::ALL.iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(Point::from_index(i), Some(*p));
            assert_eq!(p.to_string().parse::<Point>(), Ok(*p));
            assert_eq!(p.to_string().to_lowercase().parse::<Point>(), Ok(*p));
        }
        assert_eq!(pt("H8").to_string(), "H8");
        assert_eq!(pt("n13").to_string(), "N13");
    }

    #[test]
    fn point_text_is_lenient_and_checked() {
        assert_eq!(" g7\n".parse::<Point>(), Ok(pt("G7")));
        for bad in [
            "", "I5", "i5", "O1", "A0", "A14", "A", "7G", "A01", "A+1", "AA1", "é1", "A1x", "Z9",
            "A100",
        ] {
            let err = bad.parse::<Point>().unwrap_err();
            assert_eq!(err.0, bad);
        }
        assert_eq!(
            "I5".parse::<Point>().unwrap_err().to_string(),
            "invalid point \"I5\" (expected a column A-N without I and a row 1-13, like G7)"
        );
    }
}
