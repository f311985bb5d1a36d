//! Players behind one interface: a [`Seat`] runs a [`Brain`] (human, built-in, random, plugin) on
//! its own thread, so that whoever waits for a move (the referee, the GUI) never blocks on it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tavola_sdk::abi::Clocks;
use tavola_sdk::{Game, SearchInfo};
use thiserror::Error;

pub(crate) mod affinity;
pub mod challenge;
pub mod engine;
pub mod human;
pub mod idle;
pub mod outside;
pub mod plugin;
pub mod random;
pub mod stopwatch;
pub mod worker;

use stopwatch::ThreadStopwatch;

/// How the user names a player: `human`, `builtin`, `random`, or a path to a plugin library, each
/// optionally followed by `:key=value,key=value` options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatSpec {
    /// What kind of player.
    pub kind: SeatKind,
    /// Options for the player, in the order given.
    pub options: Vec<(String, String)>,
}

/// The kinds of player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatKind {
    /// A person: moves typed in the terminal (or clicked in the GUI).
    Human,
    /// The built-in bot.
    Builtin,
    /// Uniformly random legal moves.
    Random,
    /// A plugin library at this path.
    Plugin(PathBuf),
    /// An outside engine: the protocol it speaks, and its command (the program, then its
    /// arguments).
    Engine(engine::Protocol, Vec<String>),
    /// A Tablut challenge player: its command (the program, then its arguments), started as the
    /// challenge starts players, with Tavola as its server.
    Challenge(Vec<String>),
}

/// The error of parsing a [`SeatSpec`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid player {spec:?}: {reason}")]
pub struct ParseSeatSpecError {
    /// The text given.
    pub spec: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for SeatSpec {
    type Err = ParseSeatSpecError;

    fn from_str(spec: &str) -> Result<SeatSpec, ParseSeatSpecError> {
        let error = |reason: &str| ParseSeatSpecError {
            spec: spec.to_owned(),
            reason: reason.to_owned(),
        };
        let spec_trimmed = spec.trim();
        if spec_trimmed.is_empty() {
            return Err(error(
                "empty (use human, builtin, random or a path to a bot library)",
            ));
        }
        // Options follow the last ':' when what follows looks like `key=value` pairs; otherwise the
        // ':' belongs to a path (but the built-in players' options may name files).
        let (head, options) = match spec_trimmed.rsplit_once(':') {
            Some((head, tail))
                if !head.is_empty()
                    && tail.contains('=')
                    && (!tail.contains('/') || matches!(head, "builtin" | "random"))
                    && !tail.contains(char::is_whitespace) =>
            {
                (head, parse_options(tail).map_err(|r| error(&r))?)
            }
            _ => (spec_trimmed, Vec::new()),
        };
        let command = |prefix: &str, text: &str| {
            let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                Err(error(&format!(
                    "{prefix}: needs a command: {prefix}:PROGRAM [ARGS...]"
                )))
            } else {
                Ok(words)
            }
        };
        let kind = match head {
            "human" => SeatKind::Human,
            "builtin" => SeatKind::Builtin,
            "random" => SeatKind::Random,
            _ if head.starts_with("ugi:") => {
                SeatKind::Engine(engine::Protocol::Ugi, command("ugi", &head[4..])?)
            }
            _ if head.starts_with("uai:") => {
                SeatKind::Engine(engine::Protocol::Uai, command("uai", &head[4..])?)
            }
            _ if head.starts_with("challenge:") => {
                SeatKind::Challenge(command("challenge", &head[10..])?)
            }
            path => SeatKind::Plugin(PathBuf::from(path)),
        };
        Ok(SeatSpec { kind, options })
    }
}

fn parse_options(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .filter(|pair| !pair.trim().is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
            _ => Err(format!("option {pair:?} is not key=value")),
        })
        .collect()
}

