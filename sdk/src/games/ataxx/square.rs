//! Squares, bitboards and the precomputed neighbour tables of the 7x7 board.

use crate::games::bitboard::integer_bitboard;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Squares per side of the board.
const SIDE: u8 = 7;

/// Every square of the board: the low 49 bits.
pub(crate) const FULL: u64 = (1 << 49) - 1;
/// File a: the squares whose west neighbour would wrap around.
const FILE_A: u64 = {
    let mut bb = 0;
    let mut rank = 0;
    while rank < SIDE {
        bb |= 1 << (rank * SIDE);
        rank += 1;
    }
    bb
};
/// File b.
const FILE_B: u64 = FILE_A << 1;
/// File f.
const FILE_F: u64 = FILE_A << 5;
/// File g: the squares whose east neighbour would wrap around.
const FILE_G: u64 = FILE_A << 6;

/// A square of the 7x7 board: `a1` is 0, the index is `rank * 7 + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, `a1`, `b1`, ... `g7` (rank by rank from the bottom).
    pub const ALL: [Square; 49] = {
        let mut all = [Square(0); 49];
        let mut i = 0;
        while i < 49 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (`rank * 7 + file`), if it is below 49.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 49 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a .. 6 = g) and `rank` (0 = rank 1 .. 6 = rank 7), if both are below 7.
    #[must_use]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < SIDE && rank < SIDE {
            Some(Square(rank * SIDE + file))
        } else {
            None
        }
    }

    /// The index, `rank * 7 + file`, in `0..49`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 6 (g).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % SIDE
    }

    /// The rank, 0 (rank 1) to 6 (rank 7).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / SIDE
    }

    /// The Chebyshev (king-move) distance to `other`: 1 for a clone, 2 for a jump.
    #[must_use]
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// The bitboard holding just this square.
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The (up to 8) squares at distance 1: where a piece here clones to, and what a move here converts.
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(NEIGHBOURS[self.0 as usize])
    }

    /// The (up to 16) squares at distance exactly 2: where a piece here jumps to.
    #[must_use]
    pub const fn jump_targets(self) -> Bitboard {
        Bitboard(JUMPS[self.0 as usize])
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Square {
    /// The square's name, `a1` to `g7` (without the formatting machinery: a game's moves are
    /// written on every ply).
    #[must_use]
    pub fn name(self) -> &'static str {
        #[rustfmt::skip]
        const NAMES: [&str; 49] = [
            "a1", "b1", "c1", "d1", "e1", "f1", "g1",
            "a2", "b2", "c2", "d2", "e2", "f2", "g2",
            "a3", "b3", "c3", "d3", "e3", "f3", "g3",
            "a4", "b4", "c4", "d4", "e4", "f4", "g4",
            "a5", "b5", "c5", "d5", "e5", "f5", "g5",
            "a6", "b6", "c6", "d6", "e6", "f6", "g6",
            "a7", "b7", "c7", "d7", "e7", "f7", "g7",
        ];
        NAMES[self.index()]
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error of parsing a [`Square`] from text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid square {0:?} (expected a file a-g and a rank 1-7, like c5)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.trim().as_bytes() {
            [file, rank] => {
                let file = file.to_ascii_lowercase().wrapping_sub(b'a');
                let rank = rank.wrapping_sub(b'1');
                Square::from_coords(file, rank).ok_or_else(|| ParseSquareError(s.to_owned()))
            }
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

integer_bitboard! {
    /// A set of squares: bit `i` is [`Square`] index `i`; only the low 49 bits are ever set.
    pub struct Bitboard(u64);
    squares: Squares,
    square: Square,
    full: FULL,
}

impl Bitboard {
    /// The set plus every square at distance 1 from it.
    #[must_use]
    pub const fn dilate(self) -> Bitboard {
        Bitboard(dilate(self.0))
    }

    /// The set plus every square within distance 2 of it.
    #[must_use]
    pub const fn dilate2(self) -> Bitboard {
        Bitboard(dilate2(self.0))
    }
}

/// The set plus its 8-neighbourhood, by shifting the whole board (file masks stop the wrap-around).
#[inline]
pub(crate) const fn dilate(bb: u64) -> u64 {
    let row = bb | ((bb & !FILE_G) << 1) | ((bb & !FILE_A) >> 1);
    (row | (row << SIDE) | (row >> SIDE)) & FULL
}

/// The set plus every square within distance 2 (a 5x5 box around each square).
#[inline]
pub(crate) const fn dilate2(bb: u64) -> u64 {
    let row = bb
        | ((bb & !FILE_G) << 1)
        | ((bb & !(FILE_F | FILE_G)) << 2)
        | ((bb & !FILE_A) >> 1)
        | ((bb & !(FILE_A | FILE_B)) >> 2);
    (row | (row << SIDE) | (row << (2 * SIDE)) | (row >> SIDE) | (row >> (2 * SIDE))) & FULL
}

/// Squares at Chebyshev distance exactly `ring` from each square.
const fn ring_table(ring: u8) -> [u64; 49] {
    let mut table = [0; 49];
    let mut from = 0;
    while from < 49 {
        let mut to = 0;
        while to < 49 {
            if Square(from as u8).distance(Square(to as u8)) == ring {
                table[from] |= 1 << to;
            }
            to += 1;
        }
        from += 1;
    }
    table
}

/// The squares at distance 1 of each square (clone targets, converted squares).
pub(crate) const NEIGHBOURS: [u64; 49] = ring_table(1);
/// The squares at distance exactly 2 of each square (jump targets).
pub(crate) const JUMPS: [u64; 49] = ring_table(2);

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn coordinates() {
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("g1").index(), 6);
        assert_eq!(sq("a7").index(), 42);
        assert_eq!(sq("g7").index(), 48);
        let c5 = sq("c5");
        assert_eq!((c5.file(), c5.rank()), (2, 4));
        assert_eq!(Square::from_coords(2, 4), Some(c5));
        assert_eq!(Square::from_coords(7, 0), None);
        assert_eq!(Square::from_index(49), None);
        for (i, s) in Square::ALL.iter().enumerate() {
            assert_eq!(s.index(), i);
            assert_eq!(s.to_string().parse::<Square>(), Ok(*s));
            let name = format!("{}{}", char::from(b'a' + s.file()), s.rank() + 1);
            assert_eq!(s.name(), name);
        }
    }

    #[test]
    fn square_text_is_lenient_and_checked() {
        assert_eq!(" C5 ".parse::<Square>(), Ok(sq("c5")));
        for bad in ["", "h1", "a8", "a0", "a", "a10", "é1", "1a"] {
            let err = bad.parse::<Square>().unwrap_err();
            assert_eq!(err.0, bad);
        }
    }

    #[test]
    fn neighbour_tables_match_distances() {
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(a.neighbours().contains(b), a.distance(b) == 1, "{a} {b}");
                assert_eq!(a.jump_targets().contains(b), a.distance(b) == 2, "{a} {b}");
            }
        }
        assert_eq!(sq("a1").neighbours().count(), 3);
        assert_eq!(sq("d4").neighbours().count(), 8);
        assert_eq!(sq("a1").jump_targets().count(), 5);
        assert_eq!(sq("d4").jump_targets().count(), 16);
    }

    #[test]
    fn dilation_matches_tables() {
        for a in Square::ALL {
            let one = a.bitboard() | a.neighbours();
            assert_eq!(a.bitboard().dilate(), one, "{a}");
            assert_eq!(a.bitboard().dilate2(), one | a.jump_targets(), "{a}");
        }
    }

    #[test]
    fn bitboard_iteration_and_ops() {
        let bb: Bitboard = [sq("a1"), sq("g7"), sq("d4")].into_iter().collect();
        assert_eq!(bb.count(), 3);
        let squares: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(squares, ["a1", "d4", "g7"]);
        assert_eq!((!bb).count(), 46);
        assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
        assert!((bb & !bb).is_empty());
        assert_eq!(Bitboard::from_bits(u64::MAX), Bitboard::FULL);
    }
}
