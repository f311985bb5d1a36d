//! `tavola uai`: the built-in Ataxx bot as a UAI engine (the Universal Ataxx Interface, UCI with
//! "a" for "c") on stdin/stdout, so that Ataxx tools (cutechess-style match runners, GUIs) can use it.
//!
//! Conventions, as the UAI engines and libataxx have them: `x` is player one, moves first, and is
//! called *black*, so its clock is `btime`/`binc`; `o` uses `wtime`/`winc`. Positions are FEN
//! (`position fen x5o/7/7/7/7/7/o5x x 0 1 moves b6`); moves are `b6` (clone), `a7c5` (jump),
//! `0000` (pass). The search runs on its own thread, so that `isready` and `stop` are answered
//! while it thinks. Malformed input gets an `info string error: ...` line; the engine goes on.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use tavola_sdk::abi::Clocks;
use tavola_sdk::games::ataxx::{Ataxx, Position as AtaxxPosition};
use tavola_sdk::{Color, Game, Position};

use crate::builtin::search::{Iteration, Limits, Score, Searcher};
use crate::builtin::time;
use crate::builtin::Evaluate;

type Out = Arc<Mutex<dyn Write + Send>>;

fn send(out: &Out, line: &str) {
    if let Ok(mut out) = out.lock() {
        // A closed stdout leaves nobody to tell.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// The engine's state between commands.
struct Engine {
    out: Out,
    position: AtaxxPosition,
    hash_mb: usize,
    /// The searcher, when no search has it.
    searcher: Option<Searcher<Ataxx>>,
    running: Option<Running>,
}

/// A search on its thread.
struct Running {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Searcher<Ataxx>>,
}

/// What `go` asked for.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Go {
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: u64,
    binc: u64,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

pub(crate) fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        if word == "infinite" {
            go.infinite = true;
            continue;
        }
        if word == "ponder" {
            continue;
        }
        let value = words
            .next()
            .ok_or_else(|| format!("go {word}: missing value"))?;
        let number = |value: &str| -> Result<u64, String> {
            // Some GUIs send a negative time when a clock has run out.
            if let Ok(n) = value.parse::<i64>() {
                return Ok(n.max(0) as u64);
            }
            Err(format!("go {word} {value}: expected a number"))
        };
        match word {
            "wtime" => go.wtime = Some(number(value)?),
            "btime" => go.btime = Some(number(value)?),
            "winc" => go.winc = number(value)?,
            "binc" => go.binc = number(value)?,
            "movetime" => go.movetime = Some(number(value)?),
            "depth" => go.depth = Some(number(value)?.clamp(1, 100) as u32),
            "nodes" => go.nodes = Some(number(value)?.max(1)),
            "movestogo" | "mate" => {
                number(value)?;
            }
            _ => return Err(format!("go: unknown parameter {word:?}")),
        }
    }
    Ok(go)
}

impl Go {
    /// The search limits for the side to move `side` (`x`, White in Tavola, is UAI's black).
    fn limits(&self, side: Color) -> Limits {
        let (own, other, inc) = match side {
            Color::White => (self.btime, self.wtime, self.binc),
            Color::Black => (self.wtime, self.btime, self.winc),
        };
        let timed = own.is_some() || self.movetime.is_some();
        let mut limits = if timed && !self.infinite {
            let clocks = Clocks {
                own_ms: own.into(),
                opponent_ms: other.into(),
                increment_ms: inc,
                movetime_ms: self.movetime.into(),
            };
            time::limits_over(&clocks, None, <Ataxx as Evaluate>::HEURISTICS.moves_left)
        } else {
            Limits::default()
        };
        limits.depth = self.depth;
        limits.nodes = self.nodes;
        // The GUI keeps the clock, on the wall.
        limits.wall_clock = true;
        limits
    }

    /// Whether the search may only end on `stop` (`go infinite`, or `go` with no limit at all).
    fn waits_for_stop(&self) -> bool {
        self.infinite
            || (self.wtime.is_none()
                && self.btime.is_none()
                && self.movetime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none())
    }
}

