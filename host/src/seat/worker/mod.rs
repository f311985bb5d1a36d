//! Plugins in a worker process: whatever the bot does (crash, hang, print, eat memory), the host
//! goes on, the game ends with the true reason, and no process is left behind.
//!
//! The host starts `tavola worker LIB` (a hidden subcommand) in a process group of its own, with
//! resource limits, and talks to it over the line protocol of [`protocol`]. A watchdog kills the
//! group when the bot's clock runs out (plus a margin) or it ignores a stop; the group is killed
//! too when the seat is dropped, and the kernel kills the worker if the host dies.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use tavola_sdk::{Color, Game};

use super::plugin::LoadError;
use super::{Answer, Brain, Control, Request, SeatFailure};
use protocol::{encode, FromWorker, ToWorker, PROTOCOL_VERSION};

#[cfg(target_os = "linux")]
mod landlock;
pub mod protocol;
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

/// How long a bot may keep thinking after its clock ran out or it was asked to stop, before its
/// worker is killed.
const KILL_MARGIN: Duration = Duration::from_millis(500);

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

/// A plugin in its own process, as a [`Brain`].
pub struct WorkerBrain {
    name: String,
    path: PathBuf,
    /// Dropped (removed) after the worker is killed: fields drop after `Drop::drop`.
    _scratch: Scratch,
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<FromWorker>,
    status: Option<ExitStatus>,
}

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
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let limits = (options.memory, options.cpu_seconds);
        let host = std::process::id();
        // SAFETY: the closure runs in the child between fork and exec and only makes
        // async-signal-safe system calls.
        unsafe {
            command.pre_exec(move || confine(host, limits));
        }
        let mut child = command.spawn().map_err(|e| {
            failed(format!(
                "cannot start the worker {}: {e}",
                options.program.display()
            ))
        })?;
        if let Ok(pid) = i32::try_from(child.id()) {
            register(pid);
        }
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(failed("the worker has no pipes".to_owned()));
        };
        let (sender, messages) = mpsc::channel();
        let label = path.display().to_string();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                match serde_json::from_str::<FromWorker>(&line) {
                    Ok(FromWorker::Output { stream, line }) => {
                        log::info!(target: "bot", "[{label} {stream}] {line}");
                    }
                    Ok(FromWorker::Log {
                        level,
                        target,
                        message,
                    }) => super::plugin::log_bot_record(level, &target, &message),
                    Ok(message) => {
                        if sender.send(message).is_err() {
                            break;
                        }
                    }
                    Err(_) => log::warn!("worker for {label} sent a bad line: {line:?}"),
                }
            }
        });
        let mut brain = WorkerBrain {
            name: String::new(),
            path: path.clone(),
            _scratch: scratch,
            child,
            stdin,
            messages,
            status: None,
        };
        let deadline = Instant::now() + options.startup_timeout;
        let bot = match brain.receive_until(deadline) {
            Some(FromWorker::Hello {
                protocol,
                name,
                version,
                author,
                ..
            }) if protocol == PROTOCOL_VERSION => WorkerBot {
                name,
                version,
                author,
            },
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
        brain.name.clone_from(&bot.name);
        brain.send(&ToWorker::NewPlayer {
            game: game.to_owned(),
            variant: variant.to_owned(),
            color: color as u8,
            seed,
            options: bot_options.to_vec(),
        });
        match brain.receive_until(deadline) {
            Some(FromWorker::Ready) => Ok((brain, bot)),
            Some(FromWorker::Refused { reason }) => Err(LoadError::Isolated(reason)),
            Some(other) => Err(failed(format!("unexpected worker message {other:?}"))),
            None => Err(failed(brain.silence(options.startup_timeout))),
        }
    }

    /// Why the worker said nothing: it died, or it is still busy.
    fn silence(&mut self, timeout: Duration) -> String {
        match self.exit_status() {
            Some(status) => format!("the worker {}", describe_exit(status)),
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
        self.messages.recv_timeout(left).ok()
    }

    /// Kills the worker's whole process group and reaps the worker.
    fn kill(&mut self) {
        if self.status.is_some() {
            return;
        }
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: signalling the process group this worker leads (its pgid is its pid).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            unregister(pid);
        }
        self.status = self.child.wait().ok();
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
        let what = match self.exit_status() {
            Some(status) => describe_exit(status),
            None => {
                self.kill();
                "stopped answering".to_owned()
            }
        };
        SeatFailure::Crash(what)
    }
}

