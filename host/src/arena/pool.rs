//! The arena's pool: the threads that play the scheduled games, each player asked on the game's
//! own thread, and the one timer thread that keeps them to their time.
//!
//! A game is played on its pool thread from the first move to the last: the referee's checks,
//! then the player to move, called right there (a built-in bot, an in-process plugin through the
//! ABI, or the brain that talks to a worker process or an outside engine). No thread hand-off per
//! move; what the thread hand-off gave, the timer gives instead:
//!
//! - **The stop signal.** When a timed move's fair time nears its limit, the timer sets the
//!   player's stop flag, as a seat's waiting loop did.
//! - **The time forfeit.** Past the limit and the margin (or [`wall_cap`] of wall time), the timer
//!   ends the game itself: the side to move loses on time, the result is sent on, and a new pool
//!   thread takes the pool thread's place. The old one is left to the player that holds it (as an
//!   abandoned seat's thread was); if it ever comes back, it sees that its game was taken and
//!   ends without a word. The same holds for a player stuck in its end-of-game hook or its drop.
//!
//! The timer sleeps until the earliest moment a watched move could need it (the wall time is an
//! upper bound of the fair time, so nothing can be late before the wall clock says so): an
//! untimed game never wakes it, and a timed one about once per move limit, not once per move.
//!
//! Panics and errors are the player's answer, caught around the call (see
//! [`crate::seat::SeatFailure`]); Ctrl-C stops the queue, as before.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use tavola_sdk::{Color, Game, Position};

use super::positions::{self, Scored};
use super::results::{self, GameLine};
use super::runner::{setup_for, ArenaConfig, Openings};
use super::schedule::ScheduledGame;
use crate::builtin::Evaluate;
use crate::record::GameRecord;
use crate::referee::{GameResult, Referee, Termination};
use crate::seat::worker::{WorkerBrain, WorkerOptions};
use crate::seat::SeatKind;
use crate::seat::{choose_typed_caught, clocks, wall_cap, Brain, Control, GameOver, Request, Wait};
use crate::text_ui::{brain_for, player_seed};

/// What a pool thread sends back: a finished game, with its record (when records are written and
/// both players started).
#[derive(Debug)]
pub(super) struct Finished {
    pub line: GameLine,
    pub record: Option<GameRecord>,
    /// The game's training positions, as lines, when they are written.
    pub positions: Option<String>,
}

/// A pool thread has no more games to play (and has dropped its last players): what it tells
/// the thread that started the pool.
#[derive(Debug)]
pub(super) struct Done;

/// Where finished games go, in the order they finish: the record, then the results line (the
/// promise that the game is whole), the tally and the progress. Written by the thread that
/// finished the game, under a lock: no thread is woken for it.
#[derive(Debug)]
pub(super) struct Writer {
    pub results: Option<std::fs::File>,
    /// Where training positions go (`--positions`).
    pub positions: Option<std::fs::File>,
    pub progress: super::progress::Progress,
    pub tally: super::summary::Tally,
    /// The games finished in the run, resumed ones included.
    pub finished: usize,
    /// The games played by this pool.
    pub played: usize,
    /// The games of the run (of the shard).
    pub total: usize,
    /// The first write that failed: nothing is written after it.
    pub error: Option<anyhow::Error>,
}

/// Everything the pool threads share: they outlive the call that started them when a player
/// keeps one, so they own it.
pub(super) struct Shared<G: Evaluate> {
    pub config: ArenaConfig,
    pub names: Vec<String>,
    pub openings: Openings,
    pub match_seed: u64,
    /// The games left to play.
    pub queue: Mutex<std::vec::IntoIter<ScheduledGame>>,
    /// No more games are started once set (under the queue's lock).
    pub stop: AtomicBool,
    /// The games started so far.
    pub started: AtomicUsize,
    /// Why an opening could not be made, if one could not.
    pub opening_error: Mutex<Option<anyhow::Error>>,
    /// Taken back by the thread that started the pool once every pool thread is done.
    pub writer: Mutex<Option<Writer>>,
    /// Whether results lines are written to a file: their moves, in notation, are written out
    /// only then.
    writes_lines: bool,
    timer: Timer<G>,
}

