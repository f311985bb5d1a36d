//! The typed side of a bot: the [`Bot`] trait authors implement, what it is given ([`Setup`],
//! [`Context`]) and what it may report ([`SearchInfo`]); and [`crate::export_bot!`], which turns it
//! into a library the host can load.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use abi_stable::std_types::ROption;

use crate::abi::{Clocks, SearchInfoWire};
use crate::{Color, Game};

/// A bot for one game. Implement it, then export it with [`crate::export_bot!`].
///
/// The host creates one bot per game and colour ([`Bot::new`]), then calls
/// [`Bot::choose_move`] each time it is the bot's turn, from one thread at a time. A panic inside
/// either is caught and loses the game with reason "panic"; the host goes on. A panic in the bot's
/// `Drop` (when the host is done with it) is caught as well, and logged as a warning.
pub trait Bot: Sized + Send + 'static {
    /// The game this bot plays, for example [`crate::games::ataxx::Ataxx`].
    type Game: Game;

    /// Creates the bot for one game.
    ///
    /// # Errors
    /// A [`BotError`] when the bot refuses the setup (an unknown option, say); the host shows it to
    /// the user and does not start the game.
    fn new(setup: &Setup<'_>) -> Result<Self, BotError>;

    /// Chooses a move in `position`, which is never a finished game.
    ///
    /// Watch [`Context::should_stop`] in long searches and answer soon after it turns true.
    ///
    /// # Errors
    /// A [`BotError`] when the bot cannot answer: it loses the game with reason "bot error".
    fn choose_move(
        &mut self,
        position: &<Self::Game as Game>::Position,
        ctx: &Context<'_>,
    ) -> Result<<Self::Game as Game>::Move, BotError>;
}

/// Why a bot could not do what was asked: a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotError(pub String);

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BotError {}

impl From<String> for BotError {
    fn from(message: String) -> BotError {
        BotError(message)
    }
}

impl From<&str> for BotError {
    fn from(message: &str) -> BotError {
        BotError(message.to_owned())
    }
}

/// How a bot is set up for one game.
#[derive(Debug, Clone)]
pub struct Setup<'a> {
    /// The variant (rule set) being played, for example `"standard"`.
    pub variant: &'a str,
    /// The colour the bot plays.
    pub color: Color,
    /// A seed for any randomness, so that games can be reproduced.
    pub seed: u64,
    /// The user's options for this bot (`key=value` pairs), in the order given.
    pub options: &'a [(String, String)],
}

impl Setup<'_> {
    /// The value of option `key`, if the user gave it.
    #[must_use]
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Everything about one move request besides the position: clocks, the stop signal, reporting.
///
/// It is `Sync`: a bot searching on several threads can share `&Context` with them (scoped
/// threads), so that each watches [`Context::should_stop`] and may [`Context::report`].
pub struct Context<'a> {
    pub(crate) color: Color,
    pub(crate) clocks: Clocks,
    /// When the request arrived: set at once for a timed move, else at the first look.
    pub(crate) received: OnceLock<Instant>,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) reporter: &'a (dyn Fn(&SearchInfoWire) + Sync),
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("color", &self.color)
            .field("clocks", &self.clocks)
            .field("elapsed", &self.elapsed())
            .finish_non_exhaustive()
    }
}

fn ms(value: ROption<u64>) -> Option<Duration> {
    value.into_option().map(Duration::from_millis)
}

impl Context<'_> {
    /// The colour the bot plays.
    #[must_use]
    pub fn color(&self) -> Color {
        self.color
    }

    /// Time left on the bot's clock when the request was sent; `None` in an untimed game.
    #[must_use]
    pub fn time_left(&self) -> Option<Duration> {
        ms(self.clocks.own_ms)
    }

    /// Time left on the opponent's clock; `None` in an untimed game.
    #[must_use]
    pub fn opponent_time_left(&self) -> Option<Duration> {
        ms(self.clocks.opponent_ms)
    }

    /// Time added to the bot's clock after each of its moves.
    #[must_use]
    pub fn increment(&self) -> Duration {
        Duration::from_millis(self.clocks.increment_ms)
    }

    /// A fixed time for this move, when the host sets one.
    #[must_use]
    pub fn movetime(&self) -> Option<Duration> {
        ms(self.clocks.movetime_ms)
    }

    /// Time since the request arrived; in an untimed game, since this was first asked (a bot
    /// with no clock and no time per move is not charged a clock read it never uses).
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.received.get_or_init(Instant::now).elapsed()
    }

    /// A sensible time to spend on this move: most of a fixed move time, or a small share of the
    /// clock plus most of the increment; one second in an untimed game.
    #[must_use]
    pub fn budget(&self) -> Duration {
        let margin = Duration::from_millis(10);
        if let Some(movetime) = self.movetime() {
            return (movetime * 9 / 10).saturating_sub(margin);
        }
        match self.time_left() {
            Some(left) => {
                let share = left / 30 + self.increment() * 3 / 4;
                share.min(left / 2).saturating_sub(margin)
            }
            None => Duration::from_secs(1),
        }
    }

    /// Whether the host asked the bot to answer now (the user pressed "Move now", or time is up).
    #[must_use]
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether to stop thinking: the host asked, or [`Context::budget`] is spent.
    #[must_use]
    pub fn should_stop(&self) -> bool {
        self.stop_requested() || self.elapsed() >= self.budget()
    }

    /// Reports search progress; the host shows it while the bot thinks.
    pub fn report(&self, info: &SearchInfo) {
        let wire = SearchInfoWire {
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            score: info.score.into(),
            mate: info.mate.into(),
            pv: info.pv.as_str().into(),
            message: info.message.as_str().into(),
        };
        (self.reporter)(&wire);
    }
}