impl fmt::Display for SeatSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SeatKind::Human => f.write_str("human")?,
            SeatKind::Builtin => f.write_str("builtin")?,
            SeatKind::Random => f.write_str("random")?,
            SeatKind::Plugin(path) => write!(f, "{}", path.display())?,
            SeatKind::Engine(protocol, command) => {
                write!(f, "{}:{}", protocol.name(), command.join(" "))?;
            }
            SeatKind::Challenge(command) => write!(f, "challenge:{}", command.join(" "))?,
        }
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// One move request, as a brain sees it.
#[derive(Debug)]
pub struct Request<G: Game> {
    /// The start position, as text.
    pub start_text: String,
    /// The moves played from the start position, in order.
    pub moves: Vec<G::Move>,
    /// The game the moves are of: of two requests with the same history, the one with fewer
    /// moves has the same start and a prefix of the other's moves. A brain that keeps its own
    /// position (or its own copy of the moves) brings it up to date with the new moves alone.
    pub history: History,
    /// The current position (the host's authoritative copy).
    pub position: G::Position,
    /// The clocks at the moment of the request.
    pub clocks: Clocks,
    /// What the host asks of this move beyond the clocks.
    pub limits: MoveLimits,
}

/// What a host asks of one move beyond the clocks: UCI's and UGI's `go depth N`, `go nodes N`
/// and `go infinite`. Only the built-in bot reads them; a plugin or an outside player sees the
/// clocks alone (the plugin ABI has no such limits).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Search at most this many plies.
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Search until stopped: no time limit of the bot's own.
    pub infinite: bool,
}

impl<G: Game> Request<G> {
    /// A request of a history of its own.
    pub fn new(
        start_text: String,
        moves: Vec<G::Move>,
        position: G::Position,
        clocks: Clocks,
    ) -> Request<G> {
        Request {
            start_text,
            moves,
            history: History::fresh(),
            position,
            clocks,
            limits: MoveLimits::default(),
        }
    }

    /// The moves in notation, separated by single spaces.
    #[must_use]
    pub fn moves_text(&self) -> String {
        moves_text::<G>(&self.moves)
    }
}

/// `moves` in notation, separated by single spaces.
#[must_use]
pub fn moves_text<G: Game>(moves: &[G::Move]) -> String {
    /// The moves as one `Display`: the formatting machinery is set up once, not once a move.
    struct Spaced<'a, M>(&'a [M]);
    impl<M: fmt::Display> fmt::Display for Spaced<'_, M> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            for (i, mv) in self.0.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                mv.fmt(f)?;
            }
            Ok(())
        }
    }
    use std::fmt::Write as _;
    // Room for most games' moves (`b6 `, `e3-f3 `) without growing.
    let mut text = String::with_capacity(moves.len() * 6);
    let _ = write!(text, "{}", Spaced(moves));
    text
}

/// The moves of a brain's requests in notation, kept from one request of a history to the
/// next: each move is written once a game, not once a request.
#[derive(Debug, Default)]
pub struct MovesText {
    history: Option<History>,
    count: usize,
    text: String,
}

impl MovesText {
    /// The moves of `request` in notation, separated by single spaces.
    pub fn of<G: Game>(&mut self, request: &Request<G>) -> &str {
        use std::fmt::Write as _;
        if self.history != Some(request.history) || self.count > request.moves.len() {
            self.history = Some(request.history);
            self.count = 0;
            self.text.clear();
        }
        for mv in &request.moves[self.count..] {
            if !self.text.is_empty() {
                self.text.push(' ');
            }
            let _ = write!(self.text, "{mv}");
        }
        self.count = request.moves.len();
        &self.text
    }
}

/// Names the move list of one game, as [`Request::history`] and the referee keep it: a number
/// no other history of this process has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct History(u64);

impl History {
    /// A history of its own (never 0, which the plugin ABI reads as none).
    #[must_use]
    pub fn fresh() -> History {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        History(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// Its number.
    #[must_use]
    pub fn get(self) -> u64 {
        self.0
    }
}

/// Why a seat gave no move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SeatFailure {
    /// The bot returned an error.
    #[error("bot error: {0}")]
    Error(String),
    /// The bot panicked.
    #[error("panic: {0}")]
    Panic(String),
    /// The bot's process or thread died.
    #[error("crash: {0}")]
    Crash(String),
    /// The player gave up (a human resigned, or closed the input).
    #[error("{0}")]
    Resigned(String),
}

/// What a seat answers: a move in notation, or why there is none.
pub type Answer = Result<String, SeatFailure>;

/// A move as a brain gives it to the referee, which checks it: in notation, or already typed
/// (a built-in player's, or a plugin's answer by code), which spares writing and parsing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice<M> {
    /// Notation, to be parsed in the position.
    Text(String),
    /// A well-formed move, legal or not.
    Move(M),
    /// A move code ([`tavola_sdk::MoveCode`]) that is no move's.
    BadCode(u64),
}