impl<G: Evaluate> Shared<G> {
    pub fn new(
        config: ArenaConfig,
        names: Vec<String>,
        openings: Openings,
        match_seed: u64,
        games: Vec<ScheduledGame>,
        writer: Writer,
    ) -> Shared<G> {
        Shared {
            config,
            names,
            openings,
            match_seed,
            queue: Mutex::new(games.into_iter()),
            stop: AtomicBool::new(false),
            started: AtomicUsize::new(0),
            opening_error: Mutex::new(None),
            writes_lines: writer.results.is_some(),
            writer: Mutex::new(Some(writer)),
            timer: Timer {
                slots: Mutex::new(Vec::new()),
                wake: Condvar::new(),
                base: Instant::now(),
                next_wake: AtomicU64::new(0),
                done: AtomicBool::new(false),
            },
        }
    }

    /// Stops starting games (checked under the queue's lock, so that no game starts after it).
    pub fn stop_queue(&self) {
        let _guard = self.queue.lock();
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Writes a finished game (see [`Writer`]); a failed write stops the queue, as does a
    /// decided SPRT. `false` once nothing more is written.
    fn write(&self, finished: &Finished) -> bool {
        let mut slot = lock(&self.writer);
        let Some(writer) = slot.as_mut() else {
            return false;
        };
        if writer.error.is_some() {
            return false;
        }
        let config = &self.config;
        let line = &finished.line;
        let written = (|| -> anyhow::Result<()> {
            if let (Some(path), Some(record)) = (&config.pgn, &finished.record) {
                results::append_record(path, record)?;
            }
            if let (Some(file), Some(lines)) = (&mut writer.positions, &finished.positions) {
                use std::io::Write as _;
                file.write_all(lines.as_bytes())?;
            }
            if let Some(file) = &mut writer.results {
                results::append_line(file, line)?;
            }
            Ok(())
        })();
        if let Err(e) = written {
            writer.error = Some(e);
            drop(slot);
            self.stop_queue();
            return false;
        }
        writer.tally.add(line);
        writer.finished += 1;
        writer.played += 1;
        if writer.progress.shows_games() {
            let llr = config
                .sprt
                .map(|sprt| format!(", LLR {:.2}", writer.tally.llr(&sprt)))
                .unwrap_or_default();
            writer.progress.game(
                &format!(
                    "Game {}/{} (#{}): {} vs {} {} ({})",
                    writer.finished,
                    writer.total,
                    line.index + 1,
                    line.white,
                    line.black,
                    line.result,
                    line.termination,
                ),
                &format!("{}{llr}", writer.tally.progress(&self.names)),
            );
        }
        if writer.tally.check_sprt(config.sprt.as_ref()) && !self.stop.load(Ordering::SeqCst) {
            writer
                .progress
                .note("SPRT decided: finishing the games being played");
            drop(slot);
            self.stop_queue();
        }
        true
    }

    /// The next game to play, counted as started; `None` when there is none or the queue stopped.
    fn next_game(&self) -> Option<ScheduledGame> {
        let mut queue = self.queue.lock().ok()?;
        if self.stop.load(Ordering::SeqCst) {
            return None;
        }
        let next = queue.next();
        if next.is_some() {
            self.started.fetch_add(1, Ordering::SeqCst);
        }
        next
    }
}

/// Starts `count` pool threads and the timer; the threads write their games (see [`Writer`]),
/// and each says [`Done`] to `sender` when it has no more to play. Returns the timer's thread: stop it with
/// [`stop_timer`] once every pool thread is done.
pub(super) fn start<G: Evaluate>(
    shared: &Arc<Shared<G>>,
    count: usize,
    sender: &Sender<Done>,
) -> std::io::Result<thread::JoinHandle<()>> {
    {
        let mut slots = lock(&shared.timer.slots);
        for index in 0..count.max(1) {
            slots.push(spawn_slot(shared, sender, None, index)?);
        }
    }
    let (shared, sender) = (Arc::clone(shared), sender.clone());
    thread::Builder::new()
        .name("arena timer".into())
        .spawn(move || {
            // A fault of its own restarts the timer rather than leave hung players unwatched.
            while std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                timer_loop(&shared, &sender);
            }))
            .is_err()
            {
                log::error!("the arena's timer failed: restarted");
                // Not a hot loop, should the fault come back at once.
                thread::sleep(STEP);
            }
        })
}

/// Ends the timer (after the last game: nothing is watched any more).
pub(super) fn stop_timer<G: Evaluate>(shared: &Shared<G>, timer: thread::JoinHandle<()>) {
    shared.timer.done.store(true, Ordering::SeqCst);
    {
        let _slots = lock(&shared.timer.slots);
        shared.timer.wake.notify_all();
    }
    let _ = timer.join();
}

