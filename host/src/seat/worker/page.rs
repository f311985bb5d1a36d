//! The fast path between the host and a worker: one page of memory both map, through which the
//! host posts a request that extends the worker's last (the new moves' codes and the clocks) and
//! the worker posts its answer (a move's code, or a failure), each side waiting on a futex of the
//! page for the other. A move then costs two hand-offs between threads, where the line protocol
//! costs a pipe each way and a reader thread on each side.
//!
//! The page is a sealed memfd (it can be neither shrunk nor grown, so that no access to it can
//! fault), made by the host and given to the worker as a descriptor; the worker maps it and closes
//! the descriptor before it loads the library. Every field is an atomic, read once: the host takes
//! nothing the worker wrote on trust (a hostile bot can write anything anywhere in the page), and
//! it never waits on the page without a timeout.
//!
//! Everything else (hello, the player's creation, the first request of each game with its start
//! position, search reports, the bot's output, logs) goes over the line protocol of
//! [`super::protocol`].

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::time::Duration;

use tavola_sdk::abi::Clocks;

/// The most move codes one fast request carries (the moves since the worker's last request: two
/// in a game between two players).
pub const CODES: usize = 128;

/// The longest failure message the page holds, in bytes (a longer one is cut).
pub const MESSAGE: usize = 1024;

/// A clock field's value for "none".
const NONE: u64 = u64::MAX;

/// What the worker answered.
pub mod kind {
    /// A move: [`super::Answer::code`].
    pub const MOVE: u32 = 1;
    /// The bot reported an error: the message.
    pub const ERROR: u32 = 2;
    /// The bot panicked: the message.
    pub const PANIC: u32 = 3;
}

/// The host's side of the page: the request.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct Request {
    /// Rung (incremented, then woken) by whoever has something for the worker's main thread:
    /// the host with a request, the worker's own reader thread with a protocol message.
    pub doorbell: AtomicU32,
    /// The number of the last request the host posted.
    pub number: AtomicU32,
    /// Set by the host when the bot must answer now; the bot's stop flag.
    pub stop: AtomicBool,
    /// The game the moves are of ([`tavola_sdk::abi::CodeRequest::history`]).
    pub history: AtomicU64,
    /// The number of moves played in the game.
    pub total: AtomicU32,
    /// How many of the last moves are in `codes` (the rest the worker has from earlier requests).
    pub count: AtomicU32,
    /// The clocks, in milliseconds (`u64::MAX`: none).
    pub own_ms: AtomicU64,
    /// See `own_ms`.
    pub opponent_ms: AtomicU64,
    /// See `own_ms`.
    pub movetime_ms: AtomicU64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: AtomicU64,
    /// The codes of the last `count` moves.
    pub codes: [AtomicU64; CODES],
}

/// The worker's side of the page: the answer.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct Answer {
    /// The number of the request answered; the host waits on it.
    pub number: AtomicU32,
    /// What the answer is ([`kind`]).
    pub kind: AtomicU32,
    /// The move's code.
    pub code: AtomicU64,
    /// The failure message's length, in bytes.
    pub message_len: AtomicU32,
    /// The failure message, in UTF-8.
    pub message: [AtomicU8; MESSAGE],
}

/// The page's layout.
#[repr(C)]
#[derive(Debug)]
pub struct Page {
    /// Written by the host.
    pub request: Request,
    /// Written by the worker.
    pub answer: Answer,
}

/// The page's size in memory: whole pages.
const SIZE: usize = std::mem::size_of::<Page>().next_multiple_of(4096);

/// One side's mapping of a page.
#[derive(Debug)]
pub struct Mapped {
    page: NonNull<Page>,
}

// SAFETY: the page is only ever accessed through atomics.
unsafe impl Send for Mapped {}
// SAFETY: as above.
unsafe impl Sync for Mapped {}

