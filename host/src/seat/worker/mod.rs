//! Plugins in a worker process: whatever the bot does (crash, hang, print, eat memory), the host
//! goes on, the game ends with the true reason, and no process is left behind.
//!
//! The host starts `tavola worker LIB` (a hidden subcommand) in a process group of its own, with
//! resource limits, and talks to it over the line protocol of [`protocol`]; a bot that takes
//! moves as codes is asked, after each game's first request, through a page both map ([`page`]):
//! the moves since its last request in, a move's code out, each side waiting on a futex. A
//! watchdog kills the group when the bot's clock runs out (plus a margin) or it ignores a stop;
//! the group is killed too when the seat is dropped, and the kernel kills the worker if the host
//! dies. Between its turns the bot must use no CPU ([`super::idle`]).

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use tavola_sdk::{Color, Game, MoveCode};

use super::idle::IdleGuard;
use super::outside::{TurnWatch, Verdict};
use super::plugin::{Library, LoadError};
use super::stopwatch::{Arrival, ArrivalStamp, ProcessClock, ProcessProbe};
use super::{
    Answer, Brain, Choice, Control, History, MovesText, Request, SeatFailure, TypedAnswer,
};
use page::{Mapped, PageAnswer};
use protocol::{encode, FromWorker, ToWorker, PROTOCOL_VERSION};

pub mod page;
pub mod protocol;
#[cfg(target_os = "linux")]
pub mod sandbox;
pub mod serve;

/// The process groups of the running workers, for the signal handler (0: a free slot).
static GROUPS: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

fn register(pgid: i32) {
    install_signal_handlers();
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
    log::warn!(
        "more than {} workers at once: one will not be cleaned up on Ctrl-C",
        GROUPS.len()
    );
}

/// Waits (at most two seconds) until the processes `pids`, killed, are gone or dead (a zombie
/// left to its reaper): the worker's init and bot die after its keeper, and none may outlive
/// the seat.
fn wait_until_gone(pids: &[i32]) {
    let until = Instant::now() + Duration::from_secs(2);
    let alive = |pid: &i32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
        })
    };
    while pids.iter().any(alive) && Instant::now() < until {
        thread::sleep(Duration::from_millis(1));
    }
}

/// A spawn request for the spawning thread, and where its child goes.
type SpawnJob = (Command, mpsc::Sender<std::io::Result<std::process::Child>>);

/// Starts `command` from one thread that lives as long as the host. A child's parent-death
/// signal (`PR_SET_PDEATHSIG`) fires when the *thread* that forked it ends, and players are often
/// seated from short-lived threads (the window's): forked from those, a worker or an engine would
/// be killed as soon as it was seated.
///
/// # Errors
/// The spawn's.
pub(crate) fn spawn_lasting(mut command: Command) -> std::io::Result<std::process::Child> {
    // The child runs where the asking thread may run, as if that thread had forked it (a game
    // pinned to a CPU by `--affinity` keeps its players' processes there).
    if let Some(mask) = super::affinity::Mask::of_this_thread() {
        // SAFETY: `apply` makes one system call, async-signal-safe. Best effort: a child that
        // cannot be restricted (its CPUs changed meanwhile) runs where it may.
        unsafe {
            command.pre_exec(move || {
                let _ = mask.apply();
                Ok(())
            });
        }
    }
    static SPAWNER: OnceLock<std::sync::Mutex<mpsc::Sender<SpawnJob>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (jobs, receive) = mpsc::channel::<SpawnJob>();
        let started = thread::Builder::new()
            .name("tavola spawner".to_owned())
            .spawn(move || {
                // The process's CPUs, not those of the thread that happened to start this one
                // (a game's, pinned by --affinity).
                if let Some(all) = super::affinity::Mask::of_this_process() {
                    let _ = all.apply();
                }
                for (mut command, reply) in receive {
                    let _ = reply.send(command.spawn());
                }
            });
        if let Err(e) = started {
            log::error!("cannot start the spawning thread: {e}");
        }
        std::sync::Mutex::new(jobs)
    });
    let (reply, answer) = mpsc::channel();
    let sent = spawner
        .lock()
        .map_err(|_| std::io::Error::other("the spawning thread is gone"))?
        .send((command, reply));
    if let Err(mpsc::SendError((mut command, _))) = sent {
        // No spawning thread: from here, as before.
        return command.spawn();
    }
    answer
        .recv()
        .map_err(|_| std::io::Error::other("the spawning thread is gone"))?
}

/// Kills the process group `pgid` (an outside engine's) on Ctrl-C and the like, as a worker's.
pub(crate) fn track_group(pgid: i32) {
    register(pgid);
}

/// Forgets the process group `pgid` (it is gone).
pub(crate) fn untrack_group(pgid: i32) {
    unregister(pgid);
}

