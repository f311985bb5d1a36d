//! Monte Carlo tree search: UCT with RAVE, leaves valued by the evaluation or by random playouts.
//!
//! Written for Gonnect, where Monte Carlo was expected to beat alpha-beta; it works for any
//! [`Game`] through the SDK's rules alone. Each simulation walks down the tree by UCT blended with
//! the all-moves-as-first (AMAF, "RAVE") statistics, grows a node once it has been visited a few
//! times, values the new leaf by the game's evaluation turned into a win rate (`leaf=eval`, the
//! default) or by a uniformly random playout to the end (`leaf=playout`), and credits the result to
//! every node on its path and, through AMAF, to each sibling move its player played later in the
//! simulation. It thinks until its budget (from the clock, `movetime=MS` or `playouts=N`) is spent
//! or it is asked to stop, reporting as it goes, and plays the most visited move.
//!
//! Measured in Gonnect at equal time per move, it loses to the alpha-beta search on the same
//! evaluation (-241 ± 130 Elo at 100 ms a move over 60 games, 2 of 20 at 300 ms), so `builtin`
//! plays alpha-beta there; this search stays selectable as `builtin:engine=mcts`.

use std::hash::{BuildHasher, Hash};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tavola_sdk::abi::Clocks;
use tavola_sdk::{Color, Game, Position, SearchInfo};

use crate::seat::{Answer, Brain, Control, Request, SeatFailure};

/// Visits of a leaf before its children are added (keeps the tree small: most leaves are visited
/// once or twice).
const EXPAND_AT: u32 = 4;
/// The UCT exploration constant (small: RAVE does most of the exploring).
const EXPLORATION: f32 = 0.15;
/// RAVE's equivalence parameter: after about this many real visits AMAF and real results weigh
/// the same.
const RAVE_EQUIVALENCE: f32 = 400.0;
/// The size of the AMAF move table (moves are hashed into it).
const AMAF_SLOTS: usize = 1 << 12;
/// A playout is cut off (a draw) after this many plies.
const MAX_PLAYOUT: u32 = 1_000;
/// Playouts between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 16;
/// Time between two search reports.
const REPORT_EVERY: Duration = Duration::from_millis(200);
/// The evaluation difference (in hundredths) that makes a leaf 10 to 1 to win.
const LEAF_SCALE: f32 = 400.0;
/// The most nodes the tree may hold (about 64 MB); the search stops growing it then.
const MAX_NODES: usize = 2_000_000;

/// One node: the move that led here and its statistics, from the view of the player who made it.
#[derive(Debug, Clone)]
struct Node<M> {
    mv: Option<M>,
    slot: u16,
    first_child: u32,
    children: u16,
    expanded: bool,
    visits: u32,
    wins: f32,
    amaf_visits: u32,
    amaf_wins: f32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, slot: u16) -> Node<M> {
        Node {
            mv,
            slot,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }

    /// The selection value seen from the parent (`ln_parent`: the log of its visits).
    fn value(&self, ln_parent: f32) -> f32 {
        let n = self.visits as f32;
        let q = if self.visits > 0 { self.wins / n } else { 0.5 };
        let amaf = if self.amaf_visits > 0 {
            self.amaf_wins / self.amaf_visits as f32
        } else {
            0.5
        };
        let beta = (RAVE_EQUIVALENCE / (3.0 * n + RAVE_EQUIVALENCE)).sqrt();
        (1.0 - beta) * q + beta * amaf + EXPLORATION * (ln_parent / (n + 1.0)).sqrt()
    }
}

/// How long to think, or how many playouts to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Budget {
    /// From the clock of each request (the default).
    Clock,
    /// This long per move.
    MoveTime(Duration),
    /// This many playouts per move (deterministic from the seed).
    Playouts(u64),
}

/// An evaluation from the side to move's view, in hundredths (see [`crate::builtin::Evaluate`]).
pub type Evaluation<G> = fn(&<G as Game>::Position) -> i32;

/// How a new leaf is valued.
enum Leaf<G: Game> {
    /// By a uniformly random playout to the end of the game.
    Playout,
    /// By the evaluation, turned into a win rate.
    Evaluation(Evaluation<G>),
}

impl<G: Game> Clone for Leaf<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Leaf<G> {}

impl<G: Game> std::fmt::Debug for Leaf<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Leaf::Playout => "Playout",
            Leaf::Evaluation(_) => "Evaluation",
        })
    }
}

