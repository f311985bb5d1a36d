//! Landlock (Linux 5.13 and later): the worker may write only inside its scratch folder.
//!
//! Reading stays allowed everywhere (the bot loads its own library, data files, ...); creating,
//! writing, truncating, renaming or removing files anywhere else fails with EACCES. Descriptors
//! opened before (the protocol pipes, stdout and stderr) are not affected.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

const CREATE_RULESET: libc::c_long = 444;
const ADD_RULE: libc::c_long = 445;
const RESTRICT_SELF: libc::c_long = 446;
const CREATE_RULESET_VERSION: libc::c_uint = 1;
const RULE_PATH_BENEATH: libc::c_int = 1;

// Filesystem access rights, by the ABI version that introduced them.
const WRITE_FILE: u64 = 1 << 1;
const REMOVE_DIR: u64 = 1 << 4;
const REMOVE_FILE: u64 = 1 << 5;
const MAKE_ALL: u64 = 0b111_1111 << 6; // char, dir, reg, sock, fifo, block, sym
const REFER: u64 = 1 << 13; // ABI 2
const TRUNCATE: u64 = 1 << 14; // ABI 3

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// What happened: whether the rules are in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Writes outside the scratch folder are refused from now on.
    Enforced,
    /// The kernel has no Landlock; nothing changed.
    Unsupported,
}

/// Restricts this process (and the threads it starts from now on) to writing beneath `scratch`.
///
/// # Errors
/// A system error other than "Landlock is not supported".
pub fn restrict_writes_to(scratch: &Path) -> io::Result<Outcome> {
    // SAFETY: the version query takes no pointer.
    let abi = unsafe {
        libc::syscall(
            CREATE_RULESET,
            std::ptr::null::<RulesetAttr>(),
            0,
            CREATE_RULESET_VERSION,
        )
    };
    if abi < 1 {
        return Ok(Outcome::Unsupported);
    }
    let mut handled = WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_ALL;
    if abi >= 2 {
        handled |= REFER;
    }
    if abi >= 3 {
        handled |= TRUNCATE;
    }
    let attr = RulesetAttr {
        handled_access_fs: handled,
    };
    // SAFETY: `attr` is a valid ruleset attribute of the size passed.
    let ruleset = unsafe {
        libc::syscall(
            CREATE_RULESET,
            &attr as *const RulesetAttr,
            std::mem::size_of::<RulesetAttr>(),
            0,
        )
    };
    if ruleset < 0 {
        return Err(io::Error::last_os_error());
    }
    let ruleset = ruleset as libc::c_int;
    let result = add_and_restrict(ruleset, scratch, handled);
    // SAFETY: closing the descriptor we created.
    unsafe { libc::close(ruleset) };
    result.map(|()| Outcome::Enforced)
}

fn add_and_restrict(ruleset: libc::c_int, scratch: &Path, handled: u64) -> io::Result<()> {
    let path = CString::new(scratch.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the path"))?;
    // SAFETY: a valid C string; O_PATH opens the folder only as an anchor for the rule.
    let folder = unsafe { libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if folder < 0 {
        return Err(io::Error::last_os_error());
    }
    let rule = PathBeneathAttr {
        allowed_access: handled,
        parent_fd: folder,
    };
    // SAFETY: `rule` is a valid path-beneath attribute; the descriptors are ours.
    let added = unsafe {
        libc::syscall(
            ADD_RULE,
            ruleset,
            RULE_PATH_BENEATH,
            &rule as *const PathBeneathAttr,
            0,
        )
    };
    // SAFETY: closing the descriptor we opened.
    unsafe { libc::close(folder) };
    if added < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: no_new_privs is set by the host before exec, as Landlock requires.
    if unsafe { libc::syscall(RESTRICT_SELF, ruleset, 0) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
