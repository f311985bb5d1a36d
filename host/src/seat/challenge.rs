//! A Tablut challenge player in a seat, named `challenge:COMMAND`: a student's client of the
//! University of Bologna's TablutCompetition server, unchanged, with Tavola as its server.
//!
//! The player is started as the challenge starts its players, `COMMAND <white|black>
//! <timeout-seconds> 127.0.0.1` (with `{role}`, `{timeout}`, `{host}` or `{port}` in its
//! arguments, those are filled in instead and nothing is added). It connects to the server's
//! port for its colour, 5800 for White and 5801 for Black, sends its name, and from then on reads
//! the state after every move and answers with its action when the turn is its own, as with the
//! real server (see [`crate::protocol::challenge`]).
//!
//! Where the machine allows it, the player runs in a user and network namespace of its own
//! (Linux): its own loopback, on which Tavola's listener holds the server's port, and no other
//! network. So many games can run at once, none can take another's port, and the player reaches
//! nothing else. Elsewhere (or with `TAVOLA_SANDBOX_WITHOUT=namespaces`) Tavola listens on the
//! machine's own 127.0.0.1, and the port must be free. Like an engine, the player is a child in a
//! session and process group of its own, killed with the game, under the workers' memory and
//! CPU-time limits, stopped between its turns and charged fair time; it is not confined by
//! Landlock or seccomp, which would break a JVM.

use std::io;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{Color, Game, Position};

use super::outside::{held_to, OutsideProcess, PreExec, TurnWatch, Verdict};
use super::plugin::LoadError;
use super::stopwatch::{Arrival, ArrivalStamp, ProcessClock, ProcessProbe};
use super::worker::WorkerOptions;
use super::{Answer, Brain, Control, GameOver, Request, SeatFailure};
use crate::protocol::challenge::{self as wire, FrameError};

/// How long a player has to exit by itself once it has the final state.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// How long a message waits for room in a player's connection. A player reads every state as
/// it comes, so its connection's buffers (hundreds of kilobytes on the loopback) never fill; one
/// that stops reading loses with that reason instead of holding the host in a write.
const FULL_CONNECTION_WAIT: Duration = Duration::from_secs(1);

/// What the reader thread passes on.
enum Frame {
    Message(String, Arrival),
    Broken(String),
}

/// A challenge player, as a [`Brain`] of Tablut.
pub struct ChallengeBrain {
    name: String,
    color: Color,
    process: OutsideProcess,
    stream: TcpStream,
    frames: Receiver<Frame>,
    /// How many states of this game the player has been sent (the next one's ply).
    shown: usize,
    /// Whether it has been sent the final state.
    told_over: bool,
    /// Whether it has its own network namespace.
    isolated: bool,
    /// The time per move it was told at launch, which holds it in an untimed game as the
    /// server's timeout would.
    timeout_ms: u64,
    /// Why its connection takes no more: it left a message unread past
    /// [`FULL_CONNECTION_WAIT`].
    broken: Option<String>,
}

impl std::fmt::Debug for ChallengeBrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChallengeBrain")
            .field("name", &self.name)
            .field("color", &self.color)
            .field("isolated", &self.isolated)
            .finish_non_exhaustive()
    }
}

/// The arguments of the launch convention, or `command`'s own with `{role}`, `{timeout}`,
/// `{host}` and `{port}` filled in.
#[must_use]
pub fn launch_command(
    command: &[String],
    color: Color,
    timeout_seconds: u64,
    port: u16,
) -> Vec<String> {
    const HOLES: [&str; 4] = ["{role}", "{timeout}", "{host}", "{port}"];
    let role = wire::role(color);
    let timeout = timeout_seconds.to_string();
    let port = port.to_string();
    if command
        .iter()
        .skip(1)
        .any(|arg| HOLES.iter().any(|h| arg.contains(h)))
    {
        return command
            .iter()
            .map(|arg| {
                arg.replace("{role}", role)
                    .replace("{timeout}", &timeout)
                    .replace("{host}", "127.0.0.1")
                    .replace("{port}", &port)
            })
            .collect();
    }
    let mut args = command.to_vec();
    args.extend([role.to_owned(), timeout, "127.0.0.1".to_owned()]);
    args
}

