//! The bot side of the ABI: turns a typed [`Bot`] into a [`Player`] object behind the wire types.
//!
//! It owns the position cache: a request that extends the previous one (same start, the old moves
//! plus new ones) costs only the new moves, so a whole game is linear, not quadratic.

use std::any::Any;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RString, RVec};

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use abi_stable::sabi_types::RRef;

use super::{
    BotInfo, Clocks, CodeRequest, Failure, MoveRequest, NewPlayer, Player, PlayerBox, Player_TO,
    Reporter_TO, SearchInfoWire, TypedExport, TypedModule, TypedModuleRef, TypedPlayer,
    TypedPlayerBox, TypedPlayer_TO,
};
use crate::bot::{Bot, Context, Setup};
use crate::{Color, Game, MoveCode, Position};

/// A function making one bot type's players of kind `T` (instantiated for one bot type).
pub type MakePlayer<T> = fn(&NewPlayer) -> Result<T, String>;

/// The signature of [`new_player`] instantiated for one bot type.
pub type NewPlayerFn = MakePlayer<PlayerBox>;

/// The signature of [`new_typed_player`] instantiated for one bot type.
pub type NewTypedPlayerFn = MakePlayer<TypedPlayerBox>;

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
    dispatch(request, bots)
}

/// As [`dispatch_new_player`], for a typed player.
pub fn dispatch_new_typed_player(
    request: NewPlayer,
    bots: &[(&'static str, NewTypedPlayerFn)],
) -> RResult<TypedPlayerBox, RString> {
    dispatch(request, bots)
}

/// The library's [`TypedExport`], its module creating players with `new_player`.
pub fn typed_export(
    new_player: extern "C" fn(NewPlayer) -> RResult<TypedPlayerBox, RString>,
) -> TypedExport {
    use abi_stable::prefix_type::PrefixTypeTrait;
    use abi_stable::StableAbi;
    TypedExport {
        layout: <TypedModuleRef as StableAbi>::LAYOUT,
        module: TypedModule { new_player }.leak_into_prefix(),
    }
}

fn dispatch<T>(request: NewPlayer, bots: &[(&'static str, MakePlayer<T>)]) -> RResult<T, RString> {
    let found = bots.iter().find(|(game, _)| *game == request.game.as_str());
    let result = match found {
        None => Err(format!(
            "this bot does not play {} (it plays {})",
            request.game,
            bots.iter().map(|(g, _)| *g).collect::<Vec<_>>().join(", ")
        )),
        Some((_, create)) => {
            catch_unwind(AssertUnwindSafe(|| create(&request))).unwrap_or_else(|payload| {
                let message = panic_message(&*payload);
                drop_payload(payload);
                Err(format!("panicked: {message}"))
            })
        }
    };
    result.map_err(RString::from).into()
}

/// Creates the player of bot type `B` for `request`.
///
/// # Errors
/// The bot's own refusal, an unknown variant, or a bad colour code.
pub fn new_player<B: Bot>(request: &NewPlayer) -> Result<PlayerBox, String> {
    new_adapter::<B>(request).map(|adapter| Player_TO::from_value(adapter, TD_Opaque))
}

/// As [`new_player`], a typed player.
///
/// # Errors
/// As [`new_player`].
pub fn new_typed_player<B: Bot>(request: &NewPlayer) -> Result<TypedPlayerBox, String> {
    new_adapter::<B>(request).map(|adapter| TypedPlayer_TO::from_value(adapter, TD_Opaque))
}

fn new_adapter<B: Bot>(request: &NewPlayer) -> Result<Adapter<B>, String> {
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
    Ok(Adapter::<B> {
        bot: ManuallyDrop::new(bot),
        variant,
        color,
        cache: None,
    })
}

struct Cache<P> {
    start: String,
    played: Played,
    position: P,
}

/// The moves a cached position was reached by, as the requests gave them.
enum Played {
    Text(String),
    /// Codes, with the host's number for their game ([`CodeRequest::history`]; 0: none).
    Codes {
        history: u64,
        codes: Vec<u64>,
    },
}

/// The moves of one request: notation separated by spaces, or codes with their history.
#[derive(Clone, Copy)]
enum Moves<'a> {
    Text(&'a str),
    Codes { history: u64, codes: &'a [u64] },
}

/// The value behind a bot's [`Player`] object.
///
/// The host drops that object through abi_stable's `extern "C"` destructor, which cannot unwind:
/// a panic in the bot's `Drop` would abort the whole host. So the bot is kept in a `ManuallyDrop`
/// and dropped by [`Adapter`]'s own `Drop`, inside `catch_unwind`.
struct Adapter<B: Bot> {
    bot: ManuallyDrop<B>,
    variant: &'static str,
    color: Color,
    cache: Option<Cache<<B::Game as Game>::Position>>,
}

impl<B: Bot> Drop for Adapter<B> {
    fn drop(&mut self) {
        // SAFETY: `self.bot` is taken only here, once, and never used again: the adapter is being
        // dropped.
        let bot = unsafe { ManuallyDrop::take(&mut self.bot) };
        if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(bot))) {
            let message = panic_message(&*payload);
            drop_payload(payload);
            log::warn!("the bot panicked while being dropped: {message}");
        }
    }
}

/// Whether a cache reached by `played` from `cached_start` is on the way to `moves` from
/// `start`: the same kind of moves, the cached ones a prefix of the new (for notation, ending at
/// a move's end). Codes of one nonzero history are a prefix by the host's word, not compared.
fn extends(cached_start: &str, played: &Played, start: &str, moves: Moves<'_>) -> bool {
    match (played, moves) {
        (
            Played::Codes { history, codes },
            Moves::Codes {
                history: new,
                codes: moves,
            },
        ) if *history != 0 && *history == new => codes.len() <= moves.len(),
        _ if cached_start != start => false,
        (Played::Text(cached), Moves::Text(moves)) => {
            moves.starts_with(cached.as_str())
                && (cached.is_empty()
                    || moves.len() == cached.len()
                    || moves.as_bytes()[cached.len()] == b' ')
        }
        (Played::Codes { codes, .. }, Moves::Codes { codes: moves, .. }) => {
            moves.starts_with(codes)
        }
        _ => false,
    }
}

impl<B: Bot> Adapter<B> {
    /// Brings the cached position to the one reached by `start` and `moves`, replaying only the new
    /// moves when the request extends the previous one.
    fn update_cache(
        &mut self,
        start: &str,
        moves: Moves<'_>,
    ) -> Result<&<B::Game as Game>::Position, String> {
        let mut cache = match self.cache.take() {
            Some(cache) if extends(&cache.start, &cache.played, start, moves) => cache,
            _ => Cache {
                start: start.to_owned(),
                played: match moves {
                    Moves::Text(_) => Played::Text(String::new()),
                    Moves::Codes { history, .. } => Played::Codes {
                        history,
                        codes: Vec::with_capacity(256),
                    },
                },
                position: <B::Game as Game>::parse_position(start, Some(self.variant))
                    .map_err(|e| format!("the host sent a bad start position: {e}"))?,
            },
        };
        // Only the new moves are copied: the cached ones are a prefix of `moves` (checked above, or
        // empty), so a game's requests cost a copy of each move once, not of the game each ply.
        match (&mut cache.played, moves) {
            (Played::Text(cached), Moves::Text(moves)) => {
                for text in moves[cached.len()..].split_whitespace() {
                    let mv = cache.position.parse_move(text).map_err(|e| {
                        format!("the host sent a move this bot's rules reject: {e}")
                    })?;
                    cache.position.play_unchecked(mv);
                }
                cached.push_str(&moves[cached.len()..]);
            }
            (
                Played::Codes {
                    history: cached_history,
                    codes: cached,
                },
                Moves::Codes {
                    history,
                    codes: moves,
                },
            ) => {
                *cached_history = history;
                // Moves the host numbered are the moves of its game, which it checked as they
                // were played: only those of no history are checked again here.
                let checked = history != 0;
                for &code in &moves[cached.len()..] {
                    let mv = <<B::Game as Game>::Move as MoveCode>::from_code(code)
                        .filter(|&mv| checked || cache.position.is_legal(mv))
                        .ok_or_else(|| {
                            format!(
                                "the host sent the move code {code:#x}, which this bot's rules \
                                 reject in {}",
                                cache.position
                            )
                        })?;
                    cache.position.play_unchecked(mv);
                }
                cached.extend_from_slice(&moves[cached.len()..]);
            }
            _ => unreachable!("a cache of the other kind is never kept"),
        }
        Ok(&self.cache.insert(cache).position)
    }

    fn answer(
        &mut self,
        start: &str,
        moves: Moves<'_>,
        clocks: Clocks,
        stop: &AtomicBool,
        reporter: &Reporter_TO<'_, RRef<'_, ()>>,
    ) -> Result<<B::Game as Game>::Move, Failure> {
        // The clock is read now for a timed move; untimed, at the bot's first look at it (most
        // never look: a clock read is a good share of a fast bot's move).
        let received = OnceLock::new();
        let timed = clocks.own_ms.is_some() || clocks.movetime_ms.is_some();
        if timed {
            let _ = received.set(Instant::now());
        }
        let color = self.color;
        let position = self.update_cache(start, moves)?;
        if position.side_to_move() != color {
            return Err(Failure::from(format!(
                "asked to move for {color} but it is {}'s turn",
                position.side_to_move()
            )));
        }
        let report = |info: &SearchInfoWire| reporter.report(info);
        let ctx = Context {
            color,
            clocks,
            received,
            stop,
            reporter: &report,
        };
        let Some(Cache { position, .. }) = &self.cache else {
            unreachable!("update_cache fills the cache");
        };
        self.bot
            .choose_move(position, &ctx)
            .map_err(|e| Failure::from(e.0))
    }

    /// Runs `ask`, a panic caught and returned as a failure (the cache then starts afresh: the
    /// bot's state may be half-updated).
    fn caught<T>(
        &mut self,
        ask: impl FnOnce(&mut Self) -> Result<T, Failure>,
    ) -> RResult<T, Failure> {
        match catch_unwind(AssertUnwindSafe(|| ask(self))) {
            Ok(result) => result.into(),
            Err(payload) => {
                self.cache = None;
                let message = panic_message(&*payload);
                drop_payload(payload);
                RResult::RErr(Failure {
                    panicked: true,
                    message: message.into(),
                })
            }
        }
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

impl<B: Bot> Adapter<B> {
    fn choose_text(&mut self, request: MoveRequest<'_>) -> RResult<RString, Failure> {
        self.caught(|adapter| {
            let moves = Moves::Text(request.moves.as_str());
            adapter
                .answer(
                    request.start_position.as_str(),
                    moves,
                    request.clocks,
                    request.stop,
                    &request.reporter,
                )
                .map(|mv| RString::from(mv.to_string()))
        })
    }
}

impl<B: Bot> Player for Adapter<B> {
    fn choose_move(&mut self, request: MoveRequest<'_>) -> RResult<RString, Failure> {
        self.choose_text(request)
    }
}

impl<B: Bot> TypedPlayer for Adapter<B> {
    fn choose_move(&mut self, request: MoveRequest<'_>) -> RResult<RString, Failure> {
        self.choose_text(request)
    }

    fn choose_move_code(&mut self, request: CodeRequest<'_>) -> RResult<u64, Failure> {
        self.caught(|adapter| {
            let moves = Moves::Codes {
                history: request.history,
                codes: request.moves.as_slice(),
            };
            adapter
                .answer(
                    request.start_position.as_str(),
                    moves,
                    request.clocks,
                    request.stop,
                    &request.reporter,
                )
                .map(MoveCode::code)
        })
    }
}

/// Drops a caught panic's payload without letting a panic out: a payload whose own `Drop` panics
/// (possible with `std::panic::panic_any`) is forgotten instead, since that panic would unwind
/// across the ABI.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use abi_stable::sabi_types::RRef;

    use super::*;
    use crate::abi::{Clocks, CodeRequest, Reporter, Reporter_TO};
    use crate::games::ataxx::{Ataxx, Move};
    use crate::BotError;

    /// Answers the first legal move, or panics / fails when its option says so.
    struct FirstMove {
        mode: String,
    }

    impl Bot for FirstMove {
        type Game = Ataxx;
        fn new(setup: &Setup<'_>) -> Result<Self, BotError> {
            match setup.option("mode").unwrap_or("first") {
                "refuse" => Err("not today".into()),
                mode => Ok(FirstMove {
                    mode: mode.to_owned(),
                }),
            }
        }
        fn choose_move(
            &mut self,
            position: &crate::games::ataxx::Position,
            ctx: &Context<'_>,
        ) -> Result<Move, BotError> {
            ctx.report(&crate::SearchInfo {
                depth: 1,
                ..Default::default()
            });
            match self.mode.as_str() {
                "panic" => panic!("boom at ply {}", position.ply()),
                "error" => Err("cannot think".into()),
                _ => Ok(position.legal_moves()[0]),
            }
        }
    }

    struct Count(std::sync::atomic::AtomicU32);
    impl Reporter for Count {
        fn report(&self, _info: &SearchInfoWire) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn request(color: u8, mode: &str) -> NewPlayer {
        NewPlayer {
            game: "ataxx".into(),
            variant: "standard".into(),
            color,
            seed: 1,
            options: vec![Tuple2("mode".into(), mode.into())].into(),
        }
    }

    fn ask(player: &mut PlayerBox, moves: &str, reports: &Count) -> RResult<RString, Failure> {
        let stop = AtomicBool::new(false);
        player.choose_move(MoveRequest {
            start_position: "x5o/7/7/7/7/7/o5x x 0 1".into(),
            moves: moves.into(),
            clocks: Clocks::default(),
            stop: &stop,
            reporter: Reporter_TO::from_ptr(RRef::new(reports), TD_Opaque),
        })
    }

    use abi_stable::std_types::Tuple2;

    #[test]
    fn answers_through_the_wire_and_reports() {
        let mut player = new_player::<FirstMove>(&request(0, "first")).unwrap();
        let reports = Count(0.into());
        let answer = ask(&mut player, "", &reports).unwrap();
        assert!(
            crate::games::ataxx::Position::start(crate::games::ataxx::Variant::Standard)
                .parse_move(answer.as_str())
                .is_ok()
        );
        assert_eq!(reports.0.into_inner(), 1);
    }

    #[test]
    fn errors_and_panics_come_back_as_failures() {
        let reports = Count(0.into());
        let mut player = new_player::<FirstMove>(&request(0, "error")).unwrap();
        let failure = ask(&mut player, "", &reports).unwrap_err();
        assert_eq!(
            (failure.panicked, failure.message.as_str()),
            (false, "cannot think")
        );
        let mut player = new_player::<FirstMove>(&request(0, "panic")).unwrap();
        let failure = ask(&mut player, "", &reports).unwrap_err();
        assert!(failure.panicked);
        assert_eq!(failure.message.as_str(), "boom at ply 0");
    }

    #[test]
    fn refusals_and_bad_requests_are_errors() {
        let refused = new_player::<FirstMove>(&request(0, "refuse"))
            .err()
            .unwrap();
        assert_eq!(refused, "not today");
        let bad_colour = new_player::<FirstMove>(&request(7, "first")).err().unwrap();
        assert!(bad_colour.contains('7'), "{bad_colour}");
        let mut bad_variant = request(0, "first");
        bad_variant.variant = "chess960".into();
        let error = new_player::<FirstMove>(&bad_variant).err().unwrap();
        assert!(error.contains("chess960"), "{error}");
        let dispatched = dispatch_new_player(
            NewPlayer {
                game: "go".into(),
                ..request(0, "first")
            },
            &[("ataxx", new_player::<FirstMove>)],
        );
        let error = dispatched.into_result().err().unwrap();
        assert!(error.contains("go") && error.contains("ataxx"), "{error}");
    }

    /// Plays the first legal move; panics when dropped.
    struct PanicsOnDrop;

    impl Bot for PanicsOnDrop {
        type Game = Ataxx;
        fn new(_setup: &Setup<'_>) -> Result<Self, BotError> {
            Ok(PanicsOnDrop)
        }
        fn choose_move(
            &mut self,
            position: &crate::games::ataxx::Position,
            _ctx: &Context<'_>,
        ) -> Result<Move, BotError> {
            Ok(position.legal_moves()[0])
        }
    }

    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("boom in drop");
        }
    }

    /// Keeps the warnings logged in this test binary.
    struct Warnings(std::sync::Mutex<Vec<String>>);

    impl log::Log for Warnings {
        fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
            metadata.level() <= log::Level::Warn
        }
        fn log(&self, record: &log::Record<'_>) {
            if let (true, Ok(mut kept)) = (self.enabled(record.metadata()), self.0.lock()) {
                kept.push(record.args().to_string());
            }
        }
        fn flush(&self) {}
    }

    #[test]
    fn a_panic_in_the_bots_drop_is_caught_and_logged() {
        static WARNINGS: Warnings = Warnings(std::sync::Mutex::new(Vec::new()));
        log::set_logger(&WARNINGS).expect("no other test installs a logger");
        log::set_max_level(log::LevelFilter::Warn);
        let mut player = new_player::<PanicsOnDrop>(&request(1, "first")).unwrap();
        let reports = Count(0.into());
        assert!(ask(&mut player, "g2", &reports).is_ok());
        // Through abi_stable's `extern "C"` destructor, as the host drops it: were the panic to
        // unwind out of it, this test binary would abort here.
        drop(player);
        let kept = WARNINGS.0.lock().unwrap();
        assert!(
            kept.iter()
                .any(|w| w == "the bot panicked while being dropped: boom in drop"),
            "{kept:?}"
        );
    }

    #[test]
    fn a_panic_payload_whose_drop_panics_is_forgotten() {
        struct Nasty;
        impl Drop for Nasty {
            fn drop(&mut self) {
                panic!("the payload's own drop");
            }
        }
        let payload = catch_unwind(|| std::panic::panic_any(Nasty)).unwrap_err();
        assert_eq!(panic_message(&*payload), "a panic with a non-text payload");
        drop_payload(payload);
    }

    #[test]
    fn the_cache_replays_only_new_moves_and_resets_on_a_new_game() {
        let mut adapter = Adapter::<FirstMove> {
            bot: ManuallyDrop::new(FirstMove {
                mode: "first".into(),
            }),
            variant: "standard",
            color: Color::Black,
            cache: None,
        };
        let start = "x5o/7/7/7/7/7/o5x x 0 1";
        adapter.update_cache(start, Moves::Text("b6")).unwrap();
        let after_one = adapter.cache.as_ref().unwrap().position.clone();
        adapter
            .update_cache(start, Moves::Text("b6 f6 a6"))
            .unwrap();
        let cache = adapter.cache.as_ref().unwrap();
        assert!(matches!(&cache.played, Played::Text(t) if t == "b6 f6 a6"));
        let mut expected = after_one;
        for text in ["f6", "a6"] {
            let mv = expected.parse_move(text).unwrap();
            expected.play_unchecked(mv);
        }
        assert_eq!(cache.position.to_string(), expected.to_string());
        // A request that does not extend the previous one (a new game, or an undo) starts afresh.
        adapter.update_cache(start, Moves::Text("b6 f6")).unwrap();
        assert!(matches!(&adapter.cache.as_ref().unwrap().played, Played::Text(t) if t == "b6 f6"));
        // "b6 f6x" shares a prefix with "b6 f6" but is not an extension of it.
        assert!(adapter.update_cache(start, Moves::Text("b6 f6x")).is_err());
        assert!(adapter
            .update_cache("not a position", Moves::Text(""))
            .is_err());
    }

    fn codes(texts: &[&str]) -> Vec<u64> {
        texts
            .iter()
            .map(|t| t.parse::<Move>().unwrap().code())
            .collect()
    }

    #[test]
    fn the_typed_path_replays_codes_and_answers_a_code() {
        let reports = Count(0.into());
        let mut player = new_typed_player::<FirstMove>(&request(1, "first")).unwrap();
        let stop = AtomicBool::new(false);
        let ask = |player: &mut TypedPlayerBox, moves: &[u64]| {
            player.choose_move_code(CodeRequest {
                start_position: "x5o/7/7/7/7/7/o5x x 0 1".into(),
                history: 0,
                moves: moves.into(),
                clocks: Clocks::default(),
                stop: &stop,
                reporter: Reporter_TO::from_ptr(RRef::new(&reports), TD_Opaque),
            })
        };
        let played = codes(&["b6"]);
        let answer = ask(&mut player, &played).unwrap();
        let mut position =
            crate::games::ataxx::Position::start(crate::games::ataxx::Variant::Standard);
        position.play_unchecked("b6".parse().unwrap());
        let expected = position.legal_moves()[0];
        assert_eq!(answer, expected.code());
        // The text path gives the same move for the same position.
        let text = player
            .choose_move(MoveRequest {
                start_position: "x5o/7/7/7/7/7/o5x x 0 1".into(),
                moves: "b6".into(),
                clocks: Clocks::default(),
                stop: &stop,
                reporter: Reporter_TO::from_ptr(RRef::new(&reports), TD_Opaque),
            })
            .unwrap();
        assert_eq!(text.as_str(), expected.to_string());
        // A code that is no move, or an illegal one, is refused with the code named.
        for bad in [0xFFFF_FFFF_u64, codes(&["d4"])[0]] {
            let failure = ask(&mut player, &[played[0], answer, bad]).unwrap_err();
            assert!(!failure.panicked);
            assert!(
                failure.message.contains(&format!("{bad:#x}")),
                "{}",
                failure.message
            );
        }
        // White's move asked of Black's player is refused, not answered.
        assert!(ask(&mut player, &[]).is_err());
    }

    fn by_codes(codes: &[u64]) -> Moves<'_> {
        Moves::Codes { history: 0, codes }
    }

    fn cached_codes(adapter: &Adapter<FirstMove>) -> Option<&[u64]> {
        match &adapter.cache.as_ref()?.played {
            Played::Codes { codes, .. } => Some(codes),
            Played::Text(_) => None,
        }
    }

    fn black_adapter() -> Adapter<FirstMove> {
        Adapter::<FirstMove> {
            bot: ManuallyDrop::new(FirstMove {
                mode: "first".into(),
            }),
            variant: "standard",
            color: Color::Black,
            cache: None,
        }
    }

    #[test]
    fn the_cache_follows_codes_and_resets_between_kinds() {
        let mut adapter = black_adapter();
        let start = "x5o/7/7/7/7/7/o5x x 0 1";
        let game = codes(&["b6", "f6", "a6"]);
        adapter.update_cache(start, by_codes(&game[..1])).unwrap();
        adapter.update_cache(start, by_codes(&game)).unwrap();
        let by_codes_position = adapter.cache.as_ref().unwrap().position.to_string();
        assert_eq!(cached_codes(&adapter), Some(&game[..]));
        adapter
            .update_cache(start, Moves::Text("b6 f6 a6"))
            .unwrap();
        assert_eq!(
            adapter.cache.as_ref().unwrap().position.to_string(),
            by_codes_position
        );
        assert_eq!(cached_codes(&adapter), None);
        // Not an extension: replayed from the start.
        let other = codes(&["a6", "f6"]);
        adapter.update_cache(start, by_codes(&game)).unwrap();
        adapter.update_cache(start, by_codes(&other)).unwrap();
        assert_eq!(cached_codes(&adapter), Some(&other[..]));
        // Another start is another game, whatever the moves.
        let elsewhere = "x5o/7/7/7/7/7/o4xx x 0 1";
        adapter.update_cache(elsewhere, by_codes(&other)).unwrap();
        assert_eq!(adapter.cache.as_ref().unwrap().start, elsewhere);
        // A refused code leaves no cache behind.
        assert!(adapter
            .update_cache(start, by_codes(&[other[0], other[1], 0x3_0000]))
            .is_err());
        assert!(adapter.cache.is_none());
    }

    #[test]
    fn one_history_is_taken_on_the_hosts_word_and_another_is_compared() {
        let mut adapter = black_adapter();
        let start = "x5o/7/7/7/7/7/o5x x 0 1";
        let game = codes(&["b6", "f6", "g2"]);
        let ask = |adapter: &mut Adapter<FirstMove>, history, codes| {
            adapter
                .update_cache(start, Moves::Codes { history, codes })
                .map(ToString::to_string)
        };
        let expected = |moves: &[&str]| {
            let mut position =
                crate::games::ataxx::Position::start(crate::games::ataxx::Variant::Standard);
            for text in moves {
                position.play_unchecked(text.parse().unwrap());
            }
            position.to_string()
        };
        ask(&mut adapter, 7, &game[..1]).unwrap();
        // The same history: only the moves past the cached ones are read (the host vouches for
        // the rest), so a first move that differs goes unseen.
        let mut told = game.clone();
        told[0] = codes(&["a6"])[0];
        assert_eq!(
            ask(&mut adapter, 7, &told).unwrap(),
            expected(&["b6", "f6", "g2"])
        );
        // Another history is compared, and replayed from the start where it differs.
        assert_eq!(
            ask(&mut adapter, 8, &told).unwrap(),
            expected(&["a6", "f6", "g2"])
        );
        // Fewer moves than cached, in the same history: replayed from the start.
        assert_eq!(ask(&mut adapter, 8, &told[..1]).unwrap(), expected(&["a6"]));
    }
}
