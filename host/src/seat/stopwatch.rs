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

/// A thread's counters from its schedstat file: CPU time and run delay so far, in nanoseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counters {
    exec_ns: u64,
    delay_ns: u64,
}

/// The counters of thread `tid` of this process (`None`: the current thread).
fn thread_counters(tid: Option<i32>) -> Option<Counters> {
    match tid {
        Some(tid) => counters_at(&format!("/proc/self/task/{tid}/schedstat")),
        None => own_counters(),
    }
}

/// The current thread's counters, from its schedstat file kept open (one `pread` a call: the
/// built-in bot and every seat read it on each move).
fn own_counters() -> Option<Counters> {
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
        parse_counters(buffer.get(..read)?)
    })
}

fn counters_at(path: &str) -> Option<Counters> {
    parse_counters(&std::fs::read(path).ok()?)
}

/// A schedstat file: nanoseconds on a CPU, nanoseconds runnable but waiting for one, timeslices.
fn parse_counters(text: &[u8]) -> Option<Counters> {
    let mut fields = std::str::from_utf8(text).ok()?.split_whitespace();
    Some(Counters {
        exec_ns: fields.next()?.parse().ok()?,
        delay_ns: fields.next()?.parse().ok()?,
    })
}

/// Whether the thread or process whose `stat` file is at `path` is asleep or waiting (not
/// runnable: neither running nor waiting for a CPU).
fn is_asleep(path: &str) -> bool {
    std::fs::read(path).is_ok_and(|stat| stat_is_asleep(&stat))
}

/// Whether a `stat` file's text says asleep or waiting (the state after the command's `)`).
fn stat_is_asleep(stat: &[u8]) -> bool {
    let Some(end) = stat.iter().rposition(|&b| b == b')') else {
        return false;
    };
    stat[end + 1..]
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|state| matches!(state, b'S' | b'D' | b'T' | b't' | b'I'))
}

/// A process's `stat` and `schedstat` files, kept open: a look is then three reads, not three
/// opens, reads and closes (a worker is looked at twice a move). An open file stays the
/// process's own: once it is gone, reads fail rather than find another with its id.
#[derive(Debug)]
struct OpenStat {
    stat: std::fs::File,
    schedstat: std::fs::File,
}

impl OpenStat {
    fn open(stat: &str, schedstat: &str) -> Option<OpenStat> {
        Some(OpenStat {
            stat: std::fs::File::open(stat).ok()?,
            schedstat: std::fs::File::open(schedstat).ok()?,
        })
    }

    fn is_asleep(&self) -> bool {
        use std::os::unix::fs::FileExt;
        let mut buffer = [0_u8; 1024];
        self.stat
            .read_at(&mut buffer, 0)
            .is_ok_and(|read| stat_is_asleep(&buffer[..read]))
    }

    fn look(&self) -> Option<Look> {
        use std::os::unix::fs::FileExt;
        let before = Instant::now();
        let asleep_before = self.is_asleep();
        let mut buffer = [0_u8; 96];
        let read = self.schedstat.read_at(&mut buffer, 0).ok()?;
        let counters = parse_counters(&buffer[..read])?;
        let asleep = asleep_before && self.is_asleep();
        Some(Look {
            counters,
            asleep,
            window: before.elapsed(),
        })
    }
}

/// A thread's counters read from another thread, with what is sure of them: when it was asleep
/// both before and after the counters were read, its run delay is up to date but for a wait it
/// might have had between the two looks (whose length, `window`, is subtracted); otherwise only
/// its CPU time is sure.
#[derive(Debug, Clone, Copy)]
struct Look {
    counters: Counters,
    asleep: bool,
    window: Duration,
}

fn look(stat: &str, schedstat: &str) -> Option<Look> {
    let before = Instant::now();
    let asleep_before = is_asleep(stat);
    let counters = counters_at(schedstat)?;
    let asleep = asleep_before && is_asleep(stat);
    Some(Look {
        counters,
        asleep,
        window: before.elapsed(),
    })
}