/// What [`Brain::choose_typed`] answers: a [`Choice`], or why there is none.
pub type TypedAnswer<M> = Result<Choice<M>, SeatFailure>;

/// Something that chooses moves. Runs on its seat's own thread.
pub trait Brain<G: Game>: Send {
    /// Chooses a move for `request.position`, in notation.
    ///
    /// # Errors
    /// A [`SeatFailure`] when there is no move to give.
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer;

    /// As [`Brain::choose`], the move typed where the brain has it so: what the arena asks, on
    /// the game's own thread. The default gives [`Brain::choose`]'s notation.
    fn choose_typed(&mut self, request: &Request<G>, control: &Control) -> TypedAnswer<G::Move> {
        self.choose(request, control).map(Choice::Text)
    }

    /// Hears that the game is over (a player that keeps its own game, such as a challenge
    /// client, is told the result). The default does nothing.
    fn game_over(&mut self, _over: &GameOver<G>) {}
}

/// The end of a game, as a brain hears it.
#[derive(Debug, Clone)]
pub struct GameOver<G: Game> {
    /// The start position, as text.
    pub start_text: String,
    /// All the moves.
    pub moves: Vec<G::Move>,
    /// The final position.
    pub position: G::Position,
    /// The winner; `None` for a draw.
    pub winner: Option<tavola_sdk::Color>,
}

/// Asks `brain` for a move on the current thread, a panic caught and turned into
/// [`SeatFailure::Panic`] with its message.
pub(crate) fn choose_caught<G: Game>(
    brain: &mut dyn Brain<G>,
    request: &Request<G>,
    control: &Control,
) -> Answer {
    caught(|| brain.choose(request, control))
}

/// As [`choose_caught`], through [`Brain::choose_typed`].
pub(crate) fn choose_typed_caught<G: Game>(
    brain: &mut dyn Brain<G>,
    request: &Request<G>,
    control: &Control,
) -> TypedAnswer<G::Move> {
    caught(|| brain.choose_typed(request, control))
}

fn caught<T>(choose: impl FnOnce() -> Result<T, SeatFailure>) -> Result<T, SeatFailure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(choose)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        Err(SeatFailure::Panic(message))
    })
}

/// What a seat's thread is given to do.
enum Job<G: Game> {
    Move(u64, Box<Request<G>>),
    Over(Box<GameOver<G>>),
}

/// Shared between a seat and its brain while it thinks: the stop flag, the latest search info,
/// and the fair time the move has cost so far (see [`stopwatch`]).
#[derive(Debug)]
pub struct Control {
    /// Set to ask the brain to answer now.
    pub stop: AtomicBool,
    /// The brain's latest search report.
    pub info: Mutex<Option<SearchInfo>>,
    /// Started by the seat's thread when it takes a request: the time of a brain that thinks on
    /// that thread.
    watch: Mutex<Option<ThreadStopwatch>>,
    /// The time charged so far as the brain itself measures it (a worker), in nanoseconds;
    /// `NOT_MEASURED` when it does not.
    measured: AtomicU64,
}

const NOT_MEASURED: u64 = u64::MAX;

impl Default for Control {
    fn default() -> Control {
        Control {
            stop: AtomicBool::new(false),
            info: Mutex::new(None),
            watch: Mutex::new(None),
            measured: AtomicU64::new(NOT_MEASURED),
        }
    }
}

impl Control {
    /// Records the time the current move has cost so far, for a brain that measures its own
    /// (a worker, whose thinking happens in another process): it replaces the seat thread's.
    pub fn charge(&self, used: Duration) {
        let nanos = u64::try_from(used.as_nanos()).unwrap_or(NOT_MEASURED - 1);
        self.measured
            .store(nanos.min(NOT_MEASURED - 1), Ordering::Relaxed);
    }

    /// The fair time the current move has cost so far: zero until the request reached the
    /// brain's thread.
    #[must_use]
    pub fn charged(&self) -> Duration {
        match self.measured.load(Ordering::Relaxed) {
            NOT_MEASURED => self
                .watch
                .lock()
                .ok()
                .and_then(|watch| watch.map(|w| w.elapsed()))
                .unwrap_or(Duration::ZERO),
            nanos => Duration::from_nanos(nanos),
        }
    }