fn unregister(pgid: i32) {
    for slot in &GROUPS {
        let _ = slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// Whether the first Ctrl-C only asks to finish (see [`finish_on_first_interrupt`]).
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// Ctrl-C presses taken as a request to finish.
static INTERRUPTS: AtomicU32 = AtomicU32::new(0);

/// From now on, the first Ctrl-C (SIGINT) only asks this process to finish what it is doing: it is
/// counted ([`interrupt_requested`] turns true) and nothing is killed. A second Ctrl-C, SIGTERM or
/// SIGHUP kill every worker and end the process at once, as they always do.
pub fn finish_on_first_interrupt() {
    GRACEFUL.store(true, Ordering::SeqCst);
    install_signal_handlers();
}

/// Whether Ctrl-C was pressed since [`finish_on_first_interrupt`].
#[must_use]
pub fn interrupt_requested() -> bool {
    INTERRUPTS.load(Ordering::SeqCst) > 0
}

/// On Ctrl-C (SIGINT), SIGTERM or SIGHUP, kills every worker's process group — children a bot
/// forked included — then dies of the same signal as it would have. The first Ctrl-C only counts,
/// once [`finish_on_first_interrupt`] asked for it.
fn install_signal_handlers() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    extern "C" fn on_signal(signal: libc::c_int) {
        // Atomics are lock-free here, so async-signal-safe.
        if signal == libc::SIGINT
            && GRACEFUL.load(Ordering::SeqCst)
            && INTERRUPTS.fetch_add(1, Ordering::SeqCst) == 0
        {
            return;
        }
        for slot in &GROUPS {
            let pgid = slot.load(Ordering::SeqCst);
            if pgid > 0 {
                // SAFETY: kill is async-signal-safe.
                unsafe { libc::kill(-pgid, libc::SIGKILL) };
            }
        }
        // SAFETY: signal and raise are async-signal-safe; the default action ends the process.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    INSTALLED.call_once(|| {
        let handler: extern "C" fn(libc::c_int) = on_signal;
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installing a handler that only makes async-signal-safe calls.
            unsafe { libc::signal(signal, handler as libc::sighandler_t) };
        }
    });
}

/// Limits and settings of worker processes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerOptions {
    /// The program to run as `PROGRAM worker LIB` (normally this very `tavola`).
    pub program: PathBuf,
    /// How long loading the library and creating the player may take.
    pub startup_timeout: Duration,
    /// The worker's address-space limit, in bytes (`None`: unlimited).
    pub memory: Option<u64>,
    /// The worker's CPU-time limit, in seconds (`None`: unlimited).
    pub cpu_seconds: Option<u64>,
}

impl WorkerOptions {
    /// The defaults: this executable, 10 s to start, 2 GiB of address space, no CPU-time limit
    /// (the clock already bounds each move).
    ///
    /// # Errors
    /// When the path of the running executable cannot be found.
    pub fn new() -> std::io::Result<WorkerOptions> {
        Ok(WorkerOptions {
            program: std::env::current_exe()?,
            startup_timeout: Duration::from_secs(10),
            memory: Some(2 << 30),
            cpu_seconds: None,
        })
    }
}

/// The sandbox layers the user asked to leave out (`TAVOLA_SANDBOX_WITHOUT`), for the worker.
fn sandbox_without() -> String {
    #[cfg(target_os = "linux")]
    let without = std::env::var(sandbox::WITHOUT_VARIABLE).unwrap_or_default();
    #[cfg(not(target_os = "linux"))]
    let without = String::new();
    without
}

/// A plugin in its own process, as a [`Brain`].
pub struct WorkerBrain {
    name: String,
    path: PathBuf,
    /// Dropped (removed) after the worker is killed: fields drop after `Drop::drop`.
    _scratch: Scratch,
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Event>,
    status: Option<ExitStatus>,
    /// The bot's own process (inside the worker's PID namespace, the worker's grandchild), read
    /// for fair time; set once the bot said hello.
    probe: Arc<OnceLock<ProcessProbe>>,
    /// Whether the current move is timed (its fair time measured); shared with the reader.
    timed: Arc<AtomicBool>,
    /// Set when the bot's output says an allocation failed.
    out_of_memory: Arc<AtomicBool>,
    /// Disconnected once the bot's output has all been read (the reader of its stderr has
    /// seen its end), so that a death is told after its last words.
    stderr_read: Receiver<()>,
    /// The largest address space seen of the bot's process, in bytes.
    peak_memory: u64,
    /// The address-space limit, in bytes.
    memory_limit: Option<u64>,
    /// The worker's own processes below it (its init and bot, in their PID namespace).
    descendants: Vec<i32>,
    /// Keeps the bot from thinking between its turns (see [`IdleGuard`]).
    guard: IdleGuard,
    /// The page of the fast path ([`page`]), if one could be made.
    page: Option<Mapped>,
    /// Whether the bot takes moves as codes, through the page.
    typed: bool,
    /// The history and number of moves the worker has of the current game (its last typed
    /// request's): a request extending them goes through the page with the new moves alone.
    sent: Option<(History, usize)>,
    /// The number of the last request posted on the page.
    posted: u32,
    /// The codes of a page request, reused.
    codes: Vec<u64>,
    /// The moves of its requests in notation, written a move at a time.
    text: MovesText,
    /// Whether the host looks for a page's answer for a moment before it sleeps: not when the
    /// thread that asks shares its one CPU with the worker (`--affinity`), where it would only
    /// keep the worker from running.
    spin: bool,
    /// Why the protocol broke, when the host stopped reading it (a line too long, not UTF-8).
    broken: Option<String>,
}

/// Why a worker made no player.
enum NewPlayerError {
    /// The bot refused the game, with its reason (already worded).
    Refused(String),
    /// The worker answered something else.
    Failed(String),
    /// No answer in time, or the worker broke or died (see `WorkerBrain::silence`).
    Silent,
}

/// What the reader thread passes on: a message with the moment it arrived, or why the
/// protocol broke.
enum Event {
    Message(FromWorker, Arrival),
    Broken(String),
}

/// The longest protocol line the host reads (an answer is a few bytes; a search report a few
/// hundred): a worker that sends a longer one loses.
pub const MAX_LINE: usize = 1 << 20;

impl fmt::Debug for WorkerBrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerBrain")
            .field("name", &self.name)
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

/// What a worker's bot says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerBot {
    /// The bot's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its author.
    pub author: String,
}