/// Locks `mutex`, poisoned or not (nothing it guards is left half-changed by a panic: the pool's
/// own code does not panic, and players run outside the locks).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One pool thread's game, shared with the timer.
struct Slot<G: Game> {
    state: Mutex<SlotState<G>>,
    /// Set while an untimed game holds the state's lock: the timer does not wait for it.
    unwatched: AtomicBool,
    /// The kernel's id of the slot's thread once it pinned itself to a CPU (`--affinity`), so
    /// that a thread given up can be let off that CPU for the one taking its place; 0 if not.
    pinned_thread: std::sync::atomic::AtomicI32,
}

struct SlotState<G: Game> {
    /// Set by the timer when it took the game (or the thread) over: the thread ends when it
    /// comes back, touching nothing.
    abandoned: bool,
    game: Option<InPlay<G>>,
    watched: Option<Watched>,
}

/// A game being played.
struct InPlay<G: Game> {
    referee: Referee<G>,
    /// The positions its movers scored, with the score (when training positions are written).
    scored: Vec<Scored>,
    /// White's and Black's players; the one thinking is out (on the pool thread's stack).
    players: [Option<Player<G>>; 2],
    game: ScheduledGame,
    opening: String,
    started: Instant,
}

/// A player and what it shares with the timer while it thinks.
struct Player<G: Game> {
    brain: Thinker<G>,
    control: Arc<Control>,
}

/// A player's brain: a worker kept for the next game, or any other.
enum Thinker<G: Game> {
    /// The worker of player number `.0` (in the run's list).
    Worker(usize, Box<WorkerBrain>),
    Other(Box<dyn Brain<G>>),
}

impl<G: Game> Thinker<G> {
    fn brain(&mut self) -> &mut dyn Brain<G> {
        match self {
            Thinker::Worker(_, worker) => &mut **worker,
            Thinker::Other(brain) => &mut **brain,
        }
    }
}

/// The workers a pool thread keeps between games: those of the last game's players, idle
/// (watched, and stopped once one uses the CPU: see [`crate::seat::idle`]), each to make a fresh
/// player for its next game (as cutechess and fastchess keep an engine's
/// process from game to game). A worker that died or broke is not kept: the next game starts
/// a new one.
struct Workers(Vec<(usize, Box<WorkerBrain>)>);

impl Workers {
    /// The worker of player `player`, made ready for a new game as `color`, or a new one.
    fn ready<G: Evaluate>(
        &mut self,
        player: usize,
        options: &WorkerOptions,
        path: &std::path::Path,
        start: (&str, Color, u64),
        bot_options: &[(String, String)],
    ) -> anyhow::Result<Box<WorkerBrain>> {
        let (variant, color, seed) = start;
        // A CPU-time limit is the process's, so it is per game only with a process per game.
        let kept = options.cpu_seconds.is_none();
        if let Some(at) = self.0.iter().position(|(p, _)| kept && *p == player) {
            let (_, mut worker) = self.0.swap_remove(at);
            match worker.new_game(
                G::NAME,
                variant,
                color,
                seed,
                bot_options,
                options.startup_timeout,
            ) {
                Ok(()) => return Ok(worker),
                Err(reason) => log::info!(
                    "{}: a new worker for the next game ({reason})",
                    path.display()
                ),
            }
        }
        let (worker, _) =
            WorkerBrain::spawn(path, options, G::NAME, variant, color, seed, bot_options)?;
        Ok(Box::new(worker))
    }
}

/// What the timer keeps an eye on.
enum Watched {
    /// A timed move.
    Turn {
        control: Arc<Control>,
        started: Instant,
        limit: Duration,
        give_up: Duration,
    },
    /// Players told the result and dropped, which takes them no longer than `cap`.
    Closing { since: Instant },
}

/// How long the players may take to hear the result and be dropped (as a seat's shutdown).
const CLOSING: Duration = Duration::from_secs(2);

/// How often the timer looks at a move that is near its limit.
const STEP: Duration = Duration::from_millis(2);

/// How often the timer looks at all, when nothing needs it sooner.
const SWEEP: Duration = Duration::from_secs(1);