impl Mapped {
    /// A new page for a worker, and the descriptor to give it (sealed: its size is fixed).
    ///
    /// # Errors
    /// The system's, when no memfd can be made or mapped.
    pub fn create() -> io::Result<(Mapped, OwnedFd)> {
        // SAFETY: a valid name and flags; the result is checked.
        let fd = unsafe {
            libc::memfd_create(
                c"tavola-worker-page".as_ptr(),
                libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh descriptor, owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let size = libc::off_t::try_from(SIZE).map_err(io::Error::other)?;
        // SAFETY: plain calls on a descriptor we own; results checked.
        unsafe {
            if libc::ftruncate(fd.as_raw_fd(), size) != 0 {
                return Err(io::Error::last_os_error());
            }
            let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
            if libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, seals) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        let mapped = Mapped::map(fd.as_raw_fd())?;
        Ok((mapped, fd))
    }

    /// Maps the page of descriptor `fd` (the worker's side), checking that it is one: a sealed
    /// memfd of the page's size.
    ///
    /// # Errors
    /// When `fd` is no such page, or cannot be mapped.
    pub fn open(fd: RawFd) -> io::Result<Mapped> {
        // SAFETY: fstat and fcntl on a descriptor number, results checked.
        unsafe {
            let mut stat: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut stat) != 0 {
                return Err(io::Error::last_os_error());
            }
            let seals = libc::fcntl(fd, libc::F_GET_SEALS);
            let wanted = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW;
            if usize::try_from(stat.st_size).ok() != Some(SIZE)
                || seals < 0
                || seals & wanted != wanted
            {
                return Err(io::Error::other(format!(
                    "descriptor {fd} is not a worker page"
                )));
            }
        }
        Mapped::map(fd)
    }

    fn map(fd: RawFd) -> io::Result<Mapped> {
        // SAFETY: mapping a descriptor whose size is SIZE (checked or set, and sealed) as shared
        // memory; the result is checked.
        let address = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                SIZE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        if address == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let page = NonNull::new(address.cast::<Page>())
            .ok_or_else(|| io::Error::other("mmap gave a null page"))?;
        Ok(Mapped { page })
    }

    /// The page.
    #[must_use]
    pub fn page(&self) -> &Page {
        // SAFETY: mapped for as long as `self` lives, zeroed at creation (a valid `Page`: all
        // atomics), only ever accessed through atomics.
        unsafe { self.page.as_ref() }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly what `map` mapped; nothing refers to it past `self`.
        unsafe { libc::munmap(self.page.as_ptr().cast(), SIZE) };
    }
}

/// Waits until `word` is no longer `seen`, or `timeout` passes, or a spurious wake-up: the
/// caller looks again either way.
pub fn wait(word: &AtomicU32, seen: u32, timeout: Option<Duration>) {
    let timeout = timeout.map(|t| libc::timespec {
        tv_sec: libc::time_t::try_from(t.as_secs()).unwrap_or(libc::time_t::MAX),
        tv_nsec: libc::c_long::from(t.subsec_nanos()),
    });
    let timeout_ptr = timeout
        .as_ref()
        .map_or(std::ptr::null(), std::ptr::from_ref);
    // SAFETY: a futex wait on a live, aligned 32-bit word of shared memory (not private: the
    // other side is another process), with a relative timeout or none.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            seen,
            timeout_ptr,
            std::ptr::null::<u32>(),
            0,
        );
    }
}

/// Wakes whoever waits on `word`.
pub fn wake(word: &AtomicU32) {
    // SAFETY: a futex wake on a live, aligned 32-bit word of shared memory.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0,
        );
    }
}

/// Rings the worker's doorbell.
pub fn ring(page: &Page) {
    page.request.doorbell.fetch_add(1, Ordering::Release);
    wake(&page.request.doorbell);
}

/// A clock's field: its value (`u64::MAX` milliseconds, some 585 million years, reads as none).
fn clock_field(value: Option<u64>) -> u64 {
    value.unwrap_or(NONE)
}

fn clock_value(field: &AtomicU64) -> Option<u64> {
    Some(field.load(Ordering::Relaxed)).filter(|&v| v != NONE)
}