    /// Forgets the last move's time (a new request is on its way).
    pub(crate) fn reset_time(&self) {
        self.measured.store(NOT_MEASURED, Ordering::Relaxed);
        if let Ok(mut watch) = self.watch.lock() {
            *watch = None;
        }
    }

    /// Starts the clock of a request that has just reached the brain's thread.
    pub(crate) fn start_time(&self) {
        if let Ok(mut watch) = self.watch.lock() {
            *watch = Some(ThreadStopwatch::start());
        }
    }

    /// Records a search report (keeps only the latest).
    pub fn report(&self, info: SearchInfo) {
        if let Ok(mut slot) = self.info.lock() {
            *slot = Some(info);
        }
    }

    /// Whether the brain was asked to answer now.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A player seated at the table: a brain on its own thread, asked for moves without blocking.
pub struct Seat<G: Game> {
    name: String,
    jobs: Option<Sender<Job<G>>>,
    /// Answers tagged with their request's number: one to an earlier request (abandoned, or
    /// overtaken) is never taken for the current one.
    answers: Receiver<(u64, Answer, Duration)>,
    current: u64,
    /// The fair time the last answer cost.
    used: Option<Duration>,
    thread: Option<thread::JoinHandle<()>>,
    /// Closed by the thread once it has dropped its brain: what dropping the seat waits for.
    brain_dropped: Receiver<()>,
    control: Arc<Control>,
    thinking: bool,
}

impl<G: Game> fmt::Debug for Seat<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seat")
            .field("name", &self.name)
            .field("thinking", &self.thinking)
            .finish_non_exhaustive()
    }
}

/// The outcome of waiting for a seat's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wait {
    /// The seat answered.
    Answered(Answer),
    /// The time ran out first; the seat was asked to stop and is abandoned.
    TimedOut,
}