/// The timer's registry of the pool's slots, and how to wake it.
struct Timer<G: Game> {
    /// The slots; also the mutex of `wake`.
    slots: Mutex<Vec<Arc<Slot<G>>>>,
    wake: Condvar,
    base: Instant,
    /// When the timer will look next, in nanoseconds since `base`; 0 while it looks.
    next_wake: AtomicU64,
    done: AtomicBool,
}

impl<G: Game> Timer<G> {
    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.base).as_nanos()).unwrap_or(u64::MAX)
    }

    /// Makes sure the timer looks no later than `at` (while it looks, `next_wake` is 0: it is
    /// woken to look again, since it may not have seen this).
    fn look_by(&self, at: Instant) {
        let next = self.next_wake.load(Ordering::SeqCst);
        if next == 0 || self.nanos(at) < next {
            let _slots = lock(&self.slots);
            self.wake.notify_all();
        }
    }
}

/// A game the timer took from a thread it gave up on: written and closed by the thread that takes
/// the old one's place, so that the timer itself runs no player's code and writes nothing.
struct Orphan<G: Game> {
    finished: Option<Finished>,
    over: Option<GameOver<G>>,
    players: Vec<Player<G>>,
}

impl<G: Game> Orphan<G> {
    /// The players of a game that cannot be written, to be closed all the same.
    fn unwritten(in_play: InPlay<G>) -> Orphan<G> {
        Orphan {
            finished: None,
            over: None,
            players: in_play.players.into_iter().flatten().collect(),
        }
    }
}

/// Starts the thread of the pool's slot `index` (pinned to a CPU of its own under
/// `--affinity`, the same for the thread that takes a given-up one's place).
fn spawn_slot<G: Evaluate>(
    shared: &Arc<Shared<G>>,
    sender: &Sender<Done>,
    orphan: Option<Orphan<G>>,
    index: usize,
) -> std::io::Result<Arc<Slot<G>>> {
    let slot = Arc::new(Slot {
        state: Mutex::new(SlotState {
            abandoned: false,
            game: None,
            watched: None,
        }),
        unwatched: AtomicBool::new(false),
        pinned_thread: std::sync::atomic::AtomicI32::new(0),
    });
    let (shared, thread_slot, sender) = (Arc::clone(shared), Arc::clone(&slot), sender.clone());
    thread::Builder::new()
        .name("arena game".into())
        .spawn(move || {
            if shared.config.affinity {
                if let Some(cpu) = crate::seat::affinity::pin_this_thread(index) {
                    log::debug!("arena game thread {index} pinned to CPU {cpu}");
                    #[cfg(target_os = "linux")]
                    // SAFETY: gettid has no preconditions.
                    thread_slot
                        .pinned_thread
                        .store(unsafe { libc::gettid() }, Ordering::SeqCst);
                }
            }
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                slot_loop(&shared, &thread_slot, orphan)
            }));
            let done = run.unwrap_or_else(|payload| {
                // A fault of the pool's own (the players' are caught where they are called):
                // no more games, and `run` is not left waiting for this thread.
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                log::error!("an arena thread failed: {what}");
                shared.stop_queue();
                // Given up now, under the lock the timer looks with: it will not give this slot
                // up again (and start a thread that says done a second time).
                let mut state = lock(&thread_slot.state);
                let was_abandoned = std::mem::replace(&mut state.abandoned, true);
                state.watched = None;
                !was_abandoned
            });
            if done {
                let _ = sender.send(Done);
            }
        })?;
    Ok(slot)
}

/// A pool thread: writes and closes the game it inherits, if any, then plays games until there
/// are none. Returns whether it should say it is done: not if the timer gave up on it (then its
/// replacement will).
fn slot_loop<G: Evaluate>(shared: &Shared<G>, slot: &Slot<G>, orphan: Option<Orphan<G>>) -> bool {
    let mut workers = Workers(Vec::new());
    if let Some(Orphan {
        finished,
        over,
        players,
    }) = orphan
    {
        if let Some(finished) = &finished {
            shared.write(finished);
        }
        if !close(slot, over, players, &mut workers) {
            return false;
        }
    }
    while let Some(game) = shared.next_game() {
        let opening = match shared.openings.of::<G>(game.opening_index) {
            Ok(opening) => opening,
            Err(e) => {
                shared.stop_queue();
                lock(&shared.opening_error).get_or_insert(e);
                break;
            }
        };
        let Some((finished, over, players)) = play(shared, slot, &mut workers, game, opening)
        else {
            return false;
        };
        let written = shared.write(&finished);
        if !close(slot, over, players, &mut workers) {
            return false;
        }
        if !written {
            break;
        }
    }
    // The kept workers go before the pool thread says it is done: nothing outlives the run.
    drop(workers);
    true
}