impl WorkerBrain {
    /// Starts a worker for the library at `path`, and creates its player for one game.
    ///
    /// # Errors
    /// A [`LoadError`] with the path and the reason: the library cannot be used, the bot refuses
    /// the game, or the worker did not start in time.
    pub fn spawn(
        path: &Path,
        options: &WorkerOptions,
        game: &str,
        variant: &str,
        color: Color,
        seed: u64,
        bot_options: &[(String, String)],
    ) -> Result<(WorkerBrain, WorkerBot), LoadError> {
        let (mut brain, said, deadline) = WorkerBrain::start(path, options)?;
        let bot = WorkerBot {
            name: said.name,
            version: said.version,
            author: said.author,
        };
        let failed = |reason: String| LoadError::Init {
            path: said.path.clone(),
            reason,
        };
        let bot_pid = brain.bot_pid();
        let _ = brain.probe.set(ProcessProbe::new(bot_pid));
        let worker = i32::try_from(brain.child.id()).unwrap_or(0);
        brain.guard = IdleGuard::new(worker, Some(bot_pid));
        brain.descendants = std::iter::successors(child_of(worker), |&pid| child_of(pid))
            .take(2)
            .collect();
        brain
            .new_player(game, variant, color, seed, bot_options, deadline)
            .map_err(|e| match e {
                NewPlayerError::Refused(reason) => LoadError::Isolated(reason),
                NewPlayerError::Failed(reason) => failed(reason),
                NewPlayerError::Silent => failed(brain.silence(options.startup_timeout)),
            })?;
        Ok((brain, bot))
    }

    /// Makes the worker's player for a new game (the last one's is dropped), as a worker that
    /// plays a whole match is asked before each game: a fresh player, with the process, the
    /// library and its start-up kept. Allowed `timeout` to answer.
    ///
    /// # Errors
    /// A one-line reason: the bot refused the game, or the worker broke, died or said nothing.
    pub fn new_game(
        &mut self,
        game: &str,
        variant: &str,
        color: Color,
        seed: u64,
        bot_options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), String> {
        if !self.is_reusable() {
            return Err(format!("the worker of {} is gone", self.name));
        }
        // What it used between games is no move's.
        self.guard.wake();
        // What the last game's memory said is no reason for this game's end.
        self.peak_memory = 0;
        self.out_of_memory.store(false, Ordering::Relaxed);
        let deadline = Instant::now() + timeout;
        self.new_player(game, variant, color, seed, bot_options, deadline)
            .map_err(|e| match e {
                NewPlayerError::Refused(reason) | NewPlayerError::Failed(reason) => reason,
                NewPlayerError::Silent => self.silence(timeout),
            })
    }

    /// Whether the worker is alive and its protocol whole, so that it can play another game.
    #[must_use]
    pub fn is_reusable(&self) -> bool {
        self.status.is_none() && self.broken.is_none() && !self.has_exited()
    }

    fn new_player(
        &mut self,
        game: &str,
        variant: &str,
        color: Color,
        seed: u64,
        bot_options: &[(String, String)],
        deadline: Instant,
    ) -> Result<(), NewPlayerError> {
        // A new player knows no game yet.
        self.sent = None;
        // What the last game left unread (a late report, say) is no answer to this.
        while let Ok(event) = self.messages.try_recv() {
            if let Event::Broken(why) = event {
                self.broken = Some(why);
                return Err(NewPlayerError::Silent);
            }
        }
        self.send(&ToWorker::NewPlayer {
            game: game.to_owned(),
            variant: variant.to_owned(),
            color: color as u8,
            seed,
            options: bot_options.to_vec(),
        });
        match self.receive_until(deadline) {
            Some(FromWorker::Ready) => {
                // Until its first turn, it waits.
                self.guard.rest();
                Ok(())
            }
            Some(FromWorker::Refused { reason }) => {
                self.guard.rest();
                Err(NewPlayerError::Refused(reason))
            }
            Some(other) => {
                self.kill();
                Err(NewPlayerError::Failed(format!(
                    "unexpected worker message {other:?}"
                )))
            }
            None => Err(NewPlayerError::Silent),
        }
    }