/// The Monte Carlo tree search bot.
#[derive(Debug)]
pub struct MctsBrain<G: Game> {
    rng: SmallRng,
    budget: Budget,
    leaf: Leaf<G>,
}

impl<G: Game> MctsBrain<G> {
    /// A bot thinking from the clock, drawing its playouts from `seed`; with `evaluation`, leaves
    /// are valued by it instead of by random playouts.
    #[must_use]
    pub fn new(seed: u64, evaluation: Option<Evaluation<G>>) -> MctsBrain<G> {
        MctsBrain {
            rng: SmallRng::seed_from_u64(seed),
            budget: Budget::Clock,
            leaf: evaluation.map_or(Leaf::Playout, Leaf::Evaluation),
        }
    }

    /// Parses the bot's options: `movetime=MS` (think this long per move) or `playouts=N`
    /// (this many simulations per move), `leaf=eval|playout` (value new leaves by `evaluation`,
    /// the default, or by random playouts); `engine=mcts` (which chose this bot) is accepted.
    ///
    /// # Errors
    /// A message naming the bad option.
    pub fn from_options(
        options: &[(String, String)],
        seed: u64,
        evaluation: Evaluation<G>,
    ) -> Result<MctsBrain<G>, String> {
        let mut brain = MctsBrain::new(seed, Some(evaluation));
        for (key, value) in options {
            let number = || {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("{key}={value}: expected a positive number"))
            };
            match key.as_str() {
                "engine" if value == "mcts" => {}
                "movetime" => brain.budget = Budget::MoveTime(Duration::from_millis(number()?)),
                "playouts" => brain.budget = Budget::Playouts(number()?),
                "leaf" if value == "eval" => brain.leaf = Leaf::Evaluation(evaluation),
                "leaf" if value == "playout" => brain.leaf = Leaf::Playout,
                _ => {
                    return Err(format!(
                        "unknown option {key}={value} of builtin:engine=mcts (known: movetime, playouts, leaf=eval|playout)"
                    ))
                }
            }
        }
        Ok(brain)
    }

    /// The time to spend on a move with `clocks`, or `None` for no limit.
    fn time_for(&self, clocks: &Clocks) -> Option<Duration> {
        match self.budget {
            Budget::MoveTime(time) => Some(time),
            Budget::Playouts(_) => None,
            Budget::Clock => {
                if let Some(ms) = clocks.movetime_ms.into_option() {
                    return Some(Duration::from_millis(ms.saturating_sub(ms / 10 + 5).max(1)));
                }
                let own = clocks.own_ms.into_option()?;
                // A Gonnect game lasts some 60 moves a side; keep a reserve for the rest.
                let share = own / 30 + clocks.increment_ms * 3 / 4;
                Some(Duration::from_millis(share.min(own / 4).max(1)))
            }
        }
    }
}

/// A hasher for the AMAF slots: a move's hash, reproducible run to run.
#[derive(Debug, Clone, Copy, Default)]
struct SlotHasher;

impl BuildHasher for SlotHasher {
    type Hasher = std::hash::DefaultHasher;
    fn build_hasher(&self) -> Self::Hasher {
        std::hash::DefaultHasher::new()
    }
}

fn slot_of<M: Hash>(mv: &M) -> u16 {
    (SlotHasher.hash_one(mv) as usize % AMAF_SLOTS) as u16
}

/// The search of one move.
struct Search<'a, G: Game> {
    leaf: Leaf<G>,
    nodes: Vec<Node<G::Move>>,
    root_side: Color,
    rng: &'a mut SmallRng,
    moves: Vec<G::Move>,
    /// Per AMAF slot: the simulation that last stamped it, the ply and the player of its first
    /// play in that simulation.
    stamp: Vec<u32>,
    first_ply: Vec<u16>,
    first_player: Vec<Color>,
    simulation: u32,
    max_depth: u32,
}

