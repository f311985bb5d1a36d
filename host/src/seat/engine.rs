//! Outside engines in a seat: a program that speaks UGI (any game) or UAI (Ataxx), named
//! `ugi:COMMAND` or `uai:COMMAND` (the command split at spaces, its options after a last
//! `:key=value,...`, sent as `setoption`).
//!
//! The engine runs as a child in a session and process group of its own, killed with the game
//! and when the host dies, with the workers' memory and CPU-time limits and no core dumps. It is
//! not sandboxed further: an ordinary engine forks (a JVM does), opens files and may use the
//! network, so namespaces, Landlock and seccomp would break it. A silent, slow, crashing or lying
//! engine loses with its reason, as a plugin does.

use std::io::{self, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::ChildStdin;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use tavola_sdk::{Color, Game, Position, SearchInfo};

use super::outside::{held_to, OutsideProcess, TurnWatch, Verdict};
use super::plugin::LoadError;
use super::stopwatch::{Arrival, ArrivalStamp, ProcessClock, ProcessProbe};
use super::worker::WorkerOptions;
use super::{Answer, Brain, Control, MovesText, Request, SeatFailure};

/// The time an engine is given for a move of an untimed game: a second, as the built-in bot
/// takes (nothing would ever stop `go infinite`). It is held to it as to any `go movetime`.
const UNTIMED_MOVETIME_MS: u64 = 1000;

/// The protocol an outside engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// cutegames' Universal Game Interface.
    Ugi,
    /// The Universal Ataxx Interface.
    Uai,
}

impl Protocol {
    /// `ugi` or `uai`, as the seat spec writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Ugi => "ugi",
            Protocol::Uai => "uai",
        }
    }
}

/// What an engine line can be, for the reader.
enum Line {
    Text(String, Arrival),
    Broken(String),
}

/// How many lines a reader holds that the seat has not taken yet.
const READ_AHEAD: usize = 256;

/// An outside engine, as a [`Brain`].
pub struct EngineBrain {
    name: String,
    protocol: Protocol,
    process: OutsideProcess,
    input: Input,
    lines: Receiver<Line>,
    /// The game's first player (`p1`, UAI's "black").
    first: Color,
    /// The moves of its requests in notation, written a move at a time.
    text: MovesText,
}

impl std::fmt::Debug for EngineBrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineBrain")
            .field("name", &self.name)
            .field("protocol", &self.protocol)
            .finish_non_exhaustive()
    }
}

impl EngineBrain {
    /// Starts `command` (a program and its arguments), shakes hands in `protocol`, sends
    /// `options` as `setoption`, and starts a new game of `G` whose first player is `first`.
    ///
    /// # Errors
    /// A [`LoadError`] naming the command: it does not start, or does not finish the hand-shake
    /// within `limits.startup_timeout`.
    pub fn spawn(
        protocol: Protocol,
        command: &[String],
        options: &[(String, String)],
        limits: &WorkerOptions,
        first: Color,
    ) -> Result<EngineBrain, LoadError> {
        let shown = command.join(" ");
        let failed = |reason: String| LoadError::Init {
            path: PathBuf::from(&shown),
            reason,
        };
        let program = command.first().map_or("", String::as_str);
        let label = program.rsplit('/').next().unwrap_or(program).to_owned();
        let mut process = OutsideProcess::spawn(command, limits, &label, None).map_err(failed)?;
        let (Some(stdin), Some(stdout)) =
            (process.child().stdin.take(), process.child().stdout.take())
        else {
            return Err(failed("it has no pipes".to_owned()));
        };
        let input = Input::new(stdin).map_err(|e| failed(format!("its input: {e}")))?;
        // Bounded: an engine that floods its output waits on its pipe instead of filling the
        // host's memory.
        let (sender, lines) = mpsc::sync_channel(READ_AHEAD);
        let reader_probe = i32::try_from(process.child().id())
            .ok()
            .map(ProcessProbe::new);
        thread::spawn(move || read_lines(stdout, &sender, reader_probe.as_ref()));
        let mut brain = EngineBrain {
            name: label,
            protocol,
            process,
            input,
            lines,
            first,
            text: MovesText::default(),
        };
        let deadline = Instant::now() + limits.startup_timeout;
        brain.send(protocol.name());
        let ok = format!("{}ok", protocol.name());
        loop {
            match brain.next_line(deadline) {
                Ok(line) if line == ok => break,
                Ok(line) => {
                    if let Some(name) = line.strip_prefix("id name ") {
                        brain.name = name.trim().to_owned();
                    }
                }
                Err(why) => return Err(failed(format!("no {ok}: {why}"))),
            }
        }
        for (key, value) in options {
            brain.send(&format!("setoption name {key} value {value}"));
        }
        brain.send(&format!("{}newgame", protocol.name()));
        brain.send("isready");
        if let Some(why) = brain.input.broken() {
            return Err(failed(why.to_owned()));
        }
        loop {
            match brain.next_line(deadline) {
                Ok(line) if line == "readyok" => {
                    // Stopped until its first turn: it thinks on its own time only.
                    brain.process.freeze(libc::SIGSTOP);
                    return Ok(brain);
                }
                Ok(_) => {}
                Err(why) => return Err(failed(format!("no readyok: {why}"))),
            }
        }
    }

