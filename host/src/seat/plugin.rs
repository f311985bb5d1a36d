//! Plugins in-process: loading a bot library and asking its players for moves through the ABI.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use abi_stable::abi_stability::abi_checking::check_layout_compatibility;
use abi_stable::library::{lib_header_from_path, LibHeader, LibraryError, RawLibrary, RootModule};
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, Tuple2};
use abi_stable::StableAbi;
use tavola_sdk::abi::{
    BotInfo, BotModuleRef, Clocks, CodeRequest, Failure, LogSink, MoveRequest, NewPlayer,
    PlayerBox, Reporter, Reporter_TO, SearchInfoWire, TypedExport, TypedModuleRef, TypedPlayerBox,
    TYPED_MODULE_SYMBOL,
};
use tavola_sdk::{Color, Game, MoveCode, SearchInfo};
use thiserror::Error;

use super::{
    Answer, Brain, Choice, Control, History, MovesText, Request, SeatFailure, TypedAnswer,
};

/// The version of `tavola-sdk` this host was built with; a bot must share its `0.minor`.
pub const SDK_VERSION: &str = tavola_sdk::VERSION;

/// Why a bot library could not be used. Each message is one line naming the path and what to do.
#[derive(Debug, Error)]
pub enum LoadError {
    /// No file at the path.
    #[error(
        "bot library {0} not found: check the path (build the bot with `cargo build --release`)"
    )]
    NotFound(PathBuf),
    /// The file is not a dynamic library this system can load.
    #[error(
        "{path} is not a loadable library ({reason}): a bot is a cdylib built with tavola-sdk"
    )]
    NotALibrary {
        /// The library's path.
        path: PathBuf,
        /// What the system loader said.
        reason: String,
    },
    /// The library is not a Tavola bot.
    #[error(
        "{0} is not a Tavola bot: it exports no bot module (a bot calls tavola_sdk::export_bot! \
         and is built as a cdylib)"
    )]
    NotABot(PathBuf),
    /// The bot was built against an incompatible SDK version.
    #[error(
        "{path} was built against tavola-sdk {found}, but this host uses tavola-sdk {expected}: \
         rebuild the bot against tavola-sdk {expected}"
    )]
    SdkVersion {
        /// The library's path.
        path: PathBuf,
        /// The SDK version the bot was built against.
        found: String,
        /// This host's SDK version.
        expected: String,
    },
    /// The bot's ABI types differ from the host's.
    #[error(
        "{path} was built against an incompatible tavola-sdk (its plugin ABI types differ from \
         this host's, tavola-sdk {expected}): rebuild the bot against tavola-sdk {expected}"
    )]
    SdkLayout {
        /// The library's path.
        path: PathBuf,
        /// This host's SDK version.
        expected: String,
    },
    /// The bot's initialisation failed.
    #[error("{path} failed to initialise: {reason}")]
    Init {
        /// The library's path.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// A worker process reported a load failure or refusal, already worded as one of the above.
    #[error("{0}")]
    Isolated(String),
    /// The bot refused to play.
    #[error("bot {name} ({path}) cannot play {game}: {reason}")]
    Refused {
        /// The bot's name.
        name: String,
        /// The library's path.
        path: PathBuf,
        /// The game asked for.
        game: String,
        /// The bot's reason.
        reason: String,
    },
}

/// A loaded bot library. Libraries are never unloaded; loading the same path twice shares one
/// library (and its statics) between both players. Cloned cheaply (a match takes it from the
/// loaded ones for every game).
#[derive(Clone)]
pub struct Library(Arc<Loaded>);

struct Loaded {
    path: PathBuf,
    module: BotModuleRef,
    /// The typed path's module, when the library has one (built with an SDK that has it).
    typed: Option<TypedModuleRef>,
    info: BotInfo,
}

impl fmt::Debug for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Library")
            .field("path", &self.0.path)
            .field("info", &self.0.info)
            .finish_non_exhaustive()
    }
}

