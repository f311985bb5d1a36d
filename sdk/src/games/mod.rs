//! The rules engines, one module per game. Each implements [`crate::Game`] and [`crate::Position`].

use crate::Game;

pub mod ataxx;
mod bitboard;
pub mod dama;
pub mod gonnect;
pub mod tablut;
mod variants;

/// A fast 64-bit mixer (the MurmurHash3 / SplitMix64 finaliser): every input bit affects every
/// output bit. The games without incremental Zobrist keys hash their few bitboards with it.
#[inline]
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The names of every game Tavola knows, as used by `--game`, in the order of the rules book.
pub const NAMES: &[&str] = &[
    <ataxx::Ataxx as Game>::NAME,
    <tablut::Tablut as Game>::NAME,
    <gonnect::Gonnect as Game>::NAME,
    <dama::Dama as Game>::NAME,
];