impl<G: Game> Search<'_, G> {
    /// Adds the children of `node` (at `position`); none when the game is over there.
    fn expand(&mut self, node: usize, position: &G::Position) {
        self.nodes[node].expanded = true;
        if position.is_game_over() || self.nodes.len() >= MAX_NODES {
            return;
        }
        self.moves.clear();
        position.generate_moves(&mut self.moves);
        self.nodes[node].first_child = self.nodes.len() as u32;
        self.nodes[node].children = self.moves.len().min(usize::from(u16::MAX)) as u16;
        for &mv in self.moves.iter().take(usize::from(u16::MAX)) {
            self.nodes.push(Node::new(Some(mv), slot_of(&mv)));
        }
    }

    /// The child of `node` to descend to.
    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let ln = (parent.visits.max(1) as f32).ln();
        let first = parent.first_child as usize;
        let mut best = first;
        let mut best_value = f32::MIN;
        for child in first..first + usize::from(parent.children) {
            let value = self.nodes[child].value(ln);
            if value > best_value {
                best = child;
                best_value = value;
            }
        }
        best
    }

    /// Notes that `player` played `slot` at `ply` of this simulation (its first play counts).
    fn record(&mut self, slot: u16, ply: u32, player: Color) {
        let slot = usize::from(slot);
        if self.stamp[slot] != self.simulation {
            self.stamp[slot] = self.simulation;
            self.first_ply[slot] = ply.min(u32::from(u16::MAX)) as u16;
            self.first_player[slot] = player;
        }
    }

    /// One simulation from the root.
    fn simulate(&mut self, root: &G::Position) {
        self.simulation = self.simulation.wrapping_add(1);
        let mut position = root.clone();
        let mut path = vec![0usize];
        let mut node = 0;
        loop {
            if !self.nodes[node].expanded {
                if self.nodes[node].visits + 1 < EXPAND_AT && node != 0 {
                    break;
                }
                self.expand(node, &position);
            }
            if self.nodes[node].children == 0 {
                break;
            }
            let child = self.select(node);
            let ply = path.len() as u32 - 1;
            let mover = position.side_to_move();
            if let Some(mv) = self.nodes[child].mv {
                position.play_unchecked(mv);
            }
            self.record(self.nodes[child].slot, ply, mover);
            path.push(child);
            node = child;
        }
        self.max_depth = self.max_depth.max(path.len() as u32 - 1);
        let value = match (position.outcome(), self.leaf) {
            (Some(outcome), _) => result(outcome.winner),
            (None, Leaf::Evaluation(evaluate)) => {
                let rate = win_rate(evaluate(&position));
                let mut value = [1.0 - rate; 2];
                value[position.side_to_move().index()] = rate;
                value
            }
            (None, Leaf::Playout) => {
                let winner = self.playout(&mut position, path.len() as u32 - 1);
                result(winner)
            }
        };
        self.back_up(&path, value);
    }

    /// Plays at random to the end; the winner, `None` for a draw or a cut-off.
    fn playout(&mut self, position: &mut G::Position, mut ply: u32) -> Option<Color> {
        let end = ply + MAX_PLAYOUT;
        while ply < end {
            if let Some(outcome) = position.outcome() {
                return outcome.winner;
            }
            self.moves.clear();
            position.generate_moves(&mut self.moves);
            let &mv = self
                .moves
                .get(self.rng.gen_range(0..self.moves.len().max(1)))?;
            let mover = position.side_to_move();
            position.play_unchecked(mv);
            self.record(slot_of(&mv), ply, mover);
            ply += 1;
        }
        None
    }

    /// Credits the result to the path and, through AMAF, to the siblings played later.
    fn back_up(&mut self, path: &[usize], value: [f32; 2]) {
        let score = |player: Color| value[player.index()];
        // The player to move at the root, then alternating (every move hands the turn over).
        let mut to_move = self.root_side;
        for (depth, &node) in path.iter().enumerate() {
            let n = &mut self.nodes[node];
            n.visits += 1;
            // A node's wins are those of the player who made its move.
            n.wins += score(to_move.other());
            let (first, count) = (n.first_child as usize, usize::from(n.children));
            let result = score(to_move);
            for child in first..first + count {
                let slot = usize::from(self.nodes[child].slot);
                if self.stamp[slot] == self.simulation
                    && usize::from(self.first_ply[slot]) >= depth
                    && self.first_player[slot] == to_move
                {
                    let c = &mut self.nodes[child];
                    c.amaf_visits += 1;
                    c.amaf_wins += result;
                }
            }
            to_move = to_move.other();
        }
    }

    /// The principal variation: the most visited child, repeatedly, with the root's best child's
    /// win rate.
    fn principal_variation(&self) -> (Vec<G::Move>, f32) {
        let mut pv = Vec::new();
        let mut node = 0;
        let mut rate = 0.5;
        loop {
            let n = &self.nodes[node];
            let first = n.first_child as usize;
            let Some(best) = (first..first + usize::from(n.children))
                .filter(|&c| self.nodes[c].visits > 0)
                .max_by_key(|&c| self.nodes[c].visits)
            else {
                break;
            };
            if node == 0 {
                rate = self.nodes[best].wins / self.nodes[best].visits as f32;
            }
            match self.nodes[best].mv {
                Some(mv) => pv.push(mv),
                None => break,
            }
            node = best;
            if pv.len() >= 12 {
                break;
            }
        }
        (pv, rate)
    }

    fn report(&self, control: &Control, playouts: u64) {
        let (pv, rate) = self.principal_variation();
        control.report(SearchInfo {
            depth: self.max_depth,
            seldepth: self.max_depth,
            nodes: playouts,
            score: Some(hundredths(rate)),
            mate: None,
            pv: pv
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            message: format!("mcts, {} tree nodes", self.nodes.len()),
        });
    }
}

