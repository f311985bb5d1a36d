//! The worker's sandbox on Linux: the layers that bubblewrap, nsjail and Chrome's Linux sandbox
//! combine, each applied where the kernel allows it, each reported when it does not.
//!
//! 1. **Namespaces** ([`enter_namespaces`], first thing in `tavola worker`, while it is still
//!    single-threaded): a user namespace (unprivileged, mapping only the user's own ids), and in
//!    it new PID, mount, network, IPC and UTS namespaces. The worker becomes three processes: a
//!    *keeper* outside the new PID namespace (the host's child, which ends as the bot ends), an
//!    *init* (PID 1 inside, which mounts a `/proc` of the new namespace and reaps), and the *bot*
//!    (PID 2), which serves the protocol. The bot sees no other process, no `/proc` entry of one,
//!    no network interface but a loopback that is down, and no abstract socket of the host.
//! 2. **Capabilities** ([`confine`]): all dropped, the bounding and ambient sets cleared, so the
//!    bot cannot undo a mount or leave its namespaces.
//! 3. **Landlock**: writes only beneath the scratch folder (ABI 1-3), no TCP bind or connect
//!    (ABI 4), no signal to a process outside the sandbox and no connection to an abstract Unix
//!    socket made outside it (ABI 6).
//! 4. **seccomp-bpf**: no new process, no program run, no socket of any family (`socketpair` is
//!    left: it reaches nothing), no `io_uring`, no `ptrace` or access to another process's
//!    memory, descriptors or pidfd, no mount, namespace, keyring, BPF, perf or module call, and
//!    no new session or process group (which would slip out of the host's kill).
//!
//! A layer the kernel refuses is left out and named in the worker's log at `warn` level (see
//! [`Layers`]); the bot still runs under the others.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

/// Which layers are in force, and why any is missing.
#[derive(Debug, Default, Clone)]
pub struct Layers {
    missing: Vec<String>,
    enforced: Vec<&'static str>,
    /// Layers left out on purpose (`namespaces`, `capabilities`, `landlock`, `seccomp`), as the
    /// environment variable `TAVOLA_SANDBOX_WITHOUT` of the host asks: to see what the others
    /// hold on their own, as on a kernel that refuses one.
    without: Vec<String>,
}

/// The host's environment variable that leaves sandbox layers out (comma-separated names), for
/// tests and diagnosis.
pub const WITHOUT_VARIABLE: &str = "TAVOLA_SANDBOX_WITHOUT";

impl Layers {
    /// Layers that leave out those named in `without` (comma-separated).
    #[must_use]
    pub fn without(without: &str) -> Layers {
        Layers {
            without: without
                .split(',')
                .map(|name| name.trim().to_owned())
                .filter(|name| !name.is_empty())
                .collect(),
            ..Layers::default()
        }
    }

    /// Whether `layer` is to be set up; notes it as missing when it is left out.
    fn wanted(&mut self, layer: &str) -> bool {
        if self.without.iter().any(|name| name == layer) {
            self.missing(layer, format!("left out by {WITHOUT_VARIABLE}"));
            false
        } else {
            true
        }
    }

    fn enforced(&mut self, layer: &'static str) {
        self.enforced.push(layer);
    }

    fn missing(&mut self, layer: &str, why: impl fmt::Display) {
        self.missing.push(format!("{layer} ({why})"));
    }

    /// Logs what is enforced (debug) and what is missing (warn).
    pub fn log(&self) {
        log::debug!("sandbox layers in force: {}", self.enforced.join(", "));
        for layer in &self.missing {
            log::warn!("sandbox layer missing: {layer}");
        }
    }
}

/// Where [`enter_namespaces`] returns: in the process that goes on to load and serve the bot.
#[derive(Debug)]
pub struct Entered {
    /// What was set up, and what was not.
    pub layers: Layers,
}

fn last_error(what: &str) -> io::Error {
    let error = io::Error::last_os_error();
    io::Error::new(error.kind(), format!("{what}: {error}"))
}

fn write_file(path: &str, text: &str) -> io::Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|e| io::Error::new(e.kind(), format!("writing {path}: {e}")))
}