impl Page {
    /// The host posts request `number`: `codes` are the last of the game's `total` moves, of
    /// `history`.
    ///
    /// # Panics
    /// When `codes` holds more than [`CODES`].
    pub fn post(&self, number: u32, (history, total, codes): (u64, usize, &[u64]), clocks: Clocks) {
        assert!(
            codes.len() <= CODES,
            "a fast request holds at most {CODES} codes"
        );
        let request = &self.request;
        request.stop.store(false, Ordering::Relaxed);
        request.history.store(history, Ordering::Relaxed);
        request
            .total
            .store(u32::try_from(total).unwrap_or(u32::MAX), Ordering::Relaxed);
        request.count.store(codes.len() as u32, Ordering::Relaxed);
        request
            .own_ms
            .store(clock_field(clocks.own_ms.into_option()), Ordering::Relaxed);
        request.opponent_ms.store(
            clock_field(clocks.opponent_ms.into_option()),
            Ordering::Relaxed,
        );
        request.movetime_ms.store(
            clock_field(clocks.movetime_ms.into_option()),
            Ordering::Relaxed,
        );
        request
            .increment_ms
            .store(clocks.increment_ms, Ordering::Relaxed);
        for (slot, &code) in request.codes.iter().zip(codes) {
            slot.store(code, Ordering::Relaxed);
        }
        request.number.store(number, Ordering::Release);
        ring(self);
    }

    /// The worker reads request `number` (after seeing it posted): its history, the game's
    /// number of moves, and the last moves' codes (appended to `codes`); its clocks.
    pub fn read_request(&self, codes: &mut Vec<u64>) -> (u64, usize, Clocks) {
        let request = &self.request;
        let count = (request.count.load(Ordering::Relaxed) as usize).min(CODES);
        codes.extend(
            request.codes[..count]
                .iter()
                .map(|code| code.load(Ordering::Relaxed)),
        );
        let clocks = Clocks {
            own_ms: clock_value(&request.own_ms).into(),
            opponent_ms: clock_value(&request.opponent_ms).into(),
            increment_ms: request.increment_ms.load(Ordering::Relaxed),
            movetime_ms: clock_value(&request.movetime_ms).into(),
        };
        (
            request.history.load(Ordering::Relaxed),
            request.total.load(Ordering::Relaxed) as usize,
            clocks,
        )
    }

    /// The worker answers request `number` with a move's code.
    pub fn answer_move(&self, number: u32, code: u64) {
        self.answer.code.store(code, Ordering::Relaxed);
        self.answer.kind.store(kind::MOVE, Ordering::Relaxed);
        self.publish(number);
    }

    /// The worker answers request `number` with a failure.
    pub fn answer_failure(&self, number: u32, panicked: bool, message: &str) {
        let mut end = message.len().min(MESSAGE);
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        for (slot, &byte) in self.answer.message.iter().zip(&message.as_bytes()[..end]) {
            slot.store(byte, Ordering::Relaxed);
        }
        self.answer.message_len.store(end as u32, Ordering::Relaxed);
        let kind = if panicked { kind::PANIC } else { kind::ERROR };
        self.answer.kind.store(kind, Ordering::Relaxed);
        self.publish(number);
    }

    fn publish(&self, number: u32) {
        self.answer.number.store(number, Ordering::Release);
        wake(&self.answer.number);
    }

    /// The host reads the answer to request `number`, if it is there: each field read once,
    /// nothing taken on trust (an unknown kind is `None`, the message cut to the page and
    /// read as lossy UTF-8).
    #[must_use]
    pub fn read_answer(&self, number: u32) -> Option<PageAnswer> {
        if self.answer.number.load(Ordering::Acquire) != number {
            return None;
        }
        let kind = self.answer.kind.load(Ordering::Relaxed);
        let message = || {
            let len = (self.answer.message_len.load(Ordering::Relaxed) as usize).min(MESSAGE);
            let bytes: Vec<u8> = self.answer.message[..len]
                .iter()
                .map(|byte| byte.load(Ordering::Relaxed))
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        };
        Some(match kind {
            kind::MOVE => PageAnswer::Move(self.answer.code.load(Ordering::Relaxed)),
            kind::ERROR => PageAnswer::Failure {
                panicked: false,
                message: message(),
            },
            kind::PANIC => PageAnswer::Failure {
                panicked: true,
                message: message(),
            },
            other => PageAnswer::Unknown(other),
        })
    }
}