impl<G: Game> Seat<G> {
    /// Seats `brain` under `name`, on a thread of its own.
    pub fn new(name: impl Into<String>, mut brain: Box<dyn Brain<G>>) -> Seat<G> {
        let name = name.into();
        let (job_tx, job_rx) = mpsc::channel::<Job<G>>();
        let (answer_tx, answer_rx) = mpsc::channel();
        let (dropped_tx, brain_dropped) = mpsc::channel::<()>();
        let control = Arc::new(Control::default());
        let thread_control = Arc::clone(&control);
        let spawned = thread::Builder::new()
            // A thread name may not hold NUL, and a plugin chooses its own name.
            .name(format!("seat {}", name.replace('\0', "")))
            .spawn(move || {
                while let Ok(job) = job_rx.recv() {
                    let (number, request) = match job {
                        Job::Move(number, request) => (number, request),
                        Job::Over(over) => {
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                brain.game_over(&over);
                            }));
                            continue;
                        }
                    };
                    // The clock starts when the request reaches this thread, not when it was sent.
                    thread_control.start_time();
                    let answer = choose_caught(&mut *brain, &request, &thread_control);
                    // Frozen now: waiting for the next request is not this move's time.
                    let used = thread_control.charged();
                    thread_control.charge(used);
                    if answer_tx.send((number, answer, used)).is_err() {
                        break;
                    }
                }
                drop(brain);
                drop(dropped_tx);
            });
        let (jobs, thread) = match spawned {
            Ok(handle) => (Some(job_tx), Some(handle)),
            Err(e) => {
                log::error!("cannot start a thread for {name}: {e}");
                (None, None)
            }
        };
        Seat {
            name,
            jobs,
            answers: answer_rx,
            current: 0,
            used: None,
            thread,
            brain_dropped,
            control,
            thinking: false,
        }
    }

    /// The player's name, as shown to people and written in records.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a request is outstanding.
    pub fn is_thinking(&self) -> bool {
        self.thinking
    }

    /// The latest search info of the current request.
    pub fn search_info(&self) -> Option<SearchInfo> {
        self.control.info.lock().ok().and_then(|info| info.clone())
    }

    /// Sends a request; the answer is collected with [`Seat::poll`] or [`Seat::wait`].
    pub fn request(&mut self, request: Request<G>) {
        self.control.stop.store(false, Ordering::Relaxed);
        self.control.reset_time();
        self.used = None;
        if let Ok(mut info) = self.control.info.lock() {
            *info = None;
        }
        self.current += 1;
        let number = self.current;
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(Job::Move(number, Box::new(request))).is_ok());
        self.thinking = sent;
        if !sent {
            // The thread is gone: the answer is a crash, delivered by the next poll or wait.
            self.jobs = None;
        }
    }

    /// Tells the brain that the game is over (after any move it is still thinking about).
    pub fn game_over(&self, over: GameOver<G>) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job::Over(Box::new(over)));
        }
    }

    /// A handle that asks the thinking brain to answer now, from any thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.control))
    }

    /// Asks the thinking brain to answer now.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::Relaxed);
    }

    /// The answer, if it has arrived (never blocks).
    pub fn poll(&mut self) -> Option<Answer> {
        if !self.thinking {
            return self.jobs.is_none().then(|| self.dead());
        }
        loop {
            match self.answers.try_recv() {
                Ok((number, _, _)) if number != self.current => {}
                Ok((_, answer, used)) => {
                    self.thinking = false;
                    self.used = Some(used);
                    return Some(answer);
                }
                Err(mpsc::TryRecvError::Empty) => return None,
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.thinking = false;
                    self.jobs = None;
                    return Some(self.dead());
                }
            }
        }
    }

    /// The current request's answer, skipping stale ones, until `deadline` (`None`: no limit).
    fn receive(&mut self, deadline: Option<Instant>) -> Result<Answer, RecvTimeoutError> {
        loop {
            let (number, answer, used) = match deadline {
                Some(deadline) => self
                    .answers
                    .recv_timeout(deadline.saturating_duration_since(Instant::now()))?,
                None => self
                    .answers
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected)?,
            };
            if number == self.current {
                self.used = Some(used);
                return Ok(answer);
            }
        }
    }

    /// The fair time the last answer cost (see [`stopwatch`]); `None` before the first.
    pub fn used(&self) -> Option<Duration> {
        self.used
    }

    /// The fair time the current request has cost so far.
    pub fn charged(&self) -> Duration {
        self.control.charged()
    }

    /// Waits for the answer while the move has cost at most `limit` and `margin` more, in fair
    /// time (`None`: without limit). Shortly before `limit` the brain is asked to stop; past
    /// `limit + margin` (or, whatever the fair time says, [`wall_cap`] of wall time) the seat is
    /// abandoned: it answers no further requests.
    pub fn wait(&mut self, limit: Option<Duration>, margin: Duration) -> Wait {
        if !self.thinking {
            return Wait::Answered(self.dead());
        }
        let Some(limit) = limit else {
            let received = self.receive(None);
            return self.received(received);
        };
        let started = Instant::now();
        // Ask the brain to stop a little before the time is up, so that one that honours the
        // stop signal still answers in time.
        let grace = (limit / 20).min(Duration::from_millis(50));
        let give_up = limit.saturating_add(margin);
        let cap = wall_cap(give_up);
        loop {
            match self.receive(Some(Instant::now() + WAIT_STEP)) {
                Err(RecvTimeoutError::Timeout) => {}
                received => return self.received(received),
            }
            let used = self.control.charged();
            if used + grace >= limit {
                self.stop();
            }
            if used > give_up || started.elapsed() > cap {
                self.thinking = false;
                self.stop();
                // A late answer must not be taken for the next request's.
                self.jobs = None;
                self.used = Some(used.max(give_up));
                return Wait::TimedOut;
            }
        }
    }

    fn received(&mut self, received: Result<Answer, RecvTimeoutError>) -> Wait {
        self.thinking = false;
        match received {
            Ok(answer) => Wait::Answered(answer),
            Err(_) => {
                self.jobs = None;
                Wait::Answered(self.dead())
            }
        }
    }

    fn dead(&self) -> Answer {
        Err(SeatFailure::Crash(format!(
            "the thread of {} is gone",
            self.name
        )))
    }
}