impl ChallengeBrain {
    /// Starts the player `command` for `color`, with `timeout_seconds` as its time per move,
    /// waits for it to connect and to send its name.
    ///
    /// # Errors
    /// A [`LoadError`] naming the command: it does not start, does not connect, or sends no name
    /// within `limits.startup_timeout`.
    pub fn spawn(
        command: &[String],
        limits: &WorkerOptions,
        color: Color,
        timeout_seconds: u64,
    ) -> Result<ChallengeBrain, LoadError> {
        let shown_command = command.join(" ");
        let failed = |reason: String| LoadError::Init {
            path: PathBuf::from(&shown_command),
            reason,
        };
        let port = wire::port(color);
        let launched = launch_command(command, color, timeout_seconds, port);
        let program = command.first().map_or("", String::as_str);
        let label = program.rsplit('/').next().unwrap_or(program).to_owned();
        let isolate = !std::env::var("TAVOLA_SANDBOX_WITHOUT")
            .unwrap_or_default()
            .split(',')
            .any(|layer| layer.trim() == "namespaces");
        let (ours, theirs) = socket_pair().map_err(|e| failed(format!("no socket pair: {e}")))?;
        let setup = net::Setup::new(port, isolate, theirs);
        let mut process = OutsideProcess::spawn(&launched, limits, &label, Some(setup.pre_exec()))
            .map_err(|why| {
                failed(if why.contains("os error 100") {
                    "its own network namespace has no loopback (it could not be brought up)"
                        .to_owned()
                } else if why.contains("Address already in use") {
                    format!(
                        "port {port} of 127.0.0.1 is taken, and this machine gives the player no \
                             network of its own (user namespaces): {why}"
                    )
                } else {
                    why
                })
            })?;
        drop(setup);
        let (listener, isolated) =
            net::receive_listener(&ours).map_err(|e| failed(format!("no listener: {e}")))?;
        if !isolated && isolate {
            log::warn!(
                "{label} shares this machine's network: no user namespace for it (port {port} of 127.0.0.1)"
            );
        }
        if let Some(stdout) = process.child().stdout.take() {
            process.log_output(stdout, &format!("{label} stdout"));
        }
        drop(process.child().stdin.take());
        let deadline = Instant::now() + limits.startup_timeout;
        let stream = accept(&listener, &mut process, deadline, port).map_err(&failed)?;
        drop(listener);
        let _ = stream.set_nodelay(true);
        stream
            .set_write_timeout(Some(FULL_CONNECTION_WAIT))
            .map_err(|e| failed(format!("cannot write to its connection: {e}")))?;
        let reader = stream
            .try_clone()
            .map_err(|e| failed(format!("cannot read its connection: {e}")))?;
        // Bounded: a player that floods its connection waits on it instead of filling the host's
        // memory.
        let (sender, frames) = mpsc::sync_channel(64);
        let probe = i32::try_from(process.child().id())
            .ok()
            .map(ProcessProbe::new);
        thread::spawn(move || read_frames(reader, &sender, probe.as_ref()));
        let name = match frames.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Frame::Message(text, _)) => player_name(&text).unwrap_or_else(|| label.clone()),
            Ok(Frame::Broken(why)) => return Err(failed(format!("no name: it {why}"))),
            Err(RecvTimeoutError::Timeout) => {
                return Err(failed("no name: it sent nothing in time".to_owned()))
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(failed(format!("no name: {}", process.kill())))
            }
        };
        process.freeze(libc::SIGSTOP);
        Ok(ChallengeBrain {
            name,
            color,
            process,
            stream,
            frames,
            shown: 0,
            told_over: false,
            isolated,
            timeout_ms: timeout_seconds.saturating_mul(1000),
            broken: None,
        })
    }

    /// The name the player declared.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the player has a network namespace of its own.
    #[must_use]
    pub fn is_isolated(&self) -> bool {
        self.isolated
    }

    fn send(&mut self, message: &str) {
        if self.broken.is_some() {
            return;
        }
        // A player gone shows up on its connection; nothing to do here. A write that times out
        // (the connection full, the message cut) is the player's end.
        if let Err(e) = wire::write_message(&mut self.stream, message) {
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) {
                self.broken = Some(format!(
                    "it stopped reading its connection: a state found it full for {} s",
                    FULL_CONNECTION_WAIT.as_secs()
                ));
            }
        }
    }

    /// Sends the states of plies `self.shown..plies` (replayed from the start), then
    /// `last` (the state after `plies` moves).
    fn catch_up(&mut self, start_text: &str, moves_text: &str, plies: usize, last: String) {
        if self.shown < plies {
            if let Ok(mut position) = Tablut::parse_position(start_text, None) {
                for (ply, text) in moves_text.split_whitespace().enumerate().take(plies) {
                    if ply >= self.shown {
                        let state = wire::game_state_json(&position, None);
                        self.send(&state);
                    }
                    let Ok(mv) = position.parse_move(text) else {
                        break;
                    };
                    position.play_unchecked(mv);
                }
            }
        }
        self.send(&last);
        self.shown = plies + 1;
    }

    fn fail(&mut self, why: String) -> Answer {
        self.process.kill();
        Err(SeatFailure::Crash(why))
    }
}

