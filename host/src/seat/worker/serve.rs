//! The worker side: `tavola worker LIB` loads one plugin and serves the host's requests over the
//! line protocol, with the plugin's own output captured and forwarded, never mixed into it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use tavola_sdk::Color;

use super::page::{Mapped, Page};
use super::protocol::{encode, FromWorker, ToWorker, PROTOCOL_VERSION};
use crate::seat::plugin::{Library, PluginBrain};
use crate::seat::SeatFailure;

/// At most this much of the plugin's output is forwarded over a worker's life; the rest is dropped.
const OUTPUT_CAP: usize = 256 * 1024;

/// The protocol channel: the worker's original stdout, shared by the threads that write to it.
#[derive(Clone)]
struct Channel(Arc<Mutex<File>>);

impl Channel {
    fn send(&self, message: &FromWorker) {
        let mut line = encode(message);
        line.push('\n');
        if let Ok(mut out) = self.0.lock() {
            // The host is gone if this fails; the read side notices and exits.
            let _ = out.write_all(line.as_bytes());
        }
    }
}

/// Runs the worker until the host says `quit` or closes its end. Returns the process exit code.
///
/// `without` names sandbox layers to leave out (see [`super::sandbox::Layers::without`]); `page`
/// is the descriptor of the host's page for the fast path ([`super::page`]), if it gave one.
#[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
pub fn serve(
    library: &Path,
    scratch: Option<&Path>,
    log_level: u8,
    without: &str,
    page: Option<RawFd>,
) -> i32 {
    // Found before the working folder changes (the host passes it whole already).
    let library = &library
        .canonicalize()
        .unwrap_or_else(|_| library.to_owned());
    // Mapped, and its descriptor closed, before the worker splits into its sandbox's processes
    // (which inherit the mapping, not the descriptor) and before any of the library's code runs.
    let page = page.map(|fd| {
        let mapped = Mapped::open(fd);
        // SAFETY: the descriptor was given to this process for the page alone; the mapping
        // outlives it.
        unsafe { libc::close(fd) };
        mapped.map(|mapped| -> &'static Page { Box::leak(Box::new(mapped)).page() })
    });
    // The sandbox first, while this process has one thread (namespaces and Landlock need it):
    // nothing of the plugin has run yet.
    #[cfg(target_os = "linux")]
    let mut layers =
        super::sandbox::enter_namespaces(super::sandbox::Layers::without(without)).layers;
    if let Some(scratch) = scratch {
        if let Err(e) = std::env::set_current_dir(scratch) {
            return refuse_early(&format!("cannot enter {}: {e}", scratch.display()));
        }
    }
    #[cfg(target_os = "linux")]
    super::sandbox::confine(scratch.unwrap_or(Path::new("/nonexistent")), &mut layers);
    let channel = match redirect_output() {
        Ok(channel) => channel,
        Err(e) => {
            eprintln!("tavola worker: cannot set up its output pipes: {e}");
            return 1;
        }
    };
    if log::set_boxed_logger(Box::new(ForwardLog(channel.clone()))).is_ok() {
        log::set_max_level(tavola_sdk::abi::level_filter(log_level));
    }
    #[cfg(target_os = "linux")]
    layers.log();
    let page = match page {
        Some(Ok(page)) => Some(page),
        Some(Err(e)) => {
            log::warn!("worker: no fast path: {e}");
            None
        }
        None => None,
    };
    let library = match Library::load(library) {
        Ok(library) => library,
        Err(e) => {
            channel.send(&FromWorker::LoadError {
                message: e.to_string(),
            });
            return 3;
        }
    };
    let info = library.info();
    channel.send(&FromWorker::Hello {
        protocol: PROTOCOL_VERSION,
        name: info.name.to_string(),
        version: info.version.to_string(),
        author: info.author.to_string(),
        games: info.games.iter().map(ToString::to_string).collect(),
        description: info.description.to_string(),
        sdk_version: info.sdk_version.to_string(),
        typed: library.is_typed() && page.is_some(),
    });

    // The bot's stop flag: in the page, where the host sets it directly, or the reader's.
    let stop: &'static AtomicBool = match page {
        Some(page) => &page.request.stop,
        None => Box::leak(Box::new(AtomicBool::new(false))),
    };
    let (requests, incoming) = mpsc::channel();
    // The host's messages are read on their own thread, so that `stop` arrives while the bot thinks.
    thread::spawn(move || {
        // The page's last request when the last `go` was passed on: a `stop` read once the
        // page has a newer one was for that `go`, already answered, and must not stop this one.
        let page_number = || page.map(|page| page.request.number.load(Ordering::Acquire));
        let mut went_at = page_number();
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<ToWorker>(&line) {
                Ok(ToWorker::Stop) => {
                    if page_number() == went_at {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Ok(ToWorker::Quit) => break,
                Ok(message) => {
                    // A new search starts unstopped; cleared here, in order with the messages, so
                    // that a `stop` right behind this `go` is never lost.
                    if matches!(message, ToWorker::Go { .. }) {
                        stop.store(false, Ordering::Relaxed);
                        went_at = page_number();
                    }
                    if requests.send(message).is_err() {
                        break;
                    }
                    if let Some(page) = page {
                        super::page::ring(page);
                    }
                }
                Err(e) => log::warn!("worker: ignoring a bad request {line:?}: {e}"),
            }
        }
        // The host is done with us (or gone): leave at once, even in the middle of a search.
        std::process::exit(0);
    });

    let mut served = Served {
        library: &library,
        channel: &channel,
        stop,
        player: None,
        known: Known::default(),
    };
    // The last fast request answered (the host numbers them from 1).
    let mut answered = 0;
    loop {
        let Some(page) = page else {
            match incoming.recv() {
                Ok(message) => served.message(message),
                Err(_) => break,
            }
            continue;
        };
        let rung = page.request.doorbell.load(Ordering::Acquire);
        match incoming.try_recv() {
            Ok(message) => {
                served.message(message);
                continue;
            }
            Err(mpsc::TryRecvError::Disconnected) => break,
            Err(mpsc::TryRecvError::Empty) => {}
        }
        let number = page.request.number.load(Ordering::Acquire);
        if number != answered {
            answered = number;
            served.fast(page, number);
            continue;
        }
        // Nothing new since the doorbell was read: sleep until it rings (no CPU while idle).
        super::page::wait(&page.request.doorbell, rung, None);
    }
    0
}

/// What the worker keeps of the game its player plays, for the requests of the page: its
/// history, start position and moves' codes.
#[derive(Debug, Default)]
struct Known {
    history: u64,
    start: String,
    codes: Vec<u64>,
}

/// The worker's state between requests.
struct Served<'a> {
    library: &'a Library,
    channel: &'a Channel,
    stop: &'static AtomicBool,
    player: Option<PluginBrain>,
    known: Known,
}