/// Search progress a bot reports while it thinks (see [`Context::report`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchInfo {
    /// Nominal depth reached, in plies.
    pub depth: u32,
    /// Deepest ply reached in the current iteration.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Evaluation from the bot's point of view, in hundredths of a piece.
    pub score: Option<i32>,
    /// Moves to a forced win (positive) or loss (negative), when known.
    pub mate: Option<i32>,
    /// The principal variation, moves in notation separated by spaces.
    pub pv: String,
    /// Free text to show.
    pub message: String,
}

/// Exports bots as a Tavola plugin library. Call it once, at the root of a `cdylib` crate.
///
/// List one [`Bot`] type per game the library plays; a generic bot can be listed once per game.
/// The library's version is the crate's own (`CARGO_PKG_VERSION`).
///
/// ```ignore
/// tavola_sdk::export_bot! {
///     name: "my-bot",
///     author: "Ada",
///     description: "Plays the move that converts most pieces",
///     bots: [MyBot],
/// }
/// ```
///
/// It refuses to compile under `panic = "abort"`: a panic there could not be caught, and would take
/// the host down with the bot.
#[macro_export]
macro_rules! export_bot {
    (
        name: $name:expr,
        author: $author:expr,
        $(description: $description:expr,)?
        bots: [$($bot:ty),+ $(,)?] $(,)?
    ) => {
        #[cfg(panic = "abort")]
        compile_error!(
            "a Tavola bot must be built with panic = \"unwind\" (the default): remove \
             `panic = \"abort\"` from the Cargo profile, or a panic in the bot would abort the host"
        );

        extern "C" fn __tavola_bot_info() -> $crate::abi::BotInfo {
            $crate::abi::__private::bot_info(
                $name,
                $author,
                $crate::export_bot!(@description $($description)?),
                ::core::env!("CARGO_PKG_VERSION"),
                &[$(<<$bot as $crate::Bot>::Game as $crate::Game>::NAME),+],
            )
        }

        extern "C" fn __tavola_new_player(
            request: $crate::abi::NewPlayer,
        ) -> $crate::abi::__private::RResult<$crate::abi::PlayerBox, $crate::abi::__private::RString>
        {
            $crate::abi::__private::dispatch_new_player(
                request,
                &[$((
                    <<$bot as $crate::Bot>::Game as $crate::Game>::NAME,
                    $crate::abi::__private::new_player::<$bot> as $crate::abi::__private::NewPlayerFn,
                )),+],
            )
        }

        extern "C" fn __tavola_new_typed_player(
            request: $crate::abi::NewPlayer,
        ) -> $crate::abi::__private::RResult<
            $crate::abi::TypedPlayerBox,
            $crate::abi::__private::RString,
        > {
            $crate::abi::__private::dispatch_new_typed_player(
                request,
                &[$((
                    <<$bot as $crate::Bot>::Game as $crate::Game>::NAME,
                    $crate::abi::__private::new_typed_player::<$bot>
                        as $crate::abi::__private::NewTypedPlayerFn,
                )),+],
            )
        }

        /// The typed path's module ([`tavola_sdk::abi::TypedModule`]), which the host looks up by
        /// this name (`tavola_sdk::abi::TYPED_MODULE_SYMBOL`).
        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub extern "C" fn tavola_typed_module_v1() -> $crate::abi::TypedExport {
            $crate::abi::__private::typed_export(__tavola_new_typed_player)
        }

        fn __tavola_root_module() -> $crate::abi::BotModuleRef {
            use $crate::abi::__private::PrefixTypeTrait;
            $crate::abi::BotModule {
                info: __tavola_bot_info,
                set_logger: $crate::abi::__private::set_logger,
                new_player: __tavola_new_player,
            }
            .leak_into_prefix()
        }

        /// The library header `abi_stable` looks for (what `#[export_root_module]` would write).
        #[doc(hidden)]
        #[unsafe(no_mangle)]
        #[allow(non_upper_case_globals)]
        pub static _1as_0lib_1header_0root_bmodule_bloader: $crate::abi::__private::LibHeader = {
            extern "C" fn __tavola_erased_module() -> $crate::abi::__private::RootModuleResult {
                $crate::abi::__private::call_root_module_loader(__tavola_root_module)
            }
            // SAFETY: the constructor returns the root module of type `BotModuleRef`, as required.
            unsafe {
                $crate::abi::__private::LibHeader::from_constructor::<$crate::abi::BotModuleRef>(
                    __tavola_erased_module,
                    $crate::abi::__private::CheckTypeLayout::Yes,
                )
            }
        };
    };
    (@description $description:expr) => { $description };
    (@description) => { "" };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_context_can_be_shared_with_search_threads() {
        fn shareable<T: Sync>() {}
        shareable::<Context<'static>>();
    }

    #[test]
    fn options_are_found_by_key() {
        let options = [("depth".to_owned(), "3".to_owned())];
        let setup = Setup {
            variant: "standard",
            color: Color::White,
            seed: 0,
            options: &options,
        };
        assert_eq!(setup.option("depth"), Some("3"));
        assert_eq!(setup.option("width"), None);
    }
}
