//! An outside program in a seat (a UGI or UAI engine, a Tablut challenge player): started in a
//! session and process group of its own, killed with the game and when the host dies, under the
//! workers' memory and CPU-time limits, stopped between its turns, and probed for fair time.

use std::cell::Cell;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::stopwatch::ProcessProbe;
use super::worker::WorkerOptions;

/// A running outside program.
#[derive(Debug)]
pub struct OutsideProcess {
    child: Child,
    pid: Option<i32>,
    probe: Option<ProcessProbe>,
    gone: bool,
    /// The last line it wrote to its stderr (or its stdout, when that is not the protocol).
    last_words: Arc<Mutex<String>>,
    readers: Vec<JoinHandle<()>>,
    /// When [`OutsideProcess::keep_running`] last continued its group.
    continued: Cell<Option<Instant>>,
}

/// How often [`OutsideProcess::keep_running`] continues the group again while it has the turn
/// (a process with a `SIGCONT` handler hears it that often).
const CONTINUE_EVERY: Duration = Duration::from_millis(20);

/// How long the account of a process that ended waits for the threads reading its output: they
/// finish as soon as its pipes close (its whole group is killed with it), but on a loaded machine
/// a thread may wait its turn for a core well past 200 ms, and the last words would be lost. Only
/// a process that left its group and holds the pipes makes the account wait this long.
const LAST_WORDS_WAIT: Duration = Duration::from_secs(1);

/// Something to do in the child between fork and exec, after the common set-up: only
/// async-signal-safe calls.
pub type PreExec = Box<dyn FnMut() -> std::io::Result<()> + Send + Sync>;

impl OutsideProcess {
    /// Starts `command` (a program and its arguments) with piped stdin, stdout and stderr (the
    /// stderr logged, at most 256 KiB, as the bot's), then `extra` in the child before exec.
    ///
    /// # Errors
    /// Why it does not start.
    pub fn spawn(
        command: &[String],
        limits: &WorkerOptions,
        label: &str,
        mut extra: Option<PreExec>,
    ) -> Result<OutsideProcess, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "no command given".to_owned())?;
        let mut process = Command::new(program);
        process
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let memory = limits.memory;
        let cpu = limits.cpu_seconds;
        // SAFETY: only async-signal-safe calls between fork and exec (`extra` promises the
        // same).
        unsafe {
            process.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                #[cfg(target_os = "linux")]
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                super::worker::limit_outside_resources(memory, cpu);
                match extra.as_mut() {
                    Some(extra) => extra(),
                    None => Ok(()),
                }
            });
        }
        let mut child =
            super::worker::spawn_lasting(process).map_err(|e| format!("cannot start it: {e}"))?;
        let pid = i32::try_from(child.id()).ok();
        if let Some(pid) = pid {
            super::worker::track_group(pid);
        }
        let stderr = child.stderr.take();
        let mut process = OutsideProcess {
            child,
            probe: pid.map(ProcessProbe::new),
            pid,
            gone: false,
            last_words: Arc::new(Mutex::new(String::new())),
            readers: Vec::new(),
            continued: Cell::new(None),
        };
        if let Some(stderr) = stderr {
            process.log_output(stderr, &format!("{label} stderr"));
        }
        Ok(process)
    }

    /// Logs what it writes on `output` as the bot's output, keeping its last line for
    /// [`OutsideProcess::kill`]'s account.
    pub fn log_output(&mut self, output: impl Read + Send + 'static, label: &str) {
        let label = label.to_owned();
        let last = Arc::clone(&self.last_words);
        self.readers.push(thread::spawn(move || {
            super::worker::read_stderr(output, &label, &AtomicBool::new(false), Some(&last));
        }));
    }

    /// How it ended, `status` described, with the last line it wrote (once its output is read
    /// to the end, which is at once unless a process it left behind holds its pipes, or after
    /// [`LAST_WORDS_WAIT`]).
    fn account(&mut self, status: std::process::ExitStatus) -> String {
        let until = Instant::now() + LAST_WORDS_WAIT;
        while self.readers.iter().any(|r| !r.is_finished()) && Instant::now() < until {
            thread::sleep(Duration::from_millis(2));
        }
        let words = self
            .last_words
            .lock()
            .map(|w| w.clone())
            .unwrap_or_default();
        let status = super::worker::describe_exit(status);
        if words.is_empty() {
            format!("it {status}")
        } else {
            format!("it {status} (its last words: {words:?})")
        }
    }

    /// The child, for its pipes.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// The probe of its counters, for fair time.
    #[must_use]
    pub fn probe(&self) -> Option<&ProcessProbe> {
        self.probe.as_ref()
    }

    /// Whether it has been killed or has died.
    #[must_use]
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Stops (`SIGSTOP`) or continues (`SIGCONT`) its whole process group.
    pub fn freeze(&self, signal: libc::c_int) {
        if let (Some(pid), false) = (self.pid, self.gone) {
            // SAFETY: signalling the process group it leads (its pgid is its pid); it is not
            // reaped before `kill`, so the id is still its own.
            unsafe { libc::kill(-pid, signal) };
        }
    }

    /// Continues its whole process group again (at most once every 20 ms), to be called while
    /// it has the turn. One `SIGCONT` at the start of the turn is not always enough: a process
    /// of the group that is forking while the group is stopped and continued can come out of
    /// the fork stopped, and nothing would wake it (seen on Linux 6.18 under load: a bash
    /// player's `$(...)` subshell stopped, bash waiting for it, the move never sent). Nor does
    /// any other stop of one of its processes, its own included, hold its turn up.
    pub fn keep_running(&self) {
        if self
            .continued
            .get()
            .is_some_and(|at| at.elapsed() < CONTINUE_EVERY)
        {
            return;
        }
        self.freeze(libc::SIGCONT);
        self.continued.set(Some(Instant::now()));
    }

    /// Whether it has exited by itself (then its group is killed and its status described),
    /// without waiting. It is reaped only after its group is killed, so that the group's id
    /// is still its own.
    pub fn exited(&mut self) -> Option<String> {
        if self.gone {
            return Some("it is gone".to_owned());
        }
        self.has_exited().then(|| self.kill())
    }

    /// Whether the child has exited, leaving it unreaped (so that its group id stays its own).
    fn has_exited(&self) -> bool {
        let Some(pid) = self.pid else {
            return false;
        };
        // SAFETY: a zeroed siginfo is a valid out-parameter; WNOWAIT leaves the child unreaped.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid.unsigned_abs(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            ) == 0
                && info.si_pid() == pid
        }
    }

    /// Kills its process group and reaps it; says how it ended.
    pub fn kill(&mut self) -> String {
        if let (Some(pid), false) = (self.pid, self.gone) {
            // SAFETY: signalling the process group it leads.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            super::worker::untrack_group(pid);
        }
        self.gone = true;
        match self.child.wait() {
            Ok(status) => self.account(status),
            Err(_) => "it closed its output".to_owned(),
        }
    }

    /// Lets it finish by itself for at most `grace`, then kills what is left.
    pub fn end(&mut self, grace: Duration) {
        self.freeze(libc::SIGCONT);
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if self.has_exited() {
                break;
            }
            self.keep_running();
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for OutsideProcess {
    fn drop(&mut self) {
        if !self.gone {
            self.kill();
        }
    }
}

/// How long a process may go on past its time or a stop before it is killed.
pub const KILL_MARGIN: Duration = Duration::from_millis(500);

/// What to do about a process still thinking, after a look at its clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Let it think.
    Think,
    /// Tell it to stop now (it was asked to; once per move).
    Stop,
    /// Kill it: it is past its time, or a stop, by [`KILL_MARGIN`] in fair time, or past
    /// [`super::wall_cap`] of that in wall time.
    Kill,
}

