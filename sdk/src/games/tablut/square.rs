//! Squares, bitboards, the special squares (castle, camps, edge) and the precomputed ray tables of
//! the 9x9 board.

use crate::games::bitboard::integer_bitboard;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Squares per side of the board.
pub(crate) const SIDE: u8 = 9;
/// Squares on the board.
pub(crate) const SQUARES: usize = 81;

/// Every square: the low 81 bits.
pub(crate) const FULL: u128 = (1 << SQUARES) - 1;

/// The bit of the square on `column` (0 = a) and `row` (0 = row 1), for building constants.
const fn bit(column: u8, row: u8) -> u128 {
    1 << (row as u32 * SIDE as u32 + column as u32)
}

/// The castle (throne), e5.
pub(crate) const CASTLE: u128 = bit(4, 4);
/// The four camps: a4 a5 a6 b5, d1 e1 f1 e2, i4 i5 i6 h5, d9 e9 f9 e8.
pub(crate) const CAMPS: u128 = bit(0, 3)
    | bit(0, 4)
    | bit(0, 5)
    | bit(1, 4)
    | bit(3, 0)
    | bit(4, 0)
    | bit(5, 0)
    | bit(4, 1)
    | bit(8, 3)
    | bit(8, 4)
    | bit(8, 5)
    | bit(7, 4)
    | bit(3, 8)
    | bit(4, 8)
    | bit(5, 8)
    | bit(4, 7);
/// The camp centres a5, e1, i5, e9: camp squares that are no anvil for White's captures.
pub(crate) const CAMP_CENTRES: u128 = bit(0, 4) | bit(4, 0) | bit(8, 4) | bit(4, 8);
/// The squares on the edge of the board (where the king escapes).
pub(crate) const EDGE: u128 = {
    let mut bb = 0;
    let mut i = 0;
    while i < SIDE {
        bb |= bit(i, 0) | bit(i, SIDE - 1) | bit(0, i) | bit(SIDE - 1, i);
        i += 1;
    }
    bb
};

