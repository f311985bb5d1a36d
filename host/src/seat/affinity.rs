//! CPU affinity: which CPUs a thread, and the processes it starts, may run on.
//!
//! `tavola match --affinity` pins each game's thread to one CPU (as fastchess's `-use-affinity`
//! pins its engines), so that the game's thread and its players' processes hand each other the
//! move on one CPU instead of waking an idle one (which costs most in a virtual machine). Linux
//! gives a child the affinity of the thread that forks it, but players' processes are forked by
//! one long-lived spawning thread (see `worker::spawn_lasting`): so the thread that asks for a
//! process reads its own affinity ([`Mask::of_this_thread`]) and the child takes it on before
//! exec ([`Mask::apply`], best effort). Where the thread is not pinned, that is every CPU:
//! nothing changes.

/// A set of CPUs, as the kernel's `sched_setaffinity` takes it.
#[derive(Clone, Copy)]
pub(crate) struct Mask {
    #[cfg(target_os = "linux")]
    set: libc::cpu_set_t,
}

impl Mask {
    /// The CPUs the calling thread may run on (`None` if the kernel does not say).
    pub(crate) fn of_this_thread() -> Option<Mask> {
        Mask::of(0)
    }

    /// The CPUs the process may run on: its main thread's (`None` if the kernel does not say).
    pub(crate) fn of_this_process() -> Option<Mask> {
        // SAFETY: getpid has no preconditions; the process id names its main thread.
        Mask::of(unsafe { libc::getpid() })
    }

    /// The CPUs the thread `tid` of this process may run on (0: the calling thread).
    fn of(tid: i32) -> Option<Mask> {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a zeroed cpu_set_t is a valid (empty) set, filled in by the kernel.
            let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            // SAFETY: a thread of this process; the size is the set's own.
            let read = unsafe {
                libc::sched_getaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &mut set)
            };
            (read == 0).then_some(Mask { set })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = tid;
            None
        }
    }

    /// Restricts the calling thread to these CPUs. Async-signal-safe (one system call): fit to
    /// run between fork and exec.
    ///
    /// # Errors
    /// The kernel's (an empty set, or CPUs this process may not use).
    pub(crate) fn apply(&self) -> std::io::Result<()> {
        self.apply_to(0)
    }

    /// Restricts the thread `tid` of this process (0: the calling thread) to these CPUs, in one
    /// system call.
    ///
    /// # Errors
    /// The kernel's (the thread is gone, an empty set, CPUs this process may not use).
    pub(crate) fn apply_to(&self, tid: i32) -> std::io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a thread of this process; the set and its size are valid.
            let set = unsafe {
                libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &self.set)
            };
            if set != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = tid;
        Ok(())
    }

    /// The CPUs in the set, lowest first.
    pub(crate) fn cpus(&self) -> Vec<usize> {
        #[cfg(target_os = "linux")]
        {
            let count = 8 * std::mem::size_of::<libc::cpu_set_t>();
            // SAFETY: CPU_ISSET reads one bit of the set, each index below its size.
            (0..count)
                .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &self.set) })
                .collect()
        }
        #[cfg(not(target_os = "linux"))]
        {
            Vec::new()
        }
    }

    /// The set of one CPU.
    pub(crate) fn one(cpu: usize) -> Mask {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET sets one bit, in range
            // (checked by the caller's CPU numbers, which come from `cpus`).
            let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
            unsafe { libc::CPU_SET(cpu, &mut set) };
            Mask { set }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = cpu;
            Mask {}
        }
    }
}

/// Pins the calling thread to CPU number `slot` of the ones this thread may use, counted round
/// (slot 0 the first). Returns the CPU, or `None` when it cannot (then it runs as before, and
/// why is logged).
pub(crate) fn pin_this_thread(slot: usize) -> Option<usize> {
    let Some(cpus) = Mask::of_this_thread().map(|mask| mask.cpus()) else {
        log::warn!("--affinity: this system does not say which CPUs a thread may use");
        return None;
    };
    let Some(&cpu) = cpus.get(slot % cpus.len().max(1)) else {
        log::warn!("--affinity: no CPU to pin a game's thread to");
        return None;
    };
    match Mask::one(cpu).apply() {
        Ok(()) => Some(cpu),
        Err(e) => {
            log::warn!("cannot pin a game's thread to CPU {cpu}: {e}");
            None
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The CPUs a process may run on, as its /proc status says.
    fn allowed_list(status: &str) -> String {
        status
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap_or_default()
            .trim()
            .to_owned()
    }

    /// The CPUs a child started through `spawn_lasting` from the calling thread may use.
    fn childs_cpus() -> String {
        let mut command = std::process::Command::new("cat");
        command
            .arg("/proc/self/status")
            .stdout(std::process::Stdio::piped());
        let out = crate::seat::worker::spawn_lasting(command)
            .unwrap()
            .wait_with_output()
            .unwrap();
        allowed_list(&String::from_utf8(out.stdout).unwrap())
    }

    #[test]
    fn a_child_started_by_the_spawning_thread_takes_the_asking_threads_cpus() {
        let all = Mask::of_this_thread().unwrap().cpus();
        let last = *all.last().unwrap();
        let pinned = std::thread::spawn(move || {
            assert_eq!(pin_this_thread(all.len() - 1), Some(last));
            assert_eq!(Mask::of_this_thread().unwrap().cpus(), [last]);
            childs_cpus()
        })
        .join()
        .unwrap();
        assert_eq!(pinned, last.to_string());
        // Whichever thread started the spawning thread, a child asked for by this unpinned
        // thread gets every CPU of this thread's.
        let unpinned = childs_cpus();
        let all = Mask::of_this_thread().unwrap().cpus();
        if all.len() > 1 {
            assert_ne!(unpinned, last.to_string());
            let first = all[0].to_string();
            assert!(unpinned.starts_with(&first), "{unpinned}");
        }
    }

    #[test]
    fn slots_go_round_the_cpus() {
        let cpus = Mask::of_this_thread().unwrap().cpus();
        let picked = std::thread::spawn(move || pin_this_thread(cpus.len() + 1))
            .join()
            .unwrap();
        let cpus = Mask::of_this_thread().unwrap().cpus();
        assert_eq!(picked, Some(cpus[1 % cpus.len()]));
    }
}
