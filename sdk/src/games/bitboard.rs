//! The set-of-squares type the engines share: [`integer_bitboard!`] defines a bitboard over one
//! unsigned integer, with its set operations and an iterator over its squares.

/// Defines `$bitboard`, a set of `$square`s as the bits of a `$bits` (bit `i` is the square whose
/// tuple field is `i`; only the bits of `$full` are ever set), and `$squares`, the iterator over
/// its squares, lowest first. Call it in the module that defines `$square(u8)`.
macro_rules! integer_bitboard {
    (
        $(#[$meta:meta])*
        pub struct $bitboard:ident($field_vis:vis $bits:ty);
        squares: $squares:ident,
        square: $square:ident,
        full: $full:expr $(,)?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $bitboard($field_vis $bits);

        impl $bitboard {
            /// No squares.
            pub const EMPTY: $bitboard = $bitboard(0);
            /// Every square of the board.
            pub const FULL: $bitboard = $bitboard($full);

            /// The set with these bits; bits outside the board are dropped.
            #[must_use]
            pub const fn from_bits(bits: $bits) -> $bitboard {
                $bitboard(bits & $full)
            }

            /// The raw bits (bit `i` is the square of index `i`).
            #[must_use]
            pub const fn bits(self) -> $bits {
                self.0
            }

            /// Whether `square` is in the set.
            #[must_use]
            pub const fn contains(self, square: $square) -> bool {
                self.0 & (1 << square.0) != 0
            }

            /// The number of squares in the set.
            #[must_use]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }

            /// Whether the set has no squares.
            #[must_use]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }
        }

        $crate::games::bitboard::integer_bitboard!(@op $bitboard, BitAnd, bitand, BitAndAssign, bitand_assign, &);
        $crate::games::bitboard::integer_bitboard!(@op $bitboard, BitOr, bitor, BitOrAssign, bitor_assign, |);
        $crate::games::bitboard::integer_bitboard!(@op $bitboard, BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

        impl ::std::ops::Not for $bitboard {
            type Output = $bitboard;
            /// The complement within the board.
            #[inline]
            fn not(self) -> $bitboard {
                $bitboard(!self.0 & $full)
            }
        }

        impl From<$square> for $bitboard {
            fn from(square: $square) -> $bitboard {
                $bitboard(1 << square.0)
            }
        }

        impl FromIterator<$square> for $bitboard {
            fn from_iter<I: IntoIterator<Item = $square>>(iter: I) -> $bitboard {
                $bitboard(iter.into_iter().fold(0, |bits, square| bits | 1 << square.0))
            }
        }

        impl IntoIterator for $bitboard {
            type Item = $square;
            type IntoIter = $squares;
            #[inline]
            fn into_iter(self) -> $squares {
                $squares(self.0)
            }
        }

        #[doc = concat!("The squares of a [`", stringify!($bitboard), "`], lowest index first.")]
        #[derive(Debug, Clone)]
        pub struct $squares($bits);

        impl $squares {
            /// Iterates over the set bits of raw bits (for move generators working on integers).
            #[inline]
            #[allow(dead_code)]
            pub(crate) const fn of(bits: $bits) -> $squares {
                $squares(bits)
            }
        }

        impl Iterator for $squares {
            type Item = $square;

            #[inline]
            fn next(&mut self) -> Option<$square> {
                if self.0 == 0 {
                    return None;
                }
                let index = self.0.trailing_zeros() as u8;
                self.0 &= self.0 - 1;
                Some($square(index))
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $squares {}
    };
    (@op $bitboard:ident, $trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl ::std::ops::$trait for $bitboard {
            type Output = $bitboard;
            #[inline]
            fn $method(self, rhs: $bitboard) -> $bitboard {
                $bitboard(self.0 $op rhs.0)
            }
        }
        impl ::std::ops::$assign for $bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: $bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

pub(crate) use integer_bitboard;
