//! The frozen plugin ABI: what crosses the boundary between the host and a bot library.
//!
//! Bot authors never touch this module: they implement [`crate::Bot`] and call
//! [`crate::export_bot!`]. It is public so that the host (and anyone writing another host) can load
//! bots.
//!
//! The design keeps the boundary tiny and game-agnostic. The host sends text: the start position in
//! the game's own position text, the moves so far in the game's own notation, the clocks in
//! milliseconds, a stop flag and a way to report search info. The bot answers with a move in
//! notation. Everything typed (positions, moves) is rebuilt on the bot's side with the same rules
//! engine the host uses, so the SDK can grow without changing these types.
//!
//! The one typed exception is the move code ([`crate::MoveCode`], a documented number per move):
//! a library built with this SDK also exports a second, optional module, [`TypedModule`], whose
//! players ([`TypedPlayer`]) take the moves as codes and answer a code, which spares both sides
//! writing and parsing notation each ply (the arena asks that way). A library built before it
//! lacks the module, and is asked in notation.
//!
//! # Compatibility
//!
//! The library exports one root module, [`BotModule`], checked by `abi_stable` when loaded: a bot
//! loads only into a host built with the same `0.minor` version of `tavola-sdk` and identical
//! layouts of every type it reaches. `abi_stable` lets a library have more fields than the host
//! in a prefix type (a module or a trait's methods), never fewer, so nothing reachable from
//! [`BotModule`] changes within 0.1.x, and what comes later comes as a module of its own that a
//! host looks up by name and does without when a library lacks it (as [`TypedModule`]).

// `#[sabi_trait]` generates impls inside a const block.
#![allow(non_local_definitions)]

use std::fmt;
use std::sync::atomic::AtomicBool;

use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::{RRef, VersionStrings},
    std_types::{RBox, ROption, RResult, RSlice, RStr, RString, RVec, Tuple2},
    StableAbi,
};

pub(crate) mod adapter;
pub(crate) mod logging;

/// The root module of a bot library: the functions the host calls first.
#[repr(C)]
#[derive(StableAbi, Debug)]
#[sabi(kind(Prefix(prefix_ref = BotModuleRef)))]
#[sabi(missing_field(panic))]
pub struct BotModule {
    /// Describes the bot: name, author, version, the games it plays.
    pub info: extern "C" fn() -> BotInfo,
    /// Installs the host's log sink, so that `log` macros inside the bot reach the host.
    /// The host calls it once after loading, before any `new_player`.
    pub set_logger: extern "C" fn(LogSink),
    /// Creates a player for one game: `Err` with a reason when the bot refuses (for instance, a game
    /// it does not play).
    #[sabi(last_prefix_field)]
    pub new_player: extern "C" fn(NewPlayer) -> RResult<PlayerBox, RString>,
}

impl RootModule for BotModuleRef {
    declare_root_module_statics! {BotModuleRef}
    const BASE_NAME: &'static str = "tavola_bot";
    const NAME: &'static str = "tavola_bot";
    // The SDK's own version, the one the bot was built against.
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// What a bot says about itself.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct BotInfo {
    /// The bot's name, as shown in the GUI and in game records.
    pub name: RString,
    /// Who wrote it.
    pub author: RString,
    /// The bot's own version (not the SDK's).
    pub version: RString,
    /// One line about it.
    pub description: RString,
    /// The names of the games it plays (`"ataxx"`, ...).
    pub games: RVec<RString>,
    /// The version of `tavola-sdk` the bot was built against.
    pub sdk_version: RString,
}

/// The host's request for a new player: one game, one colour.
#[repr(C)]
#[derive(StableAbi, Debug, Clone)]
pub struct NewPlayer {
    /// The game's name (`"ataxx"`).
    pub game: RString,
    /// The variant's name (`"standard"`).
    pub variant: RString,
    /// The colour to play: 0 White, 1 Black.
    pub color: u8,
    /// A seed for any randomness, so that games can be reproduced.
    pub seed: u64,
    /// Options given by the user (`key=value` pairs from the seat spec), in order.
    pub options: RVec<Tuple2<RString, RString>>,
}