/// An iteration as a UAI `info` line.
fn info_line(iteration: &Iteration<<Ataxx as Game>::Move>) -> String {
    let score = match iteration.score() {
        Score::Centi(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    let pv: Vec<String> = iteration.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
        iteration.depth,
        iteration.seldepth,
        iteration.nodes,
        iteration.nps(),
        iteration.elapsed.as_millis(),
        pv.join(" ")
    )
}

impl Engine {
    fn new(out: Out) -> Engine {
        let hash_mb = Searcher::<Ataxx>::DEFAULT_HASH_MB;
        Engine {
            out,
            position: start(),
            hash_mb,
            searcher: Some(Searcher::new(hash_mb)),
            running: None,
        }
    }

    fn error(&self, message: &str) {
        send(&self.out, &format!("info string error: {message}"));
    }

    /// Stops the running search, if any, and takes its searcher back (its `bestmove` is sent).
    fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            match running.thread.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    self.error("the search thread panicked; starting afresh");
                    self.searcher = Some(Searcher::new(self.hash_mb));
                }
            }
        }
    }

    /// Handles one line; `false` on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            return true;
        };
        match command {
            "uai" => {
                send(
                    &self.out,
                    &format!("id name Tavola {}", env!("CARGO_PKG_VERSION")),
                );
                send(&self.out, "id author the Tavola authors");
                send(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {} min 1 max 4096",
                        Searcher::<Ataxx>::DEFAULT_HASH_MB
                    ),
                );
                send(
                    &self.out,
                    "option name Threads type spin default 1 min 1 max 1",
                );
                send(&self.out, "uaiok");
            }
            "isready" => send(&self.out, "readyok"),
            "debug" => {}
            "setoption" => self.set_option(rest),
            "uainewgame" | "ucinewgame" => {
                self.stop();
                if let Some(searcher) = &mut self.searcher {
                    searcher.clear();
                }
                self.position = start();
            }
            "position" => {
                self.stop();
                match parse_position(rest) {
                    Ok(position) => self.position = position,
                    Err(e) => self.error(&e),
                }
            }
            "go" => match parse_go(rest) {
                Ok(go) => {
                    self.stop();
                    self.go(&go);
                }
                Err(e) => self.error(&e),
            },
            "stop" => self.stop(),
            "ponderhit" => {}
            "quit" => {
                self.stop();
                return false;
            }
            _ => self.error(&format!("unknown command {command:?}")),
        }
        true
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name NAME [value VALUE]; names may hold spaces.
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return self.error(&format!("setoption {text:?}: expected name ... value ..."));
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((name, value)) => (name.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.stop();
                    self.hash_mb = mb;
                    self.searcher = Some(Searcher::new(mb));
                }
                _ => self.error(&format!("Hash {value:?}: expected 1 to 4096 (MB)")),
            },
            "threads" => {
                if value != "1" {
                    self.error(&format!("Threads {value:?}: only 1 is supported"));
                }
            }
            _ => self.error(&format!("unknown option {name:?}")),
        }
    }

    fn go(&mut self, go: &Go) {
        let position = self.position.clone();
        if position.outcome().is_some() {
            self.error("the game is over: no move to search");
            send(&self.out, "bestmove 0000");
            return;
        }
        let limits = go.limits(position.side_to_move());
        let waits = go.waits_for_stop();
        let stop = Arc::new(AtomicBool::new(false));
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.hash_mb));
        let (out, thread_stop) = (Arc::clone(&self.out), Arc::clone(&stop));
        let spawned = thread::Builder::new()
            .name("uai search".to_owned())
            .spawn(move || {
                let mut report = |i: &Iteration<_>| send(&out, &info_line(i));
                let found = searcher.search(&position, limits, &thread_stop, &mut report);
                // In infinite mode the answer waits for `stop`, even after the search ends.
                while waits && !thread_stop.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
                let best = found
                    .pv
                    .first()
                    .map_or_else(|| "0000".to_owned(), ToString::to_string);
                send(&out, &format!("bestmove {best}"));
                searcher
            });
        match spawned {
            Ok(thread) => self.running = Some(Running { stop, thread }),
            Err(e) => self.error(&format!("cannot start the search thread: {e}")),
        }
    }
}

/// The standard start position.
fn start() -> AtaxxPosition {
    Ataxx::start(None).expect("Ataxx has a default variant")
}

/// `position startpos|fen FEN [moves M...]`.
pub(crate) fn parse_position(words: &[&str]) -> Result<AtaxxPosition, String> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut position = match setup.split_first() {
        Some((&"startpos", [])) => start(),
        Some((&"startpos", extra)) => {
            return Err(format!(
                "position startpos: unexpected {:?}",
                extra.join(" ")
            ))
        }
        Some((&"fen", fen)) if !fen.is_empty() => {
            Ataxx::parse_position(&fen.join(" "), None).map_err(|e| format!("position: {e}"))?
        }
        _ => return Err("position: expected startpos or fen FEN, then moves ...".to_owned()),
    };
    for text in moves {
        let mv = position
            .parse_move(text)
            .map_err(|e| format!("position: move {text}: {e}"))?;
        position.play_unchecked(mv);
    }
    Ok(position)
}

/// Speaks UAI on `input` and `output` until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    let out: Out = Arc::new(Mutex::new(output));
    let mut engine = Engine::new(out);
    for line in input.lines() {
        let Ok(line) = line else {
            engine.error("input is not UTF-8 text");
            continue;
        };
        if !engine.handle(&line) {
            return;
        }
    }
    // The input ended (the GUI went away): finish like `quit`.
    engine.stop();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_the_clocks_of_the_side_to_move() {
        let go = parse_go(&["wtime", "1000", "btime", "60000", "binc", "500"]).unwrap();
        // x (White in Tavola) moves with btime.
        let x = go.limits(Color::White);
        let o = go.limits(Color::Black);
        assert!(x.hard > o.hard, "{x:?} {o:?}");
        let go = parse_go(&["depth", "3"]).unwrap();
        assert_eq!(go.limits(Color::White).depth, Some(3));
        assert!(!go.waits_for_stop());
        assert!(parse_go(&[]).unwrap().waits_for_stop());
        assert!(parse_go(&["wtime"]).is_err());
        assert!(parse_go(&["depth", "x"]).is_err());
        assert!(parse_go(&["sideways", "1"]).is_err());
    }

    #[test]
    fn positions_parse_with_moves() {
        let p = parse_position(&["startpos", "moves", "b6", "a1a3"]).unwrap();
        assert_eq!(p.to_string(), "x5o/1x5/7/7/o6/7/6x x 1 2");
        let p = parse_position(&["fen", "x5o/7/7/7/7/7/o5x", "o", "0", "1", "moves", "f6"]);
        assert!(p.is_ok(), "{p:?}");
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["startpos", "moves", "a4"]).is_err());
        assert!(parse_position(&["sideways"]).is_err());
    }
}
