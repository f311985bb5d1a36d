//! The rules engines, one module per game. Each implements [`crate::Game`] and [`crate::Position`].

use crate::Game;

pub mod ataxx;
mod bitboard;
pub mod dama;
pub mod gonnect;
pub mod tablut;
mod variants;

/// The names of every game Tavola knows, as used by `--game`, in the order of the rules book.
pub const NAMES: &[&str] = &[
    <ataxx::Ataxx as Game>::NAME,
    <tablut::Tablut as Game>::NAME,
    <gonnect::Gonnect as Game>::NAME,
    <dama::Dama as Game>::NAME,
];
