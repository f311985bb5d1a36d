//! Fair time: what a move costs a bot is the time it had, not the time the machine took from it.
//!
//! A busy machine keeps a runnable thread waiting for a core, and the host's own threads wait
//! too before they pass a request on or read an answer back. Neither is the bot's doing, so
//! neither is charged to its clock. Linux counts, per thread, the time spent runnable but waiting
//! for a CPU (the second field of `/proc/.../schedstat`, the scheduler's "run delay"); the time
//! charged for a move is the wall time from the request to the answer less the run delay of the
//! thread that thinks. Time a bot sleeps or waits is its own, and charged.
//!
//! A bot in a worker process could starve its own thinking thread with helper threads to make
//! its run delay grow; so a worker is charged at least its whole CPU time (all threads) divided
//! by the cores it may use, which is what it could have had on an idle machine anyway.
//!
//! Where the kernel gives no run delay (not Linux, or no schedstat), the charge is the wall time.

use std::time::{Duration, Instant};

/// The run delay of thread `tid` of this process (`None`: the current thread), in nanoseconds.
fn thread_run_delay(tid: Option<i32>) -> Option<u64> {
    match tid {
        Some(tid) => run_delay_at(&format!("/proc/self/task/{tid}/schedstat")),
        None => own_schedstat(),
    }
}

/// The current thread's run delay, from its schedstat file kept open (one `pread` a call: the
/// built-in bot and every seat read it on each move).
fn own_schedstat() -> Option<u64> {
    use std::cell::RefCell;
    use std::fs::File;
    use std::os::unix::fs::FileExt;
    thread_local! {
        static OWN: RefCell<Option<Option<File>>> = const { RefCell::new(None) };
    }
    OWN.with(|own| {
        let mut own = own.borrow_mut();
        let file = own
            .get_or_insert_with(|| File::open("/proc/thread-self/schedstat").ok())
            .as_ref()?;
        let mut buffer = [0_u8; 96];
        let read = file.read_at(&mut buffer, 0).ok()?;
        parse_run_delay(buffer.get(..read)?)
    })
}

/// The second field of a schedstat file: nanoseconds spent runnable, waiting for a CPU.
fn run_delay_at(path: &str) -> Option<u64> {
    parse_run_delay(&std::fs::read(path).ok()?)
}

fn parse_run_delay(text: &[u8]) -> Option<u64> {
    std::str::from_utf8(text)
        .ok()?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The current thread's run delay so far, in nanoseconds (0 where the kernel does not say).
#[must_use]
pub fn own_run_delay() -> u64 {
    thread_run_delay(None).unwrap_or(0)
}

/// The current thread's id (the kernel's, as `/proc/self/task` names it).
#[must_use]
pub fn current_tid() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid takes no arguments and cannot fail.
        let tid = unsafe { libc::syscall(libc::SYS_gettid) };
        i32::try_from(tid).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Measures one thread's fair time from the moment it is started: wall time less the time the
/// thread waited for a CPU. Started on the thread it measures; read from any thread.
#[derive(Debug, Clone, Copy)]
pub struct ThreadStopwatch {
    start: Instant,
    tid: Option<i32>,
    delay_at_start: Option<u64>,
}

impl ThreadStopwatch {
    /// Starts measuring the current thread.
    #[must_use]
    pub fn start() -> ThreadStopwatch {
        let tid = current_tid();
        ThreadStopwatch {
            start: Instant::now(),
            tid,
            delay_at_start: thread_run_delay(None),
        }
    }

    /// Measures the wall time alone (for a clock kept by someone who counts wall time).
    #[must_use]
    pub fn wall_only() -> ThreadStopwatch {
        ThreadStopwatch {
            start: Instant::now(),
            tid: None,
            delay_at_start: None,
        }
    }

    /// Wall time since the start.
    #[must_use]
    pub fn wall(&self) -> Duration {
        self.start.elapsed()
    }

    /// The fair time since the start: wall time less the thread's run delay.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        let wall = self.start.elapsed();
        let delay = match (self.delay_at_start, self.tid) {
            (Some(before), Some(tid)) => {
                let now = if current_tid() == Some(tid) {
                    thread_run_delay(None)
                } else {
                    thread_run_delay(Some(tid))
                };
                now.map_or(0, |now| now.saturating_sub(before))
            }
            _ => 0,
        };
        wall.saturating_sub(Duration::from_nanos(delay))
    }

    /// Whether `limit` of fair time has passed: cheap while the wall clock is below it (the run
    /// delay is only read once the wall time reaches the limit).
    #[must_use]
    pub fn reached(&self, limit: Duration) -> bool {
        self.start.elapsed() >= limit && self.elapsed() >= limit
    }
}

/// The counters of a worker's thinking process that fair time needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcessSample {
    /// The run delay of its main thread (the one that thinks), in nanoseconds.
    pub run_delay_ns: u64,
    /// The CPU time of all its threads, in nanoseconds.
    pub cpu_ns: u64,
}