impl Library {
    /// Loads the bot library at `path` and checks that it is a compatible Tavola bot.
    ///
    /// # Errors
    /// A [`LoadError`] naming the path and the reason.
    pub fn load(path: &Path) -> Result<Library, LoadError> {
        // A library is never unloaded, and the loader hands out the same one for the same path:
        // loaded once, it is taken from here (a match loads its plugins for every game).
        static LOADED: Mutex<BTreeMap<PathBuf, Library>> = Mutex::new(BTreeMap::new());
        if let Some(library) = LOADED.lock().ok().and_then(|l| l.get(path).cloned()) {
            return Ok(library);
        }
        let library = Library::load_uncached(path)?;
        if let Ok(mut loaded) = LOADED.lock() {
            loaded.insert(path.to_owned(), library.clone());
        }
        Ok(library)
    }

    fn load_uncached(path: &Path) -> Result<Library, LoadError> {
        // dlopen does not search the current directory for a bare name: canonicalise first.
        let path = path
            .canonicalize()
            .map_err(|_| LoadError::NotFound(path.to_owned()))?;
        if !path.is_file() {
            return Err(LoadError::NotALibrary {
                path,
                reason: "not a file".to_owned(),
            });
        }
        let header = lib_header_from_path(&path).map_err(|e| classify(&path, e))?;
        check_header(&path, header)?;
        let module = header
            .init_root_module::<BotModuleRef>()
            .map_err(|e| classify(&path, e))?;
        (module.set_logger())(LogSink {
            max_level: log::max_level() as u8,
            log: host_log,
        });
        let info = (module.info())();
        let typed = typed_module(&path);
        Ok(Library(Arc::new(Loaded {
            path,
            module,
            typed,
            info,
        })))
    }

    /// The library's canonical path.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// What the bot says about itself.
    pub fn info(&self) -> &BotInfo {
        &self.0.info
    }

    /// Whether the library's players take moves as codes ([`tavola_sdk::abi::TypedModule`]).
    pub fn is_typed(&self) -> bool {
        self.0.typed.is_some()
    }

    /// Creates a player for one game and colour: a typed one when the library has the typed path.
    ///
    /// # Errors
    /// [`LoadError::Refused`] with the bot's reason.
    pub fn new_player(
        &self,
        game: &str,
        variant: &str,
        color: Color,
        seed: u64,
        options: &[(String, String)],
    ) -> Result<PluginPlayer, LoadError> {
        let request = NewPlayer {
            game: game.into(),
            variant: variant.into(),
            color: color as u8,
            seed,
            options: options
                .iter()
                .map(|(k, v)| Tuple2(k.as_str().into(), v.as_str().into()))
                .collect(),
        };
        let made = match self.0.typed {
            Some(typed) => (typed.new_player())(request).map(PluginPlayer::Typed),
            None => (self.0.module.new_player())(request).map(PluginPlayer::Text),
        };
        match made {
            RResult::ROk(player) => Ok(player),
            RResult::RErr(reason) => Err(LoadError::Refused {
                name: self.0.info.name.to_string(),
                path: self.0.path.clone(),
                game: game.to_owned(),
                reason: reason.into(),
            }),
        }
    }
}

/// The typed path's module of the library at `path` (already loaded), if it exports one whose
/// layout matches this host's; a library built before the typed path has none.
fn typed_module(path: &Path) -> Option<TypedModuleRef> {
    // The library is loaded already and never unloaded: this only takes another handle to it.
    let raw: &'static RawLibrary = Box::leak(Box::new(RawLibrary::load_at(path).ok()?));
    // SAFETY: the symbol is the function `export_bot!` writes, of this very signature, in every
    // library built with an SDK that has the typed path (older ones lack the symbol).
    let export = unsafe {
        raw.get::<extern "C" fn() -> TypedExport>(TYPED_MODULE_SYMBOL.as_bytes())
            .ok()
            .map(|function| *function)?
    };
    let export = export();
    match check_layout_compatibility(<TypedModuleRef as StableAbi>::LAYOUT, export.layout) {
        Ok(()) => Some(export.module),
        Err(e) => {
            log::warn!(
                "{}: its typed module differs from this host's; asking it in notation",
                path.display()
            );
            log::debug!("{}: {e}", path.display());
            None
        }
    }
}