    /// The engine's name, as its `id name` says.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    fn send(&mut self, line: &str) {
        self.input.send(line);
    }

    /// The next line before `deadline`, or why there is none.
    fn next_line(&mut self, deadline: Instant) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Line::Text(line, _)) => Ok(line),
            Ok(Line::Broken(why)) => Err(why),
            Err(RecvTimeoutError::Timeout) => Err("it said nothing in time".to_owned()),
            Err(RecvTimeoutError::Disconnected) => Err(self.process.kill()),
        }
    }

    fn go_line(&self, request_clocks: tavola_sdk::abi::Clocks, me: Color) -> String {
        if let Some(movetime) = request_clocks.movetime_ms.into_option() {
            return format!("go movetime {movetime}");
        }
        let (Some(own), opponent) = (
            request_clocks.own_ms.into_option(),
            request_clocks.opponent_ms.into_option(),
        ) else {
            // Clocks from `held_to` never come here (an untimed move has its movetime); the
            // same answer keeps the line right for any clocks.
            return format!("go movetime {UNTIMED_MOVETIME_MS}");
        };
        let opponent = opponent.unwrap_or(own);
        let inc = request_clocks.increment_ms;
        let (p1, p2) = if me == self.first {
            (own, opponent)
        } else {
            (opponent, own)
        };
        match self.protocol {
            Protocol::Ugi => format!("go p1time {p1} p2time {p2} p1inc {inc} p2inc {inc}"),
            Protocol::Uai => format!("go btime {p1} wtime {p2} binc {inc} winc {inc}"),
        }
    }
}

impl<G: Game> Brain<G> for EngineBrain {
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        if self.process.is_gone() {
            return Err(SeatFailure::Crash("the engine is gone".to_owned()));
        }
        let me = request.position.side_to_move();
        let position = if request.moves.is_empty() {
            format!("position fen {}", request.start_text)
        } else {
            format!(
                "position fen {} moves {}",
                request.start_text,
                self.text.of(request)
            )
        };
        // Lines it sent between turns (after its last bestmove) are not this move's; a broken
        // one is its end.
        while let Ok(line) = self.lines.try_recv() {
            if let Line::Broken(why) = line {
                self.process.kill();
                return Err(SeatFailure::Crash(why));
            }
        }
        self.process.freeze(libc::SIGCONT);
        self.send(&position);
        let clocks = held_to(request.clocks, UNTIMED_MOVETIME_MS);
        let go = self.go_line(clocks, me);
        self.send(&go);
        if let Some(why) = self.input.broken() {
            let why = why.to_owned();
            self.process.kill();
            return Err(SeatFailure::Crash(why));
        }
        let clock = ProcessClock::start(self.process.probe());
        control.charge(Duration::ZERO);
        let mut watch = TurnWatch::new(clocks);
        loop {
            match self.lines.recv_timeout(Duration::from_millis(5)) {
                Ok(Line::Text(line, arrival)) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        control.charge(clock.charge(arrival));
                        self.process.freeze(libc::SIGSTOP);
                        let mv = rest.split_whitespace().next().unwrap_or("");
                        return Ok(mv.to_owned());
                    }
                    if let Some(info) = parse_info(&line) {
                        control.report(info);
                    }
                }
                Ok(Line::Broken(why)) => {
                    self.process.kill();
                    return Err(SeatFailure::Crash(why));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(SeatFailure::Crash(self.process.kill()));
                }
            }
            self.process.keep_running();
            match watch.look(&clock, control) {
                Verdict::Think => {}
                Verdict::Stop => self.input.send("stop"),
                Verdict::Kill => {
                    self.process.kill();
                    return Err(SeatFailure::Crash(
                        "killed: did not answer in time or after a stop".to_owned(),
                    ));
                }
            }
        }
    }
}

impl Drop for EngineBrain {
    fn drop(&mut self) {
        self.process.freeze(libc::SIGCONT);
        self.send("quit");
        self.process.end(Duration::from_millis(100));
    }
}

/// How long a line that does not fit in an engine's input pipe waits for the engine to read.
/// An engine that reads its input never comes near: it has read each line by the time it
/// answers, and a turn writes a few kilobytes to a pipe of 64 KiB.
const FULL_PIPE_WAIT: Duration = Duration::from_secs(1);

/// An engine's input: its pipe, written without blocking, so that an engine that stops reading
/// (and lets the pipe fill) loses with that reason instead of holding the host in a write.
struct Input {
    pipe: ChildStdin,
    /// Why it can take no more: it left a line unread past [`FULL_PIPE_WAIT`].
    broken: Option<String>,
}

