//! The arena: bots against each other, head to head or in tournaments, with statistics people can
//! trust.
//!
//! The statistics are pure and tested on their own: [`stats`] turns results into Elo, nElo, LOS
//! and SPRT decisions, [`schedule`] decides which games are played in which order from which
//! openings, and [`bradley_terry`] fits one rating list over all the games of a tournament.
//! [`runner`] plays the games (on the threads of the pool, `pool`), [`results`] writes them so that no kill loses a finished one,
//! [`verify`] replays a resumed run's games through the rules before they count, [`summary`]
//! tallies them, [`progress`] shows how far the run is, and [`positions`] writes the training
//! positions of its games.

pub mod bradley_terry;
pub mod gsprt;
pub mod merge;
mod pool;
pub mod positions;
pub mod progress;
pub mod report;
pub mod results;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod summary;
pub mod verify;
