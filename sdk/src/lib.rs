//! Tavola SDK (overview written below once the API settles).
pub mod abi;
pub mod bot;
pub mod game;
pub mod games;
pub mod perft;

pub use bot::{Bot, BotError, Context, SearchInfo, Setup};
pub use game::{
    Color, EndReason, Game, Outcome, ParseMoveError, ParsePositionError, PlayError, Position,
    UnknownVariantError,
};
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
