//! Bitboards of points, and the shifts behind chains, liberties and connections.
//!
//! A point's bit is `row * 14 + column`: every row carries one unused *guard* column (column 13), so
//! shifting a whole bitboard one step east or west can never wrap a stone onto the next row — the
//! wrapped bits land on a guard column and are masked off. The 13 x 14 = 182 bits fit in three
//! `u64` words.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::point::{Point, SIZE, STRIDE};

/// The bits of the points in `column` and in `row` (`None`: any).
const fn mask(column: Option<u8>, row: Option<u8>) -> [u64; 3] {
    let mut words = [0; 3];
    let mut r = 0;
    while r < SIZE {
        let mut c = 0;
        while c < SIZE {
            let column_ok = match column {
                Some(x) => x == c,
                None => true,
            };
            let row_ok = match row {
                Some(y) => y == r,
                None => true,
            };
            if column_ok && row_ok {
                let bit = r as usize * STRIDE as usize + c as usize;
                words[bit / 64] |= 1 << (bit % 64);
            }
            c += 1;
        }
        r += 1;
    }
    words
}

/// Every point of the board (no guard bits).
const FULL: [u64; 3] = mask(None, None);

/// A set of points. `Copy`, and combined with the usual bit operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(super) [u64; 3]);

/// The points of column A (the left side).
pub(super) const LEFT: Bitboard = Bitboard(mask(Some(0), None));
/// The points of column N (the right side).
pub(super) const RIGHT: Bitboard = Bitboard(mask(Some(SIZE - 1), None));
/// The points of row 1 (the bottom side).
pub(super) const BOTTOM: Bitboard = Bitboard(mask(None, Some(0)));
/// The points of row 13 (the top side).
pub(super) const TOP: Bitboard = Bitboard(mask(None, Some(SIZE - 1)));

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard([0; 3]);
    /// Every point of the board.
    pub const FULL: Bitboard = Bitboard(FULL);

    /// Whether `point` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, point: Point) -> bool {
        self.0[point.bit() / 64] & (1 << (point.bit() % 64)) != 0
    }

    /// The number of points in the set.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    /// Whether the set has no points.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] == 0
    }

    /// The lowest point of the set (`A1` first, row by row), if any.
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Point> {
        let mut word = 0;
        while word < 3 {
            if self.0[word] != 0 {
                let bit = word * 64 + self.0[word].trailing_zeros() as usize;
                return Some(Point::from_bit(bit));
            }
            word += 1;
        }
        None
    }

    /// Every point orthogonally next to a point of the set (the set's own points included where
    /// two of them are next to each other).
    #[must_use]
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        self.shifted().and(Bitboard(FULL))
    }

    /// The four one-step shifts of the set, unmasked (guard and overflow bits may be set).
    #[inline]
    const fn shifted(self) -> Bitboard {
        let (e, w) = (shl(self.0, 1), shr(self.0, 1));
        let (n, s) = (shl(self.0, STRIDE), shr(self.0, STRIDE));
        Bitboard([
            e[0] | w[0] | n[0] | s[0],
            e[1] | w[1] | n[1] | s[1],
            e[2] | w[2] | n[2] | s[2],
        ])
    }

    /// The points of `within` connected to the set through orthogonal steps inside `within`:
    /// the chains of `within` that touch the set's points of `within`.
    #[must_use]
    #[inline]
    pub const fn flood(self, within: Bitboard) -> Bitboard {
        let mut current = self.and(within);
        loop {
            let next = current.or(current.shifted()).and(within);
            if next.eq(current) {
                return current;
            }
            current = next;
        }
    }

    /// The points of the set that have at least two neighbours in `other`.
    #[inline]
    pub(super) const fn with_two_neighbours_in(self, other: Bitboard) -> Bitboard {
        // Each direction: the points whose neighbour that way is in `other`. Guard bits of
        // `other` are never set, so nothing wraps between rows.
        let (w, e) = (shl(other.0, 1), shr(other.0, 1));
        let (s, n) = (shl(other.0, STRIDE), shr(other.0, STRIDE));
        let mut words = [0; 3];
        let mut i = 0;
        while i < 3 {
            let two = ((w[i] | e[i]) & (s[i] | n[i])) | (w[i] & e[i]) | (s[i] & n[i]);
            words[i] = self.0[i] & two;
            i += 1;
        }
        Bitboard(words)
    }

    /// Whether the set reaches two opposite sides of the board (left and right, or top and bottom).
    #[must_use]
    #[inline]
    pub const fn spans(self) -> bool {
        let (left, right) = (!self.and(LEFT).is_empty(), !self.and(RIGHT).is_empty());
        let (bottom, top) = (!self.and(BOTTOM).is_empty(), !self.and(TOP).is_empty());
        (left && right) || (bottom && top)
    }

    #[inline]
    pub(super) const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
        ])
    }

    #[inline]
    pub(super) const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
        ])
    }

    #[inline]
    pub(super) const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
        ])
    }

    #[inline]
    const fn eq(self, other: Bitboard) -> bool {
        self.0[0] == other.0[0] && self.0[1] == other.0[1] && self.0[2] == other.0[2]
    }
}

/// The whole bitboard shifted `k` bits up (towards higher bits), `0 < k < 64`.
#[inline]
const fn shl(b: [u64; 3], k: u32) -> [u64; 3] {
    [
        b[0] << k,
        (b[1] << k) | (b[0] >> (64 - k)),
        (b[2] << k) | (b[1] >> (64 - k)),
    ]
}