impl Input {
    fn new(pipe: ChildStdin) -> io::Result<Input> {
        let fd = pipe.as_raw_fd();
        // SAFETY: fcntl on the pipe's own descriptor, results checked.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(Input { pipe, broken: None })
    }

    /// Why the engine can take no more input, if it cannot.
    fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Writes `line` and a newline. A dead engine shows up on its output, so a closed pipe is
    /// nothing to do here; a full one that stays full is the engine's end.
    fn send(&mut self, line: &str) {
        if self.broken.is_some() {
            return;
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let mut written = 0;
        let give_up = Instant::now() + FULL_PIPE_WAIT;
        while written < bytes.len() {
            match self.pipe.write(&bytes[written..]) {
                Ok(0) => return,
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let left = give_up.saturating_duration_since(Instant::now());
                    if left.is_zero() || !self.wait_for_room(left) {
                        // One line, whatever the line held (an option's value can hold
                        // anything).
                        let shown: String = line
                            .chars()
                            .take(40)
                            .map(|c| if c.is_control() { ' ' } else { c })
                            .collect();
                        let more = if line.chars().nth(40).is_some() {
                            "..."
                        } else {
                            ""
                        };
                        self.broken = Some(format!(
                            "it stopped reading its input: {} bytes of the line \"{shown}{more}\" \
                             found its pipe full for {} s",
                            bytes.len() - written,
                            FULL_PIPE_WAIT.as_secs()
                        ));
                        return;
                    }
                }
                Err(_) => return,
            }
        }
    }

    /// Waits at most `left` for room in the pipe; whether there may be some.
    fn wait_for_room(&self, left: Duration) -> bool {
        let mut poll = libc::pollfd {
            fd: self.pipe.as_raw_fd(),
            events: libc::POLLOUT,
            revents: 0,
        };
        let ms = libc::c_int::try_from(left.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: one pollfd, ours, for the call's length.
        let ready = unsafe { libc::poll(&mut poll, 1, ms) };
        // Interrupted (-1, EINTR) is a wait to try again; the caller's deadline still holds.
        ready != 0
    }
}

/// The search report of an `info` line (`depth`, `seldepth`, `nodes`, `score cp|mate`, `pv`,
/// `string`), or `None` for any other line.
pub(crate) fn parse_info(line: &str) -> Option<SearchInfo> {
    let rest = line.strip_prefix("info ")?;
    let mut info = SearchInfo::default();
    let mut words = rest.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = words.next()?.parse().ok()?,
            "seldepth" => info.seldepth = words.next()?.parse().ok()?,
            "nodes" => info.nodes = words.next()?.parse().ok()?,
            "score" => match (words.next(), words.next()) {
                (Some("cp"), Some(cp)) => info.score = cp.parse().ok(),
                (Some("mate"), Some(mate)) => info.mate = mate.parse().ok(),
                _ => {}
            },
            "pv" => {
                let mut pv = Vec::new();
                while let Some(mv) = words.peek() {
                    if ["string", "depth", "nodes", "score", "time", "nps"].contains(mv) {
                        break;
                    }
                    pv.push(*mv);
                    words.next();
                }
                info.pv = pv.join(" ");
            }
            "string" => {
                info.message = words.by_ref().collect::<Vec<_>>().join(" ");
            }
            _ => {}
        }
    }
    Some(info)
}

/// Reads an engine's lines (at most 64 KiB each, in UTF-8) until it closes its output, each
/// with its arrival (for fair time).
fn read_lines(stdout: impl Read, sender: &mpsc::SyncSender<Line>, probe: Option<&ProcessProbe>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    let mut arrival = ArrivalStamp::new();
    loop {
        line.clear();
        let read = super::worker::read_line_capped(&mut reader, &mut line, 64 << 10);
        let stamp = arrival.stamp(probe);
        match read {
            Ok(super::worker::CappedLine::Whole) => {}
            Ok(super::worker::CappedLine::TooLong) => {
                let _ = sender.send(Line::Broken("sent a line longer than 64 KiB".to_owned()));
                return;
            }
            Ok(super::worker::CappedLine::End) | Err(_) => return,
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            let _ = sender.send(Line::Broken("sent a line that is not UTF-8".to_owned()));
            return;
        };
        if sender
            .send(Line::Text(text.trim().to_owned(), stamp))
            .is_err()
        {
            return;
        }
        arrival.rearm();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_become_search_reports() {
        let info = parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 1234 nps 5 pv b6 f6 string hi there",
        )
        .unwrap();
        assert_eq!((info.depth, info.seldepth, info.nodes), (7, 9, 1234));
        assert_eq!((info.score, info.pv.as_str()), (Some(-35), "b6 f6"));
        assert_eq!(info.message, "hi there");
        assert_eq!(parse_info("info score mate 3").unwrap().mate, Some(3));
        assert!(parse_info("bestmove b6").is_none());
    }
}