impl<G: Game> Drop for Seat<G> {
    fn drop(&mut self) {
        // Closing the job channel ends the thread once the brain returns, and the thread drops the
        // brain (a worker's process group is killed then). Wait a little for that, so that nothing
        // outlives the seat; a brain hung in-process is left to the process's end.
        self.stop();
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            // Woken the moment the brain is gone (or the thread died), not by polling.
            match self.brain_dropped.recv_timeout(SEAT_SHUTDOWN) {
                Err(RecvTimeoutError::Timeout) => {}
                Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                    let _ = thread.join();
                }
            }
        }
    }
}

/// Asks a seat's brain to answer now, from another thread than the seat's owner's.
#[derive(Debug, Clone)]
pub struct StopHandle(Arc<Control>);

impl StopHandle {
    /// Asks the brain to answer now.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the brain was asked to answer now (until its seat's next request).
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.stop_requested()
    }
}

/// How long dropping a seat waits for its brain to finish and be dropped.
const SEAT_SHUTDOWN: Duration = Duration::from_secs(2);

/// How often a waiting seat looks at the time its brain has used.
const WAIT_STEP: Duration = Duration::from_millis(2);

/// The wall time after which a seat is given up whatever its fair time: eight times the limit
/// and ten seconds more (only a machine stalled for that long, or a clock that cannot be read,
/// gets there).
#[must_use]
pub fn wall_cap(limit: Duration) -> Duration {
    limit
        .saturating_mul(8)
        .saturating_add(Duration::from_secs(10))
}