impl<G: Game> Brain<G> for WorkerBrain {
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        if self.status.is_some() {
            return Err(self.crashed());
        }
        self.send(&ToWorker::Go {
            start: request.start_text.clone(),
            moves: request.moves_text.clone(),
            clocks: request.clocks.into(),
        });
        let clocks = request.clocks;
        let limit = clocks
            .movetime_ms
            .into_option()
            .or(clocks.own_ms.into_option());
        let mut kill_at = limit.map(|ms| Instant::now() + Duration::from_millis(ms) + KILL_MARGIN);
        let mut stop_sent = false;
        loop {
            if control.stop_requested() && !stop_sent {
                self.send(&ToWorker::Stop);
                stop_sent = true;
                let grace = Instant::now() + KILL_MARGIN;
                kill_at = Some(kill_at.map_or(grace, |k| k.min(grace)));
            }
            if kill_at.is_some_and(|k| Instant::now() >= k) {
                self.kill();
                return Err(SeatFailure::Crash(
                    "killed: did not answer in time or after a stop".to_owned(),
                ));
            }
            match self.messages.recv_timeout(Duration::from_millis(10)) {
                Ok(FromWorker::Info { info }) => control.report(info.into()),
                Ok(FromWorker::Move { text }) => return Ok(text),
                Ok(FromWorker::Failure { panicked, message }) => {
                    return Err(if panicked {
                        SeatFailure::Panic(message)
                    } else {
                        SeatFailure::Error(message)
                    })
                }
                Ok(other) => {
                    self.kill();
                    return Err(SeatFailure::Crash(format!(
                        "the worker broke the protocol: {other:?}"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }
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

/// Runs in the worker between fork and exec: its own process group, death with the host, limits.
fn confine(host: u32, (memory, cpu_seconds): (Option<u64>, Option<u64>)) -> std::io::Result<()> {
    // SAFETY: async-signal-safe calls only, on this process.
    unsafe {
        if libc::setpgid(0, 0) != 0 {
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
        let set = |resource, value: u64| {
            let limit = libc::rlimit {
                rlim_cur: value,
                rlim_max: value,
            };
            libc::setrlimit(resource, &limit);
        };
        set(libc::RLIMIT_CORE, 0);
        if let Some(bytes) = memory {
            set(libc::RLIMIT_AS, bytes);
        }
        if let Some(seconds) = cpu_seconds {
            set(libc::RLIMIT_CPU, seconds);
        }
    }
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    sandbox::forbid_processes_and_network()?;
    Ok(())
}

/// A seccomp filter for the worker: threads yes, new processes and network sockets no.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod sandbox {
    const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const JSET_K: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K
    const ARCH: u32 = 4; // offsets in struct seccomp_data
    const NR: u32 = 0;
    const ARG0: u32 = 16; // the low half of args[0] (little-endian)

    const fn op(code: u16, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
        libc::sock_filter { code, jt, jf, k }
    }

    /// Installs the filter on this process (inherited across exec): `fork`, `vfork` and `clone`
    /// without `CLONE_THREAD` fail with EPERM, `clone3` with ENOSYS (so that the C library falls
    /// back to `clone` for threads), `socket` for anything but Unix sockets with EPERM.
    pub(super) fn forbid_processes_and_network() -> std::io::Result<()> {
        const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
        const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        const ENOSYS: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
        const KILL: u32 = 0x8000_0000; // SECCOMP_RET_KILL_PROCESS
                                       // Jumps are relative to the next instruction; the targets' indices are in the comments.
        let mut program = [
            op(LD_W_ABS, ARCH, 0, 0),                    // 0
            op(JEQ_K, AUDIT_ARCH_X86_64, 1, 0),          // 1: -> 3
            op(RET_K, KILL, 0, 0),                       // 2
            op(LD_W_ABS, NR, 0, 0),                      // 3
            op(JGE_K, X32_SYSCALL_BIT, 11, 0),           // 4: -> 16
            op(JEQ_K, libc::SYS_fork as u32, 10, 0),     // 5: -> 16
            op(JEQ_K, libc::SYS_vfork as u32, 9, 0),     // 6: -> 16
            op(JEQ_K, libc::SYS_clone3 as u32, 9, 0),    // 7: -> 17
            op(JEQ_K, libc::SYS_clone as u32, 2, 0),     // 8: -> 11
            op(JEQ_K, libc::SYS_socket as u32, 3, 0),    // 9: -> 13
            op(RET_K, ALLOW, 0, 0),                      // 10
            op(LD_W_ABS, ARG0, 0, 0),                    // 11: clone's flags
            op(JSET_K, libc::CLONE_THREAD as u32, 2, 3), // 12: -> 15, else 16
            op(LD_W_ABS, ARG0, 0, 0),                    // 13: socket's domain
            op(JEQ_K, libc::AF_UNIX as u32, 0, 1),       // 14: -> 15, else 16
            op(RET_K, ALLOW, 0, 0),                      // 15
            op(RET_K, EPERM, 0, 0),                      // 16
            op(RET_K, ENOSYS, 0, 0),                     // 17
        ];
        let filter = libc::sock_fprog {
            len: program.len() as libc::c_ushort,
            filter: program.as_mut_ptr(),
        };
        // SAFETY: `filter` points to a valid program that outlives the call (the kernel copies it).
        let installed = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &filter as *const libc::sock_fprog as libc::c_ulong,
                0,
                0,
            )
        };
        if installed == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}