/// The clocks at the moment of a request, in milliseconds.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clocks {
    /// Time left on the bot's own clock, if the game is timed.
    pub own_ms: ROption<u64>,
    /// Time left on the opponent's clock, if the game is timed.
    pub opponent_ms: ROption<u64>,
    /// Increment added to the bot's clock after each of its moves.
    pub increment_ms: u64,
    /// A fixed time for this move, if the host sets one (then the clocks may be absent).
    pub movetime_ms: ROption<u64>,
}

/// One request for a move.
#[repr(C)]
#[derive(StableAbi)]
pub struct MoveRequest<'a> {
    /// The game's start position, in the game's position text.
    pub start_position: RStr<'a>,
    /// The moves played from the start position, in notation, separated by single spaces.
    pub moves: RStr<'a>,
    /// The clocks.
    pub clocks: Clocks,
    /// Set by the host when the bot must answer now (the user pressed "Move now", or time is up).
    pub stop: &'a AtomicBool,
    /// Where the bot reports its search progress.
    pub reporter: Reporter_TO<'a, RRef<'a, ()>>,
}

impl fmt::Debug for MoveRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MoveRequest")
            .field("start_position", &self.start_position)
            .field("moves", &self.moves)
            .field("clocks", &self.clocks)
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

/// One request for a move on the typed path ([`TypedPlayer::choose_move_code`]): as
/// [`MoveRequest`], with the moves as their codes ([`crate::MoveCode`]).
#[repr(C)]
#[derive(StableAbi)]
pub struct CodeRequest<'a> {
    /// The game's start position, in the game's position text.
    pub start_position: RStr<'a>,
    /// Which game the moves are of, as the host numbers it: two requests with the same nonzero
    /// history have the same start, and the one with fewer moves has a prefix of the other's (a
    /// bot's cached position then needs only the new moves, without comparing the old ones), and
    /// the moves of a nonzero history are legal (the host's referee checked them); 0 when the
    /// host does not say, and then the bot's side checks the moves itself.
    pub history: u64,
    /// The codes of the moves played from the start position, in order.
    pub moves: RSlice<'a, u64>,
    /// The clocks.
    pub clocks: Clocks,
    /// Set by the host when the bot must answer now.
    pub stop: &'a AtomicBool,
    /// Where the bot reports its search progress.
    pub reporter: Reporter_TO<'a, RRef<'a, ()>>,
}

impl fmt::Debug for CodeRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CodeRequest")
            .field("start_position", &self.start_position)
            .field("history", &self.history)
            .field("moves", &self.moves)
            .field("clocks", &self.clocks)
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

/// Search progress, as a bot reports it while thinking.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchInfoWire {
    /// Nominal depth reached, in plies.
    pub depth: u32,
    /// Deepest ply reached in the current iteration.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Evaluation from the mover's point of view, in hundredths of a piece (or of the game's own unit).
    pub score: ROption<i32>,
    /// Moves to a forced win (positive) or loss (negative), when known.
    pub mate: ROption<i32>,
    /// The principal variation, in notation, separated by spaces.
    pub pv: RString,
    /// Free text the bot wants shown.
    pub message: RString,
}

/// The host side of search-info reports.
#[sabi_trait]
pub trait Reporter: Sync {
    /// Receives one report; cheap, never blocks for long.
    #[sabi(last_prefix_field)]
    fn report(&self, info: &SearchInfoWire);
}

/// Why a bot gave no move.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// True when the bot panicked (the panic was caught inside the library).
    pub panicked: bool,
    /// The error or panic message.
    pub message: RString,
}