/// Enters new namespaces and splits into keeper, init and bot (see the module's docs). Returns
/// only in the bot's process (or, where no namespace could be made, in this one); the keeper and
/// the init exit with the bot's own status.
///
/// Must be called while this process has a single thread.
#[must_use]
pub fn enter_namespaces(mut layers: Layers) -> Entered {
    if !layers.wanted("namespaces") {
        return Entered { layers };
    }
    let others = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    // SAFETY: geteuid and getegid cannot fail.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    // SAFETY: unshare takes flags only.
    let user = unsafe { libc::unshare(libc::CLONE_NEWUSER | others) } == 0;
    let entered = if user {
        let mapped = write_file("/proc/self/setgroups", "deny")
            .and_then(|()| write_file("/proc/self/uid_map", &format!("{uid} {uid} 1")))
            .and_then(|()| write_file("/proc/self/gid_map", &format!("{gid} {gid} 1")));
        if let Err(e) = mapped {
            layers.missing("user namespace id maps", e);
        }
        layers.enforced("user namespace");
        true
    } else {
        let why = io::Error::last_os_error();
        layers.missing("user namespace", &why);
        // Root needs no user namespace for the others.
        // SAFETY: as above.
        uid == 0 && unsafe { libc::unshare(others) } == 0
    };
    if !entered {
        layers.missing(
            "PID, mount, network and IPC namespaces",
            io::Error::last_os_error(),
        );
        return Entered { layers };
    }
    layers.enforced("PID, mount, network, IPC and UTS namespaces");
    match split() {
        Ok(proc_mounted) => {
            match proc_mounted {
                Ok(()) => layers.enforced("own /proc"),
                Err(e) => layers.missing("own /proc", e),
            }
            Entered { layers }
        }
        Err(e) => {
            // Still one process, in namespaces whose PID namespace has no process yet: carry on
            // here, without the PID layer's guarantees.
            layers.missing("PID namespace", e);
            Entered { layers }
        }
    }
}

/// Forks the init (PID 1 of the new namespace); the init mounts `/proc` and forks the bot.
/// Returns in the bot, with the outcome of the `/proc` mount.
fn split() -> io::Result<io::Result<()>> {
    let mut status_pipe = [0; 2];
    // SAFETY: `status_pipe` has room for the two descriptors.
    if unsafe { libc::pipe2(status_pipe.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(last_error("pipe"));
    }
    // SAFETY: this process has one thread, so the child may do anything after fork.
    let init = unsafe { libc::fork() };
    if init < 0 {
        return Err(last_error("fork"));
    }
    if init > 0 {
        // SAFETY: closing the pipe's write end, which only the init uses.
        unsafe { libc::close(status_pipe[1]) };
        keep(init, status_pipe[0]);
    }
    // The init, PID 1 of the new namespace. (Its parent is outside it, so getppid says 0: the
    // keeper's death before the next line goes unnoticed, but then the host kills the group.)
    // SAFETY: plain process calls on this process.
    unsafe {
        libc::close(status_pipe[0]);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    let mounted = mount_proc();
    // SAFETY: as above; the init is single-threaded too.
    let bot = unsafe { libc::fork() };
    if bot < 0 {
        // SAFETY: _exit ends this process.
        unsafe { libc::_exit(1) };
    }
    if bot > 0 {
        reap(bot, status_pipe[1]);
    }
    // The bot.
    // SAFETY: as above.
    unsafe {
        libc::close(status_pipe[1]);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != 1 {
            libc::_exit(1);
        }
    }
    Ok(mounted)
}

/// A `/proc` of the new PID namespace over the old one, in the new mount namespace.
fn mount_proc() -> io::Result<()> {
    // SAFETY: mount with valid C strings; this mount namespace is the worker's own.
    unsafe {
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return Err(last_error("making the mounts private"));
        }
        if libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        ) != 0
        {
            return Err(last_error("mounting /proc"));
        }
    }
    Ok(())
}

/// Points the standard descriptors at `/dev/null`, so that only the bot holds the protocol's.
fn detach_standard_descriptors() {
    // SAFETY: opening /dev/null and duplicating it over descriptors this process owns.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null >= 0 {
            libc::dup2(null, libc::STDIN_FILENO);
            libc::dup2(null, libc::STDOUT_FILENO);
            if null > libc::STDERR_FILENO {
                libc::close(null);
            }
        }
    }
}

/// The init: waits for the bot, sends its wait status to the keeper, and exits.
fn reap(bot: libc::pid_t, status_pipe: libc::c_int) -> ! {
    detach_standard_descriptors();
    loop {
        let mut status = 0;
        // SAFETY: a valid out-parameter.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid == bot
            || (pid < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD))
        {
            let bytes = status.to_ne_bytes();
            // SAFETY: writing four bytes from a live buffer, then leaving.
            unsafe {
                libc::write(status_pipe, bytes.as_ptr().cast(), bytes.len());
                libc::_exit(0);
            }
        }
    }
}