    /// Starts a worker for the library at `path` and waits for its hello: the worker, what the
    /// bot says about itself, and the deadline of the whole start-up (`startup_timeout` from now).
    fn start(
        path: &Path,
        options: &WorkerOptions,
    ) -> Result<(WorkerBrain, BotDescription, Instant), LoadError> {
        let path = path
            .canonicalize()
            .map_err(|_| LoadError::NotFound(path.to_owned()))?;
        let failed = |reason: String| LoadError::Init {
            path: path.clone(),
            reason,
        };
        let scratch =
            Scratch::create().map_err(|e| failed(format!("cannot make a scratch folder: {e}")))?;
        let mut command = Command::new(&options.program);
        command
            .arg("worker")
            .arg(&path)
            .arg("--scratch")
            .arg(&scratch.0)
            .arg("--log-level")
            .arg((log::max_level() as u8).to_string())
            .arg("--sandbox-without")
            .arg(sandbox_without())
            // Nothing of the user's environment (tokens, paths, ...) reaches the bot.
            .env_clear()
            .env("HOME", &scratch.0)
            .env("TMPDIR", &scratch.0)
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let limits = (options.memory, options.cpu_seconds);
        let host = std::process::id();
        // SAFETY: the closure runs in the child between fork and exec and only makes
        // async-signal-safe system calls.
        unsafe {
            command.pre_exec(move || confine(host, limits));
        }
        // The fast path's page, given to the worker as descriptor PAGE_FD (without it the worker
        // is asked over the line protocol alone).
        let page = match Mapped::create() {
            Ok((mapped, fd)) => {
                let raw = fd.as_raw_fd();
                command.arg("--page").arg(PAGE_FD.to_string());
                // SAFETY: async-signal-safe calls on a descriptor this process owns until after
                // the spawn (`fd` lives to the end of this function).
                unsafe {
                    command.pre_exec(move || give_descriptor(raw, PAGE_FD));
                }
                Some((mapped, fd))
            }
            Err(e) => {
                log::warn!("no page for the worker's fast path ({e}): it is asked over pipes");
                None
            }
        };
        let mut child = spawn_lasting(command).map_err(|e| {
            failed(format!(
                "cannot start the worker {}: {e}",
                options.program.display()
            ))
        })?;
        // The worker has its copy of the descriptor; the host keeps the mapping alone.
        let page = page.map(|(mapped, _fd)| mapped);
        let child_id = child.id();
        if let Ok(pid) = i32::try_from(child_id) {
            register(pid);
        }
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(failed("the worker has no pipes".to_owned()));
        };
        let (sender, messages) = mpsc::channel();
        let label = path.display().to_string();
        let probe: Arc<OnceLock<ProcessProbe>> = Arc::new(OnceLock::new());
        let out_of_memory = Arc::new(AtomicBool::new(false));
        let reader_probe = Arc::clone(&probe);
        let timed = Arc::new(AtomicBool::new(true));
        let reader_timed = Arc::clone(&timed);
        let reader_oom = Arc::clone(&out_of_memory);
        let stderr_label = label.clone();
        thread::spawn(move || read_worker(stdout, &label, &sender, (&reader_probe, &reader_timed)));
        let (stderr_reading, stderr_read) = mpsc::channel::<()>();
        thread::spawn(move || {
            read_stderr(stderr, &format!("{stderr_label} stderr"), &reader_oom, None);
            drop(stderr_reading);
        });
        let mut brain = WorkerBrain {
            name: String::new(),
            path: path.clone(),
            _scratch: scratch,
            child,
            stdin,
            messages,
            status: None,
            probe,
            timed,
            out_of_memory,
            stderr_read,
            peak_memory: 0,
            memory_limit: options.memory,
            descendants: Vec::new(),
            broken: None,
            // Stopped between its turns until its bot's process is known.
            guard: IdleGuard::new(i32::try_from(child_id).unwrap_or(0), None),
            page,
            typed: false,
            sent: None,
            posted: 0,
            codes: Vec::with_capacity(page::CODES),
            text: MovesText::default(),
            spin: super::affinity::Mask::of_this_thread().is_none_or(|mask| mask.cpus().len() > 1),
        };
        let deadline = Instant::now() + options.startup_timeout;
        let said = match brain.receive_until(deadline) {
            Some(FromWorker::Hello {
                protocol,
                name,
                version,
                author,
                description,
                games,
                sdk_version,
                typed,
            }) if protocol == PROTOCOL_VERSION => {
                // By codes, through the page, only with a page both sides have.
                brain.typed = typed && brain.page.is_some();
                BotDescription {
                    name,
                    version,
                    author,
                    description,
                    games,
                    sdk_version,
                    path,
                }
            }
            Some(FromWorker::Hello { protocol, .. }) => {
                return Err(failed(format!(
                    "the worker speaks protocol {protocol}, this host {PROTOCOL_VERSION}"
                )))
            }
            Some(FromWorker::LoadError { message }) => {
                return Err(LoadError::Isolated(message));
            }
            Some(other) => return Err(failed(format!("unexpected worker message {other:?}"))),
            None => return Err(failed(brain.silence(options.startup_timeout))),
        };
        brain.name.clone_from(&said.name);
        Ok((brain, said, deadline))
    }

    /// Why the worker said nothing: it broke the protocol, died, or is still busy.
    fn silence(&mut self, timeout: Duration) -> String {
        if let Some(why) = self.broken.take() {
            self.kill();
            return why;
        }
        match self.exit_status() {
            Some(status) => format!("the worker {}", self.describe_death(status)),
            None => format!("the bot did not start within {} s", timeout.as_secs_f64()),
        }
    }

    fn send(&mut self, message: &ToWorker) {
        let mut line = encode(message);
        line.push('\n');
        // A dead worker shows up as a closed message channel; nothing to do here.
        let _ = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush());
    }

    /// The next message, or `None` if the deadline passes or the worker is gone.
    fn receive_until(&mut self, deadline: Instant) -> Option<FromWorker> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left).ok()? {
            Event::Message(message, _) => Some(message),
            Event::Broken(why) => {
                self.broken = Some(why);
                None
            }
        }
    }

    /// The process the bot runs in: the worker's grandchild when it made its own PID namespace
    /// (keeper, init, bot), else the worker itself.
    fn bot_pid(&self) -> i32 {
        let worker = i32::try_from(self.child.id()).unwrap_or(0);
        let Some(init) = child_of(worker) else {
            return worker;
        };
        child_of(init).unwrap_or(init)
    }

    /// Kills the worker's whole process group and reaps the worker.
    fn kill(&mut self) {
        if self.status.is_some() {
            return;
        }
        self.guard.gone();
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: signalling the process group this worker leads (its pgid is its pid).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            unregister(pid);
            self.status = self.child.wait().ok();
            wait_until_gone(&self.descendants);
        }
        self.status = self.status.take().or_else(|| self.child.wait().ok());
    }

    /// The worker's exit status, once it has exited (waiting briefly for it). Its process group
    /// (children it may have forked) is killed with it, before the worker is reaped, so that the
    /// group's id cannot have been reused by then.
    fn exit_status(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if self.has_exited() {
                    self.kill();
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.status
    }

    /// Whether the worker has exited, without reaping it (it stays a zombie until `kill`).
    fn has_exited(&self) -> bool {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter; WNOWAIT leaves the child unreaped.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let found = libc::waitid(
                libc::P_PID,
                self.child.id() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            found == 0 && info.si_pid() != 0
        }
    }

    fn crashed(&mut self) -> SeatFailure {
        if let Some(why) = self.broken.take() {
            self.kill();
            return SeatFailure::Crash(why);
        }
        let what = match self.exit_status() {
            Some(status) => self.describe_death(status),
            None => {
                self.kill();
                "stopped answering".to_owned()
            }
        };
        SeatFailure::Crash(what)
    }

    /// How the worker died, naming the memory limit when that is what it ran into: an
    /// allocation failed (as the bot's output said), or its address space had come near the
    /// limit before it died of a signal that running out of memory gives.
    fn describe_death(&self, status: ExitStatus) -> String {
        let what = describe_exit(status);
        let Some(limit) = self.memory_limit else {
            return what;
        };
        let by_memory_signal = matches!(
            status.signal(),
            Some(libc::SIGABRT | libc::SIGSEGV | libc::SIGBUS | libc::SIGKILL)
        );
        let near_limit = self.peak_memory >= limit / 10 * 9;
        if by_memory_signal && !near_limit {
            // The message of a failed allocation comes just before the abort, and the reader
            // may not have got to it yet (on a busy machine, not for a while): the pipe ends
            // once the worker and everything under it are gone, so this waits little. The
            // bound is for output a stray process might hold open.
            let _ = self.stderr_read.recv_timeout(Duration::from_secs(10));
        }
        if by_memory_signal && (near_limit || self.out_of_memory.load(Ordering::Relaxed)) {
            format!(
                "exceeded its memory limit of {} MiB (it {what})",
                limit >> 20
            )
        } else {
            what
        }
    }

    /// Notes the bot's address space, for [`WorkerBrain::describe_death`].
    fn sample_memory(&mut self) {
        if self.memory_limit.is_none() {
            return;
        }
        if let Some(bytes) = self.probe.get().and_then(ProcessProbe::address_space) {
            self.peak_memory = self.peak_memory.max(bytes);
        }
    }
}