/// Tells the players the result and drops them (but the workers to keep), watched; `false` if
/// the timer gave up on them.
fn close<G: Evaluate>(
    slot: &Slot<G>,
    over: Option<GameOver<G>>,
    players: Vec<Player<G>>,
    workers: &mut Workers,
) -> bool {
    // Not worth waking the timer for: its sweep finds a player stuck here soon enough.
    let since = Instant::now();
    lock(&slot.state).watched = Some(Watched::Closing { since });
    for mut player in players {
        let kept = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if let Some(over) = &over {
                player.brain.brain().game_over(over);
            }
            match player.brain {
                Thinker::Worker(number, worker) if worker.is_reusable() => Some((number, worker)),
                _ => None,
            }
        }));
        workers.0.extend(kept.ok().flatten());
    }
    let mut state = lock(&slot.state);
    state.watched = None;
    !state.abandoned
}

/// What a game gives back: its result, the end as the players hear it, and the players.
type Played<G> = (Finished, Option<GameOver<G>>, Vec<Player<G>>);

/// Plays `game` from `opening` with fresh players; `None` when the timer took it over.
fn play<G: Evaluate>(
    shared: &Shared<G>,
    slot: &Slot<G>,
    workers: &mut Workers,
    game: ScheduledGame,
    opening: String,
) -> Option<Played<G>> {
    let config = &shared.config;
    let started = Instant::now();
    let setup = setup_for(config, game.seed);
    let start = G::parse_position(&opening, config.variant.as_deref())
        .expect("openings are made from positions of this game");
    let variant = start.variant().to_owned();
    let referee = Referee::<G>::new(start, config.settings)
        .with_max_plies(config.max_plies)
        .without_untimed_walls();
    // The workers of players not in this game go now.
    workers
        .0
        .retain(|(player, _)| *player == game.white || *player == game.black);
    let mut players = Vec::with_capacity(2);
    let mut failure = None;
    for (color, player) in [(Color::White, game.white), (Color::Black, game.black)] {
        let spec = &config.players[player];
        let made = match (&spec.kind, &config.isolation) {
            (SeatKind::Plugin(path), Some(options)) => workers
                .ready::<G>(
                    player,
                    options,
                    path,
                    (&variant, color, player_seed(setup.seed, color)),
                    &spec.options,
                )
                .map(|worker| Thinker::Worker(player, worker)),
            _ => {
                brain_for::<G>(spec, color, &variant, &setup).map(|made| Thinker::Other(made.brain))
            }
        };
        match made {
            Ok(brain) => players.push(Player {
                brain,
                control: Arc::new(Control::default()),
            }),
            Err(e) => {
                failure = Some(GameResult {
                    winner: Some(color.other()),
                    termination: Termination::Crash,
                    reason: format!("{color} could not start: {e:#}"),
                });
                break;
            }
        }
    }
    let mut in_play = InPlay {
        referee,
        scored: Vec::new(),
        players: [None, None],
        game,
        opening,
        started,
    };
    if let Some(failure) = failure {
        return Some((finish(shared, &in_play, &failure, false), None, players));
    }
    let mut seats = players.into_iter();
    in_play.players = [seats.next(), seats.next()];
    // One request for the whole game, rewritten each move (its buffers reused).
    let mut request = Request::new(
        String::new(),
        Vec::with_capacity(1024),
        in_play.referee.position().clone(),
        clocks(None, None, 0),
    );
    lock(&slot.state).game = Some(in_play);
    let margin = config.settings.margin;
    // An untimed game has nothing for the timer to watch: its slot stays locked from the first
    // move to the last (the timer passes it by), not locked twice a ply.
    let timed = config.settings.time.is_some() || config.settings.movetime.is_some();
    slot.unwatched.store(!timed, Ordering::SeqCst);
    let mut held = None;
    loop {
        let mut state = held.take().unwrap_or_else(|| lock(&slot.state));
        if state.abandoned {
            return None;
        }
        let in_play = state.game.as_mut().expect("the game is here between moves");
        if let Some(result) = in_play.referee.result().cloned() {
            let in_play = state.game.take().expect("just seen");
            drop(state);
            slot.unwatched.store(false, Ordering::SeqCst);
            let finished = finish(shared, &in_play, &result, true);
            let over = in_play.referee.game_over();
            let players = in_play.players.into_iter().flatten().collect();
            return Some((finished, over, players));
        }
        let me = in_play.referee.position().side_to_move();
        in_play.referee.begin_turn_into(&mut request);
        let limit = in_play.referee.turn_limit(me);
        let mut player = in_play.players[me.index()]
            .take()
            .expect("both players are here between moves");
        player.control.stop.store(false, Ordering::Relaxed);
        let state = match limit {
            Some(limit) => {
                // On this thread: the stopwatch of the thread that thinks.
                player.control.reset_time();
                player.control.start_time();
                state.watched = Some(Watched::Turn {
                    control: Arc::clone(&player.control),
                    started: Instant::now(),
                    limit,
                    give_up: limit.saturating_add(margin),
                });
                drop(state);
                shared
                    .timer
                    .look_by(Instant::now() + limit.saturating_sub(grace(limit)));
                None
            }
            None => Some(state),
        };
        let answer = choose_typed_caught(player.brain.brain(), &request, &player.control);
        // Timed, the fair time is charged; untimed, nothing is (and none is measured).
        let used = limit.map(|_| {
            let used = player.control.charged();
            player.control.charge(used);
            used
        });
        // Taken: the next move starts without a report.
        let info = player.control.info.lock().ok().and_then(|mut i| i.take());
        let scored = config
            .positions
            .as_ref()
            .and(info.as_ref())
            .and_then(|info| info.score.filter(|_| info.mate.is_none()))
            .map(|score| Scored {
                position: request.position.to_string(),
                mover: me,
                score,
            });
        let mut state = state.unwrap_or_else(|| lock(&slot.state));
        if state.abandoned {
            return None;
        }
        state.watched = None;
        let in_play = state.game.as_mut().expect("the game is here between moves");
        in_play.players[me.index()] = Some(player);
        if let Some(scored) = scored {
            in_play.scored.push(scored);
        }
        in_play.referee.finish_typed_turn(Some(answer), info, used);
        if !timed {
            held = Some(state);
        }
    }
}