/// The whole bitboard shifted `k` bits down (towards lower bits), `0 < k < 64`.
#[inline]
const fn shr(b: [u64; 3], k: u32) -> [u64; 3] {
    [
        (b[0] >> k) | (b[1] << (64 - k)),
        (b[1] >> k) | (b[2] << (64 - k)),
        b[2] >> k,
    ]
}

macro_rules! bitboard_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard([self.0[0] $op rhs.0[0], self.0[1] $op rhs.0[1], self.0[2] $op rhs.0[2]])
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                *self = *self $op rhs;
            }
        }
    };
}

bitboard_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitboard_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitboard_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the board (never sets guard bits).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard::FULL.and_not(self)
    }
}

impl From<Point> for Bitboard {
    fn from(point: Point) -> Bitboard {
        point.bitboard()
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |set, point| set | point.bitboard())
    }
}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Points;
    #[inline]
    fn into_iter(self) -> Points {
        Points {
            words: self.0,
            word: 0,
        }
    }
}

/// The points of a [`Bitboard`], lowest first (`A1`, `B1`, ... row by row).
#[derive(Debug, Clone)]
pub struct Points {
    words: [u64; 3],
    /// The first word that may still hold points.
    word: usize,
}

impl Iterator for Points {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        while let Some(bits) = self.words.get_mut(self.word) {
            if *bits != 0 {
                let bit = self.word * 64 + bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(Point::from_bit(bit));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = Bitboard(self.words).count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(text: &str) -> Point {
        text.parse().unwrap()
    }

    fn set(points: &[&str]) -> Bitboard {
        points.iter().map(|p| pt(p)).collect()
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        assert_eq!(pt("A1").neighbours(), set(&["A2", "B1"]));
        assert_eq!(pt("N1").neighbours(), set(&["M1", "N2"]));
        assert_eq!(pt("A13").neighbours(), set(&["A12", "B13"]));
        assert_eq!(pt("N13").neighbours(), set(&["M13", "N12"]));
        assert_eq!(pt("A7").neighbours(), set(&["A6", "A8", "B7"]));
        assert_eq!(pt("N7").neighbours(), set(&["N6", "N8", "M7"]));
        assert_eq!(pt("G7").neighbours(), set(&["G6", "G8", "F7", "H7"]));
        for a in Point::ALL {
            for b in Point::ALL {
                let adjacent = a.column().abs_diff(b.column()) + a.row().abs_diff(b.row()) == 1;
                assert_eq!(a.neighbours().contains(b), adjacent, "{a} {b}");
            }
        }
        assert_eq!(Bitboard::FULL.neighbours(), Bitboard::FULL);
    }

    #[test]
    fn flood_follows_chains() {
        let stones = set(&["A1", "A2", "B2", "C2", "N1", "M2", "N13"]);
        assert_eq!(
            pt("A1").bitboard().flood(stones),
            set(&["A1", "A2", "B2", "C2"])
        );
        assert_eq!(pt("N1").bitboard().flood(stones), set(&["N1"]));
        assert_eq!(pt("B1").bitboard().flood(stones), Bitboard::EMPTY);
        // A snake across the whole board.
        let snake: Bitboard = Point::ALL
            .into_iter()
            .filter(|p| match p.row() % 4 {
                1 => p.column() == 12,
                3 => p.column() == 0,
                _ => true,
            })
            .collect();
        assert_eq!(snake.count(), 7 * 13 + 6);
        assert_eq!(pt("A1").bitboard().flood(snake), snake);
        assert!(snake.spans());
    }

    #[test]
    fn sides_and_spans() {
        assert_eq!(LEFT.count(), 13);
        assert!(LEFT.contains(pt("A13")) && RIGHT.contains(pt("N1")));
        assert!(BOTTOM.contains(pt("G1")) && TOP.contains(pt("G13")));
        let row7: Bitboard = Point::ALL.into_iter().filter(|p| p.row() == 6).collect();
        let col_g: Bitboard = Point::ALL.into_iter().filter(|p| p.column() == 6).collect();
        assert!(row7.spans() && col_g.spans());
        assert!(!(row7 & !pt("N7").bitboard()).spans());
        // Two sides that meet at a corner are not opposite.
        assert!(!(TOP & !pt("N13").bitboard()).spans());
        assert!(!(LEFT | BOTTOM)
            .and_not(pt("A13").bitboard())
            .and_not(pt("N1").bitboard())
            .spans());
        assert!((LEFT | TOP).spans());
    }

    #[test]
    fn two_neighbours_and_counts() {
        let empty = set(&["B1", "A2", "G7", "G6"]);
        let stones = set(&["A1", "B2", "G8"]);
        // A1 has both neighbours empty; B2 has two (B1, A2); G8 only G7.
        assert_eq!(stones.with_two_neighbours_in(empty), set(&["A1", "B2"]));
        assert_eq!(set(&["C3", "A1"]).first(), Some(pt("A1")));
        assert_eq!(Bitboard::EMPTY.first(), None);
        let listed: Vec<String> = set(&["N13", "A1", "H8"])
            .into_iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(listed, ["A1", "H8", "N13"]);
        assert_eq!((!set(&["A1"])).count(), 168);
        assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
    }
}