/// Reads the counters of another process of this user, by its process id in this namespace.
#[derive(Debug)]
pub struct ProcessProbe {
    schedstat: String,
    statm: String,
    #[cfg(target_os = "linux")]
    clock: Option<libc::clockid_t>,
    cores: u32,
}

impl ProcessProbe {
    /// A probe of process `pid`.
    #[must_use]
    pub fn new(pid: i32) -> ProcessProbe {
        #[cfg(target_os = "linux")]
        let clock = {
            let mut clock: libc::clockid_t = 0;
            // SAFETY: `clock` is a valid out-parameter.
            (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(clock)
        };
        ProcessProbe {
            schedstat: format!("/proc/{pid}/schedstat"),
            statm: format!("/proc/{pid}/statm"),
            #[cfg(target_os = "linux")]
            clock,
            cores: std::thread::available_parallelism()
                .map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX)),
        }
    }

    /// The process's counters now (zeros where the kernel does not say).
    #[must_use]
    pub fn sample(&self) -> ProcessSample {
        ProcessSample {
            run_delay_ns: run_delay_at(&self.schedstat).unwrap_or(0),
            cpu_ns: self.cpu_ns().unwrap_or(0),
        }
    }

    /// The process's address space, in bytes.
    #[must_use]
    pub fn address_space(&self) -> Option<u64> {
        let text = std::fs::read_to_string(&self.statm).ok()?;
        let pages: u64 = text.split_whitespace().next()?.parse().ok()?;
        // SAFETY: sysconf has no preconditions.
        let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        Some(pages * page)
    }

    fn cpu_ns(&self) -> Option<u64> {
        #[cfg(target_os = "linux")]
        {
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: a clock id from clock_getcpuclockid and a valid out-parameter.
            if unsafe { libc::clock_gettime(self.clock?, &mut now) } != 0 {
                return None;
            }
            let secs = u64::try_from(now.tv_sec).ok()?;
            let nanos = u64::try_from(now.tv_nsec).ok()?;
            Some(secs * 1_000_000_000 + nanos)
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }

    /// The fair time of a worker between two samples `wall` apart: the wall time less its main
    /// thread's run delay, but at least its CPU time over the cores, and at most the wall time.
    #[must_use]
    pub fn charge(&self, wall: Duration, from: ProcessSample, to: ProcessSample) -> Duration {
        let delay = Duration::from_nanos(to.run_delay_ns.saturating_sub(from.run_delay_ns));
        let cpu = Duration::from_nanos(to.cpu_ns.saturating_sub(from.cpu_ns)) / self.cores.max(1);
        wall.saturating_sub(delay).max(cpu).min(wall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_delay_is_the_second_field() {
        assert_eq!(parse_run_delay(b"429280461 1868896 23\n"), Some(1_868_896));
        assert_eq!(parse_run_delay(b"garbage"), None);
        // Read twice from the kept file: never backwards.
        if let (Some(a), Some(b)) = (own_schedstat(), own_schedstat()) {
            assert!(b >= a);
        }
    }

    #[test]
    fn fair_time_never_exceeds_the_wall_time() {
        let watch = ThreadStopwatch::start();
        std::thread::sleep(Duration::from_millis(2));
        let fair = watch.elapsed();
        assert!(fair <= watch.wall());
        // Sleeping is the thread's own time: counted (less any wait for a core after it).
        assert!(watch.reached(Duration::ZERO));
    }

    #[test]
    fn a_process_is_charged_its_cpu_over_the_cores_at_least() {
        let probe = ProcessProbe {
            schedstat: String::new(),
            statm: String::new(),
            #[cfg(target_os = "linux")]
            clock: None,
            cores: 2,
        };
        let wall = Duration::from_millis(100);
        let from = ProcessSample::default();
        // Waited 80 ms for a core: charged 20 ms.
        let starved = ProcessSample {
            run_delay_ns: 80_000_000,
            cpu_ns: 20_000_000,
        };
        assert_eq!(probe.charge(wall, from, starved), Duration::from_millis(20));
        // Starved its own main thread while 8 helpers used both cores: charged the wall time.
        let greedy = ProcessSample {
            run_delay_ns: 90_000_000,
            cpu_ns: 200_000_000,
        };
        assert_eq!(probe.charge(wall, from, greedy), wall);
        // Never more than the wall time.
        let busy = ProcessSample {
            run_delay_ns: 0,
            cpu_ns: 400_000_000,
        };
        assert_eq!(probe.charge(wall, from, busy), wall);
    }

    #[test]
    fn another_process_can_be_probed() {
        let probe = ProcessProbe::new(i32::try_from(std::process::id()).unwrap());
        let before = probe.sample();
        let mut x = 0_u64;
        for i in 0..2_000_000_u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let after = probe.sample();
        assert!(after.cpu_ns >= before.cpu_ns);
    }
}