/// How long before its limit a move is asked to stop (as a seat does).
fn grace(limit: Duration) -> Duration {
    (limit / 20).min(Duration::from_millis(50))
}

/// The finished game's line, and its record when records are written and the game was played.
fn finish<G: Evaluate>(
    shared: &Shared<G>,
    in_play: &InPlay<G>,
    result: &GameResult,
    played: bool,
) -> Finished {
    let (names, game) = (&shared.names, &in_play.game);
    let referee = &in_play.referee;
    let record = (played && shared.config.pgn.is_some()).then(|| {
        let mut record = referee.record(&names[game.white], &names[game.black]);
        record.set_tag("Round", results::round_tag(game.index));
        record
    });
    // Nothing reads a line's moves but its file.
    let moves = if shared.writes_lines {
        referee.moves_text()
    } else {
        String::new()
    };
    let positions = (played && shared.config.positions.is_some())
        .then(|| positions::lines(&in_play.scored, result))
        .flatten();
    Finished {
        positions,
        line: GameLine {
            index: game.index,
            pair: game.pair,
            white: names[game.white].clone(),
            black: names[game.black].clone(),
            white_player: game.white,
            black_player: Some(game.black),
            opening: in_play.opening.clone(),
            plies: referee.moves().len(),
            moves,
            result: result.result_str().to_owned(),
            termination: result.termination.as_str().to_owned(),
            reason: result.describe(),
            duration: in_play.started.elapsed().as_secs_f64(),
            match_seed: shared.match_seed,
            seed: game.seed,
        },
        record,
    }
}

/// What the timer found in a slot.
enum Look<G: Game> {
    /// Nothing to watch.
    Idle,
    /// Look again by then.
    Until(Instant),
    /// The slot's thread is given up: the game it held (if any) is over, for the new thread to
    /// write and close.
    GiveUp(Option<Box<Orphan<G>>>),
}

