//! The rules engines, one module per game. Each implements [`crate::Game`] and [`crate::Position`].

use crate::Game;

pub mod ataxx;
pub mod gonnect;

/// The names of every game Tavola knows, as used by `--game`.
pub const NAMES: &[&str] = &[
    <ataxx::Ataxx as Game>::NAME,
    <gonnect::Gonnect as Game>::NAME,
];