/// A square of the 9x9 board: columns a-i, rows 1-9, row 1 drawn at the top (as the Bologna
/// challenge does). The index is `row * 9 + column`, both from 0, so a1 is 0 and i9 is 80.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, a1, b1, ... i1, a2, ... i9 (row by row from the top).
    pub const ALL: [Square; SQUARES] = {
        let mut all = [Square(0); SQUARES];
        let mut i = 0;
        while i < SQUARES {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The castle (throne), e5: where the king starts and nothing else ever stands.
    pub const CASTLE: Square = Square(4 * SIDE + 4);

    /// The square with this index (`row * 9 + column`), if it is below 81.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `column` (0 = a .. 8 = i) and `row` (0 = row 1 .. 8 = row 9), if both are
    /// below 9.
    #[must_use]
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < SIDE && row < SIDE {
            Some(Square(row * SIDE + column))
        } else {
            None
        }
    }

    /// The index, `row * 9 + column`, in `0..81`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (a) to 8 (i).
    #[must_use]
    pub const fn column(self) -> u8 {
        self.0 % SIDE
    }

    /// The row, 0 (row 1, at the top) to 8 (row 9).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / SIDE
    }

    /// The bitboard holding just this square.
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// Whether this is the castle, e5.
    #[must_use]
    pub const fn is_castle(self) -> bool {
        self.0 == Square::CASTLE.0
    }

    /// Whether this is one of the 16 camp squares.
    #[must_use]
    pub const fn is_camp(self) -> bool {
        CAMPS & (1 << self.0) != 0
    }

    /// Whether this is a camp centre (a5, e1, i5, e9).
    #[must_use]
    pub const fn is_camp_centre(self) -> bool {
        CAMP_CENTRES & (1 << self.0) != 0
    }

    /// Whether this square is on the edge of the board.
    #[must_use]
    pub const fn is_edge(self) -> bool {
        EDGE & (1 << self.0) != 0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.column()), self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error of parsing a [`Square`] from text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid square {0:?} (expected a column a-i and a row 1-9, like e5)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads `e5`, ignoring case and surrounding whitespace.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.trim().as_bytes() {
            [column, row] => {
                let column = column.to_ascii_lowercase().wrapping_sub(b'a');
                let row = row.wrapping_sub(b'1');
                Square::from_coords(column, row).ok_or_else(|| ParseSquareError(s.to_owned()))
            }
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

integer_bitboard! {
    /// A set of squares: bit `i` is [`Square`] index `i`; only the low 81 bits are ever set.
    pub struct Bitboard(u128);
    squares: Squares,
    square: Square,
    full: FULL,
}

impl Bitboard {
    /// The 16 camp squares.
    pub const CAMPS: Bitboard = Bitboard(CAMPS);
    /// The 4 camp centres a5, e1, i5, e9.
    pub const CAMP_CENTRES: Bitboard = Bitboard(CAMP_CENTRES);
    /// The 32 edge squares (the 20 outside the camps are where the king escapes).
    pub const EDGE: Bitboard = Bitboard(EDGE);
}

/// The four directions, in table order. East and South go to higher indices, West and North to
/// lower ones (North is towards row 1, at the top).
pub(crate) const EAST: usize = 0;
/// See [`EAST`].
pub(crate) const SOUTH: usize = 1;
/// See [`EAST`].
pub(crate) const WEST: usize = 2;
/// See [`EAST`].
pub(crate) const NORTH: usize = 3;
/// Column and row steps of each direction.
const STEPS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// "No square" in the [`STEP`] table.
pub(crate) const NONE: u8 = u8::MAX;

/// The square `distance` steps from `index` in direction `dir`, or [`NONE`] off the board.
const fn step(index: usize, dir: usize, distance: i8) -> u8 {
    let column = (index % 9) as i8 + STEPS[dir].0 * distance;
    let row = (index / 9) as i8 + STEPS[dir].1 * distance;
    if column < 0 || row < 0 || column >= SIDE as i8 || row >= SIDE as i8 {
        NONE
    } else {
        (row * SIDE as i8 + column) as u8
    }
}

/// `STEP[dir][sq]`: the neighbour of `sq` in direction `dir`, or [`NONE`].
pub(crate) const STEP: [[u8; SQUARES]; 4] = {
    let mut table = [[NONE; SQUARES]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            table[dir][sq] = step(sq, dir, 1);
            sq += 1;
        }
        dir += 1;
    }
    table
};

/// `RAYS[dir][sq]`: every square from `sq` (exclusive) to the edge in direction `dir`.
pub(crate) const RAYS: [[u128; SQUARES]; 4] = {
    let mut table = [[0; SQUARES]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            let mut distance = 1;
            loop {
                let to = step(sq, dir, distance);
                if to == NONE {
                    break;
                }
                table[dir][sq] |= 1 << to;
                distance += 1;
            }
            sq += 1;
        }
        dir += 1;
    }
    table
};

/// `NEIGHBOURS[sq]`: the (up to 4) orthogonal neighbours of `sq`.
pub(crate) const NEIGHBOURS: [u128; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut dir = 0;
        while dir < 4 {
            let to = step(sq, dir, 1);
            if to != NONE {
                table[sq] |= 1 << to;
            }
            dir += 1;
        }
        sq += 1;
    }
    table
};