/// The name in a player's first message: a JSON string (the server's Gson also takes it bare),
/// letters, digits and `_-.` only, at most 32 of them.
fn player_name(text: &str) -> Option<String> {
    let raw = serde_json::from_str::<String>(text).unwrap_or_else(|_| text.trim().to_owned());
    let name: String = raw
        .chars()
        .filter(|c| c.is_alphanumeric() || "_-.".contains(*c))
        .take(32)
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Accepts the player's connection before `deadline`, or says why there is none.
fn accept(
    listener: &TcpListener,
    process: &mut OutsideProcess,
    deadline: Instant,
    port: u16,
) -> Result<TcpStream, String> {
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen: {e}"))?;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| format!("cannot use its connection: {e}"))?;
                return Ok(stream);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(format!("cannot accept its connection: {e}")),
        }
        if let Some(why) = process.exited() {
            return Err(format!("{why} before it connected to 127.0.0.1:{port}"));
        }
        if Instant::now() >= deadline {
            process.kill();
            return Err(format!("it did not connect to 127.0.0.1:{port} in time"));
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Reads the player's messages until its connection ends or breaks the protocol.
fn read_frames(
    mut reader: TcpStream,
    sender: &mpsc::SyncSender<Frame>,
    probe: Option<&ProcessProbe>,
) {
    let mut arrival = ArrivalStamp::new();
    loop {
        let read = wire::read_message(&mut reader);
        let stamp = arrival.stamp(probe);
        let frame = match read {
            Ok(text) => Frame::Message(text, stamp),
            Err(FrameError::Closed) => return,
            Err(e) => Frame::Broken(e.to_string()),
        };
        let broken = matches!(frame, Frame::Broken(_));
        if sender.send(frame).is_err() || broken {
            return;
        }
        arrival.rearm();
    }
}

impl ChallengeBrain {
    fn choose_tablut(&mut self, request: &Request<Tablut>, control: &Control) -> Answer {
        if self.process.is_gone() {
            return Err(SeatFailure::Crash("the player is gone".to_owned()));
        }
        let plies = request.moves.len();
        // A message it sent before its turn is its move, as the real server reads it.
        self.process.freeze(libc::SIGCONT);
        let state = wire::game_state_json(&request.position, None);
        self.catch_up(&request.start_text, &request.moves_text(), plies, state);
        if let Some(why) = self.broken.clone() {
            return self.fail(why);
        }
        let clock = ProcessClock::start(self.process.probe());
        control.charge(Duration::ZERO);
        // The protocol has no stop: asked to stop, the player gets its margin, then it is killed.
        let mut watch = TurnWatch::new(held_to(request.clocks, self.timeout_ms));
        loop {
            match self.frames.recv_timeout(Duration::from_millis(5)) {
                Ok(Frame::Message(text, arrival)) => {
                    control.charge(clock.charge(arrival));
                    self.process.freeze(libc::SIGSTOP);
                    let Ok(mv) = wire::parse_action(&text) else {
                        // Not an action: the referee says so, with what it was.
                        return Ok(one_line(&text));
                    };
                    // The state after its move, as the server sends it (a move the rules refuse
                    // gets none: the referee ends the game, and the final state follows).
                    let mut after = request.position.clone();
                    if let Ok(parsed) = after.parse_move(&mv) {
                        after.play_unchecked(parsed);
                        let winner = after.outcome().map(|o| o.winner);
                        let state = wire::game_state_json(&after, winner);
                        self.process.freeze(libc::SIGCONT);
                        self.send(&state);
                        self.process.freeze(libc::SIGSTOP);
                        self.shown = plies + 2;
                        self.told_over = winner.is_some();
                    }
                    return Ok(mv);
                }
                Ok(Frame::Broken(why)) => return self.fail(format!("its connection: it {why}")),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let why = self.process.kill();
                    return Err(SeatFailure::Crash(format!("closed its connection; {why}")));
                }
            }
            self.process.keep_running();
            if watch.look(&clock, control) == Verdict::Kill {
                return self.fail("killed: did not answer in time".to_owned());
            }
        }
    }

    fn game_over_tablut(&mut self, over: &GameOver<Tablut>) {
        if self.told_over || self.process.is_gone() {
            return;
        }
        self.process.freeze(libc::SIGCONT);
        let plies = over.moves.len();
        let last = wire::game_state_json(&over.position, Some(over.winner));
        let moves_text = super::moves_text::<Tablut>(&over.moves);
        self.catch_up(&over.start_text, &moves_text, plies, last);
        self.told_over = true;
        let _ = self.stream.shutdown(Shutdown::Write);
    }
}

impl<G: Game> Brain<G> for ChallengeBrain {
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        match (request as &dyn std::any::Any).downcast_ref::<Request<Tablut>>() {
            Some(request) => self.choose_tablut(request, control),
            None => Err(SeatFailure::Error(
                "a challenge player plays Tablut only".to_owned(),
            )),
        }
    }

    fn game_over(&mut self, over: &GameOver<G>) {
        if let Some(over) = (over as &dyn std::any::Any).downcast_ref::<GameOver<Tablut>>() {
            self.game_over_tablut(over);
        }
    }
}

