//! A bot thinks only on its own turn: between its turns its process uses no CPU, or it is stopped.
//!
//! Stopping every worker between its turns (`SIGSTOP`, then `SIGCONT` with the next request)
//! guarantees that, but costs each turn a wake-up and a stop of every thread of the worker's
//! processes: a few dozen microseconds a move, more than a fast bot's whole move. So it is checked
//! instead, and enforced where it is needed: a worker's threads wait for the next request without
//! using the CPU, and a watch thread reads the bot process's CPU clock while it is idle. A bot that
//! used more than [`TOLERANCE`] between two turns is stopped at once and, from then on, stopped
//! between all its turns; the CPU time it took is charged to its next move. A well-behaved bot
//! pays for no signal; one that ponders does so for a few milliseconds, once.
//!
//! Without a CPU clock to read (not Linux, or the bot's process unknown) every idle time is
//! stopped, as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::thread;
use std::time::Duration;

/// The CPU time a bot's process may use between two of its turns without being stopped: what its
/// threads take to go back to waiting after an answer (microseconds), with room to spare.
pub const TOLERANCE: Duration = Duration::from_millis(2);

/// How often the watch thread reads the clocks of idle bots.
const EVERY: Duration = Duration::from_millis(5);

/// The idle times of one bot's process (a worker's bot).
#[derive(Debug)]
pub struct IdleGuard {
    shared: Arc<Guarded>,
}

#[derive(Debug)]
struct Guarded {
    /// The CPU clock of the bot's process.
    clock: Option<CpuClock>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The process group stopped and continued (0 once it is gone: never signalled again).
    group: i32,
    /// The CPU time of the bot's process when its idle time began; `None` while it thinks.
    idle_since: Option<Duration>,
    /// Stopped (`SIGSTOP`) now.
    stopped: bool,
    /// Stopped at every idle time: it used the CPU between its turns once.
    strict: bool,
    /// CPU time it used while idle, not yet charged.
    pondered: Duration,
}

impl IdleGuard {
    /// The guard of the bot process `pid`, stopped and continued as the process group `group`.
    #[must_use]
    pub fn new(group: i32, pid: Option<i32>) -> IdleGuard {
        let clock = pid.and_then(CpuClock::of);
        IdleGuard {
            shared: Arc::new(Guarded {
                state: Mutex::new(State {
                    group,
                    strict: clock.is_none(),
                    ..State::default()
                }),
                clock,
            }),
        }
    }

    /// Its turn is over: from now on it is idle (stopped at once when strict).
    pub fn rest(&self) {
        let Ok(mut state) = self.shared.state.lock() else {
            return;
        };
        if state.group == 0 || state.idle_since.is_some() || state.stopped {
            return;
        }
        if state.strict {
            signal(state.group, libc::SIGSTOP);
            state.stopped = true;
            return;
        }
        let Some(now) = self.shared.clock.and_then(CpuClock::read) else {
            signal(state.group, libc::SIGSTOP);
            state.stopped = true;
            state.strict = true;
            return;
        };
        state.idle_since = Some(now);
        drop(state);
        watch(&self.shared);
    }

    /// Its turn begins: continued if stopped. Returns the CPU time it used while idle beyond
    /// what was tolerated (zero for a bot that waited), to be charged to this move.
    pub fn wake(&self) -> Duration {
        let Ok(mut state) = self.shared.state.lock() else {
            return Duration::ZERO;
        };
        if let Some(since) = state.idle_since.take() {
            if let Some(now) = self.shared.clock.and_then(CpuClock::read) {
                let used = now.saturating_sub(since);
                if used > TOLERANCE {
                    state.pondered += used;
                    state.strict = true;
                }
            }
        }
        if state.stopped && state.group != 0 {
            signal(state.group, libc::SIGCONT);
        }
        state.stopped = false;
        std::mem::take(&mut state.pondered)
    }

    /// Whether it is stopped between all its turns (it used the CPU while idle once).
    #[must_use]
    pub fn is_strict(&self) -> bool {
        self.shared.state.lock().is_ok_and(|state| state.strict)
    }

    /// Its process group is about to be killed: it is never signalled again.
    pub fn gone(&self) {
        if let Ok(mut state) = self.shared.state.lock() {
            state.group = 0;
            state.idle_since = None;
        }
    }
}

/// Looks at one idle bot: stops it if it used more than the tolerance since its idle time began.
/// Returns whether it is still to be watched.
fn look(guarded: &Guarded) -> bool {
    let Ok(mut state) = guarded.state.lock() else {
        return false;
    };
    let Some(since) = state.idle_since else {
        return false;
    };
    if state.group == 0 || state.stopped {
        return false;
    }
    let Some(now) = guarded.clock.and_then(CpuClock::read) else {
        return false;
    };
    let used = now.saturating_sub(since);
    if used <= TOLERANCE {
        return true;
    }
    signal(state.group, libc::SIGSTOP);
    log::warn!(
        "a bot used {} ms of CPU between its turns: it is stopped between them from now on, \
         and the time is charged to its next move",
        used.as_millis()
    );
    state.stopped = true;
    state.strict = true;
    state.idle_since = None;
    state.pondered += used;
    false
}

/// The watch thread's list of idle bots, and its wake-up.
struct Watch {
    idle: Mutex<Vec<Weak<Guarded>>>,
    wake: Condvar,
    /// Whether the thread waits for work (then a new idle bot must wake it).
    parked: AtomicBool,
}

