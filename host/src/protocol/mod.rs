//! The protocols Tavola speaks with the outside: UGI and UAI as an engine for outside hosts
//! ([`ugi`]), and the Tablut challenge server's framing and messages, both ways ([`challenge`]).
//! Outside engines in Tavola's seats are in [`crate::seat::engine`] and
//! [`crate::seat::challenge`].

pub mod challenge;
pub mod challenge_client;
pub mod ugi;
