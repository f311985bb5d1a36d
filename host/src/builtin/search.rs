//! The search, one framework for every game behind the SDK's rules contract: iterative deepening
//! over an alpha-beta principal-variation search with aspiration windows, a transposition table
//! keyed by [`Position::hash_key`], move ordering (hash move, killers, history, the evaluation's
//! hint), late-move reductions, and a quiescence search over the moves the evaluation calls noisy.
//!
//! Wins and losses score [`MATE`] minus the distance in plies, so the search prefers the quickest
//! win and the slowest loss. Draws, including repetitions, come from the positions themselves
//! ([`Position::outcome`]: Tablut and Dama positions carry their repetition history, Gonnect's its
//! superko history, Ataxx its halfmove clock). The table keys leave those histories out, so a
//! stored score can, rarely, belong to the same board with another history.
//!
//! The node count of a search to a fixed depth is deterministic: `tavola bench` prints it as a
//! signature of the search, and a unit test pins it for Ataxx.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::seat::stopwatch::ThreadStopwatch;

use tavola_sdk::Position;

use super::tt::{Bound, Table};
use super::Evaluate;

/// The score of a win on the board, before the distance in plies is taken off.
pub const MATE: i32 = 1_000_000;
/// The deepest ply the search goes (quiescence included).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are wins or losses by distance.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;
/// The stop flag and the clock are looked at every this many nodes. At 64, a released build
/// (0.8 to 2 million nodes a second) overruns its hard limit by under a tenth of a millisecond
/// and a debug build (about 8 000 Ataxx nodes a second) by about 8 ms; at 256 the debug build
/// lost 4 or 5 games in 20 on time at 100 ms a move, none at 64. The looks cost a 232 156-node
/// search 0.035 % more instructions (callgrind).
const CHECK_EVERY: u64 = 64;
const HISTORY: usize = 4096;
const HISTORY_MAX: i32 = 16_384;

/// Which of the search's heuristics a game uses, and how hard ([`Evaluate::HEURISTICS`]): its
/// prunings, reductions and use of time. Each is on only for the games where a match (`tavola
/// match --sprt`, between the bot with it and without it) showed that it gains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heuristics {
    /// Late-move reductions that grow with ln(depth) ln(move number) and shrink with a move's
    /// history (0.75 + ln(depth) ln(move) / 2.25 plies, rounded down); without, a late quiet move
    /// is searched one ply less (two, late and deep).
    pub log_reductions: bool,
    /// Reverse futility pruning: a node that is not on the principal variation, at most
    /// [`RFP_DEPTH`] plies from its horizon, whose static evaluation is this margin per ply above
    /// beta returns its evaluation unsearched.
    pub reverse_futility: Option<i32>,
    /// Null-move pruning: a node that is not on the principal variation, whose static evaluation
    /// is at least beta, and whose side could pass ([`Position::null_move`]) and still stay at
    /// or above beta in a search a few plies shallower, returns that value.
    pub null_move: bool,
    /// Late-move pruning: a node that is not on the principal variation, at most
    /// [`LMP_DEPTH`] plies from its horizon, skips its quiet moves after the first
    /// `3 + depth²` it tried.
    pub late_moves: bool,
    /// How much of the soft limit may pass before the next iteration starts (see [`TimeUse`]).
    pub time: TimeUse,
    /// The moves over which the clock is spent: each move's soft limit is what is left over
    /// this many, plus three quarters of the increment ([`super::time::MOVES_LEFT`] unless a
    /// game says).
    pub moves_left: u32,
    /// Internal iterative reduction: a node at least 4 plies from its horizon without a move
    /// from the table is searched a ply less (its best move is then cheaper to find again).
    pub iir: bool,
    /// Futility pruning: at a node off the principal variation at most `futility_depth` plies
    /// from its horizon whose static evaluation, plus this margin per ply (and
    /// `futility_base`), is still at most alpha, the quiet moves after the first
    /// `futility_moves` are not tried.
    pub futility: Option<i32>,
    /// The deepest node futility pruning prunes ([`FUTILITY_DEPTH`] unless a game says).
    pub futility_depth: i32,
    /// Futility pruning's margin once, on top of its margin per ply (0 unless a game says;
    /// Zataxx's is 160 with 80 a ply).
    pub futility_base: i32,
    /// The moves a node tries before futility pruning skips any (1 unless a game says;
    /// Zataxx's 3).
    pub futility_moves: usize,
    /// Futility pruning skips the evaluation's noisy moves too (Ataxx's conversions of two
    /// pieces or more), as Zataxx does; without, only quiet ones.
    pub futility_noisy: bool,
    /// The late-move reductions treat the evaluation's noisy moves (Ataxx's conversions of two
    /// pieces or more) as they treat quiet ones: every move but the one from the table may be
    /// searched shallower. Without, only quiet moves are. (The prunings touch quiet moves
    /// alone either way, but for futility pruning with `futility_noisy`.)
    pub reduce_noisy: bool,
    /// Hopeless-move pruning: at every node below the root, once two moves are tried (and one
    /// scored above a loss), the quiet moves that are not killers and whose ordering hint
    /// ([`Evaluate::order_hint`]) is below this are not tried at all (Ataxx: below 1, the
    /// jumps that convert nothing).
    pub hopeless: Option<i32>,
    /// Singular extensions: at a node off the principal variation at least [`SINGULAR_DEPTH`]
    /// plies from its horizon, whose move from the table comes with a score that is a lower
    /// bound or exact from a search at most 3 plies shallower, the other moves are searched to
    /// half the depth against that score less this margin per ply. When none reaches it, the
    /// table's move is singular and searched a ply deeper; when the margin's bound is itself at
    /// least beta, several moves beat beta and the node returns it (multi-cut); when only the
    /// table's score is, the table's move is searched a ply shallower.
    pub singular: Option<i32>,
    /// "Improving" steers the prunings, as in Stockfish: a node is improving when its static
    /// evaluation is above that of the node two plies up (the same side to move). An improving
    /// node is pruned by reverse futility as if a ply shallower; one that is not tries half as
    /// many quiet moves before late-move pruning, and reduces its late moves a ply more. The
    /// evaluation is then taken at every node.
    pub improving: bool,
    /// The history also learns from the evaluation's noisy moves (Ataxx's conversions of two
    /// pieces or more) that cut off, and orders them among themselves by it: a noisy move's
    /// order is its hint plus a sixty-fourth of its history. Without, only quiet moves earn
    /// history and the noisy ones are ordered by their hint alone.
    pub noisy_history: bool,
    /// The move from the table is searched before the other moves are scored for their order:
    /// where it cuts off, none of them is. The others, scored after it, are ordered by the
    /// history its search has just written. Without, every move is scored first.
    pub staged: bool,
    /// The table's stored bounds cut off at principal-variation nodes too (below the root), as
    /// at the others; Zataxx does. Without, a principal-variation node is always searched, so
    /// that its line is shown whole.
    pub pv_table_cuts: bool,
    /// The prunings take the table's score for the node, from a search of any depth, in place
    /// of its static evaluation where the score's bound says it is the better guess (an exact
    /// score; a lower bound above the evaluation; an upper bound below it), as Stockfish does.
    /// Without, they take the static evaluation alone.
    pub table_eval: bool,
}