/// Puts `guarded` in the watch thread's list (starting the thread the first time).
fn watch(guarded: &Arc<Guarded>) {
    static WATCH: OnceLock<Arc<Watch>> = OnceLock::new();
    let watch = WATCH.get_or_init(|| {
        let watch = Arc::new(Watch {
            idle: Mutex::new(Vec::new()),
            wake: Condvar::new(),
            parked: AtomicBool::new(false),
        });
        let looker = Arc::clone(&watch);
        let started = thread::Builder::new()
            .name("tavola idle watch".to_owned())
            .spawn(move || watch_loop(&looker));
        if let Err(e) = started {
            log::error!("cannot start the thread that watches idle bots: {e}");
        }
        watch
    });
    let Ok(mut idle) = watch.idle.lock() else {
        return;
    };
    if !idle.iter().any(|w| w.as_ptr() == Arc::as_ptr(guarded)) {
        idle.push(Arc::downgrade(guarded));
    }
    drop(idle);
    if watch.parked.load(Ordering::SeqCst) {
        watch.wake.notify_one();
    }
}

fn watch_loop(watch: &Watch) {
    let Ok(mut idle) = watch.idle.lock() else {
        return;
    };
    loop {
        // Looked at without the list's lock: a bot's own lock is taken by its turns.
        let now: Vec<Arc<Guarded>> = idle.drain(..).filter_map(|w| w.upgrade()).collect();
        drop(idle);
        let still: Vec<Weak<Guarded>> = now
            .iter()
            .filter(|guarded| look(guarded))
            .map(Arc::downgrade)
            .collect();
        idle = match watch.idle.lock() {
            Ok(idle) => idle,
            Err(_) => return,
        };
        for weak in still {
            if !idle.iter().any(|w| w.ptr_eq(&weak)) {
                idle.push(weak);
            }
        }
        let parked = idle.is_empty();
        watch.parked.store(parked, Ordering::SeqCst);
        let waited = if parked {
            watch.wake.wait(idle).ok()
        } else {
            watch
                .wake
                .wait_timeout(idle, EVERY)
                .ok()
                .map(|(idle, _)| idle)
        };
        let Some(waited) = waited else {
            return;
        };
        idle = waited;
        watch.parked.store(false, Ordering::SeqCst);
    }
}

fn signal(group: i32, signal: libc::c_int) {
    // SAFETY: signalling a process group the caller leads and has not reaped (`State::group` is
    // cleared before it is killed and reaped), so the id is still its own.
    unsafe { libc::kill(-group, signal) };
}

/// The CPU clock of another process (all its threads).
#[derive(Debug, Clone, Copy)]
struct CpuClock(libc::clockid_t);

impl CpuClock {
    fn of(pid: i32) -> Option<CpuClock> {
        #[cfg(target_os = "linux")]
        {
            let mut clock: libc::clockid_t = 0;
            // SAFETY: `clock` is a valid out-parameter.
            (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(CpuClock(clock))
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = pid;
            None
        }
    }

    fn read(self) -> Option<Duration> {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a clock id from clock_getcpuclockid and a valid out-parameter.
        if unsafe { libc::clock_gettime(self.0, &mut now) } != 0 {
            return None;
        }
        Some(Duration::new(
            u64::try_from(now.tv_sec).ok()?,
            u32::try_from(now.tv_nsec).ok()?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use std::process::{Command, Stdio};
    use std::time::Instant;

    use super::*;

    /// A child in a process group of its own running `script` in sh.
    fn child(script: &str) -> std::process::Child {
        use std::os::unix::process::CommandExt;
        Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap()
    }

    fn state(pid: u32) -> char {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after = stat.rsplit_once(')').unwrap().1;
        after.trim_start().chars().next().unwrap()
    }

    /// Waits (a minute at most, however busy the machine) until `pid`'s state is one of `states`.
    fn wait_for(pid: u32, states: &str) {
        let until = Instant::now() + Duration::from_secs(60);
        while !states.contains(state(pid)) {
            assert!(Instant::now() < until, "{pid} never reached {states}");
            thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_process_that_waits_is_never_stopped() {
        let mut sleeper = child("exec sleep 60");
        wait_for(sleeper.id(), "S");
        let pid = sleeper.id() as i32;
        let guard = IdleGuard::new(pid, Some(pid));
        for _ in 0..3 {
            guard.rest();
            thread::sleep(EVERY * 4);
            assert_eq!(state(sleeper.id()), 'S', "asleep, not stopped");
            assert_eq!(guard.wake(), Duration::ZERO);
        }
        assert!(!guard.is_strict());
        guard.gone();
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }

    #[test]
    fn a_process_that_computes_while_idle_is_stopped_and_charged() {
        let mut spinner = child("while :; do :; done");
        let pid = spinner.id() as i32;
        let guard = IdleGuard::new(pid, Some(pid));
        guard.rest();
        // However busy the machine, the spinner is stopped once it has used its tolerance.
        wait_for(spinner.id(), "T");
        assert!(guard.is_strict());
        let charged = guard.wake();
        assert!(charged > TOLERANCE, "charged {charged:?}");
        wait_for(spinner.id(), "R");
        // From now on it is stopped as soon as its turn ends.
        guard.rest();
        wait_for(spinner.id(), "T");
        assert_eq!(guard.wake(), Duration::ZERO);
        guard.gone();
        spinner.kill().unwrap();
        spinner.wait().unwrap();
    }

    #[test]
    fn without_a_clock_every_idle_time_is_stopped() {
        let mut sleeper = child("exec sleep 60");
        let pid = sleeper.id() as i32;
        let guard = IdleGuard::new(pid, None);
        assert!(guard.is_strict());
        guard.rest();
        wait_for(sleeper.id(), "T");
        guard.wake();
        wait_for(sleeper.id(), "S");
        guard.gone();
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
    }
}