/// How a request goes to a worker, and how its answer comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// In notation, over the line protocol; the answer in notation.
    Text,
    /// By codes, over the line protocol (a typed bot's first request of a game); the answer a
    /// code.
    Codes,
    /// By codes, through the page: the moves since its last request; the answer a code.
    Page,
}

/// A worker's answer, as the referee reads it.
enum Reply {
    Text(String),
    Code(u64),
}

/// How long the host waits for an answer before it looks at the clock.
const LOOK: Duration = Duration::from_millis(5);

/// How long the host looks for a page's answer before it sleeps on it.
const SPIN: Duration = Duration::from_micros(50);

impl WorkerBrain {
    /// Asks the worker for a move by `route` and waits for the answer, within the clock.
    fn ask<G: Game>(
        &mut self,
        request: &Request<G>,
        control: &Control,
        route: Route,
    ) -> Result<Reply, SeatFailure> {
        if self.status.is_some() {
            return Err(self.crashed());
        }
        // What the worker sent unasked since its last answer (a move before the request, say) is
        // no answer to this one.
        while let Ok(event) = self.messages.try_recv() {
            match event {
                Event::Broken(why) => {
                    self.broken = Some(why);
                    return Err(self.crashed());
                }
                Event::Message(message, _) => {
                    let what = clip(&format!("{message:?}"), 200);
                    log::debug!("{}: ignoring {what}, sent unasked", self.name);
                }
            }
        }
        // Continued before the request is written: a stopped worker reads nothing, and a long
        // game's request may not fit in the pipe. What it used while idle is this move's.
        let pondered = self.guard.wake();
        // Untimed, nothing is charged: the clocks read no counter.
        let timed = request.clocks.own_ms.is_some() || request.clocks.movetime_ms.is_some();
        self.timed.store(timed, Ordering::Relaxed);
        let number = self.post(request, route);
        // The move's clock: from the moment the request is the bot's to read, in fair time.
        let probe_cell = Arc::clone(&self.probe);
        let probe = probe_cell.get().filter(|_| timed);
        let clock = ProcessClock::start(probe);
        // A page's answer is seen by this thread: its own wait for a core is not the bot's.
        let own = (timed && route == Route::Page).then(ArrivalStamp::new);
        control.charge(Duration::ZERO);
        let mut watch = TurnWatch::new(request.clocks);
        let mut memory_sampled = Instant::now();
        if let (Route::Page, Some(page), true) = (route, &self.page, self.spin) {
            // A fast bot's answer is there within microseconds: looked for before this thread
            // sleeps, which spares waking it on another CPU (dear in a virtual machine).
            let until = Instant::now() + SPIN;
            while page.page().answer.number.load(Ordering::Acquire) != number
                && Instant::now() < until
            {
                std::hint::spin_loop();
            }
        }
        loop {
            if let (Route::Page, Some(page)) = (route, &self.page) {
                let seen = page.page().answer.number.load(Ordering::Acquire);
                if let Some(answer) = page.page().read_answer(number) {
                    let stamp = own
                        .as_ref()
                        .map_or_else(Arrival::now, |own| own.stamp(probe));
                    control.charge(clock.charge(stamp) + pondered);
                    self.guard.rest();
                    return match answer {
                        PageAnswer::Move(code) => Ok(Reply::Code(code)),
                        PageAnswer::Failure {
                            panicked: true,
                            message,
                        } => Err(SeatFailure::Panic(message)),
                        PageAnswer::Failure { message, .. } => Err(SeatFailure::Error(message)),
                        PageAnswer::Unknown(kind) => {
                            self.kill();
                            Err(SeatFailure::Crash(format!(
                                "the worker broke the protocol: an answer of kind {kind}"
                            )))
                        }
                    };
                }
                page::wait(&page.page().answer.number, seen, Some(LOOK));
            }
            // Through the page the answer is not on the pipe: only reports and the worker's end.
            let timeout = if route == Route::Page {
                Duration::ZERO
            } else {
                LOOK
            };
            // The answer first: most come before the first look at the clock.
            match self.messages.recv_timeout(timeout) {
                Ok(Event::Message(FromWorker::Info { info }, _)) => control.report(info.into()),
                Ok(Event::Message(FromWorker::Move { text }, stamp)) if route == Route::Text => {
                    control.charge(clock.charge(stamp) + pondered);
                    self.guard.rest();
                    return Ok(Reply::Text(text));
                }
                Ok(Event::Message(FromWorker::Code { code }, stamp)) if route == Route::Codes => {
                    control.charge(clock.charge(stamp) + pondered);
                    self.guard.rest();
                    return Ok(Reply::Code(code));
                }
                Ok(Event::Message(FromWorker::Failure { panicked, message }, stamp))
                    if route != Route::Page =>
                {
                    control.charge(clock.charge(stamp) + pondered);
                    self.guard.rest();
                    return Err(if panicked {
                        SeatFailure::Panic(message)
                    } else {
                        SeatFailure::Error(message)
                    });
                }
                Ok(Event::Message(other, _)) => {
                    self.kill();
                    let what = clip(&format!("{other:?}"), 200);
                    return Err(SeatFailure::Crash(format!(
                        "the worker broke the protocol: {what}"
                    )));
                }
                Ok(Event::Broken(why)) => {
                    self.broken = Some(why);
                    return Err(self.crashed());
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
            match watch.look(&clock, control) {
                Verdict::Think => {}
                // A request is stopped the way it was made: a `stop` line after a request on the
                // page could reach the worker's reader after the answer, and stop the next one.
                Verdict::Stop => match (route, &self.page) {
                    (Route::Page, Some(page)) => {
                        page.page().request.stop.store(true, Ordering::Relaxed);
                    }
                    _ => self.send(&ToWorker::Stop),
                },
                Verdict::Kill => {
                    self.kill();
                    return Err(SeatFailure::Crash(
                        "killed: did not answer in time or after a stop".to_owned(),
                    ));
                }
            }
            if memory_sampled.elapsed() >= Duration::from_millis(20) {
                self.sample_memory();
                memory_sampled = Instant::now();
            }
        }
    }

    /// Sends `request` by `route`; returns its number on the page (0 off it).
    fn post<G: Game>(&mut self, request: &Request<G>, route: Route) -> u32 {
        let clocks = request.clocks;
        match (route, &self.page) {
            (Route::Page, Some(page)) => {
                let known = self.sent.map_or(0, |(_, known)| known);
                self.codes.clear();
                let new = request.moves.get(known..).unwrap_or_default();
                self.codes.extend(new.iter().map(|mv| mv.code()));
                self.posted = self.posted.wrapping_add(1).max(1);
                let game = (request.history.get(), request.moves.len(), &self.codes[..]);
                page.page().post(self.posted, game, clocks);
                self.posted
            }
            _ => {
                let codes = (route != Route::Text)
                    .then(|| request.moves.iter().map(|mv| mv.code()).collect());
                let moves = self.text.of(request).to_owned();
                self.send(&ToWorker::Go {
                    start: request.start_text.clone(),
                    moves,
                    clocks: clocks.into(),
                    history: request.history.get(),
                    codes,
                });
                0
            }
        }
    }

    /// The route of a typed request: through the page when it extends the worker's last.
    fn route<G: Game>(&self, request: &Request<G>) -> Route {
        match self.sent {
            Some((history, known))
                if self.page.is_some()
                    && history == request.history
                    && known <= request.moves.len()
                    && request.moves.len() - known <= page::CODES =>
            {
                Route::Page
            }
            _ => Route::Codes,
        }
    }
}

impl<G: Game> Brain<G> for WorkerBrain {
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        match self.ask(request, control, Route::Text)? {
            Reply::Text(text) => Ok(text),
            Reply::Code(code) => Err(SeatFailure::Crash(format!(
                "the worker broke the protocol: the code {code:#x} for a move asked in notation"
            ))),
        }
    }

    /// By codes, through the page when the request extends the last, for a bot that takes
    /// codes; in notation otherwise.
    fn choose_typed(&mut self, request: &Request<G>, control: &Control) -> TypedAnswer<G::Move> {
        if !self.typed {
            return self.choose(request, control).map(Choice::Text);
        }
        let route = self.route(request);
        let reply = self.ask(request, control, route);
        // The worker has the request's moves once it answered (a failure included).
        if !matches!(reply, Err(SeatFailure::Crash(_))) {
            self.sent = Some((request.history, request.moves.len()));
        }
        match reply? {
            Reply::Code(code) => {
                Ok(G::Move::from_code(code).map_or(Choice::BadCode(code), Choice::Move))
            }
            Reply::Text(text) => Ok(Choice::Text(text)),
        }
    }
}

/// The host's side of a worker's stdout: reads its lines (at most [`MAX_LINE`] bytes each, in
/// UTF-8), logs what the bot printed and logged, stamps the rest with the moment it arrived and
/// passes it on. Ends when the worker closes its end or breaks the protocol.
fn read_worker(
    stdout: impl Read,
    label: &str,
    sender: &mpsc::Sender<Event>,
    (probe, timed): (&OnceLock<ProcessProbe>, &AtomicBool),
) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    let mut arrival = ArrivalStamp::new();
    loop {
        line.clear();
        let read = read_line_capped(&mut reader, &mut line, MAX_LINE);
        // Untimed, no counter is read: nobody charges the move's time.
        let measured = timed.load(Ordering::Relaxed);
        let stamp = if measured {
            arrival.stamp(probe.get())
        } else {
            arrival.unmeasured()
        };
        match read {
            Ok(CappedLine::Whole) => {}
            Ok(CappedLine::End) | Err(_) => return,
            Ok(CappedLine::TooLong) => {
                let _ = sender.send(Event::Broken(format!(
                    "sent a protocol line longer than {} MiB",
                    MAX_LINE >> 20
                )));
                return;
            }
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            let _ = sender.send(Event::Broken(
                "sent a protocol line that is not UTF-8".to_owned(),
            ));
            return;
        };
        match serde_json::from_str::<FromWorker>(text) {
            Ok(FromWorker::Output { stream, line }) => {
                log::info!(target: "bot", "[{label} {stream}] {line}");
            }
            Ok(FromWorker::Log {
                level,
                target,
                message,
            }) => super::plugin::log_bot_record(level, &target, &message),
            Ok(message) => {
                if sender.send(Event::Message(message, stamp)).is_err() {
                    return;
                }
            }
            Err(_) => log::warn!("worker for {label} sent a bad line: {:?}", clip(text, 200)),
        }
        if measured {
            arrival.rearm();
        }
    }
}

