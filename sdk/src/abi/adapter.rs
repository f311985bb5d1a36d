//! The bot side of the ABI: turns a typed [`Bot`] into a [`Player`] object behind the wire types.
//!
//! It owns the position cache: a request that extends the previous one (same start, the old moves
//! plus new ones) costs only the new moves, so a whole game is linear, not quadratic.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RString, RVec};

use super::{
    BotInfo, Failure, MoveRequest, NewPlayer, Player, PlayerBox, Player_TO, SearchInfoWire,
};
use crate::bot::{Bot, Context, Setup};
use crate::{Color, Game, Position};

/// The signature of [`new_player`] instantiated for one bot type.
pub type NewPlayerFn = fn(&NewPlayer) -> Result<PlayerBox, String>;

/// Builds the [`BotInfo`] that `export_bot!` returns.
#[must_use]
pub fn bot_info(
    name: &str,
    author: &str,
    description: &str,
    version: &str,
    games: &[&str],
) -> BotInfo {
    BotInfo {
        name: name.into(),
        author: author.into(),
        version: version.into(),
        description: description.into(),
        games: games.iter().map(|&g| RString::from(g)).collect::<RVec<_>>(),
        sdk_version: env!("CARGO_PKG_VERSION").into(),
    }
}

/// Finds the bot for the requested game and creates its player; a panic becomes an error.
pub fn dispatch_new_player(
    request: NewPlayer,
    bots: &[(&'static str, NewPlayerFn)],
) -> RResult<PlayerBox, RString> {
    let found = bots.iter().find(|(game, _)| *game == request.game.as_str());
    let result = match found {
        None => Err(format!(
            "this bot does not play {} (it plays {})",
            request.game,
            bots.iter().map(|(g, _)| *g).collect::<Vec<_>>().join(", ")
        )),
        Some((_, create)) => catch_unwind(AssertUnwindSafe(|| create(&request)))
            .unwrap_or_else(|payload| Err(format!("panicked: {}", panic_message(&*payload)))),
    };
    result.map_err(RString::from).into()
}

/// Creates the player of bot type `B` for `request`.
///
/// # Errors
/// The bot's own refusal, an unknown variant, or a bad colour code.
pub fn new_player<B: Bot>(request: &NewPlayer) -> Result<PlayerBox, String> {
    let variant = <B::Game as Game>::start(Some(request.variant.as_str()))
        .map_err(|e| e.to_string())?
        .variant();
    let color = match request.color {
        0 => Color::White,
        1 => Color::Black,
        other => return Err(format!("invalid colour code {other}")),
    };
    let options: Vec<(String, String)> = request
        .options
        .iter()
        .map(|pair| (pair.0.to_string(), pair.1.to_string()))
        .collect();
    let setup = Setup {
        variant,
        color,
        seed: request.seed,
        options: &options,
    };
    let bot = B::new(&setup).map_err(|e| e.0)?;
    let adapter = Adapter::<B> {
        bot,
        variant,
        color,
        cache: None,
    };
    Ok(Player_TO::from_value(adapter, TD_Opaque))
}

struct Cache<P> {
    start: String,
    moves: String,
    position: P,
}

struct Adapter<B: Bot> {
    bot: B,
    variant: &'static str,
    color: Color,
    cache: Option<Cache<<B::Game as Game>::Position>>,
}

impl<B: Bot> Adapter<B> {
    /// Brings the cached position to the one reached by `start` and `moves`, replaying only the new
    /// moves when the request extends the previous one.
    fn update_cache(
        &mut self,
        start: &str,
        moves: &str,
    ) -> Result<&<B::Game as Game>::Position, String> {
        let extends = |cache: &Cache<_>| {
            cache.start == start
                && moves.starts_with(cache.moves.as_str())
                && (cache.moves.is_empty()
                    || moves.len() == cache.moves.len()
                    || moves.as_bytes()[cache.moves.len()] == b' ')
        };
        let mut cache = match self.cache.take() {
            Some(cache) if extends(&cache) => cache,
            _ => Cache {
                start: start.to_owned(),
                moves: String::new(),
                position: <B::Game as Game>::parse_position(start, Some(self.variant))
                    .map_err(|e| format!("the host sent a bad start position: {e}"))?,
            },
        };
        for text in moves[cache.moves.len()..].split_whitespace() {
            let mv = cache
                .position
                .parse_move(text)
                .map_err(|e| format!("the host sent a move this bot's rules reject: {e}"))?;
            cache.position.play_unchecked(mv);
        }
        cache.moves.clear();
        cache.moves.push_str(moves);
        Ok(&self.cache.insert(cache).position)
    }

    fn answer(&mut self, request: &MoveRequest<'_>) -> Result<RString, Failure> {
        let received = Instant::now();
        let error = |message: String| Failure {
            panicked: false,
            message: message.into(),
        };
        let color = self.color;
        self.update_cache(request.start_position.as_str(), request.moves.as_str())?;
        let Some(Cache { position, .. }) = &self.cache else {
            unreachable!("update_cache fills the cache");
        };
        if position.side_to_move() != color {
            return Err(error(format!(
                "asked to move for {color} but it is {}'s turn",
                position.side_to_move()
            )));
        }
        let report = |info: &SearchInfoWire| request.reporter.report(info);
        let ctx = Context {
            color,
            clocks: request.clocks,
            received,
            stop: request.stop,
            reporter: &report,
        };
        self.bot
            .choose_move(position, &ctx)
            .map(|mv| RString::from(mv.to_string()))
            .map_err(|e| error(e.0))
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            panicked: false,
            message: message.into(),
        }
    }
}

impl<B: Bot> Player for Adapter<B> {
    fn choose_move(&mut self, request: MoveRequest<'_>) -> RResult<RString, Failure> {
        match catch_unwind(AssertUnwindSafe(|| self.answer(&request))) {
            Ok(result) => result.into(),
            Err(payload) => {
                // The bot's state may be half-updated; at least the cache starts afresh.
                self.cache = None;
                RResult::RErr(Failure {
                    panicked: true,
                    message: panic_message(&*payload).into(),
                })
            }
        }
    }
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-text payload".to_owned()
    }
}