/// The keeper: waits for the init, then ends as the bot ended (the same exit code or signal), so
/// that the host sees the bot's fate in its child's.
fn keep(init: libc::pid_t, status_pipe: libc::c_int) -> ! {
    detach_standard_descriptors();
    let mut status = 0;
    // SAFETY: a valid out-parameter.
    while unsafe { libc::waitpid(init, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
    let mut bytes = [0_u8; 4];
    // SAFETY: the descriptor is the pipe's read end, ours.
    let mut pipe = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(status_pipe) };
    if pipe.read_exact(&mut bytes).is_ok() {
        status = i32::from_ne_bytes(bytes);
    }
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        // SAFETY: restoring the default action and raising the signal on this process.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        1
    };
    // SAFETY: _exit ends this process.
    unsafe { libc::_exit(code) }
}

/// Confines the bot's process for good: capabilities dropped, Landlock, seccomp. Called in the
/// bot's process, single-threaded, after its working folder is `scratch` and before it loads the
/// library.
pub fn confine(scratch: &Path, layers: &mut Layers) {
    // SAFETY: a prctl on this process. (The host sets it before exec too; seccomp and Landlock
    // need it without privileges.)
    unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
    if layers.wanted("capabilities") {
        match drop_capabilities() {
            Ok(()) => layers.enforced("no capabilities"),
            Err(e) => layers.missing("dropping capabilities", e),
        }
    }
    if layers.wanted("landlock") {
        landlock(scratch, layers);
    }
    if layers.wanted("seccomp") {
        match seccomp() {
            Ok(()) => layers.enforced("seccomp filter"),
            Err(e) => layers.missing("seccomp filter", e),
        }
    }
}

fn drop_capabilities() -> io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    // SAFETY: prctl calls on this process; capset with a valid header and two data words.
    unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        for cap in 0..64 {
            // Fails with EINVAL past the kernel's last capability, and without CAP_SETPCAP.
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        let header = Header {
            version: VERSION_3,
            pid: 0,
        };
        let data = [Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        }; 2];
        if libc::syscall(libc::SYS_capset, &header, data.as_ptr()) != 0 {
            return Err(last_error("capset"));
        }
    }
    Ok(())
}

fn landlock(scratch: &Path, layers: &mut Layers) {
    use landlock::{
        path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset,
        RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
    };
    // SAFETY: the version query takes no pointer.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0,
            1_u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    if abi < 1 {
        layers.missing(
            "Landlock",
            "not in this kernel: the bot may write wherever the user may, and signal the user's processes",
        );
        return;
    }
    let target = ABI::V6;
    let built = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_write(target))
        .and_then(|r| r.handle_access(AccessNet::from_all(target)))
        .and_then(|r| r.scope(Scope::from_all(target)))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules([scratch], AccessFs::from_write(target))))
        .and_then(|r| r.restrict_self());
    match built {
        Ok(status) if status.ruleset != RulesetStatus::NotEnforced => {
            layers.enforced("Landlock: writes only in the scratch folder");
            if abi >= 4 {
                layers.enforced("Landlock: no TCP");
            } else {
                layers.missing("Landlock's TCP rules", format!("kernel ABI {abi}, needs 4"));
            }
            if abi >= 6 {
                layers.enforced("Landlock: signals and abstract sockets scoped");
            } else {
                layers.missing(
                    "Landlock's signal and abstract-socket scoping",
                    format!("kernel ABI {abi}, needs 6"),
                );
            }
        }
        Ok(_) => layers.missing("Landlock", "the kernel enforced none of the rules"),
        Err(e) => layers.missing("Landlock", e),
    }
}