/// The most of a worker's stderr the host logs over its life; the rest is read and dropped.
const STDERR_CAP: usize = 256 * 1024;

/// The host's side of a worker's stderr (the bot's own, and the worker's last words), or of an
/// outside program's stdout or stderr, `label` naming it: logged as the bot's output, lines cut
/// at 4 KiB, at most [`STDERR_CAP`] in all, and read for the messages of a failed allocation
/// (Rust's, C++'s, C's); the last line that is not blank is kept in `last`.
pub(crate) fn read_stderr(
    stderr: impl Read,
    label: &str,
    out_of_memory: &AtomicBool,
    last: Option<&Mutex<String>>,
) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    let mut logged = 0;
    loop {
        line.clear();
        let read = read_line_capped(&mut reader, &mut line, 4096);
        if matches!(read, Ok(CappedLine::End) | Err(_)) {
            return;
        }
        let text = String::from_utf8_lossy(&line);
        if text.contains("memory allocation of")
            || text.contains("bad_alloc")
            || text.contains("out of memory")
            || text.contains("Cannot allocate memory")
        {
            out_of_memory.store(true, Ordering::Relaxed);
        }
        if let (Some(last), false) = (last, text.trim().is_empty()) {
            if let Ok(mut last) = last.lock() {
                *last = text.trim().chars().take(200).collect();
            }
        }
        if logged < STDERR_CAP {
            logged += line.len();
            log::info!(target: "bot", "[{label}] {text}");
            if logged >= STDERR_CAP {
                log::info!(target: "bot", "[{label}] [more output dropped: over {STDERR_CAP} bytes]");
            }
        }
        match read {
            Ok(CappedLine::Whole) => {}
            // Past the cap: drop the rest of the line, and go on.
            Ok(CappedLine::TooLong) => {
                if !skip_line(&mut reader) {
                    return;
                }
            }
            Ok(CappedLine::End) | Err(_) => return,
        }
    }
}

