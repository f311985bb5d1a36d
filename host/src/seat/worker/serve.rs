//! The worker side: `tavola worker LIB` loads one plugin and serves the host's requests over the
//! line protocol, with the plugin's own output captured and forwarded, never mixed into it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::FromRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use tavola_sdk::Color;

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
/// `without` names sandbox layers to leave out (see [`super::sandbox::Layers::without`]).
#[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
pub fn serve(library: &Path, scratch: Option<&Path>, log_level: u8, without: &str) -> i32 {
    // Found before the working folder changes (the host passes it whole already).
    let library = &library
        .canonicalize()
        .unwrap_or_else(|_| library.to_owned());
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
    });

    let stop = Arc::new(AtomicBool::new(false));
    let (requests, incoming) = mpsc::channel();
    let reader_stop = Arc::clone(&stop);
    // The host's messages are read on their own thread, so that `stop` arrives while the bot thinks.
    thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<ToWorker>(&line) {
                Ok(ToWorker::Stop) => reader_stop.store(true, Ordering::Relaxed),
                // A new search starts unstopped; cleared here, in order with the messages, so
                // that a `stop` right behind this `go` is never lost.
                Ok(message @ ToWorker::Go { .. }) => {
                    reader_stop.store(false, Ordering::Relaxed);
                    if requests.send(message).is_err() {
                        break;
                    }
                }
                Ok(ToWorker::Quit) => break,
                Ok(message) => {
                    if requests.send(message).is_err() {
                        break;
                    }
                }
                Err(e) => log::warn!("worker: ignoring a bad request {line:?}: {e}"),
            }
        }
        // The host is done with us (or gone): leave at once, even in the middle of a search.
        std::process::exit(0);
    });

    let mut player: Option<PluginBrain> = None;
    while let Ok(message) = incoming.recv() {
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
                match library.new_player(&game, &variant, color, seed, &options) {
                    Ok(created) => {
                        player = Some(PluginBrain::new(created));
                        channel.send(&FromWorker::Ready);
                    }
                    Err(e) => channel.send(&FromWorker::Refused {
                        reason: e.to_string(),
                    }),
                }
            }
            ToWorker::Go {
                start,
                moves,
                clocks,
            } => {
                let Some(player) = player.as_mut() else {
                    channel.send(&FromWorker::Failure {
                        panicked: false,
                        message: "asked for a move before new_player".to_owned(),
                    });
                    continue;
                };
                let info_channel = channel.clone();
                let report = move |info: tavola_sdk::SearchInfo| {
                    info_channel.send(&FromWorker::Info { info: info.into() });
                };
                let answer = player.ask(&start, &moves, clocks.into(), &stop, &report);
                channel.send(&match answer {
                    Ok(text) => FromWorker::Move { text },
                    Err(SeatFailure::Panic(message)) => FromWorker::Failure {
                        panicked: true,
                        message,
                    },
                    Err(SeatFailure::Error(message)) => FromWorker::Failure {
                        panicked: false,
                        message,
                    },
                    Err(failure) => FromWorker::Failure {
                        panicked: false,
                        message: failure.to_string(),
                    },
                });
            }
            ToWorker::Stop | ToWorker::Quit => {}
        }
    }
    0
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