impl Heuristics {
    /// The plain search: none of the prunings.
    pub const NONE: Heuristics = Heuristics {
        log_reductions: false,
        reverse_futility: None,
        null_move: false,
        late_moves: false,
        time: TimeUse::Plain,
        moves_left: super::time::MOVES_LEFT,
        iir: false,
        futility: None,
        futility_depth: FUTILITY_DEPTH,
        futility_base: 0,
        futility_moves: 1,
        futility_noisy: false,
        reduce_noisy: false,
        hopeless: None,
        singular: None,
        improving: false,
        noisy_history: false,
        staged: false,
        pv_table_cuts: false,
        table_eval: false,
    };
}

/// How a search decides, after each iteration, whether there is time for the next one: the next
/// iteration takes a few times longer than the last, so it starts only while a share of the soft
/// limit is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUse {
    /// Six tenths of the soft limit, always.
    Plain,
    /// By the best move's stability: up to 1.5 times the plain share while the best move keeps
    /// changing (or the score falls), half of it once the best move has held for four
    /// iterations.
    Stable,
    /// By the share of the nodes searched under the best move (as Zataxx and many chess
    /// engines): from depth [`NODE_TIME_DEPTH`], the plain share times (1.55 − that share) × 1.5:
    /// a best move that took nearly all of the search ends it soonest (0.83 of the plain share
    /// at 100 %, 0.98 at 90 %), one that took half of it gets 1.6 times the plain share.
    Nodes,
}

/// The first iteration after which [`TimeUse::Nodes`] weighs the best move's nodes.
pub const NODE_TIME_DEPTH: u32 = 7;

/// [`TimeUse::Nodes`]' share of the soft limit, in tenths, when `best` of the `all` nodes under
/// the root's moves were under the best one: 6 × (1.55 − best / all) × 1.5, rounded down.
fn node_time_share(best: u64, all: u64) -> u32 {
    let thousandths = (best.min(all) * 1000 / all.max(1)) as u32;
    6 * (1550 - thousandths) * 3 / 2 / 1000
}

/// The deepest node reverse futility pruning prunes.
pub const RFP_DEPTH: i32 = 6;

/// The deepest node late-move pruning prunes.
pub const LMP_DEPTH: i32 = 4;

/// The deepest node futility pruning prunes by default.
pub const FUTILITY_DEPTH: i32 = 3;

/// The shallowest node whose move from the table is tested for singularity.
pub const SINGULAR_DEPTH: i32 = 6;

/// Late-move reductions by depth and move number: 0.75 + ln(depth) ln(move) / 2.25, rounded down.
static LMR: std::sync::LazyLock<[[i8; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut table = [[0; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (index, r) in row.iter_mut().enumerate().skip(1) {
            let value = 0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25;
            *r = value as i8;
        }
    }
    table
});

/// When a search stops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// Stop once this many nodes are searched.
    pub nodes: Option<u64>,
    /// Start no new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop at once after this much time.
    pub hard: Option<Duration>,
    /// Measure the time on the wall clock, as an outside GUI does (`tavola uai`), instead of in
    /// fair time as Tavola's own referee does (see [`crate::seat::stopwatch`]).
    pub wall_clock: bool,
}

/// A score as people read it: hundredths of a piece, or a forced win (positive) or loss in moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of a piece, for the side to move.
    Centi(i32),
    /// A forced win in this many moves of the side to move (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// The score of a search value.
    #[must_use]
    pub fn from_value(value: i32) -> Score {
        if value.abs() >= MATE_BOUND {
            let plies = MATE - value.abs();
            let moves = (plies + 1) / 2;
            Score::Mate(if value > 0 { moves } else { -moves })
        } else {
            Score::Centi(value)
        }
    }
}

/// What one finished iteration found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration<M> {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score, for the side to move at the root.
    pub value: i32,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
}

impl<M> Iteration<M> {
    /// The score as people read it.
    #[must_use]
    pub fn score(&self) -> Score {
        Score::from_value(self.value)
    }

    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// The search state kept between moves of a game: the table, killers and history.
#[derive(Debug)]
pub struct Searcher<G: Evaluate> {
    tt: Table<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    moves: Vec<Vec<G::Move>>,
    order: Vec<Vec<i32>>,
    /// Each move's [`Evaluate::order_hint`], beside `order`.
    hints: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    /// The depth of the current iteration.
    root_depth: u32,
    /// Whether the node at each ply was reached by a null move (no two in a row).
    after_null: Vec<bool>,
    /// The move the node at each ply leaves out: its table move, while a singular-extension
    /// search asks how the others fare without it.
    singular_skip: Vec<Option<G::Move>>,
    /// The static evaluation of the node at each ply, where [`Heuristics::improving`] took it.
    evals: Vec<Option<i32>>,
    /// The prunings it uses: the game's ([`Evaluate::HEURISTICS`]) unless set otherwise.
    heuristics: Heuristics,
    /// Root moves the search must not play ([`Searcher::exclude_root_moves`]).
    excluded: Vec<G::Move>,
    /// The nodes this search spent under each root move so far ([`TimeUse::Nodes`]).
    root_nodes: Vec<(G::Move, u64)>,
    /// The running iteration's best line so far and its value: the last root move whose
    /// search, finished, raised alpha. A stopped iteration's move when it has one.
    root_best: Option<(i32, Vec<G::Move>)>,
}

/// What a running search needs besides its state.
struct Run<'a> {
    stop: &'a AtomicBool,
    /// Fair time, as the host charges it: a busy machine's waits for a core are not spent.
    start: ThreadStopwatch,
    limits: Limits,
}

/// A cheap, fixed hash of a move for the history table (moves are `Hash`, not numbered).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517C_C1B7_2722_0A95);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as u64);
    }
}

fn history_index<M: Hash>(side: usize, mv: &M) -> usize {
    let mut hasher = MoveHasher(0);
    mv.hash(&mut hasher);
    let h = hasher.finish();
    side * HISTORY + ((h ^ (h >> 32)) as usize & (HISTORY - 1))
}