/// How a capped line read ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CappedLine {
    /// A line (its newline taken off), or the last bytes before the end.
    Whole,
    /// The end of the stream, with nothing read.
    End,
    /// More than the cap without a newline: the reader stops there.
    TooLong,
}

/// Reads one line into `line` (without its newline), refusing to hold more than `cap` bytes.
pub(crate) fn read_line_capped(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<CappedLine> {
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(if line.is_empty() {
                CappedLine::End
            } else {
                CappedLine::Whole
            });
        }
        let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (end, true),
            None => (buffer.len(), false),
        };
        if line.len() + taken > cap {
            return Ok(CappedLine::TooLong);
        }
        line.extend_from_slice(&buffer[..taken]);
        reader.consume(if done { taken + 1 } else { taken });
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(CappedLine::Whole);
        }
    }
}

/// Reads past the end of the current line without keeping it; `false` at the end of the stream.
fn skip_line(reader: &mut impl BufRead) -> bool {
    loop {
        let (used, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => return false,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (buffer.len(), false),
            },
        };
        reader.consume(used);
        if done {
            return true;
        }
    }
}

/// At most `max` characters of `text`, marked when cut.
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// The first child of process `parent` found in `/proc` (a worker's keeper has one, the init;
/// the init one, the bot, which can start no process of its own).
fn child_of(parent: i32) -> Option<i32> {
    let entries = std::fs::read_dir("/proc").ok()?;
    entries.flatten().find_map(|entry| {
        let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        // The parent's id is the second field after the command's closing parenthesis.
        let after = &stat[stat.rfind(')')? + 1..];
        let ppid: i32 = after.split_whitespace().nth(1)?.parse().ok()?;
        (ppid == parent).then_some(pid)
    })
}

impl Drop for WorkerBrain {
    fn drop(&mut self) {
        self.send(&ToWorker::Quit);
        self.kill();
    }
}

