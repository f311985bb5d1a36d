//! # tavola-sdk: write a bot for Tavola
//!
//! Tavola is a host for AI players of board games: people play against bots in a window or a
//! terminal, and bots play each other in a headless arena. A bot is a dynamic library (a `cdylib`)
//! built against this crate and loaded by the host at run time.
//!
//! This crate has everything a bot needs and nothing about windows or processes:
//!
//! - the rules of every game ([`games`]), behind one contract ([`Game`], [`Position`]): legal moves,
//!   playing them, the outcome, position text and move notation in and out, [`perft`];
//! - the [`Bot`] trait you implement, and [`export_bot!`], which turns it into a plugin;
//! - the stable plugin ABI ([`abi`]), which you never touch directly;
//! - [`multiversion!`], to compile a hot function of your own with the CPU's bit instructions
//!   (`popcnt`, BMI2) where the machine has them, portably ([`cpu`]).
//!
//! ## A complete bot
//!
//! In a new crate with `crate-type = ["cdylib"]` under `[lib]` and `tavola-sdk` as a dependency:
//!
//! ```
//! use tavola_sdk::games::ataxx::{Ataxx, Move, Position};
//! use tavola_sdk::{Bot, BotError, Context, Position as _, SearchInfo, Setup};
//!
//! /// Plays the move that leaves it the most pieces after one ply.
//! pub struct Counter;
//!
//! impl Bot for Counter {
//!     type Game = Ataxx;
//!
//!     fn new(_setup: &Setup<'_>) -> Result<Self, BotError> {
//!         Ok(Counter)
//!     }
//!
//!     fn choose_move(&mut self, position: &Position, ctx: &Context<'_>) -> Result<Move, BotError> {
//!         let me = position.side_to_move();
//!         let mut best = None;
//!         for mv in position.legal_moves() {
//!             let mut next = position.clone();
//!             next.play_unchecked(mv);
//!             let score = next.count(me) as i32 - next.count(!me) as i32;
//!             if best.map_or(true, |(_, s)| score > s) {
//!                 best = Some((mv, score));
//!             }
//!             if ctx.should_stop() {
//!                 break; // the host wants an answer now
//!             }
//!         }
//!         let (mv, score) = best.ok_or("no legal move")?;
//!         ctx.report(&SearchInfo { depth: 1, score: Some(100 * score), ..SearchInfo::default() });
//!         Ok(mv)
//!     }
//! }
//!
//! tavola_sdk::export_bot! {
//!     name: "counter",
//!     author: "Ada",
//!     description: "Keeps the most pieces after one ply",
//!     bots: [Counter],
//! }
//! # fn main() {}
//! ```
//!
//! Build it with `cargo build --release`, then play against it:
//! `tavola play --headless --white target/release/libcounter.so --black human`.
//!
//! ## What the host guarantees
//!
//! - [`Bot::choose_move`] is only called in an unfinished position where it is the bot's turn, one
//!   call at a time. The position comes with its history (what repetition rules need).
//! - The host checks every answer: an illegal or unparsable move, an error, a panic or running out
//!   of time loses the game, with the reason recorded; the host itself goes on.
//! - A panic inside the bot is caught at the library boundary, so a bot must be built with
//!   `panic = "unwind"` (the default); [`export_bot!`] refuses to compile otherwise.
//! - `log` macros inside the bot reach the host's log (`RUST_LOG=debug tavola ...`).
//! - When the same library plays both colours it is loaded once: both players share its statics.
//!
//! ## Versions
//!
//! The SDK's `0.minor` version is part of the plugin ABI: a bot built against tavola-sdk 0.1.x
//! loads into any host built with 0.1.x, and is refused, with a message saying so, by any other.

pub mod abi;
pub mod bot;
pub mod cpu;
pub mod game;
pub mod games;
#[cfg(test)]
mod invariants;
pub mod perft;

pub use bot::{Bot, BotError, Context, SearchInfo, Setup};
pub use game::{
    Color, EndReason, Game, MoveCode, Outcome, ParseColorError, ParseMoveError, ParsePositionError,
    PlayError, Position, UnknownVariantError,
};

/// The version of this crate, which bots and hosts must share (its `0.minor` part).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