/// The sure part of the fair time between `from` and a `look` `wall` later.
fn sure(wall: Duration, from: Counters, look: Look) -> Duration {
    let exec = Duration::from_nanos(look.counters.exec_ns.saturating_sub(from.exec_ns));
    let fair = if look.asleep {
        let delay = Duration::from_nanos(look.counters.delay_ns.saturating_sub(from.delay_ns));
        wall.saturating_sub(delay).saturating_sub(look.window)
    } else {
        Duration::ZERO
    };
    fair.max(exec).min(wall)
}

/// The current thread's run delay so far, in nanoseconds (0 where the kernel does not say).
#[must_use]
pub fn own_run_delay() -> u64 {
    own_counters().map_or(0, |c| c.delay_ns)
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
    at_start: Option<Counters>,
}

impl ThreadStopwatch {
    /// Starts measuring the current thread.
    #[must_use]
    pub fn start() -> ThreadStopwatch {
        ThreadStopwatch {
            start: Instant::now(),
            tid: current_tid(),
            at_start: thread_counters(None),
        }
    }

    /// Measures the wall time alone (for a clock kept by someone who counts wall time).
    #[must_use]
    pub fn wall_only() -> ThreadStopwatch {
        ThreadStopwatch {
            start: Instant::now(),
            tid: None,
            at_start: None,
        }
    }

    /// Wall time since the start.
    #[must_use]
    pub fn wall(&self) -> Duration {
        self.start.elapsed()
    }

    /// The fair time since the start: wall time less the thread's run delay. Exact on the
    /// measured thread itself (which is running as it asks). From another thread, a lower
    /// bound: the kernel adds a wait for a CPU to the run delay only once the wait is over, so
    /// while the thread is runnable only its CPU time is sure (see `Look`).
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        let wall = self.start.elapsed();
        let (Some(before), Some(tid)) = (self.at_start, self.tid) else {
            return wall;
        };
        if current_tid() == Some(tid) {
            let delay =
                thread_counters(None).map_or(0, |now| now.delay_ns.saturating_sub(before.delay_ns));
            return wall.saturating_sub(Duration::from_nanos(delay));
        }
        let task = format!("/proc/self/task/{tid}");
        look(&format!("{task}/stat"), &format!("{task}/schedstat"))
            .map_or(wall, |look| sure(wall, before, look))
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
    /// The CPU time of its main thread, in nanoseconds.
    pub exec_ns: u64,
    /// The CPU time of all its threads, in nanoseconds.
    pub cpu_ns: u64,
    /// Whether its main thread was asleep before and after its counters were read, and how
    /// long the reading took (see `Look`).
    pub asleep_for: Option<Duration>,
}