impl Served<'_> {
    /// Serves one message of the line protocol.
    fn message(&mut self, message: ToWorker) {
        match message {
            ToWorker::NewPlayer {
                game,
                variant,
                color,
                seed,
                options,
            } => {
                let color = if color == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                self.known = Known::default();
                match self
                    .library
                    .new_player(&game, &variant, color, seed, &options)
                {
                    Ok(created) => {
                        self.player = Some(PluginBrain::new(created));
                        self.channel.send(&FromWorker::Ready);
                    }
                    Err(e) => self.channel.send(&FromWorker::Refused {
                        reason: e.to_string(),
                    }),
                }
            }
            ToWorker::Go {
                start,
                moves,
                clocks,
                history,
                codes,
            } => {
                let stop = self.stop;
                let report = self.reporter();
                let Some(player) = self.player.as_mut() else {
                    self.channel.send(&FromWorker::Failure {
                        panicked: false,
                        message: "asked for a move before new_player".to_owned(),
                    });
                    return;
                };
                let answer = match codes {
                    Some(codes) if player.takes_codes() => {
                        let answer = player.ask_code(
                            &start,
                            (history, &codes),
                            clocks.into(),
                            stop,
                            &report,
                        );
                        self.known = Known {
                            history,
                            start,
                            codes,
                        };
                        answer.map(|code| FromWorker::Code { code })
                    }
                    _ => player
                        .ask(&start, &moves, clocks.into(), stop, &report)
                        .map(|text| FromWorker::Move { text }),
                };
                self.channel.send(&answer.unwrap_or_else(failure));
            }
            ToWorker::Stop | ToWorker::Quit => {}
        }
    }

    /// Serves request `number` of the page: the moves since the last request, by codes.
    fn fast(&mut self, page: &Page, number: u32) {
        let before = self.known.codes.len();
        let (history, total, clocks) = page.read_request(&mut self.known.codes);
        let report = self.reporter();
        let Some(player) = self.player.as_mut().filter(|p| p.takes_codes()) else {
            page.answer_failure(
                number,
                false,
                "asked by codes before a typed player was made",
            );
            return;
        };
        if history != self.known.history || self.known.codes.len() != total {
            self.known.codes.truncate(before);
            page.answer_failure(
                number,
                false,
                "the host's request does not follow its last one (a bug of the host)",
            );
            return;
        }
        let known = &self.known;
        match player.ask_code(
            &known.start,
            (history, &known.codes),
            clocks,
            self.stop,
            &report,
        ) {
            Ok(code) => page.answer_move(number, code),
            Err(SeatFailure::Panic(message)) => page.answer_failure(number, true, &message),
            Err(other) => page.answer_failure(number, false, &failure_text(other)),
        }
    }

    /// Where the bot's search reports go: the line protocol.
    fn reporter(&self) -> impl Fn(tavola_sdk::SearchInfo) + Sync + 'static {
        let channel = self.channel.clone();
        move |info: tavola_sdk::SearchInfo| {
            channel.send(&FromWorker::Info { info: info.into() });
        }
    }
}