/// `FAR_CAMPS[sq]`: for a camp square, the camp squares on its row or column more than 5 squares
/// away (a move from a camp may not end there); empty for other squares.
pub(crate) const FAR_CAMPS: [u128; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        if CAMPS & (1 << from) != 0 {
            let mut to = 0;
            while to < SQUARES {
                let (fc, fr, tc, tr) = (from % 9, from / 9, to % 9, to / 9);
                let far = (fr == tr && fc.abs_diff(tc) > 5) || (fc == tc && fr.abs_diff(tr) > 5);
                if far && CAMPS & (1 << to) != 0 {
                    table[from] |= 1 << to;
                }
                to += 1;
            }
        }
        from += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    fn squares(bb: u128) -> Vec<String> {
        Squares::of(bb).map(|s| s.to_string()).collect()
    }

    #[test]
    fn coordinates() {
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("i1").index(), 8);
        assert_eq!(sq("a9").index(), 72);
        assert_eq!(sq("i9").index(), 80);
        assert_eq!(sq("e5"), Square::CASTLE);
        let c7 = sq("c7");
        assert_eq!((c7.column(), c7.row()), (2, 6));
        assert_eq!(Square::from_coords(2, 6), Some(c7));
        assert_eq!(Square::from_coords(9, 0), None);
        assert_eq!(Square::from_index(81), None);
        for (i, s) in Square::ALL.iter().enumerate() {
            assert_eq!(s.index(), i);
            assert_eq!(s.to_string().parse::<Square>(), Ok(*s));
        }
    }

    #[test]
    fn square_text_is_lenient_and_checked() {
        assert_eq!(" E5 ".parse::<Square>(), Ok(sq("e5")));
        for bad in ["", "j1", "a0", "a10", "e", "5e", "é1", "e5-"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError(bad.to_owned())));
        }
    }

    #[test]
    fn special_squares() {
        assert_eq!(
            squares(CAMPS),
            [
                "d1", "e1", "f1", "e2", "a4", "i4", "a5", "b5", "h5", "i5", "a6", "i6", "e8", "d9",
                "e9", "f9"
            ]
        );
        assert_eq!(squares(CAMP_CENTRES), ["e1", "a5", "i5", "e9"]);
        assert_eq!(Bitboard::EDGE.count(), 32);
        // The king escapes to the 20 edge squares outside the camps.
        assert_eq!((Bitboard::EDGE & !Bitboard::CAMPS).count(), 20);
        assert!(sq("e5").is_castle() && !sq("e4").is_castle());
        assert!(sq("b5").is_camp() && !sq("b5").is_camp_centre() && !sq("b5").is_edge());
        assert!(sq("e9").is_camp_centre() && sq("e9").is_edge());
    }

    #[test]
    fn ray_tables() {
        let e5 = Square::CASTLE.index();
        assert_eq!(squares(RAYS[EAST][e5]), ["f5", "g5", "h5", "i5"]);
        assert_eq!(squares(RAYS[SOUTH][e5]), ["e6", "e7", "e8", "e9"]);
        assert_eq!(squares(RAYS[WEST][e5]), ["a5", "b5", "c5", "d5"]);
        assert_eq!(squares(RAYS[NORTH][e5]), ["e1", "e2", "e3", "e4"]);
        assert_eq!(RAYS[WEST][sq("a3").index()], 0);
        assert_eq!(STEP[NORTH][sq("c1").index()], NONE);
        assert_eq!(STEP[SOUTH][sq("c1").index()], sq("c2").0);
        assert_eq!(squares(NEIGHBOURS[sq("a1").index()]), ["b1", "a2"]);
        assert_eq!(NEIGHBOURS[e5].count_ones(), 4);
        for s in Square::ALL {
            let all = (0..4).fold(0, |bb, dir| bb | RAYS[dir][s.index()]);
            assert_eq!(all.count_ones(), 16, "{s}");
        }
    }

    #[test]
    fn far_camps_are_across_the_board() {
        assert_eq!(squares(FAR_CAMPS[sq("d1").index()]), ["d9"]);
        assert_eq!(squares(FAR_CAMPS[sq("e1").index()]), ["e8", "e9"]);
        assert_eq!(squares(FAR_CAMPS[sq("a4").index()]), ["i4"]);
        assert_eq!(squares(FAR_CAMPS[sq("b5").index()]), ["h5", "i5"]);
        assert_eq!(FAR_CAMPS[sq("c3").index()], 0);
    }

    #[test]
    fn bitboard_iteration_and_ops() {
        let bb: Bitboard = [sq("a1"), sq("i9"), sq("e5")].into_iter().collect();
        assert_eq!(bb.count(), 3);
        let listed: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(listed, ["a1", "e5", "i9"]);
        assert_eq!((!bb).count(), 78);
        assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
        assert!((bb & !bb).is_empty());
        assert_eq!(Bitboard::from_bits(u128::MAX), Bitboard::FULL);
        assert!(bb.contains(sq("e5")) && !bb.contains(sq("e4")));
    }
}