impl Drop for ChallengeBrain {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        self.process.end(EXIT_GRACE);
    }
}

/// A message that is not an action, as one line for the referee's verdict.
fn one_line(text: &str) -> String {
    let line: String = text.chars().take(200).collect();
    let line = line.replace(['\n', '\r'], " ");
    if line.trim().is_empty() {
        "(an empty message)".to_owned()
    } else {
        line
    }
}

/// A connected pair of Unix stream sockets, closed on exec.
fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` has room for the two descriptors.
    let made = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if made != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just made and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The player's network: between fork and exec, the child enters a user and network namespace
/// of its own (if it may), brings its loopback up, listens on the server's port there and
/// passes the listening socket to the host over a Unix socket.
mod net {
    use std::io;
    use std::net::TcpListener;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

    use super::PreExec;

    /// What the child needs, made before the fork (the child may not allocate).
    pub struct Setup {
        port: u16,
        isolate: bool,
        channel: Option<OwnedFd>,
        uid_map: Vec<u8>,
        gid_map: Vec<u8>,
    }

    impl Setup {
        pub fn new(port: u16, isolate: bool, channel: OwnedFd) -> Setup {
            // SAFETY: getuid and getgid cannot fail.
            let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
            Setup {
                port,
                isolate,
                channel: Some(channel),
                uid_map: format!("{uid} {uid} 1").into_bytes(),
                gid_map: format!("{gid} {gid} 1").into_bytes(),
            }
        }

        /// The child's part (its copy of the channel is closed at exec).
        pub fn pre_exec(&self) -> PreExec {
            let port = self.port;
            let isolate = self.isolate;
            let channel = self.channel.as_ref().map_or(-1, AsRawFd::as_raw_fd);
            let uid_map = self.uid_map.clone();
            let gid_map = self.gid_map.clone();
            Box::new(move || {
                let isolated = isolate && enter(&uid_map, &gid_map)?;
                let listener = listen(port)?;
                send_listener(channel, listener, isolated)
            })
        }
    }

    fn last_error() -> io::Error {
        io::Error::last_os_error()
    }

    /// Writes `text` to the file at `path` (a NUL-terminated path).
    fn write_file(path: &[u8], text: &[u8]) -> bool {
        // SAFETY: `path` ends in NUL; the descriptor is closed before returning.
        unsafe {
            let fd = libc::open(path.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC);
            if fd < 0 {
                return false;
            }
            let written = libc::write(fd, text.as_ptr().cast(), text.len());
            libc::close(fd);
            usize::try_from(written) == Ok(text.len())
        }
    }

    /// Enters a new user and network namespace, maps this user into it, and brings its
    /// loopback up: `Ok(false)` if the machine allows no such namespace (nothing changed: the
    /// player shares the machine's network), an error if the namespace is made but its loopback
    /// does not come up (there is no going back then).
    fn enter(uid_map: &[u8], gid_map: &[u8]) -> io::Result<bool> {
        // SAFETY: unshare takes flags only.
        if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) } != 0 {
            return Ok(false);
        }
        // A failed map leaves the player without an identity in its namespace (it still runs);
        // `setgroups` is absent before Linux 3.19, where the maps are written all the same.
        let _ = write_file(b"/proc/self/setgroups\0", b"deny");
        let _ = write_file(b"/proc/self/uid_map\0", uid_map);
        let _ = write_file(b"/proc/self/gid_map\0", gid_map);
        if loopback_up() {
            Ok(true)
        } else {
            // No allocation here (between fork and exec): the host names it from the code.
            Err(io::Error::from_raw_os_error(libc::ENETDOWN))
        }
    }

    fn loopback_up() -> bool {
        // SAFETY: a socket for the ioctls, an `ifreq` naming `lo`, closed before returning.
        unsafe {
            let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
            if fd < 0 {
                return false;
            }
            let mut request: libc::ifreq = std::mem::zeroed();
            request.ifr_name[0] = b'l' as libc::c_char;
            request.ifr_name[1] = b'o' as libc::c_char;
            let mut up = libc::ioctl(fd, libc::SIOCGIFFLAGS, &mut request) == 0;
            if up {
                request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
                up = libc::ioctl(fd, libc::SIOCSIFFLAGS, &request) == 0;
            }
            libc::close(fd);
            up
        }
    }

    /// A TCP socket listening on 127.0.0.1:`port` (closed on exec).
    fn listen(port: u16) -> io::Result<RawFd> {
        // SAFETY: plain socket calls on a descriptor made here; closed on failure.
        unsafe {
            let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            if fd < 0 {
                return Err(last_error());
            }
            let yes: libc::c_int = 1;
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_REUSEADDR,
                std::ptr::from_ref(&yes).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
            let mut address: libc::sockaddr_in = std::mem::zeroed();
            address.sin_family = libc::AF_INET as libc::sa_family_t;
            address.sin_port = port.to_be();
            address.sin_addr.s_addr = u32::from_be_bytes([127, 0, 0, 1]).to_be();
            let bound = libc::bind(
                fd,
                std::ptr::from_ref(&address).cast(),
                std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
            );
            if bound != 0 || libc::listen(fd, 4) != 0 {
                let error = last_error();
                libc::close(fd);
                return Err(error);
            }
            Ok(fd)
        }
    }

    /// Room for one descriptor's control message, aligned.
    #[repr(C, align(8))]
    struct Control([u8; 32]);

    fn one_byte(byte: &mut [u8; 1]) -> libc::iovec {
        libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        }
    }

    /// A message of the byte in `iov`, with `control` as the room for its descriptor.
    fn message(iov: &mut libc::iovec, control: &mut Control) -> libc::msghdr {
        // SAFETY: a msghdr is plain data; all zeros is an empty message.
        let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
        message.msg_iov = iov;
        message.msg_iovlen = 1;
        message.msg_control = control.0.as_mut_ptr().cast();
        message.msg_controllen = std::mem::size_of::<Control>() as _;
        message
    }

    /// Sends `listener` over `channel` with one byte: whether the namespace is the player's own.
    fn send_listener(channel: RawFd, listener: RawFd, isolated: bool) -> io::Result<()> {
        let mut byte = [u8::from(isolated)];
        let mut control = Control([0; 32]);
        // SAFETY: the message points at live buffers; the control buffer holds one descriptor.
        unsafe {
            let mut iov = one_byte(&mut byte);
            let mut message = message(&mut iov, &mut control);
            message.msg_controllen = libc::CMSG_SPACE(4) as _;
            let header = libc::CMSG_FIRSTHDR(&message);
            (*header).cmsg_level = libc::SOL_SOCKET;
            (*header).cmsg_type = libc::SCM_RIGHTS;
            (*header).cmsg_len = libc::CMSG_LEN(4) as _;
            std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<libc::c_int>(), listener);
            let sent = libc::sendmsg(channel, &message, 0);
            libc::close(listener);
            if sent != 1 {
                return Err(last_error());
            }
        }
        Ok(())
    }

    /// The listener the child sent, and whether it is in the player's own namespace.
    pub fn receive_listener(channel: &OwnedFd) -> io::Result<(TcpListener, bool)> {
        let mut byte = [0u8; 1];
        let mut control = Control([0; 32]);
        // SAFETY: the message points at live buffers; a descriptor received is owned here.
        unsafe {
            let mut iov = one_byte(&mut byte);
            let mut message = message(&mut iov, &mut control);
            let got = libc::recvmsg(
                channel.as_raw_fd(),
                &mut message,
                libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC,
            );
            if got != 1 {
                return Err(if got < 0 {
                    last_error()
                } else {
                    io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the player's set-up sent nothing",
                    )
                });
            }
            let header = libc::CMSG_FIRSTHDR(&message);
            if header.is_null()
                || (*header).cmsg_level != libc::SOL_SOCKET
                || (*header).cmsg_type != libc::SCM_RIGHTS
            {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "no socket came"));
            }
            let fd = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<libc::c_int>());
            Ok((TcpListener::from(OwnedFd::from_raw_fd(fd)), byte[0] == 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn players_are_launched_as_the_challenge_launches_them() {
        assert_eq!(
            launch_command(&words("java -jar player.jar"), Color::Black, 60, 5801),
            words("java -jar player.jar black 60 127.0.0.1")
        );
        assert_eq!(
            launch_command(
                &words("./p --role={role} -t {timeout} {host}:{port}"),
                Color::White,
                5,
                5800
            ),
            words("./p --role=white -t 5 127.0.0.1:5800")
        );
    }

    #[test]
    fn names_are_cleaned() {
        assert_eq!(player_name("\"Tavola\"").as_deref(), Some("Tavola"));
        assert_eq!(player_name("bare name").as_deref(), Some("barename"));
        assert_eq!(player_name("\"\u{1b}[31m\"").as_deref(), Some("31m"));
        assert_eq!(player_name("\"\"").as_deref(), None);
    }
}
