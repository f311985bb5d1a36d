//! The arena: bots against each other, head to head or in tournaments, with statistics people can
//! trust.
//!
//! This layer is pure and tested on its own: [`stats`] turns results into Elo, nElo, LOS and SPRT
//! decisions, [`schedule`] decides which games are played in which order from which openings, and
//! [`bradley_terry`] fits one rating list over all the games of a tournament.

pub mod bradley_terry;
pub mod runner;
pub mod schedule;
pub mod stats;