/// Reads the counters of another process of this user, by its process id in this namespace.
#[derive(Debug)]
pub struct ProcessProbe {
    schedstat: String,
    stat: String,
    statm: String,
    open: Option<OpenStat>,
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
        let (stat, schedstat) = (
            format!("/proc/{pid}/stat"),
            format!("/proc/{pid}/schedstat"),
        );
        ProcessProbe {
            open: OpenStat::open(&stat, &schedstat),
            schedstat,
            stat,
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
        let look = match &self.open {
            Some(open) => open.look(),
            None => look(&self.stat, &self.schedstat),
        };
        let counters = look.map(|l| l.counters).unwrap_or_default();
        ProcessSample {
            run_delay_ns: counters.delay_ns,
            exec_ns: counters.exec_ns,
            cpu_ns: self.cpu_ns().unwrap_or(0),
            asleep_for: look.filter(|l| l.asleep).map(|l| l.window),
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

    /// The fair time of a worker between two samples `wall` apart, once it has answered (its
    /// thread then waits for the next request, so its run delay is up to date): the wall time
    /// less its main thread's run delay, but at least its CPU time over the cores, and at most
    /// the wall time.
    #[must_use]
    pub fn charge(&self, wall: Duration, from: ProcessSample, to: ProcessSample) -> Duration {
        let delay = Duration::from_nanos(to.run_delay_ns.saturating_sub(from.run_delay_ns));
        wall.saturating_sub(delay)
            .max(self.cpu_share(from, to))
            .min(wall)
    }

    /// The fair time of a worker still thinking, a lower bound: as [`ProcessProbe::charge`]
    /// (less the reading's own length) while its main thread sleeps or waits, else its main
    /// thread's CPU time; at least its CPU time over the cores.
    #[must_use]
    pub fn charge_so_far(
        &self,
        wall: Duration,
        from: ProcessSample,
        to: ProcessSample,
    ) -> Duration {
        let look = Look {
            counters: Counters {
                exec_ns: to.exec_ns,
                delay_ns: to.run_delay_ns,
            },
            asleep: to.asleep_for.is_some(),
            window: to.asleep_for.unwrap_or_default(),
        };
        let from_counters = Counters {
            exec_ns: from.exec_ns,
            delay_ns: from.run_delay_ns,
        };
        sure(wall, from_counters, look)
            .max(self.cpu_share(from, to))
            .min(wall)
    }

    fn cpu_share(&self, from: ProcessSample, to: ProcessSample) -> Duration {
        Duration::from_nanos(to.cpu_ns.saturating_sub(from.cpu_ns)) / self.cores.max(1)
    }
}

/// When a message from a process thinking elsewhere arrived: read by a reader thread, less the
/// time that thread waited for a core before it could read it (the message was there that much
/// earlier), with the process's counters at that moment.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    /// The moment the message was there to read.
    pub at: Instant,
    /// The sender's counters then, if it is probed.
    pub sample: Option<ProcessSample>,
}

impl Arrival {
    /// Now, measured by nothing else (an untimed move's answer).
    #[must_use]
    pub fn now() -> Arrival {
        Arrival {
            at: Instant::now(),
            sample: None,
        }
    }
}

/// Stamps the messages a reader thread reads with their [`Arrival`]. Made and used on that
/// thread.
#[derive(Debug)]
pub struct ArrivalStamp {
    /// The reader thread's run delay when it began to wait; `None` when not measured (then
    /// the arrival is when the message was read).
    own_delay: Option<u64>,
}

impl ArrivalStamp {
    /// Starts measuring the reader thread's wait for a core, from now.
    #[must_use]
    pub fn new() -> ArrivalStamp {
        ArrivalStamp {
            own_delay: Some(own_run_delay()),
        }
    }

    /// The arrival of the message just read.
    #[must_use]
    pub fn stamp(&self, probe: Option<&ProcessProbe>) -> Arrival {
        let now = Instant::now();
        let late = self.own_delay.map_or(Duration::ZERO, |before| {
            Duration::from_nanos(own_run_delay().saturating_sub(before))
        });
        Arrival {
            at: now.checked_sub(late).unwrap_or(now),
            sample: probe.map(ProcessProbe::sample),
        }
    }

    /// The arrival of a message whose time nobody charges (an untimed game's): the moment it
    /// was read, without reading any counter.
    #[must_use]
    pub fn unmeasured(&mut self) -> Arrival {
        self.own_delay = None;
        Arrival {
            at: Instant::now(),
            sample: None,
        }
    }

    /// Measures again from here, where the thread goes back to wait for the next message.
    pub fn rearm(&mut self) {
        self.own_delay = Some(own_run_delay());
    }
}

impl Default for ArrivalStamp {
    fn default() -> ArrivalStamp {
        ArrivalStamp::new()
    }
}

/// The clock of one move of a process that thinks elsewhere (a worker, an outside engine),
/// started once the request is in its pipe or socket.
#[derive(Debug)]
pub struct ProcessClock<'a> {
    probe: Option<&'a ProcessProbe>,
    sent: Instant,
    at_start: Option<ProcessSample>,
}