/// A failure's message, as the protocol words it.
fn failure_text(failure: SeatFailure) -> String {
    match failure {
        SeatFailure::Panic(message) | SeatFailure::Error(message) => message,
        other => other.to_string(),
    }
}

/// A failure as a protocol message.
fn failure(failure: SeatFailure) -> FromWorker {
    match failure {
        SeatFailure::Panic(message) => FromWorker::Failure {
            panicked: true,
            message,
        },
        other => FromWorker::Failure {
            panicked: false,
            message: failure_text(other),
        },
    }
}

/// Sends the worker's log records (the bot's among them) to the host, level and target kept.
struct ForwardLog(Channel);

impl log::Log for ForwardLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            self.0.send(&FromWorker::Log {
                level: record.level() as u8,
                target: record.target().to_owned(),
                message: record.args().to_string(),
            });
        }
    }

    fn flush(&self) {}
}

/// Tells the host why the worker cannot start, on the protocol's descriptor (before the
/// plugin's output is redirected away from it).
fn refuse_early(message: &str) -> i32 {
    let mut line = encode(&FromWorker::LoadError {
        message: message.to_owned(),
    });
    line.push('\n');
    let _ = io::stdout().write_all(line.as_bytes());
    let _ = io::stdout().flush();
    1
}

/// Moves the protocol to a duplicate of stdout, then points stdout (the plugin's) at a pipe
/// whose lines are forwarded as `output` messages.
fn redirect_output() -> io::Result<Channel> {
    // SAFETY: plain descriptor calls on descriptors this process owns; each result is checked.
    let protocol = unsafe { libc::dup(libc::STDOUT_FILENO) };
    if protocol < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `protocol` is a fresh descriptor owned by nothing else.
    let channel = Channel(Arc::new(Mutex::new(unsafe { File::from_raw_fd(protocol) })));
    // stderr stays the host's own pipe, read by the host: what a bot writes there just before it
    // dies (an allocation failure's message, say) still reaches it.
    let mut ends = [0; 2];
    // SAFETY: `ends` has room for the two descriptors pipe() writes.
    if unsafe { libc::pipe(ends.as_mut_ptr()) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: duplicating a descriptor we own onto stdout, then closing the original.
    if unsafe { libc::dup2(ends[1], libc::STDOUT_FILENO) } < 0 {
        return Err(io::Error::last_os_error());
    }
    unsafe { libc::close(ends[1]) };
    // SAFETY: the read end is ours alone from here on.
    let reader = unsafe { File::from_raw_fd(ends[0]) };
    let forwarded = channel.clone();
    thread::spawn(move || forward(reader, "stdout", &forwarded, &AtomicUsize::new(0)));
    Ok(channel)
}

/// Forwards lines from the plugin's `stream` until it closes, up to [`OUTPUT_CAP`] bytes in all;
/// past that it keeps reading (so the plugin never blocks on a full pipe) and drops the rest.
fn forward(reader: impl Read, stream: &str, channel: &Channel, forwarded: &AtomicUsize) {
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let before = forwarded.fetch_add(n, Ordering::Relaxed);
                if before + n <= OUTPUT_CAP {
                    let text = String::from_utf8_lossy(&line);
                    channel.send(&FromWorker::Output {
                        stream: stream.to_owned(),
                        line: text.trim_end_matches(['\n', '\r']).to_owned(),
                    });
                } else if before <= OUTPUT_CAP {
                    channel.send(&FromWorker::Output {
                        stream: stream.to_owned(),
                        line: format!("[more output dropped: over {OUTPUT_CAP} bytes]"),
                    });
                }
            }
        }
    }
}