/// Checks what the header says before abi_stable compares layouts: that the library is a Tavola
/// bot, and built against the same `0.minor` SDK (abi_stable itself accepts any newer minor, whose
/// layouts then differ, which would give a vaguer message).
fn check_header(path: &Path, header: &LibHeader) -> Result<(), LoadError> {
    let consts = header.root_mod_consts();
    if consts.name().as_str() != <BotModuleRef as RootModule>::NAME {
        return Err(LoadError::NotABot(path.to_owned()));
    }
    let found = header.version_strings();
    let ours = <BotModuleRef as RootModule>::VERSION_STRINGS.parsed();
    let compatible = match (found.parsed(), ours) {
        (Ok(found), Ok(ours)) => {
            found.major == ours.major && (ours.major != 0 || found.minor == ours.minor)
        }
        _ => false,
    };
    if compatible {
        Ok(())
    } else {
        Err(LoadError::SdkVersion {
            path: path.to_owned(),
            found: found.version.as_str().to_owned(),
            expected: SDK_VERSION.to_owned(),
        })
    }
}

fn classify(path: &Path, error: LibraryError) -> LoadError {
    let path = path.to_owned();
    match error {
        LibraryError::OpenError { err, .. } => {
            // dlerror() starts with the path; it is already in our message.
            let message = err.to_string();
            let reason = message
                .split_once(&format!("{}: ", path.display()))
                .map_or(message.as_str(), |(_, rest)| rest);
            LoadError::NotALibrary {
                reason: one_line(reason),
                path,
            }
        }
        LibraryError::GetSymbolError { .. } => LoadError::NotABot(path),
        LibraryError::IncompatibleVersionNumber { actual_version, .. } => LoadError::SdkVersion {
            path,
            found: actual_version.to_string(),
            expected: SDK_VERSION.to_owned(),
        },
        ref error @ (LibraryError::AbiInstability(_) | LibraryError::InvalidAbiHeader(_)) => {
            // abi_stable's whole report, for whoever debugs the ABI (RUST_LOG=debug).
            log::debug!("{}: {error}", path.display());
            LoadError::SdkLayout {
                path,
                expected: SDK_VERSION.to_owned(),
            }
        }
        other => LoadError::Init {
            path,
            reason: one_line(&other.to_string()),
        },
    }
}

/// Folds a multi-line message (abi_stable's and dlerror's can be) into one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Receives the log records of every bot loaded in this process.
extern "C" fn host_log(level: u8, target: RStr<'_>, message: RStr<'_>) {
    log_bot_record(level, target.as_str(), message.as_str());
}

/// Logs one of a bot's records under the target `bot::TARGET`, at its own level (1 error .. 5 trace).
pub fn log_bot_record(level: u8, target: &str, message: &str) {
    let Some(level) = tavola_sdk::abi::level_filter(level).to_level() else {
        return;
    };
    // Records from a worker come already tagged by the worker's own copy of this function.
    let target = if target.starts_with("bot::") {
        target.to_owned()
    } else {
        format!("bot::{target}")
    };
    log::logger().log(
        &log::Record::builder()
            .level(level)
            .target(&target)
            .args(format_args!("{message}"))
            .build(),
    );
}

/// A plugin's player object, as [`Library::new_player`] makes it.
pub enum PluginPlayer {
    /// A player asked in notation (a library built before the typed path).
    Text(PlayerBox),
    /// A player that also takes moves as codes.
    Typed(TypedPlayerBox),
}

impl fmt::Debug for PluginPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PluginPlayer::Text(_) => "PluginPlayer::Text",
            PluginPlayer::Typed(_) => "PluginPlayer::Typed",
        })
    }
}

/// A plugin's player as a [`Brain`].
pub struct PluginBrain {
    player: PluginPlayer,
    /// The codes of the moves of the last typed request, and their history: the next request of
    /// the same history adds the codes of its new moves alone.
    sent: Option<(History, Vec<u64>)>,
    /// The same in notation, for a request in notation.
    text: MovesText,
}

impl fmt::Debug for PluginBrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PluginBrain").finish_non_exhaustive()
    }
}

impl PluginBrain {
    /// Wraps a player made by [`Library::new_player`].
    pub fn new(player: PluginPlayer) -> PluginBrain {
        PluginBrain {
            player,
            sent: None,
            text: MovesText::default(),
        }
    }

    /// Whether the player takes move codes ([`PluginBrain::ask_code`]).
    pub fn takes_codes(&self) -> bool {
        matches!(self.player, PluginPlayer::Typed(_))
    }
}