/// The clocks an outside program is held to: `clocks`, or `untimed_ms` a move where the game has
/// no clock (nothing else would ever end the turn of a program that does not answer).
#[must_use]
pub fn held_to(clocks: tavola_sdk::abi::Clocks, untimed_ms: u64) -> tavola_sdk::abi::Clocks {
    if clocks.own_ms.is_none() && clocks.movetime_ms.is_none() {
        tavola_sdk::abi::Clocks {
            movetime_ms: abi_stable::std_types::RSome(untimed_ms),
            ..clocks
        }
    } else {
        clocks
    }
}

/// The limits of one move of a process thinking elsewhere.
#[derive(Debug)]
pub struct TurnWatch {
    kill_after: Option<Duration>,
    wall_limit: Option<Duration>,
    stopped: bool,
    /// When the process's counters were last read: a message-heavy process (search reports
    /// every microsecond) is not probed once a message.
    looked: Option<Instant>,
}

/// How often [`TurnWatch::look`] reads the counters at most.
const LOOK_EVERY: Duration = Duration::from_millis(1);

impl TurnWatch {
    /// The limits of a move asked with `clocks`.
    #[must_use]
    pub fn new(clocks: tavola_sdk::abi::Clocks) -> TurnWatch {
        let limit = clocks
            .movetime_ms
            .into_option()
            .or(clocks.own_ms.into_option())
            .map(Duration::from_millis);
        let kill_after = limit.map(|limit| limit + KILL_MARGIN);
        TurnWatch {
            kill_after,
            wall_limit: kill_after.map(super::wall_cap),
            stopped: false,
            looked: None,
        }
    }

    /// Charges the time so far to `control` and says what to do (at most once a millisecond,
    /// unless a stop was just asked).
    pub fn look(
        &mut self,
        clock: &super::stopwatch::ProcessClock<'_>,
        control: &super::Control,
    ) -> Verdict {
        // A stop just asked is seen at once; otherwise the counters are read once a millisecond.
        let stop_pending = control.stop_requested() && !self.stopped;
        if !stop_pending && self.looked.is_some_and(|at| at.elapsed() < LOOK_EVERY) {
            return Verdict::Think;
        }
        self.looked = Some(Instant::now());
        let used = clock.so_far();
        control.charge(used);
        let mut verdict = Verdict::Think;
        if control.stop_requested() && !self.stopped {
            self.stopped = true;
            let grace = used + KILL_MARGIN;
            self.kill_after = Some(self.kill_after.map_or(grace, |k| k.min(grace)));
            verdict = Verdict::Stop;
        }
        if self.kill_after.is_some_and(|k| used >= k)
            || self.wall_limit.is_some_and(|w| clock.wall() >= w)
        {
            verdict = Verdict::Kill;
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untimed_move_is_held_to_the_time_the_program_is_told() {
        use abi_stable::std_types::{RNone, RSome};
        use tavola_sdk::abi::Clocks;
        let clocks = |own, movetime| Clocks {
            own_ms: own,
            opponent_ms: own,
            increment_ms: 0,
            movetime_ms: movetime,
        };
        let untimed = held_to(clocks(RNone, RNone), 1_000);
        assert_eq!(untimed.movetime_ms, RSome(1_000));
        assert_eq!(untimed.own_ms, RNone);
        // A clock or a move time is left as it is.
        for timed in [clocks(RSome(5_000), RNone), clocks(RNone, RSome(300))] {
            let held = held_to(timed, 1_000);
            assert_eq!(
                (held.own_ms, held.movetime_ms),
                (timed.own_ms, timed.movetime_ms)
            );
        }
    }
}
