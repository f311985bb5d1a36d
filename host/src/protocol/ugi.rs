//! `tavola ugi` (and `tavola uai --bot P`): any Tavola player (the built-in bot, `random`, a plugin in its worker) as an
//! engine of the Universal Game Interface (cutegames' UGI: UCI generalised to any game), on
//! stdin and stdout, for every game Tavola plays.
//!
//! Positions and moves are in the game's own notation (the README's "Notation and positions").
//! `p1` is the game's first player, the side to move in its start position (Ataxx `x`, Tablut
//! White, Gonnect Black `X`, Dama White). The engine answers:
//!
//! ```text
//! ugi                        id name ..., id author ..., ugiok
//! isready                    readyok (at once, also while thinking)
//! setoption name K value V   the player's option K=V, from the next game on
//! uginewgame                 a new game: new players, the start position
//! position startpos|fen F [moves M ...]
//! go [p1time MS p2time MS p1inc MS p2inc MS | movetime MS | depth N | nodes N | infinite]
//!                            info ... lines while thinking, then bestmove M (after
//!                            infinite, only once stopped)
//! stop                       asks the player to answer now
//! query gameover|p1turn|result
//!                            response true|false, response p1win|p2win|draw|none
//! quit
//! ```
//!
//! `depth` and `nodes` bind the built-in bot (the lower of them and its own options' limits);
//! other players have no such limits and play on the clocks.
//!
//! Bad input gets one `info string error: ...` line and the engine goes on; a player that fails
//! (crashes, errs, answers an illegal move) gets an `info string error` line and `bestmove 0000`,
//! which no game accepts, so that the host adjudicates the loss.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use tavola_sdk::{Color, Game, Outcome, Position, SearchInfo};

use crate::builtin::Evaluate;
use crate::seat::{self, MoveLimits, Request, Seat, SeatFailure, SeatSpec, StopHandle};
use crate::text_ui::{seat_for, GameSetup};

/// Which protocol the engine speaks: UGI, or its Ataxx ancestor UAI (`uai`/`uaiok`,
/// `uainewgame`, and the clocks as `btime`/`binc` for `x`, the first player, `wtime`/`winc` for
/// `o`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Game Interface.
    Ugi,
    /// The Universal Ataxx Interface.
    Uai,
}

/// How the engine's players are made.
#[derive(Debug, Clone)]
pub struct EngineSetup {
    /// The protocol.
    pub dialect: Dialect,
    /// The player behind the engine.
    pub spec: SeatSpec,
    /// The variant (`None`: the game's default).
    pub variant: Option<String>,
    /// How plugins run (worker options, or `None` in-process).
    pub isolation: Option<seat::worker::WorkerOptions>,
    /// The seed of the players' randomness (each game adds its number).
    pub seed: u64,
}

type Out = Arc<Mutex<dyn Write + Send>>;