/// The result of a game for each colour (indexed by [`Color::index`]): 1 a win, 0 a loss.
fn result(winner: Option<Color>) -> [f32; 2] {
    match winner {
        Some(winner) => {
            let mut value = [0.0; 2];
            value[winner.index()] = 1.0;
            value
        }
        None => [0.5; 2],
    }
}

/// The win rate an evaluation in hundredths stands for: the inverse of [`hundredths`], flattened
/// (an evaluation is less sure than a real result).
fn win_rate(score: i32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-(score as f32) / LEAF_SCALE))
}

/// A win rate as a score in hundredths: the logistic curve of Elo ratings, so 0.5 is 0 and each
/// 100 points of Elo are 100 hundredths (clamped to ±20 pieces).
fn hundredths(rate: f32) -> i32 {
    let rate = rate.clamp(0.001, 0.999);
    (400.0 * (rate / (1.0 - rate)).log10())
        .round()
        .clamp(-2000.0, 2000.0) as i32
}

impl<G: Game> Brain<G> for MctsBrain<G> {
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        let root = &request.position;
        let start = Instant::now();
        let deadline = self.time_for(&request.clocks).map(|t| start + t);
        let limit = match self.budget {
            Budget::Playouts(n) => n,
            // Untimed, and no limit given: a fixed, fair amount.
            _ if deadline.is_none() => 20_000,
            _ => u64::MAX,
        };
        let mut search = Search::<G> {
            leaf: self.leaf,
            nodes: vec![Node::new(None, 0)],
            root_side: root.side_to_move(),
            rng: &mut self.rng,
            moves: Vec::with_capacity(256),
            stamp: vec![0; AMAF_SLOTS],
            first_ply: vec![0; AMAF_SLOTS],
            first_player: vec![Color::White; AMAF_SLOTS],
            simulation: 0,
            max_depth: 0,
        };
        search.expand(0, root);
        match search.nodes[0].children {
            0 => {
                return Err(SeatFailure::Error(
                    "asked to move with no legal move".to_owned(),
                ))
            }
            1 => {
                // The only move: no need to think.
                let mv = search.nodes[1].mv.map(|mv| mv.to_string());
                return mv.ok_or_else(|| SeatFailure::Error("no move".to_owned()));
            }
            _ => {}
        }
        // A move that wins at once is played at once (the tree would find it, but may prefer a
        // slower win it cannot tell apart).
        let children = 1..=usize::from(search.nodes[0].children);
        for mv in children.filter_map(|child| search.nodes[child].mv) {
            let mut after = root.clone();
            after.play_unchecked(mv);
            if after.outcome().and_then(|o| o.winner) == Some(search.root_side) {
                control.report(SearchInfo {
                    depth: 1,
                    seldepth: 1,
                    nodes: 0,
                    score: None,
                    mate: Some(1),
                    pv: mv.to_string(),
                    message: "mcts: a win in one".to_owned(),
                });
                return Ok(mv.to_string());
            }
        }
        let mut playouts = 0u64;
        let mut last_report = start;
        while playouts < limit {
            search.simulate(root);
            playouts += 1;
            if playouts % CHECK_EVERY == 0 {
                if control.stop_requested() || deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                if last_report.elapsed() >= REPORT_EVERY {
                    search.report(control, playouts);
                    last_report = Instant::now();
                }
            }
        }
        search.report(control, playouts);
        let (pv, _) = search.principal_variation();
        pv.first()
            .map(ToString::to_string)
            .ok_or_else(|| SeatFailure::Error("the search found no move".to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::games::gonnect::Gonnect;

    use super::*;
    use crate::builtin::Evaluate;
    use crate::seat::clocks;

    fn request(text: &str) -> Request<Gonnect> {
        let position = Gonnect::parse_position(text, None).unwrap();
        Request::new(text.to_owned(), Vec::new(), position, clocks(None, None, 0))
    }

    fn brain(playouts: &str, leaf: &str) -> MctsBrain<Gonnect> {
        let options = [
            ("playouts".into(), playouts.into()),
            ("leaf".into(), leaf.into()),
        ];
        MctsBrain::<Gonnect>::from_options(&options, 3, Gonnect::evaluate).unwrap()
    }

    #[test]
    fn completes_a_connection() {
        // Black's row 7 misses only G7: playing it wins at once.
        let text = "............./............./............./............./............./............./XXXXXX.XXXXXX/OOOOOO.OOOOO./............./............./............./............./............. X 30";
        for leaf in ["playout", "eval"] {
            let control = Control::default();
            let mv = Brain::<Gonnect>::choose(&mut brain("2000", leaf), &request(text), &control)
                .unwrap();
            assert_eq!(mv, "G7", "{leaf}");
            let info = control.info.lock().unwrap().clone().expect("a report");
            assert_eq!(info.mate, Some(1));
        }
    }

    #[test]
    fn reports_playouts_and_a_win_rate() {
        let text = Gonnect::start(None).unwrap().to_string();
        let control = Control::default();
        Brain::<Gonnect>::choose(&mut brain("500", "playout"), &request(&text), &control).unwrap();
        let info = control.info.lock().unwrap().clone().expect("a report");
        assert_eq!(info.nodes, 500);
        assert!(info.depth >= 1 && info.score.is_some(), "{info:?}");
        assert!(request(&text)
            .position
            .parse_move(info.pv.split(' ').next().unwrap())
            .is_ok());
    }

    #[test]
    fn blocks_the_opponents_connection() {
        // White threatens G7 the same way; Black must take it first.
        let text = "............./............./............./............./............./X............/OOOOOO.OOOOOO/............./............./............./............./............./...X......... X 30";
        for leaf in ["playout", "eval"] {
            let control = Control::default();
            let mv = Brain::<Gonnect>::choose(&mut brain("3000", leaf), &request(text), &control)
                .unwrap();
            assert_eq!(mv, "G7", "{leaf}");
        }
    }

    #[test]
    fn a_stop_request_still_answers_a_legal_move() {
        let text = Gonnect::start(None).unwrap().to_string();
        let control = Control::default();
        control
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut brain = MctsBrain::<Gonnect>::new(1, None);
        let request = request(&text);
        let mv = Brain::<Gonnect>::choose(&mut brain, &request, &control).unwrap();
        assert!(request.position.parse_move(&mv).is_ok());
    }

    #[test]
    fn the_same_seed_plays_the_same_move() {
        let text = Gonnect::start(None).unwrap().to_string();
        let choose = || {
            Brain::<Gonnect>::choose(
                &mut brain("300", "playout"),
                &request(&text),
                &Control::default(),
            )
        };
        let (a, b) = (choose(), choose());
        assert_eq!(a, b);
    }

    #[test]
    fn options_are_checked() {
        assert!(MctsBrain::<Gonnect>::from_options(
            &[("movetime".into(), "100".into())],
            0,
            Gonnect::evaluate
        )
        .is_ok());
        let error = MctsBrain::<Gonnect>::from_options(
            &[("playouts".into(), "0".into())],
            0,
            Gonnect::evaluate,
        )
        .unwrap_err();
        assert!(error.contains("playouts=0"), "{error}");
        let error = MctsBrain::<Gonnect>::from_options(
            &[("depth".into(), "3".into())],
            0,
            Gonnect::evaluate,
        )
        .unwrap_err();
        assert!(error.contains("depth"), "{error}");
    }

    /// Not a speed test (it asserts nothing about time): playouts per second from the empty
    /// board, measured in release with
    /// `cargo test --release -p tavola --lib mcts_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn mcts_speed() {
        let text = Gonnect::start(None).unwrap().to_string();
        let start = Instant::now();
        let control = Control::default();
        Brain::<Gonnect>::choose(&mut brain("20000", "playout"), &request(&text), &control)
            .unwrap();
        let seconds = start.elapsed().as_secs_f64();
        let info = control.info.lock().unwrap().clone().unwrap();
        println!(
            "mcts: {:.0} playouts/s from the empty board (depth {}, {})",
            20_000.0 / seconds,
            info.depth,
            info.message
        );
    }

    #[test]
    fn win_rates_become_hundredths() {
        assert_eq!(hundredths(0.5), 0);
        assert!(hundredths(0.76) > 150 && hundredths(0.76) < 250);
        assert_eq!(hundredths(0.0), -hundredths(1.0));
    }
}