/// The system calls a bot may not make, and the error it gets instead.
fn denied() -> Vec<(libc::c_long, u32)> {
    let eperm = libc::EPERM as u32;
    let mut list = vec![
        // Processes and programs (threads are `clone` with CLONE_THREAD, allowed below).
        (libc::SYS_fork, eperm),
        (libc::SYS_vfork, eperm),
        (libc::SYS_execve, eperm),
        (libc::SYS_execveat, eperm),
        // ENOSYS, so that the C library falls back to `clone` for threads.
        (libc::SYS_clone3, libc::ENOSYS as u32),
        // Sockets of any family; and io_uring, which can open one without `socket`.
        (libc::SYS_socket, eperm),
        (libc::SYS_io_uring_setup, libc::ENOSYS as u32),
        (libc::SYS_io_uring_enter, libc::ENOSYS as u32),
        (libc::SYS_io_uring_register, libc::ENOSYS as u32),
        // Other processes.
        (libc::SYS_ptrace, eperm),
        (libc::SYS_process_vm_readv, eperm),
        (libc::SYS_process_vm_writev, eperm),
        (libc::SYS_process_madvise, eperm),
        (libc::SYS_kcmp, eperm),
        (libc::SYS_pidfd_open, eperm),
        (libc::SYS_pidfd_getfd, eperm),
        (libc::SYS_pidfd_send_signal, eperm),
        // Leaving the host's process group or session, which the host kills as one.
        (libc::SYS_setsid, eperm),
        (libc::SYS_setpgid, eperm),
        // The system: mounts, namespaces, keys, BPF, perf, modules, handles.
        (libc::SYS_mount, eperm),
        (libc::SYS_umount2, eperm),
        (libc::SYS_pivot_root, eperm),
        (libc::SYS_chroot, eperm),
        (libc::SYS_unshare, eperm),
        (libc::SYS_setns, eperm),
        (libc::SYS_keyctl, eperm),
        (libc::SYS_add_key, eperm),
        (libc::SYS_request_key, eperm),
        (libc::SYS_bpf, eperm),
        (libc::SYS_perf_event_open, eperm),
        (libc::SYS_userfaultfd, eperm),
        (libc::SYS_init_module, eperm),
        (libc::SYS_finit_module, eperm),
        (libc::SYS_delete_module, eperm),
        (libc::SYS_kexec_load, eperm),
        (libc::SYS_reboot, eperm),
        (libc::SYS_swapon, eperm),
        (libc::SYS_swapoff, eperm),
        (libc::SYS_acct, eperm),
        (libc::SYS_open_by_handle_at, eperm),
        (libc::SYS_name_to_handle_at, eperm),
        (libc::SYS_fsopen, eperm),
        (libc::SYS_fsmount, eperm),
        (libc::SYS_move_mount, eperm),
        (libc::SYS_open_tree, eperm),
        (libc::SYS_mount_setattr, eperm),
    ];
    #[cfg(target_arch = "x86_64")]
    list.extend([
        (libc::SYS_kexec_file_load, eperm),
        (libc::SYS_iopl, eperm),
        (libc::SYS_ioperm, eperm),
    ]);
    list
}

fn seccomp() -> io::Result<()> {
    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule, TargetArch,
    };
    use std::collections::BTreeMap;
    let failed = |e: &dyn fmt::Display| io::Error::other(e.to_string());
    let arch: TargetArch = std::env::consts::ARCH
        .try_into()
        .map_err(|e: seccompiler::BackendError| failed(&e))?;
    #[cfg(target_arch = "x86_64")]
    forbid_x32()?;
    // One filter per error code (seccompiler gives a filter one action on a match); the kernel
    // runs them all and the strictest answer wins.
    let mut by_error: BTreeMap<u32, BTreeMap<i64, Vec<SeccompRule>>> = BTreeMap::new();
    for (call, errno) in denied() {
        by_error.entry(errno).or_default().insert(call, Vec::new());
    }
    // `clone` without CLONE_THREAD is a new process.
    let not_a_thread = SeccompCondition::new(
        0,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(libc::CLONE_THREAD as u64),
        0,
    )
    .and_then(|c| SeccompRule::new(vec![c]))
    .map_err(|e| failed(&e))?;
    by_error
        .entry(libc::EPERM as u32)
        .or_default()
        .insert(libc::SYS_clone, vec![not_a_thread]);
    for (errno, rules) in by_error {
        let filter = SeccompFilter::new(
            rules,
            SeccompAction::Allow,
            SeccompAction::Errno(errno),
            arch,
        )
        .map_err(|e| failed(&e))?;
        let program: BpfProgram = filter
            .try_into()
            .map_err(|e: seccompiler::BackendError| failed(&e))?;
        seccompiler::apply_filter(&program).map_err(|e| failed(&e))?;
    }
    Ok(())
}

/// x86-64's x32 system calls have their own numbers (bit 30 set), which a filter of x86-64
/// numbers would let through: refuse them all.
#[cfg(target_arch = "x86_64")]
fn forbid_x32() -> io::Result<()> {
    const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let op = |code, k, jt, jf| libc::sock_filter { code, jt, jf, k };
    let mut program = [
        op(LD_W_ABS, 0, 0, 0), // the system call's number
        op(JGE_K, X32_SYSCALL_BIT, 0, 1),
        op(RET_K, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32, 0, 0),
        op(RET_K, libc::SECCOMP_RET_ALLOW, 0, 0),
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
        Err(last_error("installing the x32 filter"))
    }
}
