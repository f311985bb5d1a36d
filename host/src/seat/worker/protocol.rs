//! The line protocol between the host and a worker process: one JSON object per line, host to
//! worker on the worker's stdin, worker to host on its (original) stdout.
//!
//! ```text
//! worker: {"type":"hello","protocol":1,"name":"greedy",...}
//! host:   {"type":"new_player","game":"ataxx","variant":"standard","color":0,"seed":7,"options":[]}
//! worker: {"type":"ready"}
//! host:   {"type":"go","start":"x5o/7/7/7/7/7/o5x x 0 1","moves":"","clocks":{...}}
//! worker: {"type":"info","depth":1,...}
//! worker: {"type":"move","text":"f2"}
//! host:   {"type":"quit"}
//! ```
//!
//! `stop` may come at any time while the bot thinks. Whatever the plugin prints arrives as
//! `output` lines, never mixed into the protocol.
//!
//! A worker whose bot takes moves as codes says `"typed":true` in its hello; the host then sends
//! each game's first request with the moves' codes and the game's number (`"history"`), answered
//! by `{"type":"code","code":29}`, and a later request of the game that extends the worker's last
//! by at most [`super::page::CODES`] moves through the page of [`super::page`] (any other over
//! this protocol again, as the first). A `stop` on this protocol is for a request made on it; a
//! request through the page is stopped through the page.

use serde::{Deserialize, Serialize};
use tavola_sdk::abi::Clocks;
use tavola_sdk::SearchInfo;

/// The protocol's version; the host refuses a worker that speaks another.
pub const PROTOCOL_VERSION: u32 = 1;

/// The clocks of a request, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct WireClocks {
    /// Time left on the bot's clock.
    pub own_ms: Option<u64>,
    /// Time left on the opponent's clock.
    pub opponent_ms: Option<u64>,
    /// Increment per move.
    pub increment_ms: u64,
    /// A fixed time for this move.
    pub movetime_ms: Option<u64>,
}

impl From<Clocks> for WireClocks {
    fn from(c: Clocks) -> WireClocks {
        WireClocks {
            own_ms: c.own_ms.into_option(),
            opponent_ms: c.opponent_ms.into_option(),
            increment_ms: c.increment_ms,
            movetime_ms: c.movetime_ms.into_option(),
        }
    }
}

impl From<WireClocks> for Clocks {
    fn from(c: WireClocks) -> Clocks {
        Clocks {
            own_ms: c.own_ms.into(),
            opponent_ms: c.opponent_ms.into(),
            increment_ms: c.increment_ms,
            movetime_ms: c.movetime_ms.into(),
        }
    }
}

/// A message from the host to the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    /// Create the player for one game.
    NewPlayer {
        /// The game's name.
        game: String,
        /// The variant's name.
        variant: String,
        /// 0 White, 1 Black.
        color: u8,
        /// The seed.
        seed: u64,
        /// The user's options.
        options: Vec<(String, String)>,
    },
    /// Choose a move.
    Go {
        /// The start position's text.
        start: String,
        /// The moves so far, separated by spaces.
        moves: String,
        /// The clocks.
        clocks: WireClocks,
        /// The game the moves are of, as the host numbers it (0: none); a typed request's later
        /// moves come through the worker's page with this number.
        #[serde(default)]
        history: u64,
        /// The same moves as codes, for a bot that takes them (then it answers `code`).
        #[serde(default)]
        codes: Option<Vec<u64>>,
    },
    /// Answer now.
    Stop,
    /// Exit.
    Quit,
}

/// A message from the worker to the host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    /// The library is loaded: what it says about itself.
    Hello {
        /// The protocol version the worker speaks.
        protocol: u32,
        /// The bot's name.
        name: String,
        /// The bot's version.
        version: String,
        /// The bot's author.
        author: String,
        /// The games it plays.
        games: Vec<String>,
        /// One line about the bot (absent from older workers).
        #[serde(default)]
        description: String,
        /// The version of `tavola-sdk` the bot was built against (absent from older workers).
        #[serde(default)]
        sdk_version: String,
        /// Whether its players take moves as codes (the library has the typed module) and the
        /// worker has the host's page: then the host may ask by codes, and through the page.
        #[serde(default)]
        typed: bool,
    },
    /// The library could not be loaded (the one-line message).
    LoadError {
        /// Why.
        message: String,
    },
    /// The player is created.
    Ready,
    /// The bot refused to play.
    Refused {
        /// Why.
        reason: String,
    },
    /// A search report.
    Info {
        /// The report.
        #[serde(flatten)]
        info: WireInfo,
    },
    /// The answer.
    Move {
        /// The move in notation.
        text: String,
    },
    /// The answer to a request by codes: the move's code.
    Code {
        /// The code.
        code: u64,
    },
    /// No answer: an error or a caught panic.
    Failure {
        /// Whether it was a panic.
        panicked: bool,
        /// The message.
        message: String,
    },
    /// A log record of the bot (or of the worker itself).
    Log {
        /// 1 error, 2 warn, 3 info, 4 debug, 5 trace.
        level: u8,
        /// The record's target (module path).
        target: String,
        /// The message.
        message: String,
    },
    /// A line the plugin printed.
    Output {
        /// `stdout` or `stderr`.
        stream: String,
        /// The line.
        line: String,
    },
}