/// Passes a plugin's search reports on, converted from the wire type.
struct InfoSink<'a>(&'a (dyn Fn(SearchInfo) + Sync));

impl Reporter for InfoSink<'_> {
    fn report(&self, info: &SearchInfoWire) {
        (self.0)(SearchInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            score: info.score.into_option(),
            mate: info.mate.into_option(),
            pv: info.pv.to_string(),
            message: info.message.to_string(),
        });
    }
}

impl PluginBrain {
    /// Asks the plugin for a move, game-agnostically: the start position and the moves so far as
    /// text, the clocks, the stop flag, and where its search reports go.
    pub fn ask(
        &mut self,
        start: &str,
        moves: &str,
        clocks: Clocks,
        stop: &AtomicBool,
        report: &(dyn Fn(SearchInfo) + Sync),
    ) -> Answer {
        let sink = InfoSink(report);
        let wire = MoveRequest {
            start_position: start.into(),
            moves: moves.into(),
            clocks,
            stop,
            reporter: Reporter_TO::from_ptr(&sink, TD_Opaque),
        };
        match &mut self.player {
            PluginPlayer::Text(player) => player.choose_move(wire),
            PluginPlayer::Typed(player) => player.choose_move(wire),
        }
        .into_result()
        .map(Into::into)
        .map_err(seat_failure)
    }

    /// As [`PluginBrain::ask`], on the typed path: the moves as codes, with the number of their
    /// game ([`CodeRequest::history`], 0 for none), the answer a code.
    ///
    /// # Errors
    /// The bot's failure; an error for a player that does not [`PluginBrain::takes_codes`].
    pub fn ask_code(
        &mut self,
        start: &str,
        (history, moves): (u64, &[u64]),
        clocks: Clocks,
        stop: &AtomicBool,
        report: &(dyn Fn(SearchInfo) + Sync),
    ) -> Result<u64, SeatFailure> {
        let PluginPlayer::Typed(player) = &mut self.player else {
            return Err(SeatFailure::Error(
                "asked by move codes, which this bot does not take".to_owned(),
            ));
        };
        ask_code(player, start, (history, moves), clocks, stop, report)
    }
}

fn ask_code(
    player: &mut TypedPlayerBox,
    start: &str,
    (history, moves): (u64, &[u64]),
    clocks: Clocks,
    stop: &AtomicBool,
    report: &(dyn Fn(SearchInfo) + Sync),
) -> Result<u64, SeatFailure> {
    let sink = InfoSink(report);
    let wire = CodeRequest {
        start_position: start.into(),
        history,
        moves: moves.into(),
        clocks,
        stop,
        reporter: Reporter_TO::from_ptr(&sink, TD_Opaque),
    };
    player
        .choose_move_code(wire)
        .into_result()
        .map_err(seat_failure)
}

fn seat_failure(failure: Failure) -> SeatFailure {
    if failure.panicked {
        SeatFailure::Panic(failure.message.into())
    } else {
        SeatFailure::Error(failure.message.into())
    }
}

impl<G: Game> Brain<G> for PluginBrain {
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        let report = |info| control.report(info);
        let mut text = std::mem::take(&mut self.text);
        let answer = self.ask(
            &request.start_text,
            text.of(request),
            request.clocks,
            &control.stop,
            &report,
        );
        self.text = text;
        answer
    }

    /// By move codes when the player takes them, else in notation.
    fn choose_typed(&mut self, request: &Request<G>, control: &Control) -> TypedAnswer<G::Move> {
        let PluginPlayer::Typed(player) = &mut self.player else {
            return self.choose(request, control).map(Choice::Text);
        };
        let codes = match &mut self.sent {
            Some((history, codes))
                if *history == request.history && codes.len() <= request.moves.len() =>
            {
                codes
            }
            sent => &mut sent.insert((request.history, Vec::with_capacity(256))).1,
        };
        let new = &request.moves[codes.len()..];
        codes.extend(new.iter().map(|mv| mv.code()));
        let report = |info| control.report(info);
        let code = ask_code(
            player,
            &request.start_text,
            (request.history.get(), codes),
            request.clocks,
            &control.stop,
            &report,
        )?;
        Ok(G::Move::from_code(code).map_or(Choice::BadCode(code), Choice::Move))
    }
}