impl WorkerBrain {
    /// The bot's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The library's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A worker's scratch folder: its working folder, the only place it may write; removed with it.
#[derive(Debug)]
struct Scratch(PathBuf);

impl Scratch {
    /// A new folder only this user can enter, under an unpredictable name (never one that
    /// already exists, which another user could have planted).
    fn create() -> std::io::Result<Scratch> {
        use std::os::unix::fs::DirBuilderExt;
        static CLEANED: std::sync::Once = std::sync::Once::new();
        CLEANED.call_once(Scratch::remove_stale);
        let name = format!(
            "tavola-bot-{}-{:016x}",
            std::process::id(),
            rand::random::<u64>()
        );
        let path = std::env::temp_dir().join(name);
        std::fs::DirBuilder::new().mode(0o700).create(&path)?;
        Ok(Scratch(path))
    }
}

impl Scratch {
    /// Removes the scratch folders of hosts that are gone (killed by a signal, say).
    fn remove_stale() {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("tavola-bot-")) else {
                continue;
            };
            let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
                continue;
            };
            // SAFETY: signal 0 only asks whether the process exists.
            let gone = unsafe { libc::kill(pid, 0) } != 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
            if gone {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The worker's exit in words: `killed by signal 11 (SIGSEGV)`, `exited with code 7`.
#[must_use]
pub fn describe_exit(status: ExitStatus) -> String {
    if let Some(signal) = status.signal() {
        let name = match signal {
            libc::SIGSEGV => " (SIGSEGV, a segmentation fault)",
            libc::SIGABRT => " (SIGABRT, an abort)",
            libc::SIGKILL => " (SIGKILL)",
            libc::SIGBUS => " (SIGBUS)",
            libc::SIGFPE => " (SIGFPE)",
            libc::SIGILL => " (SIGILL)",
            libc::SIGXCPU => " (SIGXCPU, the CPU-time limit)",
            _ => "",
        };
        format!("was killed by signal {signal}{name}")
    } else {
        match status.code() {
            Some(code) => format!("exited with code {code}"),
            None => "exited".to_owned(),
        }
    }
}

/// The descriptor number a worker finds its page at.
const PAGE_FD: i32 = 3;

/// Makes `fd` the child's descriptor `target`, kept across exec (between fork and exec).
fn give_descriptor(fd: i32, target: i32) -> std::io::Result<()> {
    // SAFETY: async-signal-safe descriptor calls on this process's own descriptors.
    unsafe {
        if fd == target {
            // dup2 onto itself would keep close-on-exec.
            if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        } else if libc::dup2(fd, target) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Runs in the worker between fork and exec: its own process group, death with the host, limits.
fn confine(host: u32, (memory, cpu_seconds): (Option<u64>, Option<u64>)) -> std::io::Result<()> {
    // SAFETY: async-signal-safe calls only, on this process.
    unsafe {
        // A session of its own: a process group the host kills as one, and no controlling
        // terminal to open as /dev/tty.
        if libc::setsid() < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // The kernel kills the worker when the host dies, even by SIGKILL.
        #[cfg(target_os = "linux")]
        {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        }
        if libc::getppid() as u32 != host {
            libc::_exit(1);
        }
    }
    limit_resources(memory, cpu_seconds);
    Ok(())
}

/// No core dumps, and the address-space and CPU-time limits given (between fork and exec: only
/// async-signal-safe calls).
pub(crate) fn limit_resources(memory: Option<u64>, cpu_seconds: Option<u64>) {
    limit(memory, cpu_seconds, false);
}

/// As [`limit_resources`], for an outside program (an engine, a challenge player): its memory
/// limit is on its data (`RLIMIT_DATA`: heap and private writable mappings, what it uses) rather
/// than its address space, which a JVM reserves by gigabytes that it never touches.
pub(crate) fn limit_outside_resources(memory: Option<u64>, cpu_seconds: Option<u64>) {
    limit(memory, cpu_seconds, true);
}

fn limit(memory: Option<u64>, cpu_seconds: Option<u64>, data_only: bool) {
    let set = |resource, value: u64| {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit on this process with a valid limit.
        unsafe { libc::setrlimit(resource, &limit) };
    };
    set(libc::RLIMIT_CORE, 0);
    match memory {
        Some(bytes) if data_only => set(libc::RLIMIT_DATA, bytes),
        Some(bytes) => set(libc::RLIMIT_AS, bytes),
        None => {}
    }
    if let Some(seconds) = cpu_seconds {
        set(libc::RLIMIT_CPU, seconds);
    }
}

/// What a bot library says about itself (as `tavola info` and the start screen show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotDescription {
    /// The bot's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its author.
    pub author: String,
    /// One line about it (empty from a worker that does not send it).
    pub description: String,
    /// The games it plays.
    pub games: Vec<String>,
    /// The version of `tavola-sdk` it was built against (empty from a worker that does not send it).
    pub sdk_version: String,
    /// The library's canonical path.
    pub path: PathBuf,
}

impl From<&Library> for BotDescription {
    fn from(library: &Library) -> BotDescription {
        let info = library.info();
        BotDescription {
            name: info.name.to_string(),
            version: info.version.to_string(),
            author: info.author.to_string(),
            description: info.description.to_string(),
            games: info.games.iter().map(ToString::to_string).collect(),
            sdk_version: info.sdk_version.to_string(),
            path: library.path().to_owned(),
        }
    }
}

/// Asks a worker what the library at `path` says about itself, so that none of the library's
/// code (its constructors included) runs in this process: the worker starts as
/// [`WorkerBrain::spawn`] starts it, says hello, and is told to quit and killed.
///
/// # Errors
/// A [`LoadError`] with the path and the reason, worded as loading the library in this process
/// words it: missing, not a Tavola bot, built against another SDK; or the worker did not start in
/// `options.startup_timeout`.
pub fn probe(path: &Path, options: &WorkerOptions) -> Result<BotDescription, LoadError> {
    // The worker is told to quit, killed and reaped when `brain` drops here.
    let (_brain, said, _) = WorkerBrain::start(path, options)?;
    Ok(said)
}

/// What the library at `path` says about itself: asked of a worker ([`probe`]), or, with no
/// worker options (`--in-process`), loaded in this process.
///
/// # Errors
/// As [`probe`] and [`Library::load`].
pub fn describe(
    path: &Path,
    isolation: Option<&WorkerOptions>,
) -> Result<BotDescription, LoadError> {
    match isolation {
        Some(options) => probe(path, options),
        None => Library::load(path).map(|library| BotDescription::from(&library)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_up_to_the_cap_and_no_further() {
        let mut input =
            BufReader::with_capacity(8, &b"short\r\nexactly10!\nmuch too long a line\nend"[..]);
        let mut line = Vec::new();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 10).unwrap(),
            CappedLine::Whole
        );
        assert_eq!(line, b"short");
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 10).unwrap(),
            CappedLine::Whole
        );
        assert_eq!(line, b"exactly10!");
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 10).unwrap(),
            CappedLine::TooLong
        );
        assert!(line.len() <= 10, "never more than the cap is held");
        assert!(skip_line(&mut input));
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 10).unwrap(),
            CappedLine::Whole
        );
        assert_eq!(line, b"end");
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 10).unwrap(),
            CappedLine::End
        );
        assert!(!skip_line(&mut input));
    }

    #[test]
    fn long_texts_are_clipped_on_a_character() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("ééééé", 2), "éé...");
    }
}