/// A search report on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct WireInfo {
    /// Depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Nodes.
    pub nodes: u64,
    /// Score in hundredths.
    pub score: Option<i32>,
    /// Moves to mate.
    pub mate: Option<i32>,
    /// Principal variation.
    pub pv: String,
    /// Free text.
    pub message: String,
}

impl From<SearchInfo> for WireInfo {
    fn from(i: SearchInfo) -> WireInfo {
        WireInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            score: i.score,
            mate: i.mate,
            pv: i.pv,
            message: i.message,
        }
    }
}

impl From<WireInfo> for SearchInfo {
    fn from(i: WireInfo) -> SearchInfo {
        SearchInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            score: i.score,
            mate: i.mate,
            pv: i.pv,
            message: i.message,
        }
    }
}

/// One message as a line of JSON (without the newline).
#[must_use]
pub fn encode<T: Serialize>(message: &T) -> String {
    // Serialising these plain types cannot fail.
    serde_json::to_string(message).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_round_trip() {
        let messages = [
            FromWorker::Output {
                stream: "stdout".into(),
                line: "a line\nwith a newline and \"quotes\"".into(),
            },
            FromWorker::Info {
                info: WireInfo {
                    depth: 3,
                    score: Some(-12),
                    pv: "b6 f6".into(),
                    ..WireInfo::default()
                },
            },
            FromWorker::Move { text: "b6".into() },
            FromWorker::Code { code: 0x1d },
        ];
        for message in messages {
            let line = encode(&message);
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<FromWorker>(&line).unwrap(), message);
        }
        let go = ToWorker::Go {
            start: "x5o/7/7/7/7/7/o5x x 0 1".into(),
            moves: "b6".into(),
            clocks: WireClocks::default(),
            history: 7,
            codes: Some(vec![0x1d]),
        };
        assert_eq!(serde_json::from_str::<ToWorker>(&encode(&go)).unwrap(), go);
        // A request without the newer fields is one in notation.
        let old = r#"{"type":"go","start":"x5o/7/7/7/7/7/o5x x 0 1","moves":"","clocks":{"own_ms":null,"opponent_ms":null,"increment_ms":0,"movetime_ms":null}}"#;
        let Ok(ToWorker::Go { history, codes, .. }) = serde_json::from_str::<ToWorker>(old) else {
            panic!("not a go: {old}");
        };
        assert_eq!((history, codes), (0, None));
        assert_eq!(encode(&ToWorker::Stop), r#"{"type":"stop"}"#);
    }

    #[test]
    fn a_hello_without_the_newer_fields_still_reads() {
        let old = r#"{"type":"hello","protocol":1,"name":"greedy","version":"0.1.0","author":"A","games":["ataxx"]}"#;
        let Ok(FromWorker::Hello {
            name,
            description,
            sdk_version,
            ..
        }) = serde_json::from_str::<FromWorker>(old)
        else {
            panic!("not a hello: {old}");
        };
        assert_eq!(
            (name.as_str(), description.as_str(), sdk_version.as_str()),
            ("greedy", "", "")
        );
        let new = FromWorker::Hello {
            protocol: PROTOCOL_VERSION,
            name: "greedy".into(),
            version: "0.1.0".into(),
            author: "A".into(),
            games: vec!["ataxx".into()],
            description: "takes the most pieces".into(),
            sdk_version: "0.1.0".into(),
            typed: true,
        };
        assert_eq!(
            serde_json::from_str::<FromWorker>(&encode(&new)).unwrap(),
            new
        );
    }
}