/// A player: one bot playing one colour of one game.
#[sabi_trait]
pub trait Player: Send {
    /// Chooses a move for the position reached by `request`: the move in notation, or a failure.
    #[sabi(last_prefix_field)]
    fn choose_move(&mut self, request: MoveRequest<'_>) -> RResult<RString, Failure>;
}

/// A boxed player, as the library returns it.
pub type PlayerBox = Player_TO<'static, RBox<()>>;

/// The host's log sink: where a bot's `log` records go.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy)]
pub struct LogSink {
    /// The most verbose level the host wants: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace.
    pub max_level: u8,
    /// Receives one record: its level (as above), target and message.
    pub log: extern "C" fn(level: u8, target: RStr<'_>, message: RStr<'_>),
}

/// The name of the function a library exports for its [`TypedModule`] (`export_bot!` writes it).
pub const TYPED_MODULE_SYMBOL: &str = "tavola_typed_module_v1";

/// The typed path's module: what a library built with this SDK exports besides [`BotModule`],
/// through the function [`TYPED_MODULE_SYMBOL`] (a library built before it lacks it).
#[repr(C)]
#[derive(StableAbi, Debug)]
#[sabi(kind(Prefix(prefix_ref = TypedModuleRef)))]
#[sabi(missing_field(panic))]
pub struct TypedModule {
    /// Creates a typed player, as [`BotModule::new_player`] creates a player.
    #[sabi(last_prefix_field)]
    pub new_player: extern "C" fn(NewPlayer) -> RResult<TypedPlayerBox, RString>,
}

/// What the function [`TYPED_MODULE_SYMBOL`] returns: the module, and the layout it was built
/// with, for the host to check against its own before using it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct TypedExport {
    /// The layout of [`TypedModuleRef`] as the library was built.
    pub layout: &'static abi_stable::type_layout::TypeLayout,
    /// The module.
    pub module: TypedModuleRef,
}

impl fmt::Debug for TypedExport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedExport")
            .field("layout", &self.layout.full_type())
            .finish_non_exhaustive()
    }
}

/// A player on the typed path: a [`Player`] that also takes the moves as codes.
#[sabi_trait]
pub trait TypedPlayer: Send {
    /// As [`Player::choose_move`].
    fn choose_move(&mut self, request: MoveRequest<'_>) -> RResult<RString, Failure>;

    /// As [`TypedPlayer::choose_move`], typed: the moves come as codes and the answer is the
    /// chosen move's code ([`crate::MoveCode`]). The host still checks the answer.
    #[sabi(last_prefix_field)]
    fn choose_move_code(&mut self, request: CodeRequest<'_>) -> RResult<u64, Failure>;
}

/// A boxed typed player, as [`TypedModule::new_player`] returns it.
pub type TypedPlayerBox = TypedPlayer_TO<'static, RBox<()>>;

/// Decodes a [`LogSink::max_level`]-style level: 0 off, 1 error .. 5 trace (anything above is trace).
#[must_use]
pub fn level_filter(level: u8) -> log::LevelFilter {
    logging::level_from_u8(level)
}

/// Glue used by [`crate::export_bot!`]; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use super::adapter::{
        bot_info, dispatch_new_player, dispatch_new_typed_player, new_player, new_typed_player,
        typed_export, NewPlayerFn, NewTypedPlayerFn,
    };
    pub use super::logging::set_logger;
    pub use abi_stable::library::{
        CheckTypeLayout, IntoRootModuleResult, LibHeader, RootModuleResult,
    };
    pub use abi_stable::prefix_type::PrefixTypeTrait;
    pub use abi_stable::std_types::{RResult, RString};

    /// Wraps the root-module constructor as `#[export_root_module]` does.
    pub fn call_root_module_loader(
        function: fn() -> super::BotModuleRef,
    ) -> abi_stable::library::RootModuleResult {
        abi_stable::library::__call_root_module_loader(function)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn exported_symbol_name_matches_abi_stable() {
        // `export_bot!` writes this name by hand, because `#[export_root_module]` needs the bot crate
        // to depend on abi_stable itself.
        assert_eq!(
            abi_stable::library::ROOT_MODULE_LOADER_NAME,
            "_1as_0lib_1header_0root_bmodule_bloader"
        );
    }
}