/// The value of a finished game for the side to move, `ply` plies from the root.
fn terminal_value<P: Position>(position: &P, outcome: tavola_sdk::Outcome, ply: usize) -> i32 {
    match outcome.winner {
        None => 0,
        Some(winner) if winner == position.side_to_move() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

/// Mate values are stored relative to the node, so that they mean the same at another ply.
fn to_table(value: i32, ply: usize) -> i32 {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn from_table(value: i32, ply: usize) -> i32 {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

/// A node's static evaluation, or the table's score for the node where that is the better guess:
/// an exact score, a lower bound above the evaluation or an upper bound below it (never a mate
/// score: its distance is not a value).
fn table_refined<M>(eval: i32, entry: &super::tt::Entry<M>, ply: usize) -> i32 {
    let value = from_table(entry.score, ply);
    let better = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => value > eval,
        Bound::Upper => value < eval,
    };
    if better && value.abs() < MATE_BOUND {
        value
    } else {
        eval
    }
}

impl<G: Evaluate> Searcher<G> {
    /// The default size of the transposition table, in megabytes.
    pub const DEFAULT_HASH_MB: usize = 16;

    /// A searcher with a transposition table of about `hash_mb` megabytes.
    #[must_use]
    pub fn new(hash_mb: usize) -> Searcher<G> {
        // Made ready now, not in the first move's search.
        std::sync::LazyLock::force(&LMR);
        G::prepare();
        Searcher {
            tt: Table::new(hash_mb),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            hints: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            after_null: vec![false; MAX_PLY + 2],
            singular_skip: vec![None; MAX_PLY + 2],
            evals: vec![None; MAX_PLY + 2],
            heuristics: G::HEURISTICS,
            excluded: Vec::new(),
            root_nodes: Vec::new(),
            root_best: None,
        }
    }

    /// Uses `pruning` instead of the game's own (for matches that measure one).
    pub fn set_heuristics(&mut self, pruning: Heuristics) {
        self.heuristics = pruning;
    }

    /// Makes the searches that follow leave `moves` out at the root, as if they were illegal
    /// (UCI's `go searchmoves`, the other way round); an empty list, the default, leaves none
    /// out. A position whose every legal move is excluded is searched with all of them.
    pub fn exclude_root_moves(&mut self, moves: &[G::Move]) {
        self.excluded.clear();
        self.excluded.extend_from_slice(moves);
    }

    /// Forgets everything learnt (a new game): the same searches then give the same results.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches `position` (not finished) deeper and deeper within `limits`, until `stop` is set,
    /// calling `report` after each finished iteration. Returns the last finished iteration, or,
    /// when the iteration after it was stopped once one of its root moves had been searched to
    /// the end and raised alpha, that iteration's best line so far, with its value and depth (a
    /// deeper search's best move so far is better than a shallower one's, as in Stockfish and
    /// Zataxx), reported too, so that what is shown is what is played; a stopped first
    /// iteration with no such move gives the first legal move.
    ///
    /// # Panics
    /// When `position` is finished (it has no move to choose).
    pub fn search(
        &mut self,
        position: &G::Position,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> Iteration<G::Move> {
        let run = self.begin(stop, limits);
        self.root_nodes.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        for h in &mut self.history {
            *h /= 8;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, 100);
        let mut best: Option<Iteration<G::Move>> = None;
        // Iterations in a row that ended on the same best move.
        let mut stable = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            // Depth 1 always finishes (a few hundred nodes at most): there is then a move.
            self.stopped = depth > 1 && run.stop.load(Ordering::Relaxed);
            self.root_depth = depth;
            self.root_best = None;
            let value = self.aspiration(&run, position, depth, best.as_ref().map(|b| b.value));
            if self.stopped {
                // The stopped iteration's best line so far, if a root move was searched to its
                // end and raised alpha.
                if let Some((value, pv)) = self.root_best.take() {
                    let iteration = self.iteration(&run, depth, value, pv);
                    report(&iteration);
                    best = Some(iteration);
                } else if best.is_none() {
                    // No move yet (the first iteration always finishes, so this is defensive):
                    // the first legal one, below.
                    best = Some(self.iteration(&run, depth, 0, Vec::new()));
                }
                break;
            }
            let pv = self.principal_variation(position);
            let iteration = self.iteration(&run, depth, value, pv);
            report(&iteration);
            let decided = value.abs() >= MATE_BOUND && (MATE - value.abs()) as u32 <= depth;
            // In tenths of the soft limit: how much of it may pass before the next iteration.
            let mut share = 6;
            if self.heuristics.time == TimeUse::Nodes && depth >= NODE_TIME_DEPTH {
                let best_nodes = iteration.pv.first().map_or(0, |mv| self.root_nodes_of(*mv));
                let all: u64 = self.root_nodes.iter().map(|(_, n)| n).sum();
                share = node_time_share(best_nodes, all);
            }
            if self.heuristics.time == TimeUse::Stable {
                let last = best.as_ref();
                let same = last.is_some_and(|b| b.pv.first() == iteration.pv.first());
                stable = if same { stable + 1 } else { 0 };
                let falling = last.is_some_and(|b| iteration.value < b.value - 30);
                share = match stable {
                    0 => 9,
                    1 => 7,
                    2 | 3 => 5,
                    _ => 3,
                };
                if falling {
                    share = (share * 3 / 2).min(9);
                }
            }
            best = Some(iteration);
            // The next iteration takes a few times longer than this one: start it only early.
            if decided
                || limits
                    .soft
                    .is_some_and(|soft| run.start.reached(soft * share / 10))
            {
                break;
            }
        }
        let mut best = best.expect("at least one iteration ran");
        if best.pv.is_empty() {
            let moves = self.root_moves(position);
            assert!(!moves.is_empty(), "searched a finished position {position}");
            best.pv.push(moves[0]);
        }
        best
    }

    /// The legal moves of the root `position` less the excluded ones (all of them if every one
    /// is excluded).
    fn root_moves(&self, position: &G::Position) -> Vec<G::Move> {
        let mut moves = position.legal_moves();
        self.exclude_at_root(&mut moves);
        moves
    }

    /// Removes the excluded moves from the root's `moves`, unless that would leave none.
    fn exclude_at_root(&self, moves: &mut Vec<G::Move>) {
        if !self.excluded.is_empty() && moves.iter().any(|mv| !self.excluded.contains(mv)) {
            moves.retain(|mv| !self.excluded.contains(mv));
        }
    }

    /// Adds `nodes` to those spent under the root move `mv`.
    fn count_root_nodes(&mut self, mv: G::Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((mv, nodes)),
        }
    }

    /// The nodes this search spent under the root move `mv`.
    fn root_nodes_of(&self, mv: G::Move) -> u64 {
        self.root_nodes
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |(_, n)| *n)
    }

    /// Starts a search: the clock, a new table generation, the counters reset.
    fn begin<'a>(&mut self, stop: &'a AtomicBool, limits: Limits) -> Run<'a> {
        self.tt.new_search();
        self.nodes = 0;
        self.stopped = false;
        Run {
            stop,
            start: if limits.wall_clock {
                ThreadStopwatch::wall_only()
            } else {
                ThreadStopwatch::start()
            },
            limits,
        }
    }

    fn iteration(
        &self,
        run: &Run<'_>,
        depth: u32,
        value: i32,
        pv: Vec<G::Move>,
    ) -> Iteration<G::Move> {
        Iteration {
            depth,
            seldepth: self.seldepth.max(depth),
            value,
            nodes: self.nodes,
            elapsed: run.start.elapsed(),
            pv,
        }
    }

    /// One iteration, in a narrow window around the last score when there is one, widened on
    /// failure.
    fn aspiration(
        &mut self,
        run: &Run<'_>,
        position: &G::Position,
        depth: u32,
        last: Option<i32>,
    ) -> i32 {
        let Some(last) = last.filter(|v| depth >= 5 && v.abs() < MATE_BOUND) else {
            return self.negamax(run, position, depth as i32, 0, -INFINITY, INFINITY, true);
        };
        let mut delta = 40;
        let (mut alpha, mut beta) = (last - delta, last + delta);
        loop {
            let value = self.negamax(run, position, depth as i32, 0, alpha, beta, true);
            if self.stopped {
                return value;
            }
            if value <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if value >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return value;
            }
            delta *= 3;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root's principal variation: the triangular table's, extended by hash moves.
    fn principal_variation(&self, position: &G::Position) -> Vec<G::Move> {
        let mut pv = self.pv[0].clone();
        let mut child = position.clone();
        for &mv in &pv {
            child.play_unchecked(mv);
        }
        while pv.len() < 32 && child.outcome().is_none() {
            let Some(mv) = self.tt.probe(child.hash_key()).and_then(|e| e.mv) else {
                break;
            };
            if !child.is_legal(mv) {
                break;
            }
            pv.push(mv);
            child.play_unchecked(mv);
        }
        pv
    }

    fn poll_stop(&mut self, run: &Run<'_>) {
        if self.root_depth <= 1 {
            return;
        }
        if self.nodes % CHECK_EVERY == 0 {
            self.stopped = run.stop.load(Ordering::Relaxed)
                || run.limits.hard.is_some_and(|hard| run.start.reached(hard));
        }
        if run.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        run: &Run<'_>,
        position: &G::Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        // Taken first, so that no early return leaves it set for the next node at this ply.
        let after_null = std::mem::take(&mut self.after_null[ply]);
        let skip = self.singular_skip[ply].take();
        // A stopped search counts no more nodes: the re-searches its callers may still start on
        // the way back up return at once, so a node limit is never passed.
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.poll_stop(run);
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(outcome) = position.outcome() {
            return terminal_value(position, outcome, ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(run, position, ply, alpha, beta);
        }

        let heuristics = self.heuristics;
        let key = position.hash_key();
        let entry = self.tt.probe(key);
        let hash_move = entry.and_then(|e| e.mv);
        let cuts = !pv_node && ply > 0 && skip.is_none();
        let table_cuts = ply > 0 && skip.is_none() && (!pv_node || heuristics.pv_table_cuts);
        if let Some(entry) = entry.filter(|e| table_cuts && i32::from(e.depth) >= depth) {
            let value = from_table(entry.score, ply);
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if cut {
                return value;
            }
        }

        let prunes = heuristics.reverse_futility.is_some()
            || heuristics.null_move
            || heuristics.futility.is_some();
        let prunable = prunes && cuts && beta.abs() < MATE_BOUND;
        let eval =
            (prunable || (heuristics.improving && skip.is_none())).then(|| G::evaluate(position));
        // Whether this node's evaluation is above the one two plies up (the same side's), where
        // the game asks (`None` where not). A singular search keeps the node's own.
        let improving = heuristics.improving.then(|| {
            if skip.is_none() {
                self.evals[ply] = eval;
            }
            match (
                self.evals[ply],
                ply.checked_sub(2).and_then(|up| self.evals[up]),
            ) {
                (Some(now), Some(before)) => now > before,
                _ => ply >= 2,
            }
        });
        // With `table_eval`, the table's score where its bound makes it the better guess.
        let static_eval = eval.filter(|_| prunable).map(|eval| match entry {
            Some(entry) if heuristics.table_eval => table_refined(eval, &entry, ply),
            _ => eval,
        });
        if let Some(static_eval) = static_eval {
            // Reverse futility: so far above beta that a shallow search would not come back
            // under it (a ply sooner where the node is improving).
            if let Some(margin) = heuristics.reverse_futility {
                let depth_left = depth - i32::from(improving == Some(true));
                if depth <= RFP_DEPTH && static_eval - margin * depth_left >= beta {
                    return static_eval;
                }
            }
            // Null move: even passing keeps the side at or above beta.
            if heuristics.null_move && depth >= 3 && !after_null && static_eval >= beta {
                if let Some(passed) = position.null_move() {
                    let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                    self.after_null[ply + 1] = true;
                    let value = -self.negamax(
                        run,
                        &passed,
                        depth - 1 - r,
                        ply + 1,
                        -beta,
                        -beta + 1,
                        false,
                    );
                    if self.stopped {
                        return 0;
                    }
                    if value >= beta {
                        return if value >= MATE_BOUND { beta } else { value };
                    }
                }
            }
        }

        // Without a move from the table, a deep node is searched a ply less.
        let depth = if heuristics.iir && hash_move.is_none() && depth >= 4 {
            depth - 1
        } else {
            depth
        };
        // Hopeless quiet moves: the evaluation, even with a margin, stays under alpha.
        let futile = match (heuristics.futility, static_eval) {
            (Some(margin), Some(eval)) => {
                depth <= heuristics.futility_depth
                    && alpha.abs() < MATE_BOUND
                    && eval + heuristics.futility_base + margin * depth <= alpha
            }
            _ => false,
        };

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut order = std::mem::take(&mut self.order[ply]);
        let mut hints = std::mem::take(&mut self.hints[ply]);
        moves.clear();
        position.generate_moves(&mut moves);
        if ply == 0 {
            self.exclude_at_root(&mut moves);
        }
        // With `staged`, the table's move is searched before the others are scored: it often
        // cuts off alone.
        let staged = hash_move
            .filter(|_| heuristics.staged)
            .and_then(|hash| moves.iter().position(|&mv| mv == hash));
        order.clear();
        hints.clear();
        match staged {
            Some(at) => {
                moves.swap(0, at);
                order.push(HASH_ORDER);
                if G::ORDER_HINTS {
                    hints.push(G::order_hint(position, moves[0]));
                }
            }
            None => self.score_from(position, &moves, 0, &mut hints, &mut order, hash_move, ply),
        }

        let side = position.side_to_move().index();
        let original_alpha = alpha;
        // The quiet moves tried before late-move pruning: half as many where the node is not
        // improving.
        let late_moves =
            (3 + depth * depth) as usize / if improving == Some(false) { 2 } else { 1 };
        let mut best_value = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            if i == 1 && staged.is_some() {
                self.score_from(position, &moves, 1, &mut hints, &mut order, hash_move, ply);
            }
            // Selection sort: most searches cut off after a few moves. (Before the others are
            // scored, only the table's move has an order.) The first of the best is taken.
            let mut pick = i;
            let mut best_order = order[i];
            for (j, &o) in order.iter().enumerate().skip(i + 1) {
                if o > best_order {
                    (pick, best_order) = (j, o);
                }
            }
            moves.swap(i, pick);
            order.swap(i, pick);
            if G::ORDER_HINTS {
                hints.swap(i, pick);
            }
            let mv = moves[i];
            if skip == Some(mv) {
                continue;
            }
            let quiet = order[i] < KILLER_ORDER;
            // Late moves: at a shallow node off the principal variation, the quiet moves past
            // the first few (tried best first) are not tried at all.
            if heuristics.late_moves
                && quiet
                && !pv_node
                && depth <= LMP_DEPTH
                && best_value > -MATE_BOUND
                && i >= late_moves
            {
                // The moves left order no higher than this one (best first), so they are quiet
                // too, and later: each would be skipped as this one is. The loop ends.
                break;
            }
            if futile
                && (quiet || heuristics.futility_noisy)
                && i >= heuristics.futility_moves
                && best_value > -MATE_BOUND
            {
                // With the noisy moves pruned too, every move left would be skipped: the
                // loop ends instead of sorting them one by one.
                if heuristics.futility_noisy {
                    break;
                }
                continue;
            }
            // Hopeless moves: below the root, a quiet move whose hint says it gains nothing is
            // not tried once two moves have been.
            if let Some(threshold) = heuristics.hopeless {
                let hint = if G::ORDER_HINTS { hints[i] } else { 0 };
                if quiet && ply > 0 && i >= 2 && best_value > -MATE_BOUND && hint < threshold {
                    continue;
                }
            }

            let tested = heuristics.singular.zip(entry).filter(|(_, entry)| {
                i == 0
                    && hash_move == Some(mv)
                    && !pv_node
                    && skip.is_none()
                    && ply > 0
                    && ply < 2 * self.root_depth as usize
                    && depth >= SINGULAR_DEPTH
                    && entry.bound != Bound::Upper
                    && i32::from(entry.depth) >= depth - 3
                    && entry.score.abs() < MATE_BOUND
            });
            let extension = match tested {
                Some((margin, entry)) => {
                    let tt_value = from_table(entry.score, ply);
                    match self.singularity(run, position, mv, tt_value, margin, depth, ply, beta) {
                        Ok(extension) => extension,
                        Err(value) => {
                            self.moves[ply] = moves;
                            self.order[ply] = order;
                            self.hints[ply] = hints;
                            return value;
                        }
                    }
                }
                None => 0,
            };

            let before = self.nodes;
            let mut child = position.clone();
            child.play_unchecked(mv);
            if depth > 1 {
                self.tt.prefetch(child.hash_key());
            }
            let value = if i == 0 {
                -self.negamax(
                    run,
                    &child,
                    depth - 1 + extension,
                    ply + 1,
                    -beta,
                    -alpha,
                    pv_node,
                )
            } else {
                // What the reductions may touch: quiet moves, and with `reduce_noisy` every move
                // but the one from the table.
                let reducible = quiet || (heuristics.reduce_noisy && order[i] < HASH_ORDER);
                let reduction = if !reducible || depth < 3 {
                    0
                } else if heuristics.log_reductions && i >= 2 {
                    let more = i32::from(improving == Some(false) && !pv_node);
                    (self.reduction(side, mv, depth, i, pv_node) + more).min(depth - 2)
                } else if !heuristics.log_reductions && i >= 3 {
                    1 + i32::from(i >= 10 && depth >= 6)
                } else {
                    0
                };
                let mut value = -self.negamax(
                    run,
                    &child,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                );
                if value > alpha && reduction > 0 {
                    value =
                        -self.negamax(run, &child, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if value > alpha && value < beta && pv_node {
                    value = -self.negamax(run, &child, depth - 1, ply + 1, -beta, -alpha, true);
                }
                value
            };
            if ply == 0 {
                self.count_root_nodes(mv, self.nodes - before);
            }
            if self.stopped {
                self.moves[ply] = moves;
                self.order[ply] = order;
                self.hints[ply] = hints;
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    // Only a move that raised alpha is the node's best: below alpha every
                    // value is an upper bound, and the highest of them names no better move.
                    best_move = Some(mv);
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.root_best = Some((value, self.pv[0].clone()));
                    }
                    if alpha >= beta {
                        if quiet || heuristics.noisy_history {
                            self.reward(side, ply, mv, depth, &moves[..i], quiet);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.order[ply] = order;
        self.hints[ply] = hints;
        // A search without the table's move says nothing of the node: it is not stored.
        if skip.is_some() {
            return best_value;
        }

        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_table(best_value, ply),
            depth.max(0) as u32,
            bound,
        );
        best_value
    }

    /// Singular extensions: searches the node at `ply` without its table move `mv`, to half
    /// `depth`, against the table's value less `margin` a ply. `Ok` with the table move's
    /// extension (1 when no other move comes near it, -1 when only the table's value beats
    /// `beta`, else 0), or `Err` with the node's value: multi-cut (other moves beat `beta` too),
    /// or 0 when the search stopped.
    #[allow(clippy::too_many_arguments)]
    fn singularity(
        &mut self,
        run: &Run<'_>,
        position: &G::Position,
        mv: G::Move,
        tt_value: i32,
        margin: i32,
        depth: i32,
        ply: usize,
        beta: i32,
    ) -> Result<i32, i32> {
        let singular_beta = tt_value - margin * depth;
        self.singular_skip[ply] = Some(mv);
        let value = self.negamax(
            run,
            position,
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            false,
        );
        // That search used this ply's line of the principal variation: the node's own moves
        // start it again.
        self.pv[ply].clear();
        if self.stopped {
            Err(0)
        } else if value < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if tt_value >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Stand pat, or search the noisy moves ([`Evaluate::noisy_moves`]) until the position is
    /// quiet; where they are forced ([`Evaluate::NOISY_FORCED`]), search them without standing
    /// pat.
    fn quiescence(
        &mut self,
        run: &Run<'_>,
        position: &G::Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        // Where noisy moves are forced (Dama's captures), a position that has them is not
        // stood pat on: the side to move must play one.
        let forced = G::NOISY_FORCED && {
            G::noisy_moves(position, &mut moves);
            !moves.is_empty()
        };
        let mut best = -INFINITY;
        if !forced || ply >= MAX_PLY {
            let stand_pat = G::evaluate(position);
            if stand_pat >= beta || ply >= MAX_PLY {
                self.moves[ply] = moves;
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            if !G::NOISY_FORCED {
                G::noisy_moves(position, &mut moves);
            }
        }
        for &mv in &moves {
            // Stopped in the move before: no more nodes.
            if self.stopped {
                break;
            }
            let mut child = position.clone();
            child.play_unchecked(mv);
            self.nodes += 1;
            self.poll_stop(run);
            if self.stopped {
                break;
            }
            self.seldepth = self.seldepth.max(ply as u32 + 1);
            let value = match child.outcome() {
                Some(outcome) => -terminal_value(&child, outcome, ply + 1),
                None => -self.quiescence(run, &child, ply + 1, -beta, -alpha),
            };
            if value > best {
                best = value;
                alpha = alpha.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        self.moves[ply] = moves;
        best
    }

    /// Appends to `order` the ordering score of each of `moves[from..]`. Where the game gives
    /// hints ([`Evaluate::ORDER_HINTS`]), `hints` holds those of `moves[..from]` and gets theirs
    /// appended; where it does not, `hints` is left alone and each move's hint is 0.
    #[allow(clippy::too_many_arguments)]
    fn score_from(
        &self,
        position: &G::Position,
        moves: &[G::Move],
        from: usize,
        hints: &mut Vec<i32>,
        order: &mut Vec<i32>,
        hash_move: Option<G::Move>,
        ply: usize,
    ) {
        let rest = &moves[from..];
        if G::ORDER_HINTS {
            G::order_hints(position, rest, hints);
            let hints = hints[from..].iter().copied();
            self.score_moves(position, rest, hints, order, hash_move, ply);
        } else {
            self.score_moves(position, rest, std::iter::repeat(0), order, hash_move, ply);
        }
    }

    /// Appends to `order` the ordering score of each of `moves`, whose hints are `hints` (0
    /// each where the game gives none): the table's move first, then the noisy moves by their
    /// hint, the killers, and the quiet moves by their history.
    fn score_moves(
        &self,
        position: &G::Position,
        moves: &[G::Move],
        hints: impl Iterator<Item = i32>,
        order: &mut Vec<i32>,
        hash_move: Option<G::Move>,
        ply: usize,
    ) {
        let side = position.side_to_move().index();
        let [first, second] = self.killers[ply];
        order.extend(moves.iter().zip(hints).map(|(&mv, hint)| {
            if Some(mv) == hash_move {
                HASH_ORDER
            } else {
                let hint = hint.clamp(-1000, 1000);
                if hint >= NOISY_HINT {
                    let learned = if self.heuristics.noisy_history {
                        self.history[history_index(side, &mv)] / 64
                    } else {
                        0
                    };
                    NOISY_ORDER + hint + learned
                } else if Some(mv) == first {
                    KILLER_ORDER + 1
                } else if Some(mv) == second {
                    KILLER_ORDER
                } else {
                    self.history[history_index(side, &mv)] + 8 * hint
                }
            }
        }));
    }

    /// How many plies less a late quiet move is searched (late-move reductions): more the later
    /// the move and the deeper the search (logarithmically in both), less at a principal
    /// variation node and for a move whose history is good; never into quiescence.
    fn reduction(&self, side: usize, mv: G::Move, depth: i32, index: usize, pv_node: bool) -> i32 {
        let mut r = i32::from(LMR[depth.clamp(0, 63) as usize][index.min(63)]);
        r -= i32::from(pv_node);
        r -= self.history[history_index(side, &mv)] / (HISTORY_MAX / 2);
        r.clamp(0, depth - 2)
    }

    /// A move caused a cut-off: history credit (the moves tried before it lose some), and if it
    /// is `quiet` a killer at this ply.
    fn reward(
        &mut self,
        side: usize,
        ply: usize,
        mv: G::Move,
        depth: i32,
        tried: &[G::Move],
        quiet: bool,
    ) {
        if quiet && self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let mut update = |index: usize, bonus: i32| {
            let h = &mut self.history[index];
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        };
        update(history_index(side, &mv), bonus);
        for tried in tried {
            update(history_index(side, tried), -bonus);
        }
    }

    /// Scores every root move by a full-window search `depth` plies deep (for the weaker levels,
    /// which pick among them). Stops early like [`Searcher::search`]; moves not searched by then
    /// are left out (the first is always searched).
    pub fn score_root_moves(
        &mut self,
        position: &G::Position,
        depth: u32,
        limits: Limits,
        stop: &AtomicBool,
    ) -> Vec<(G::Move, i32)> {
        let run = self.begin(stop, limits);
        self.root_depth = depth;
        let mut scored = Vec::new();
        for mv in self.root_moves(position) {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let mut value = 0;
            for d in 1..=depth.max(1) {
                let v = -self.negamax(&run, &child, d as i32 - 1, 1, -INFINITY, INFINITY, true);
                if self.stopped {
                    break;
                }
                value = v;
            }
            if self.stopped && !scored.is_empty() {
                break;
            }
            scored.push((mv, value));
            if self.stopped {
                break;
            }
        }
        scored
    }

    /// Nodes searched by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// A hint at least this large marks a noisy move, ordered before the killers.
pub const NOISY_HINT: i32 = 500;
const HASH_ORDER: i32 = 1 << 30;
const NOISY_ORDER: i32 = 1 << 26;
const KILLER_ORDER: i32 = 1 << 24;

/// Searches `position` to `depth` with a fresh table of `hash_mb` megabytes and no other limit:
/// the deterministic node count `tavola bench` and the signature test use.
pub fn fixed_depth<G: Evaluate>(
    position: &G::Position,
    depth: u32,
    hash_mb: usize,
) -> Iteration<G::Move> {
    let mut searcher = Searcher::<G>::new(hash_mb);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.search(position, limits, &AtomicBool::new(false), &mut |_| {})
}

#[cfg(test)]
mod tests {
    use tavola_sdk::games::ataxx::Ataxx;
    use tavola_sdk::games::dama::Dama;
    use tavola_sdk::games::gonnect::Gonnect;
    use tavola_sdk::games::tablut::Tablut;
    use tavola_sdk::Game;

    use super::*;

    fn search<G: Evaluate>(text: &str, depth: u32) -> Iteration<G::Move> {
        let position = G::parse_position(text, None).unwrap();
        fixed_depth::<G>(&position, depth, 1)
    }

    #[test]
    fn finds_the_quickest_win_in_ataxx() {
        // The jumps to c1 and c2 take d1's only black piece: a win in one move.
        let found = search::<Ataxx>("7/7/7/7/7/7/x2o3 x 0 1", 4);
        assert_eq!(found.score(), Score::Mate(1), "{found:?}");
        let mv = found.pv[0].to_string();
        assert!(mv == "a1c1" || mv == "a1c2", "{mv}");
    }

    #[test]
    fn a_node_that_fails_low_keeps_the_tables_move() {
        // Every move of Ataxx's start scores far below alpha = 5 000: the node fails low, and
        // the highest of its upper bounds names no best move, so the move an earlier (shallower)
        // search stored for the position stays. A node whose window holds its value stores its
        // own best move.
        let position = Ataxx::start(None).unwrap();
        let earlier = *position.legal_moves().last().unwrap();
        for (alpha, beta, pv_node) in [(5000, 5001, false), (-5000, 5000, true)] {
            let mut searcher = Searcher::<Ataxx>::new(1);
            let stop = AtomicBool::new(false);
            let run = searcher.begin(&stop, Limits::default());
            let key = position.hash_key();
            searcher.tt.store(key, Some(earlier), 0, 1, Bound::Upper);
            let value = searcher.negamax(&run, &position, 3, 1, alpha, beta, pv_node);
            let entry = searcher.tt.probe(key).unwrap();
            assert_eq!(entry.depth, 3);
            if value <= alpha {
                assert_eq!((entry.bound, entry.mv), (Bound::Upper, Some(earlier)));
            } else {
                assert!(alpha < 0 && entry.bound == Bound::Exact, "{value}");
                assert!(entry.mv.is_some_and(|mv| mv != earlier), "{:?}", entry.mv);
            }
        }
    }

    #[test]
    fn a_deeper_search_explores_more_nodes_and_reports_each_depth() {
        let position = Ataxx::start(None).unwrap();
        let mut searcher = Searcher::<Ataxx>::new(1);
        let mut depths = Vec::new();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let found = searcher.search(&position, limits, &AtomicBool::new(false), &mut |i| {
            depths.push((i.depth, i.nodes, i.pv.len()));
        });
        assert_eq!(depths.iter().map(|d| d.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert!(depths.windows(2).all(|w| w[0].1 < w[1].1), "{depths:?}");
        assert!(depths.iter().all(|d| d.2 >= 1), "{depths:?}");
        assert_eq!(found.depth, 4);
        assert!(position.is_legal(found.pv[0]));
    }

    #[test]
    fn the_nodes_under_each_root_move_are_counted_for_the_time_they_allow() {
        let position = Ataxx::start(None).unwrap();
        let mut searcher = Searcher::<Ataxx>::new(1);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let found = searcher.search(&position, limits, &AtomicBool::new(false), &mut |_| {});
        // Every root move was searched in some iteration, and all nodes but the root's are
        // under one of them.
        assert_eq!(searcher.root_nodes.len(), position.legal_moves().len());
        let all: u64 = searcher.root_nodes.iter().map(|(_, n)| n).sum();
        assert!(
            all < found.nodes && all + 6 * 20 >= found.nodes,
            "{all} of {}",
            found.nodes
        );
        let best = searcher.root_nodes_of(found.pv[0]);
        assert!(best > 0 && best < all, "{best} of {all}");
        // A new search counts from nothing.
        searcher.search(
            &position,
            Limits {
                depth: Some(1),
                ..limits
            },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let again: u64 = searcher.root_nodes.iter().map(|(_, n)| n).sum();
        assert!(again < 100, "{again}");
        // The share of the soft limit: 6 tenths times (1.55 − the best move's share) × 1.5.
        for (best, all, tenths) in [
            (900, 1000, 5),
            (500, 1000, 9),
            (1000, 1000, 4),
            (0, 1000, 13),
        ] {
            assert_eq!(node_time_share(best, all), tenths, "{best} of {all}");
        }
        assert_eq!(node_time_share(0, 0), 13, "nothing counted: the most time");
    }

    #[test]
    fn a_stopped_iteration_gives_its_best_move_once_one_raised_alpha() {
        let position = Ataxx::start(None).unwrap();
        let mut deeper = 0;
        for nodes in (2_000..40_000).step_by(1_000) {
            let mut searcher = Searcher::<Ataxx>::new(1);
            let mut reports = Vec::new();
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let found = searcher.search(&position, limits, &AtomicBool::new(false), &mut |i| {
                reports.push((i.depth, i.pv[0]));
            });
            assert!(position.is_legal(found.pv[0]), "{nodes}: {found:?}");
            assert!(found.nodes <= nodes, "{nodes}: {found:?}");
            // What is played was reported last, and the reports went a depth at a time.
            assert_eq!(reports.last(), Some(&(found.depth, found.pv[0])), "{nodes}");
            let depths: Vec<u32> = reports.iter().map(|r| r.0).collect();
            assert_eq!(depths, (1..=found.depth).collect::<Vec<_>>(), "{nodes}");
            // The node limit stopped every search: an answer with all of them is the stopped
            // iteration's, one with fewer the last finished iteration's.
            if found.nodes == nodes {
                deeper += 1;
            }
        }
        // Most stop in the first root move's search (the largest), some after it.
        assert!((3..38).contains(&deeper), "{deeper} of 38");
    }

    #[test]
    fn a_search_past_its_hard_limit_stops_within_one_look_at_the_clock() {
        let position = Ataxx::start(None).unwrap();
        let first = Searcher::<Ataxx>::new(1).search(
            &position,
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
            &AtomicBool::new(false),
            &mut |_| {},
        );
        // Past the hard limit from the start: depth 1 finishes, depth 2 stops at its first look
        // (its move is played if one raised alpha by then).
        let limits = Limits {
            hard: Some(Duration::ZERO),
            ..Limits::default()
        };
        let mut searcher = Searcher::<Ataxx>::new(1);
        let found = searcher.search(&position, limits, &AtomicBool::new(false), &mut |_| {});
        assert!(found.depth <= 2, "{found:?}");
        assert!(position.is_legal(found.pv[0]));
        assert!(
            (first.nodes..=first.nodes + CHECK_EVERY).contains(&found.nodes),
            "{} nodes, depth 1 alone {}",
            found.nodes,
            first.nodes
        );
    }

    #[test]
    fn a_set_stop_flag_still_gives_a_legal_move() {
        let position = Ataxx::start(None).unwrap();
        let mut searcher = Searcher::<Ataxx>::new(1);
        let found = searcher.search(
            &position,
            Limits::default(),
            &AtomicBool::new(true),
            &mut |_| {},
        );
        // Depth 1 always finishes, nothing deeper starts.
        assert_eq!(found.depth, 1, "{found:?}");
        assert!(position.is_legal(found.pv[0]));
    }

    #[test]
    fn excluded_root_moves_are_never_played() {
        let depth = |depth| Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        // The quickest win (a1c1 or a1c2) excluded: another move, and not a win in one.
        let position = Ataxx::parse_position("7/7/7/7/7/7/x2o3 x 0 1", None).unwrap();
        let mut searcher = Searcher::<Ataxx>::new(1);
        let wins: Vec<_> = ["a1c1", "a1c2"]
            .iter()
            .map(|text| position.parse_move(text).unwrap())
            .collect();
        searcher.exclude_root_moves(&wins);
        let found = searcher.search(&position, depth(4), &stop, &mut |_| {});
        assert!(!wins.contains(&found.pv[0]), "{found:?}");
        assert_ne!(found.score(), Score::Mate(1), "{found:?}");
        // Stopped before the first iteration ends, and by the weaker levels' scoring.
        let stopped = searcher.search(&position, depth(4), &AtomicBool::new(true), &mut |_| {});
        assert!(!wins.contains(&stopped.pv[0]), "{stopped:?}");
        let scored = searcher.score_root_moves(&position, 2, Limits::default(), &stop);
        assert_eq!(scored.len(), position.legal_moves().len() - 2);
        assert!(scored.iter().all(|(mv, _)| !wins.contains(mv)));
        // Every move excluded: all of them are searched; none: the win again.
        searcher.exclude_root_moves(&position.legal_moves());
        let found = searcher.search(&position, depth(4), &stop, &mut |_| {});
        assert_eq!(found.score(), Score::Mate(1), "{found:?}");
        searcher.exclude_root_moves(&[]);
        let found = searcher.search(&position, depth(4), &stop, &mut |_| {});
        assert!(wins.contains(&found.pv[0]), "{found:?}");
    }

    /// The search reads a game's ordering hints only where the game says it gives some
    /// ([`Evaluate::ORDER_HINTS`]): a game that does not say so must hint 0 for every move.
    #[test]
    fn only_the_games_that_say_so_give_ordering_hints() {
        fn gives<G: Evaluate>() -> (bool, bool) {
            let any = super::super::eval::sample_positions::<G>(300)
                .iter()
                .any(|p| p.legal_moves().iter().any(|&mv| G::order_hint(p, mv) != 0));
            (G::ORDER_HINTS, any)
        }
        assert_eq!(gives::<Ataxx>(), (true, true));
        assert_eq!(gives::<Tablut>(), (false, false));
        assert_eq!(gives::<Gonnect>(), (false, false));
        assert_eq!(gives::<Dama>(), (false, false));
    }

    /// Searches `G`'s start with each node limit: never a node past it, and a legal move.
    fn node_limits_hold<G: Evaluate>(limits: &[u64]) {
        let position = G::start(None).unwrap();
        let mut searcher = Searcher::<G>::new(1);
        for &nodes in limits {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let found = searcher.search(&position, limits, &AtomicBool::new(false), &mut |_| {});
            assert!(searcher.nodes() <= nodes, "{} > {nodes}", searcher.nodes());
            assert!(position.is_legal(found.pv[0]));
        }
    }

    #[test]
    fn a_node_limit_stops_the_search() {
        // Each limit stops the search somewhere else in the tree: in a re-search, in the
        // quiescence search.
        node_limits_hold::<Ataxx>(&[1000, 2500, 5000, 7777, 12_345]);
        node_limits_hold::<Dama>(&[1000, 5000, 12_345]);
        node_limits_hold::<Tablut>(&[1000, 5000, 12_345]);
    }

    #[test]
    fn every_heuristic_keeps_the_quickest_win_and_a_legal_move() {
        let all = Heuristics {
            log_reductions: true,
            reverse_futility: Some(120),
            null_move: true,
            late_moves: true,
            time: TimeUse::Stable,
            moves_left: 20,
            iir: true,
            futility: Some(30),
            futility_depth: 6,
            futility_base: 10,
            futility_moves: 3,
            futility_noisy: true,
            reduce_noisy: true,
            hopeless: Some(1),
            singular: Some(2),
            improving: true,
            noisy_history: true,
            staged: true,
            pv_table_cuts: true,
            table_eval: true,
        };
        let mut nodes = Vec::new();
        for heuristics in [
            Heuristics::NONE,
            all,
            Heuristics {
                singular: None,
                ..all
            },
            Heuristics {
                improving: false,
                ..all
            },
            Heuristics {
                noisy_history: false,
                ..all
            },
            Heuristics {
                staged: false,
                ..all
            },
            Heuristics {
                pv_table_cuts: false,
                ..all
            },
            Heuristics {
                futility_noisy: false,
                ..all
            },
            Heuristics {
                table_eval: false,
                ..all
            },
        ] {
            let mut searcher = Searcher::<Ataxx>::new(1);
            searcher.set_heuristics(heuristics);
            // With the prunings, deep enough for singular extensions (nodes 6 plies from the
            // horizon, off the principal variation).
            let depth = if heuristics == Heuristics::NONE { 6 } else { 8 };
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let position = Ataxx::parse_position("7/7/7/7/7/7/x2o3 x 0 1", None).unwrap();
            let found = searcher.search(&position, limits, &AtomicBool::new(false), &mut |_| {});
            assert_eq!(found.score(), Score::Mate(1), "{heuristics:?}: {found:?}");
            let start = Ataxx::start(None).unwrap();
            let found = searcher.search(&start, limits, &AtomicBool::new(false), &mut |_| {});
            assert!(start.is_legal(found.pv[0]), "{heuristics:?}");
            nodes.push(searcher.nodes());
        }
        // The singular searches, "improving", the noisy moves' history, the staged table move,
        // the table's cut-offs at principal-variation nodes, futility pruning of the noisy moves
        // and the table's score for the evaluation each acted: without one of them the same
        // search takes another path.
        for without in 2..9 {
            assert_ne!(nodes[1], nodes[without], "{nodes:?}");
        }
    }

    #[test]
    fn passes_when_it_must() {
        let found = search::<Ataxx>("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", 3);
        assert_eq!(found.pv[0].to_string(), "0000");
    }

    #[test]
    fn every_game_searches() {
        let start = |name| match name {
            "tablut" => Tablut::start(None).unwrap().to_string(),
            "gonnect" => Gonnect::start(None).unwrap().to_string(),
            _ => Dama::start(None).unwrap().to_string(),
        };
        assert!(!search::<Tablut>(&start("tablut"), 2).pv.is_empty());
        assert!(!search::<Gonnect>(&start("gonnect"), 2).pv.is_empty());
        assert!(!search::<Dama>(&start("dama"), 4).pv.is_empty());
    }

    /// The node count of fixed-depth searches from fixed positions: the search's signature. It
    /// changes when (and only when) the search, the move ordering or the Ataxx evaluation
    /// changes; update it then, with the new figure `tavola bench` prints.
    #[test]
    fn the_ataxx_node_count_signature() {
        let nodes: u64 = super::super::bench::ATAXX
            .iter()
            .map(|text| search::<Ataxx>(text, super::super::bench::TEST_DEPTH).nodes)
            .sum();
        assert_eq!(nodes, super::super::bench::ATAXX_SIGNATURE);
    }
}