/// The clocks of a request as the SDK's wire type, from milliseconds (`None`: untimed).
#[must_use]
pub fn clocks(own_ms: Option<u64>, opponent_ms: Option<u64>, increment_ms: u64) -> Clocks {
    Clocks {
        own_ms: own_ms.into(),
        opponent_ms: opponent_ms.into(),
        increment_ms,
        movetime_ms: None.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let spec: SeatSpec = "human".parse().unwrap();
        assert_eq!(spec.kind, SeatKind::Human);
        let spec: SeatSpec = "builtin:depth=3,level=2".parse().unwrap();
        assert_eq!(spec.kind, SeatKind::Builtin);
        assert_eq!(
            spec.options,
            vec![("depth".into(), "3".into()), ("level".into(), "2".into())]
        );
        let spec: SeatSpec = "./target/debug/librandom_bot.so:seed=5".parse().unwrap();
        assert_eq!(
            spec.kind,
            SeatKind::Plugin(PathBuf::from("./target/debug/librandom_bot.so"))
        );
        assert_eq!(spec.to_string(), "./target/debug/librandom_bot.so:seed=5");
        let spec: SeatSpec = "ugi:./engine --threads 2:Hash=16".parse().unwrap();
        assert_eq!(
            spec.kind,
            SeatKind::Engine(
                engine::Protocol::Ugi,
                vec!["./engine".into(), "--threads".into(), "2".into()]
            )
        );
        assert_eq!(spec.options, vec![("Hash".into(), "16".into())]);
        assert_eq!(spec.to_string(), "ugi:./engine --threads 2:Hash=16");
        assert!("uai:".parse::<SeatSpec>().is_err());
        let spec: SeatSpec = "challenge:java -jar my.jar:timeout=10".parse().unwrap();
        assert_eq!(
            spec.kind,
            SeatKind::Challenge(vec!["java".into(), "-jar".into(), "my.jar".into()])
        );
        assert_eq!(spec.to_string(), "challenge:java -jar my.jar:timeout=10");
        let err = "challenge: ".parse::<SeatSpec>().unwrap_err();
        assert!(err.reason.contains("challenge:PROGRAM"), "{err}");
        // The built-in bot's options may name a file.
        let spec: SeatSpec = "builtin:ataxx_network=runs/a.nnue,depth=3".parse().unwrap();
        assert_eq!(spec.kind, SeatKind::Builtin);
        assert_eq!(
            spec.options[0],
            ("ataxx_network".into(), "runs/a.nnue".into())
        );
        let spec: SeatSpec = "weird:name/lib.so".parse().unwrap();
        assert_eq!(
            spec.kind,
            SeatKind::Plugin(PathBuf::from("weird:name/lib.so"))
        );
    }

    /// Thinks until asked to stop, then answers.
    struct UntilStopped;

    impl Brain<tavola_sdk::games::ataxx::Ataxx> for UntilStopped {
        fn choose(
            &mut self,
            _request: &Request<tavola_sdk::games::ataxx::Ataxx>,
            control: &Control,
        ) -> Answer {
            while !control.stop_requested() {
                thread::sleep(Duration::from_millis(1));
            }
            Ok("b6".to_owned())
        }
    }

    #[test]
    fn a_brain_that_honours_the_stop_signal_answers_in_time() {
        use tavola_sdk::games::ataxx::Ataxx;
        let mut seat = Seat::<Ataxx>::new("patient", Box::new(UntilStopped));
        let position = Ataxx::start(None).unwrap();
        seat.request(Request::new(
            position.to_string(),
            Vec::new(),
            position,
            clocks(Some(400), Some(400), 0),
        ));
        // It answers only once stopped, which the seat does before the limit; the margin past
        // the limit is wide, so that a busy machine's late wake-up is no time-out.
        assert_eq!(
            seat.wait(Some(Duration::from_millis(400)), Duration::from_secs(10)),
            Wait::Answered(Ok("b6".to_owned()))
        );
    }

    /// Answers each request after the delay its clock's `own_ms` names, with the moves it saw.
    struct Echo;

    impl Brain<tavola_sdk::games::ataxx::Ataxx> for Echo {
        fn choose(
            &mut self,
            request: &Request<tavola_sdk::games::ataxx::Ataxx>,
            _control: &Control,
        ) -> Answer {
            let delay = request.clocks.own_ms.into_option().unwrap_or(0);
            thread::sleep(Duration::from_millis(delay));
            Ok(request.moves_text())
        }
    }

    #[test]
    fn an_overtaken_request_never_answers_the_next_one() {
        use tavola_sdk::games::ataxx::Ataxx;
        let mut seat = Seat::<Ataxx>::new("echo", Box::new(Echo));
        let position = Ataxx::start(None).unwrap();
        let ask = |seat: &mut Seat<Ataxx>, moves: &str, delay: u64| {
            let moves = moves.split(' ').map(|m| m.parse().unwrap()).collect();
            seat.request(Request::new(
                position.to_string(),
                moves,
                position.clone(),
                clocks(Some(delay), None, 0),
            ));
        };
        // The first request is overtaken (an undo, say) before it answers.
        ask(&mut seat, "b6", 100);
        ask(&mut seat, "a6", 0);
        assert_eq!(
            seat.wait(None, Duration::ZERO),
            Wait::Answered(Ok("a6".to_owned()))
        );
        ask(&mut seat, "b6 f6", 0);
        let until = Instant::now() + Duration::from_secs(5);
        let answer = loop {
            if let Some(answer) = seat.poll() {
                break answer;
            }
            assert!(Instant::now() < until, "no answer");
            thread::sleep(Duration::from_millis(1));
        };
        assert_eq!(answer, Ok("b6 f6".to_owned()));
    }

    #[test]
    fn the_moves_text_follows_its_history() {
        use tavola_sdk::games::ataxx::Ataxx;
        let position = Ataxx::start(None).unwrap();
        let moves =
            |text: &str| -> Vec<_> { text.split(' ').map(|m| m.parse().unwrap()).collect() };
        let mut request = Request::<Ataxx>::new(
            position.to_string(),
            moves("b6 f6"),
            position.clone(),
            clocks(None, None, 0),
        );
        let mut text = MovesText::default();
        assert_eq!(text.of(&request), "b6 f6");
        request.moves = moves("b6 f6 a6");
        assert_eq!(text.of(&request), "b6 f6 a6");
        // Another history, or fewer moves, is written afresh.
        request.history = History::fresh();
        request.moves = moves("a6 f6");
        assert_eq!(text.of(&request), "a6 f6");
        request.moves = moves("a6");
        assert_eq!(text.of(&request), "a6");
    }

    #[test]
    fn bad_specs_are_refused_with_the_input() {
        let err = "".parse::<SeatSpec>().unwrap_err();
        assert!(err.to_string().contains("empty"), "{err}");
        let err = "builtin:depth=3,oops=".parse::<SeatSpec>();
        assert!(err.is_ok(), "an empty value is allowed");
        let err = "builtin:=3".parse::<SeatSpec>().unwrap_err();
        assert!(err.to_string().contains("builtin:=3"), "{err}");
    }
}