fn send(out: &Out, line: &str) {
    if let Ok(mut out) = out.lock() {
        // A closed stdout leaves nobody to tell.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// A search on its thread: the seat comes back with the answer.
struct Running<G: Game> {
    stop: StopHandle,
    /// `go infinite`: the answer waits for `stop`.
    infinite: bool,
    thread: JoinHandle<Seat<G>>,
}

struct Engine<G: Evaluate> {
    out: Out,
    setup: EngineSetup,
    /// The options set with `setoption`, for the players made from now on.
    options: Vec<(String, String)>,
    start: G::Position,
    start_text: String,
    moves: Vec<G::Move>,
    position: G::Position,
    /// One player per colour, made when that colour is first to move in a game.
    seats: [Option<Seat<G>>; 2],
    running: Option<(Color, Running<G>)>,
    games: u64,
    /// The game's first player (`p1`): the side to move in its start position.
    p1: Color,
}

/// Runs the engine until `quit` or the end of `input`.
///
/// # Errors
/// The variant is not one of the game's.
pub fn run<G: Evaluate>(
    input: impl BufRead,
    output: impl Write + Send + 'static,
    setup: EngineSetup,
) -> anyhow::Result<()> {
    let start = G::start(setup.variant.as_deref())?;
    let out: Out = Arc::new(Mutex::new(output));
    let mut engine = Engine::<G> {
        out,
        options: setup.spec.options.clone(),
        setup,
        p1: start.side_to_move(),
        start_text: start.to_string(),
        position: start.clone(),
        start,
        moves: Vec::new(),
        seats: [None, None],
        running: None,
        games: 0,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !engine.command(line.trim()) {
            break;
        }
    }
    engine.finish_search();
    Ok(())
}

impl<G: Evaluate> Engine<G> {
    fn error(&self, message: &str) {
        send(&self.out, &format!("info string error: {message}"));
    }

    fn hello(&self, ok: &str) {
        send(
            &self.out,
            &format!(
                "id name Tavola {} ({} {})",
                env!("CARGO_PKG_VERSION"),
                self.setup.spec,
                G::NAME
            ),
        );
        send(&self.out, "id author The Tavola authors");
        send(&self.out, ok);
    }

    /// Handles one line; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        match words.next() {
            None => {}
            Some("ugi") if self.setup.dialect == Dialect::Ugi => self.hello("ugiok"),
            Some("uai") if self.setup.dialect == Dialect::Uai => self.hello("uaiok"),
            Some("isready") => send(&self.out, "readyok"),
            Some("uginewgame") | Some("uainewgame") => {
                self.finish_search();
                self.seats = [None, None];
                self.games += 1;
                self.set_position(None, &[]);
            }
            Some("setoption") => self.set_option(&words.collect::<Vec<_>>()),
            Some("position") => self.position_command(&words.collect::<Vec<_>>()),
            Some("go") => self.go(&words.collect::<Vec<_>>()),
            Some("stop") => {
                if let Some((_, running)) = &self.running {
                    running.stop.stop();
                }
            }
            Some("query") => self.query(words.next()),
            Some("quit") => return false,
            Some(other) => self.error(&format!("unknown command {other:?}")),
        }
        true
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name K [value V]
        let joined = words.join(" ");
        let Some(rest) = joined.strip_prefix("name ") else {
            return self.error(&format!("setoption {joined:?}: expected name K value V"));
        };
        let (key, value) = match rest.split_once(" value ") {
            Some((key, value)) => (key.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        if key.is_empty() {
            return self.error("setoption without a name");
        }
        self.options.retain(|(k, _)| k != key);
        self.options.push((key.to_owned(), value.to_owned()));
        // The players made from now on take it.
        self.finish_search();
        self.seats = [None, None];
    }

    /// `position startpos [moves ...]` or `position fen TEXT [moves ...]`.
    fn position_command(&mut self, words: &[&str]) {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        match head.split_first() {
            Some((&"startpos", [])) => self.set_position(None, moves),
            Some((&"fen", text)) if !text.is_empty() => {
                self.set_position(Some(&text.join(" ")), moves);
            }
            _ => self.error(&format!(
                "position {:?}: expected startpos or fen TEXT, then moves",
                words.join(" ")
            )),
        }
    }

    /// Sets the position (`text`, or the start) and plays `moves`; on any error keeps the old one.
    fn set_position(&mut self, text: Option<&str>, moves: &[&str]) {
        self.finish_search();
        let start = match text {
            None => G::start(self.setup.variant.as_deref()).map_err(|e| e.to_string()),
            Some(text) => {
                G::parse_position(text, self.setup.variant.as_deref()).map_err(|e| e.to_string())
            }
        };
        let start = match start {
            Ok(start) => start,
            Err(e) => return self.error(&e),
        };
        let mut position = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match position.parse_move(text) {
                Ok(mv) => {
                    position.play_unchecked(mv);
                    played.push(mv);
                }
                Err(e) => return self.error(&format!("move {} {text:?}: {e}", i + 1)),
            }
        }
        self.start_text = start.to_string();
        self.start = start;
        self.moves = played;
        self.position = position;
    }

    fn query(&self, what: Option<&str>) {
        let outcome = self.position.outcome();
        let answer = match what {
            Some("gameover") => outcome.is_some().to_string(),
            Some("p1turn") => (self.position.side_to_move() == self.p1).to_string(),
            Some("result") => match outcome {
                None => "none".to_owned(),
                Some(Outcome { winner: None, .. }) => "draw".to_owned(),
                Some(Outcome {
                    winner: Some(winner),
                    ..
                }) if winner == self.p1 => "p1win".to_owned(),
                Some(_) => "p2win".to_owned(),
            },
            other => {
                return self.error(&format!(
                    "query {:?}: expected gameover, p1turn or result",
                    other.unwrap_or("")
                ))
            }
        };
        send(&self.out, &format!("response {answer}"));
    }

    fn go(&mut self, words: &[&str]) {
        self.finish_search();
        if self.position.outcome().is_some() {
            self.error("the game is over");
            return send(&self.out, "bestmove 0000");
        }
        let go = match Go::parse(words, self.setup.dialect) {
            Ok(go) => go,
            Err(e) => return self.error(&e),
        };
        let me = self.position.side_to_move();
        let mine = me == self.p1;
        let (own, opponent, increment) = if mine {
            (go.p1time, go.p2time, go.p1inc)
        } else {
            (go.p2time, go.p1time, go.p2inc)
        };
        let mut clocks = seat::clocks(own, opponent, increment);
        clocks.movetime_ms = go.movetime.into();
        let limits = MoveLimits {
            depth: go.depth,
            nodes: go.nodes,
            infinite: go.infinite,
        };
        let mut seat = match self.seats[me.index()].take() {
            Some(seat) => seat,
            None => match self.new_seat(me) {
                Ok(seat) => seat,
                Err(e) => {
                    self.error(&format!("{e:#}"));
                    return send(&self.out, "bestmove 0000");
                }
            },
        };
        let mut request = Request::new(
            self.start_text.clone(),
            self.moves.clone(),
            self.position.clone(),
            clocks,
        );
        request.limits = limits;
        let out = Arc::clone(&self.out);
        let position = self.position.clone();
        seat.request(request);
        let stop = seat.stop_handle();
        let stopped = stop.clone();
        let thread = thread::spawn(move || {
            // The player's reports as they come, then its answer.
            let mut reported: Option<SearchInfo> = None;
            let answer = loop {
                if let Some(answer) = seat.poll() {
                    break answer;
                }
                let info = seat.search_info();
                if info.is_some() && info != reported {
                    if let Some(info) = &info {
                        send(&out, &info_line(info));
                    }
                    reported = info;
                }
                thread::sleep(Duration::from_millis(2));
            };
            let last = seat.search_info();
            if let Some(info) = last.as_ref().filter(|_| last != reported) {
                send(&out, &info_line(info));
            }
            // After `go infinite` the answer waits for `stop`, even when the search ended.
            while limits.infinite && !stopped.is_stopped() {
                thread::sleep(Duration::from_millis(2));
            }
            match answer {
                Ok(text) => match position.parse_move(text.trim()) {
                    Ok(mv) => send(&out, &format!("bestmove {mv}")),
                    Err(e) => {
                        send(&out, &format!("info string error: the player answered {e}"));
                        send(&out, "bestmove 0000");
                    }
                },
                Err(failure) => {
                    let why = match failure {
                        SeatFailure::Crash(e) => format!("the player crashed: {e}"),
                        other => format!("the player failed: {other}"),
                    };
                    send(&out, &format!("info string error: {why}"));
                    send(&out, "bestmove 0000");
                }
            }
            seat
        });
        self.running = Some((
            me,
            Running {
                stop,
                infinite: limits.infinite,
                thread,
            },
        ));
    }

    fn new_seat(&self, color: Color) -> anyhow::Result<Seat<G>> {
        let spec = SeatSpec {
            kind: self.setup.spec.kind.clone(),
            options: self.options.clone(),
        };
        let variant = self.position.variant();
        let setup = GameSetup {
            variant: Some(variant.to_owned()),
            position: None,
            resume: None,
            record_path: None,
            players: [spec.clone(), spec.clone()],
            settings: crate::referee::Settings::default(),
            seed: self.setup.seed.wrapping_add(self.games),
            isolation: self.setup.isolation.clone(),
        };
        Ok(seat_for::<G>(&spec, color, variant, &setup)?.seat)
    }

    /// Waits for a running search to end (it prints its own `bestmove`), and keeps its seat. An
    /// infinite one is stopped first: a host that moves on without `stop` gets its answer too.
    fn finish_search(&mut self) {
        if let Some((color, running)) = self.running.take() {
            if running.infinite {
                running.stop.stop();
            }
            if let Ok(seat) = running.thread.join() {
                self.seats[color.index()] = Some(seat);
            }
        }
    }
}

/// The `info` line of a search report.
fn info_line(info: &SearchInfo) -> String {
    let mut line = format!(
        "info depth {} seldepth {} nodes {}",
        info.depth, info.seldepth, info.nodes
    );
    match (info.mate, info.score) {
        (Some(mate), _) => line.push_str(&format!(" score mate {mate}")),
        (None, Some(cp)) => line.push_str(&format!(" score cp {cp}")),
        (None, None) => {}
    }
    if !info.pv.is_empty() {
        line.push_str(&format!(" pv {}", info.pv));
    }
    if !info.message.is_empty() {
        line.push_str(&format!(" string {}", info.message));
    }
    line
}

/// What `go` asked for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Go {
    p1time: Option<u64>,
    p2time: Option<u64>,
    p1inc: u64,
    p2inc: u64,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

impl Go {
    fn parse(words: &[&str], dialect: Dialect) -> Result<Go, String> {
        let uai = dialect == Dialect::Uai;
        let mut go = Go::default();
        let mut words = words.iter();
        while let Some(&word) = words.next() {
            let mut number = || -> Result<u64, String> {
                let text = words
                    .next()
                    .ok_or_else(|| format!("go {word}: a number must follow"))?;
                // A clock may be negative when a host lets it run out: no time, then.
                text.parse::<i64>()
                    .map(|n| n.max(0).unsigned_abs())
                    .map_err(|_| format!("go {word} {text:?}: not a number of milliseconds"))
            };
            match word {
                "p1time" => go.p1time = Some(number()?),
                "p2time" => go.p2time = Some(number()?),
                "p1inc" => go.p1inc = number()?,
                "p2inc" => go.p2inc = number()?,
                // UAI: x, the first player, is "black".
                "btime" if uai => go.p1time = Some(number()?),
                "wtime" if uai => go.p2time = Some(number()?),
                "binc" if uai => go.p1inc = number()?,
                "winc" if uai => go.p2inc = number()?,
                "movetime" => go.movetime = Some(number()?.max(1)),
                // The built-in bot's deepest search is 64 plies.
                "depth" => go.depth = Some(number()?.clamp(1, 64) as u32),
                "nodes" => go.nodes = Some(number()?.max(1)),
                // The host's clock bounds the move anyway.
                "mate" | "movestogo" => {
                    number()?;
                }
                "infinite" => go.infinite = true,
                other => return Err(format!("go: unknown argument {other:?}")),
            }
        }
        Ok(go)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_both_clocks_and_refuses_garbage() {
        let words = [
            "p1time", "1000", "p2time", "2000", "p1inc", "10", "p2inc", "20",
        ];
        assert_eq!(
            Go::parse(&words, Dialect::Ugi).unwrap(),
            Go {
                p1time: Some(1000),
                p2time: Some(2000),
                p1inc: 10,
                p2inc: 20,
                ..Go::default()
            }
        );
        assert_eq!(
            Go::parse(&["movetime", "-5"], Dialect::Ugi)
                .unwrap()
                .movetime,
            Some(1)
        );
        assert!(Go::parse(&["p1time"], Dialect::Ugi)
            .unwrap_err()
            .contains("a number must follow"));
        assert!(Go::parse(&["wtime", "5"], Dialect::Ugi)
            .unwrap_err()
            .contains("wtime"));
        let uai = Go::parse(&["wtime", "5", "btime", "7", "binc", "1"], Dialect::Uai).unwrap();
        assert_eq!((uai.p1time, uai.p2time, uai.p1inc), (Some(7), Some(5), 1));
        let limits = Go::parse(
            &["depth", "5", "nodes", "20000", "movestogo", "9"],
            Dialect::Ugi,
        )
        .unwrap();
        assert_eq!((limits.depth, limits.nodes), (Some(5), Some(20000)));
        assert!(!limits.infinite);
        assert_eq!(
            Go::parse(&["depth", "999"], Dialect::Ugi).unwrap().depth,
            Some(64)
        );
        assert!(Go::parse(&["infinite"], Dialect::Ugi).unwrap().infinite);
        assert!(Go::parse(&["nodes", "many"], Dialect::Ugi)
            .unwrap_err()
            .contains("\"many\""));
    }
}