fn timer_loop<G: Evaluate>(shared: &Arc<Shared<G>>, sender: &Sender<Done>) {
    let timer = &shared.timer;
    let mut slots = lock(&timer.slots);
    while !timer.done.load(Ordering::SeqCst) {
        timer.next_wake.store(0, Ordering::SeqCst);
        let now = Instant::now();
        let mut next = now + SWEEP;
        let mut watching = false;
        for index in 0..slots.len() {
            match look(shared, &slots[index], now) {
                Look::Idle => {}
                Look::Until(at) => {
                    watching = true;
                    next = next.min(at);
                }
                Look::GiveUp(orphan) => {
                    // The thread given up may still be busy (a hung bot): it leaves the slot's
                    // CPU to the thread taking its place, and runs wherever the process may.
                    let stuck = slots[index].pinned_thread.load(Ordering::SeqCst);
                    if stuck != 0 {
                        if let Some(all) = crate::seat::affinity::Mask::of_this_process() {
                            let _ = all.apply_to(stuck);
                        }
                    }
                    // The new thread writes the game and closes its players: the timer runs
                    // nothing that may wait.
                    match spawn_slot(shared, sender, orphan.map(|orphan| *orphan), index) {
                        Ok(slot) => slots[index] = slot,
                        Err(e) => {
                            // The slot's games are not played (nor the one taken written): the
                            // run ends without them.
                            log::error!("cannot start a thread for the arena's games: {e}");
                            shared.stop_queue();
                            let _ = sender.send(Done);
                        }
                    }
                }
            }
        }
        // Nothing watched: the sweep is only for players stuck where nothing registered them.
        let wait = next.saturating_duration_since(Instant::now());
        timer.next_wake.store(
            if watching {
                timer.nanos(next).max(1)
            } else {
                u64::MAX
            },
            Ordering::SeqCst,
        );
        slots = if watching {
            timer
                .wake
                .wait_timeout(slots, wait)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0
        } else {
            timer
                .wake
                .wait_timeout(slots, SWEEP)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0
        };
    }
}

/// Looks at one slot: asks a move near its limit to stop, and gives up a thread whose player is
/// past its time.
fn look<G: Evaluate>(shared: &Shared<G>, slot: &Slot<G>, now: Instant) -> Look<G> {
    if slot.unwatched.load(Ordering::SeqCst) {
        return Look::Idle;
    }
    // Never waits: a slot busy for a moment is looked at again in a moment, and one that has
    // just begun an untimed game is passed by.
    let mut state = match slot.state.try_lock() {
        Ok(state) => state,
        Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) if slot.unwatched.load(Ordering::SeqCst) => {
            return Look::Idle
        }
        Err(std::sync::TryLockError::WouldBlock) => return Look::Until(now + STEP),
    };
    if state.abandoned {
        return Look::Idle;
    }
    match &state.watched {
        None => Look::Idle,
        Some(Watched::Closing { since }) => {
            if now.saturating_duration_since(*since) <= CLOSING {
                return Look::Until(*since + CLOSING + STEP);
            }
            log::warn!(
                "a player took longer than {CLOSING:?} to hear the result and go: left behind"
            );
            state.abandoned = true;
            Look::GiveUp(None)
        }
        Some(Watched::Turn {
            control,
            started,
            limit,
            give_up,
        }) => {
            let (limit, give_up) = (*limit, *give_up);
            let wall = now.saturating_duration_since(*started);
            let grace = grace(limit);
            // The fair time is at most the wall time: nothing to do before the wall says so.
            if wall + grace < limit {
                return Look::Until(*started + (limit - grace));
            }
            let used = control.charged();
            if used + grace >= limit {
                control.stop.store(true, Ordering::Relaxed);
            }
            if used <= give_up && wall <= wall_cap(give_up) {
                return Look::Until(now + STEP);
            }
            let info = control.info.lock().ok().and_then(|i| i.clone());
            state.abandoned = true;
            state.watched = None;
            let Some(mut in_play) = state.game.take() else {
                return Look::GiveUp(None);
            };
            drop(state);
            log::info!("a player is past its time: the game is ended and its thread left behind");
            in_play
                .referee
                .finish_turn(Wait::TimedOut, info, Some(used.max(give_up)));
            let Some(result) = in_play.referee.result().cloned() else {
                // Cannot be (a time-out ends the game); were it so, the game is lost, not the run.
                log::error!("a game taken for time has no result: not written");
                return Look::GiveUp(Some(Box::new(Orphan::unwritten(in_play))));
            };
            let finished = finish(shared, &in_play, &result, true);
            let over = in_play.referee.game_over();
            let players = in_play.players.into_iter().flatten().collect();
            Look::GiveUp(Some(Box::new(Orphan {
                finished: Some(finished),
                over,
                players,
            })))
        }
    }
}