impl<'a> ProcessClock<'a> {
    /// Starts the clock now; without a probe it measures wall time.
    #[must_use]
    pub fn start(probe: Option<&'a ProcessProbe>) -> ProcessClock<'a> {
        ProcessClock {
            probe,
            sent: Instant::now(),
            at_start: probe.map(ProcessProbe::sample),
        }
    }

    /// The fair time of a move answered at `arrival` (exact: see [`ProcessProbe::charge`]).
    #[must_use]
    pub fn charge(&self, arrival: Arrival) -> Duration {
        let wall = arrival.at.saturating_duration_since(self.sent);
        match (self.probe, self.at_start, arrival.sample) {
            (Some(probe), Some(from), Some(to)) => probe.charge(wall, from, to),
            _ => wall,
        }
    }

    /// The fair time so far of a move still thought about, a lower bound (see
    /// [`ProcessProbe::charge_so_far`]).
    #[must_use]
    pub fn so_far(&self) -> Duration {
        let wall = self.sent.elapsed();
        match (self.probe, self.at_start) {
            (Some(probe), Some(from)) => probe.charge_so_far(wall, from, probe.sample()),
            _ => wall,
        }
    }

    /// The wall time since the clock started.
    #[must_use]
    pub fn wall(&self) -> Duration {
        self.sent.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counters_are_the_first_two_fields() {
        assert_eq!(
            parse_counters(b"429280461 1868896 23\n"),
            Some(Counters {
                exec_ns: 429_280_461,
                delay_ns: 1_868_896
            })
        );
        assert_eq!(parse_counters(b"garbage"), None);
        // Read twice from the kept file: never backwards.
        if let (Some(a), Some(b)) = (own_counters(), own_counters()) {
            assert!(b.exec_ns >= a.exec_ns && b.delay_ns >= a.delay_ns);
        }
    }

    #[test]
    fn another_thread_is_seen_to_have_used_at_most_its_time() {
        let (started, watch) = std::sync::mpsc::channel();
        let sleeper = std::thread::spawn(move || {
            started.send(ThreadStopwatch::start()).unwrap();
            std::thread::sleep(Duration::from_millis(200));
        });
        let watch = watch.recv().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        // Asleep: its sleep is its own time, seen from here too (less any wait for a core).
        let seen = watch.elapsed();
        assert!(seen <= watch.wall());
        sleeper.join().unwrap();
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
            stat: String::new(),
            statm: String::new(),
            open: None,
            #[cfg(target_os = "linux")]
            clock: None,
            cores: 2,
        };
        let wall = Duration::from_millis(100);
        let from = ProcessSample::default();
        // Waited 80 ms for a core: charged 20 ms.
        let starved = ProcessSample {
            run_delay_ns: 80_000_000,
            exec_ns: 20_000_000,
            cpu_ns: 20_000_000,
            asleep_for: Some(Duration::ZERO),
        };
        assert_eq!(probe.charge(wall, from, starved), Duration::from_millis(20));
        // Starved its own main thread while 8 helpers used both cores: charged the wall time.
        let greedy = ProcessSample {
            run_delay_ns: 90_000_000,
            exec_ns: 10_000_000,
            cpu_ns: 200_000_000,
            asleep_for: Some(Duration::ZERO),
        };
        assert_eq!(probe.charge(wall, from, greedy), wall);
        // Never more than the wall time.
        let busy = ProcessSample {
            run_delay_ns: 0,
            exec_ns: 100_000_000,
            cpu_ns: 400_000_000,
            asleep_for: None,
        };
        assert_eq!(probe.charge(wall, from, busy), wall);
        // Still thinking (maybe waiting for a core right now): only its CPU time is sure.
        let waiting = ProcessSample {
            run_delay_ns: 0,
            exec_ns: 30_000_000,
            cpu_ns: 30_000_000,
            asleep_for: None,
        };
        assert_eq!(
            probe.charge_so_far(wall, from, waiting),
            Duration::from_millis(30)
        );
        assert_eq!(probe.charge(wall, from, waiting), wall);
        // Asleep before and after a look that took 5 ms: its sleep counts, less those 5 ms.
        let asleep = ProcessSample {
            asleep_for: Some(Duration::from_millis(5)),
            ..waiting
        };
        assert_eq!(
            probe.charge_so_far(wall, from, asleep),
            Duration::from_millis(95)
        );
    }

    #[test]
    fn a_stat_line_says_whether_asleep() {
        assert!(stat_is_asleep(b"42 (bot) S 1 42 42 0 -1"));
        // A command may hold spaces and parentheses: the state follows the last one.
        assert!(!stat_is_asleep(b"42 (a) R (b) R 1 42"));
        assert!(stat_is_asleep(b"42 (a) R (b) D 1"));
        assert!(!stat_is_asleep(b"garbage"));
        assert!(!stat_is_asleep(b""));
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