/// An answer read from the page by the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageAnswer {
    /// A move's code (not yet checked).
    Move(u64),
    /// The bot's failure.
    Failure {
        /// Whether it panicked.
        panicked: bool,
        /// Its message.
        message: String,
    },
    /// No answer the protocol knows.
    Unknown(u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_and_its_answer_cross_the_page() {
        let (host, fd) = Mapped::create().unwrap();
        let worker = Mapped::open(fd.as_raw_fd()).unwrap();
        let clocks = Clocks {
            own_ms: Some(1500).into(),
            opponent_ms: None.into(),
            increment_ms: 10,
            movetime_ms: None.into(),
        };
        host.page().post(1, (42, 7, &[5, 6]), clocks);
        assert_eq!(worker.page().request.number.load(Ordering::Acquire), 1);
        let mut codes = vec![1, 2, 3, 4, 9];
        let (history, total, read) = worker.page().read_request(&mut codes);
        assert_eq!((history, total, read), (42, 7, clocks));
        assert_eq!(codes, [1, 2, 3, 4, 9, 5, 6]);
        assert_eq!(host.page().read_answer(1), None, "not answered yet");
        worker.page().answer_move(1, 0x1234);
        assert_eq!(host.page().read_answer(1), Some(PageAnswer::Move(0x1234)));
        assert_eq!(host.page().read_answer(2), None);
        let long = "é".repeat(MESSAGE);
        worker.page().answer_failure(2, true, &long);
        let Some(PageAnswer::Failure { panicked, message }) = host.page().read_answer(2) else {
            panic!("a failure")
        };
        assert!(panicked);
        assert_eq!(message, "é".repeat(MESSAGE / 2), "cut on a character");
    }

    #[test]
    fn the_host_takes_nothing_on_trust() {
        let (host, fd) = Mapped::create().unwrap();
        let worker = Mapped::open(fd.as_raw_fd()).unwrap();
        let answer = &worker.page().answer;
        answer.kind.store(77, Ordering::Relaxed);
        answer.message_len.store(u32::MAX, Ordering::Relaxed);
        answer.number.store(3, Ordering::Release);
        assert_eq!(host.page().read_answer(3), Some(PageAnswer::Unknown(77)));
        answer.kind.store(kind::ERROR, Ordering::Relaxed);
        answer.message[0].store(0xFF, Ordering::Relaxed);
        let Some(PageAnswer::Failure { message, .. }) = host.page().read_answer(3) else {
            panic!("a failure")
        };
        assert_eq!(
            message.chars().count(),
            MESSAGE,
            "cut to the page, invalid bytes replaced"
        );
        // The page cannot be shrunk under the host's feet.
        // SAFETY: ftruncate on a descriptor we own.
        assert_ne!(unsafe { libc::ftruncate(fd.as_raw_fd(), 0) }, 0);
        // Nor is anything else taken for a page.
        let file = std::fs::File::open("/proc/self/exe").unwrap();
        assert!(Mapped::open(file.as_raw_fd()).is_err());
    }

    #[test]
    fn the_layout_is_what_the_hostile_test_bot_writes_to() {
        // tests/fixtures/faulty-bot's `page` mode writes to these offsets, as an attacker would.
        assert_eq!(
            std::mem::offset_of!(Page, request) + std::mem::offset_of!(Request, number),
            4
        );
        let answer = std::mem::offset_of!(Page, answer);
        assert_eq!(answer + std::mem::offset_of!(Answer, number), 1088);
        assert_eq!(answer + std::mem::offset_of!(Answer, kind), 1092);
        assert!(SIZE >= std::mem::size_of::<Page>());
    }

    #[test]
    fn a_wait_ends_at_its_timeout_or_when_the_word_changes() {
        let word = AtomicU32::new(5);
        wait(&word, 5, Some(Duration::from_millis(1)));
        wait(&word, 4, None);
        let word = std::sync::Arc::new(AtomicU32::new(0));
        let other = std::sync::Arc::clone(&word);
        let waker = std::thread::spawn(move || {
            other.store(1, Ordering::Release);
            wake(&other);
        });
        while word.load(Ordering::Acquire) == 0 {
            wait(&word, 0, Some(Duration::from_millis(100)));
        }
        waker.join().unwrap();
    }
}
