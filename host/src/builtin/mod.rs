//! The built-in bot: one search framework ([`search`]) over a per-game evaluation ([`Evaluate`]).
//!
//! It uses only the SDK's public rules API, as a bot author would. Options (`builtin:key=value`):
//! `depth=N`, `movetime=MS`, `nodes=N`, `level=1..10` (weaker levels search shallower, for a
//! smaller share of the time, and the weakest choose among near-best moves at random),
//! `hash=MB`. Without them it plays at full strength under the clock it is given ([`time`]).

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tavola_sdk::{Game, Position, SearchInfo};

use crate::seat::{Answer, Brain, Choice, Control, MoveLimits, Request, SeatFailure, TypedAnswer};

pub mod bench;
pub mod eval;
pub mod mcts;
pub mod search;
pub mod time;
mod tt;

use search::{Iteration, Limits, Score, Searcher};

/// A static evaluation for the built-in bot, from the point of view of the side to move.
pub trait Evaluate: Game {
    /// The score of a position that is not finished, for its side to move (positive is good), in
    /// hundredths of a piece.
    fn evaluate(position: &Self::Position) -> i32;

    /// Makes ready what the evaluation loads once per process (a network read from its
    /// bytes), so that no move's clock pays for it: called as each [`Searcher`] (and each
    /// bot of `builtin:engine=mcts`) is made. Nothing by default.
    fn prepare() {}

    /// Moves the quiescence search plays out beyond the nominal depth (captures, say), appended
    /// to `moves`; the side to move may always stand pat on [`Evaluate::evaluate`] instead. None
    /// by default: the search then ends on the evaluation.
    fn noisy_moves(_position: &Self::Position, _moves: &mut Vec<Self::Move>) {}

    /// Whether a position with noisy moves has no other legal moves (Dama: a capture is
    /// compulsory), so that the quiescence search must play one instead of standing pat. False
    /// by default.
    const NOISY_FORCED: bool = false;

    /// Whether [`Evaluate::order_hint`] gives hints at all: a game that overrides it says so
    /// here. Without, every hint is 0 and the search neither computes nor keeps them.
    const ORDER_HINTS: bool = false;

    /// A hint for move ordering, about -1000..1000, larger first: at least
    /// [`search::NOISY_HINT`] orders a move before the killers (a capture), smaller values only
    /// among the quiet moves. 0 by default; read only where [`Evaluate::ORDER_HINTS`] is set.
    fn order_hint(_position: &Self::Position, _mv: Self::Move) -> i32 {
        0
    }

    /// Appends the [`Evaluate::order_hint`] of each of `moves` to `hints`, in order: what the
    /// search asks once per node. A game whose hints share work between the moves of a
    /// position computes them together here.
    fn order_hints(position: &Self::Position, moves: &[Self::Move], hints: &mut Vec<i32>) {
        hints.extend(moves.iter().map(|&mv| Self::order_hint(position, mv)));
    }

    /// The levels 1 to 10 (`builtin:level=N`), weakest first, each measured stronger than the
    /// one before; [`LEVELS`] by default.
    const LEVELS: [Level; 10] = LEVELS;

    /// The search's prunings and reductions this game uses (none by default): each one a match
    /// showed to gain in this game.
    const HEURISTICS: search::Heuristics = search::Heuristics::NONE;

    /// What the game's opening knowledge says of `position` (Gonnect: its first move and the
    /// swap), drawing from `rng` to choose among equally good moves; [`Opening::Search`] by
    /// default.
    fn opening(_position: &Self::Position, _rng: &mut StdRng) -> Opening<Self::Move> {
        Opening::Search
    }
}

/// What a game's opening knowledge says of a position ([`Evaluate::opening`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opening<M> {
    /// Nothing: the search decides.
    Search,
    /// Play `mv` without searching; `why` is shown with it.
    Play {
        /// The move.
        mv: M,
        /// Where it comes from, in a few words.
        why: String,
    },
    /// Let the search decide, but never on `mv`; `why` is shown with the search's first report.
    Avoid {
        /// The move left out.
        mv: M,
        /// Why, in a few words.
        why: String,
    },
}

/// How strongly and how long the built-in bot plays: the parsed options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// A fixed time per move (within the clock).
    pub movetime: Option<Duration>,
    /// A node limit per move.
    pub nodes: Option<u64>,
    /// Random noise, in hundredths, added to each root move's score (weaker levels).
    pub noise: i32,
    /// The share of the time full strength would take that the bot takes: 1/`time_divisor`
    /// (weaker levels; 1 at full strength).
    pub time_divisor: u32,
    /// The transposition table, in megabytes.
    pub hash_mb: usize,
    /// Ataxx evaluation weights other than the tuned ones (tuning matches only).
    pub ataxx_weights: Option<eval::ataxx::Weights>,
    /// Prunings other than the game's own (matches that measure one only).
    pub heuristics: Option<search::Heuristics>,
    /// A Dama evaluation other than the default (matches that measure one only).
    pub dama_eval: Option<eval::net::EvalChoice>,
    /// A Gonnect evaluation other than the default (matches that measure one only).
    pub gonnect_eval: Option<eval::net::EvalChoice>,
    /// A Tablut evaluation other than the default (matches that measure one only).
    pub tablut_eval: Option<eval::net::EvalChoice>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            depth: None,
            movetime: None,
            nodes: None,
            noise: 0,
            time_divisor: 1,
            hash_mb: Searcher::<tavola_sdk::games::ataxx::Ataxx>::DEFAULT_HASH_MB,
            ataxx_weights: None,
            heuristics: None,
            dama_eval: None,
            gonnect_eval: None,
            tablut_eval: None,
        }
    }
}

/// A level of the built-in bot: how deep, how noisily and for what share of the time it plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// The deepest iteration (`None`: as deep as the time allows).
    pub depth: Option<u32>,
    /// Random noise, in hundredths, added to each root move's score.
    pub noise: i32,
    /// The share of the time full strength would take: 1/`time_divisor`.
    pub time_divisor: u32,
}

/// A level searching at most `depth` plies, with `noise`, for 1/`time_divisor` of the time.
#[must_use]
pub const fn level(depth: u32, noise: i32, time_divisor: u32) -> Level {
    Level {
        depth: Some(depth),
        noise,
        time_divisor,
    }
}

/// Level 10: full strength.
const FULL_STRENGTH: Level = Level {
    depth: None,
    noise: 0,
    time_divisor: 1,
};

/// Levels 1 to 10 unless a game has its own ([`Evaluate::LEVELS`]); 10 is full strength.
/// Levels 1-3 pick the best of the one-ply scores after adding noise (hundredths). Levels 4-9
/// search at most 1-6 plies and for at most 1/64, 1/32, ..., 1/2 of the time level 10 would
/// take, so that each level is stronger than the one below under any clock: by depth where the
/// game is quick to search (Ataxx, Dama), by time where the time runs out first (Tablut at 100
/// ms per move). The strength runs are in `scripts/strength.sh`.
pub const LEVELS: [Level; 10] = [
    level(1, 400, 1),
    level(1, 150, 1),
    level(1, 60, 1),
    level(1, 0, 64),
    level(2, 0, 32),
    level(3, 0, 16),
    level(4, 0, 8),
    level(5, 0, 4),
    level(6, 0, 2),
    FULL_STRENGTH,
];

/// What the GUI's Hint button gives the bot: a fixed time.
pub const HINT_MOVETIME: Duration = Duration::from_millis(300);

fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    key: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "builtin option {key}={value}: expected a number from {} to {}",
                range.start(),
                range.end()
            )
        })
}

impl Settings {
    /// Parses the bot's options for game `G`: `depth=N`, `movetime=MS`, `nodes=N`, `level=1..10`
    /// (from `G`'s [`Evaluate::LEVELS`]), `hash=MB`.
    ///
    /// # Errors
    /// A one-line message naming the bad option and what is expected.
    pub fn from_options<G: Evaluate>(options: &[(String, String)]) -> Result<Settings, String> {
        let mut settings = Settings::default();
        let mut depth = None;
        for (key, value) in options {
            match key.as_str() {
                "depth" => depth = Some(number(key, value, 1..=64)?),
                "movetime" => {
                    settings.movetime =
                        Some(Duration::from_millis(number(key, value, 1..=3_600_000)?));
                }
                "nodes" => settings.nodes = Some(number(key, value, 1..=u64::MAX / 2)?),
                "level" => {
                    let level = G::LEVELS[number::<usize>(key, value, 1..=10)? - 1];
                    settings.depth = level.depth;
                    settings.noise = level.noise;
                    settings.time_divisor = level.time_divisor;
                }
                "hash" => settings.hash_mb = number(key, value, 1..=4096)?,
                // Hidden: other Ataxx evaluation weights, for tuning matches.
                "ataxx_eval" => {
                    let w = settings.ataxx_weights.get_or_insert(eval::ataxx::WEIGHTS);
                    w.network = match value.as_str() {
                        "network" => true,
                        "classic" => false,
                        _ => return Err(format!("{key}={value:?} is not network or classic")),
                    };
                }
                "ataxx_network" => {
                    let path = std::path::Path::new(value);
                    let network = eval::net::load::<tavola_sdk::games::ataxx::Ataxx>(path)
                        .map_err(|e| format!("{key}: {e}"))?;
                    let w = settings.ataxx_weights.get_or_insert(eval::ataxx::WEIGHTS);
                    w.network = true;
                    w.network_file = Some(network);
                }
                "dama_eval" | "gonnect_eval" | "tablut_eval" => {
                    let choice = match value.as_str() {
                        "network" => eval::net::EvalChoice::Network,
                        "classic" => eval::net::EvalChoice::Classic,
                        _ => return Err(format!("{key}={value:?} is not network or classic")),
                    };
                    *settings.eval_choice(key) = Some(choice);
                }
                "dama_network" | "gonnect_network" | "tablut_network" => {
                    let path = std::path::Path::new(value);
                    let network = match key.as_str() {
                        "dama_network" => eval::net::load::<tavola_sdk::games::dama::Dama>(path),
                        "gonnect_network" => {
                            eval::net::load::<tavola_sdk::games::gonnect::Gonnect>(path)
                        }
                        _ => eval::net::load::<tavola_sdk::games::tablut::Tablut>(path),
                    }
                    .map_err(|e| format!("{key}: {e}"))?;
                    *settings.eval_choice(key) = Some(eval::net::EvalChoice::File(network));
                }
                "ataxx_mobility" | "ataxx_exposed" | "ataxx_tempo" | "ataxx_clone" => {
                    let n = number(key, value, -1000..=1000)?;
                    let w = settings.ataxx_weights.get_or_insert(eval::ataxx::WEIGHTS);
                    match key.as_str() {
                        "ataxx_mobility" => w.mobility = n,
                        "ataxx_exposed" => w.exposed = n,
                        "ataxx_clone" => w.clone_hint = n,
                        _ => w.tempo_percent = n,
                    }
                }
                // Hidden: the search's heuristics other than the game's own, for the matches
                // that decide them (`lmr=log|plain`, `rfp=MARGIN|off`, `nmp=on|off`,
                // `lmp=on|off`, `tm=stable|nodes|plain`, `iir=on|off`, `fp=MARGIN|off`,
                // `fpd=DEPTH`, `fpb=BASE`, `fpm=MOVES`, `fpn=on|off`, `reduce=all|quiet`,
                // `hopeless=HINT|off`, `se=MARGIN|off`, `tmleft=MOVES`, `imp=on|off`,
                // `hist=all|quiet`, `stage=on|off`, `ttpv=on|off`, `tte=on|off`).
                "lmr" | "rfp" | "nmp" | "lmp" | "tm" | "iir" | "fp" | "fpd" | "fpb" | "fpm"
                | "fpn" | "reduce" | "hopeless" | "se" | "tmleft" | "imp" | "hist" | "stage"
                | "ttpv" | "tte" => {
                    let p = settings.heuristics.get_or_insert(G::HEURISTICS);
                    let bad = || format!("{key}={value:?} is not one of its values");
                    match (key.as_str(), value.as_str()) {
                        ("lmr", "log") => p.log_reductions = true,
                        ("lmr", "plain") => p.log_reductions = false,
                        ("rfp", "off") => p.reverse_futility = None,
                        ("rfp", _) => p.reverse_futility = Some(number(key, value, 1..=10_000)?),
                        ("nmp", "on") => p.null_move = true,
                        ("nmp", "off") => p.null_move = false,
                        ("lmp", "on") => p.late_moves = true,
                        ("lmp", "off") => p.late_moves = false,
                        ("tm", "stable") => p.time = search::TimeUse::Stable,
                        ("tm", "nodes") => p.time = search::TimeUse::Nodes,
                        ("tm", "plain") => p.time = search::TimeUse::Plain,
                        ("iir", "on") => p.iir = true,
                        ("iir", "off") => p.iir = false,
                        ("fp", "off") => p.futility = None,
                        ("fp", _) => p.futility = Some(number(key, value, 1..=10_000)?),
                        ("fpd", _) => p.futility_depth = number(key, value, 1..=10)?,
                        ("fpb", _) => p.futility_base = number(key, value, 0..=10_000)?,
                        ("fpm", _) => p.futility_moves = number(key, value, 1..=64)?,
                        ("fpn", "on") => p.futility_noisy = true,
                        ("fpn", "off") => p.futility_noisy = false,
                        ("reduce", "all") => p.reduce_noisy = true,
                        ("reduce", "quiet") => p.reduce_noisy = false,
                        ("hopeless", "off") => p.hopeless = None,
                        ("hopeless", _) => p.hopeless = Some(number(key, value, -1000..=1000)?),
                        ("se", "off") => p.singular = None,
                        ("se", _) => p.singular = Some(number(key, value, 0..=1000)?),
                        ("tmleft", _) => p.moves_left = number(key, value, 2..=200)?,
                        ("imp", "on") => p.improving = true,
                        ("imp", "off") => p.improving = false,
                        ("hist", "all") => p.noisy_history = true,
                        ("hist", "quiet") => p.noisy_history = false,
                        ("stage", "on") => p.staged = true,
                        ("stage", "off") => p.staged = false,
                        ("ttpv", "on") => p.pv_table_cuts = true,
                        ("ttpv", "off") => p.pv_table_cuts = false,
                        ("tte", "on") => p.table_eval = true,
                        ("tte", "off") => p.table_eval = false,
                        _ => return Err(bad()),
                    }
                }
                _ => {
                    return Err(format!(
                    "unknown builtin option {key:?} (known: depth, movetime, nodes, level, hash)"
                ))
                }
            }
        }
        settings.depth = depth.or(settings.depth);
        Ok(settings)
    }

    /// The evaluation choice that the hidden option `key` (`dama_…`, `gonnect_…` or
    /// `tablut_…`) sets.
    fn eval_choice(&mut self, key: &str) -> &mut Option<eval::net::EvalChoice> {
        if key.starts_with("dama") {
            &mut self.dama_eval
        } else if key.starts_with("gonnect") {
            &mut self.gonnect_eval
        } else {
            &mut self.tablut_eval
        }
    }
}

/// The built-in bot for game `G`: a [`Searcher`] kept from move to move, and its settings.
#[derive(Debug)]
pub struct BuiltinBrain<G: Evaluate> {
    settings: Settings,
    searcher: Searcher<G>,
    rng: StdRng,
}

impl<G: Evaluate> BuiltinBrain<G> {
    /// A built-in bot with `settings`, drawing any randomness from `seed`.
    #[must_use]
    pub fn new(settings: Settings, seed: u64) -> BuiltinBrain<G> {
        let mut searcher = Searcher::new(settings.hash_mb);
        if let Some(pruning) = settings.heuristics {
            searcher.set_heuristics(pruning);
        }
        BuiltinBrain {
            settings,
            searcher,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Parses the bot's options (see [`Settings::from_options`]).
    ///
    /// # Errors
    /// A one-line message naming the bad option.
    pub fn from_options(
        options: &[(String, String)],
        seed: u64,
    ) -> Result<BuiltinBrain<G>, String> {
        Ok(BuiltinBrain::new(
            Settings::from_options::<G>(options)?,
            seed,
        ))
    }

    /// The bot the Hint button asks: full strength for [`HINT_MOVETIME`], a small table.
    #[must_use]
    pub fn hint(seed: u64) -> BuiltinBrain<G> {
        let settings = Settings {
            movetime: Some(HINT_MOVETIME),
            hash_mb: 4,
            ..Settings::default()
        };
        BuiltinBrain::new(settings, seed)
    }

    /// The limits of one move under these settings, `clocks` and what the host `asked` (the
    /// lower of its depth or node limit and the settings' own, so that a level stays a level).
    fn limits(&self, clocks: &tavola_sdk::abi::Clocks, asked: MoveLimits) -> Limits {
        let moves_left = self.settings.heuristics.unwrap_or(G::HEURISTICS).moves_left;
        let mut limits = time::limits_over(clocks, self.settings.movetime, moves_left);
        limits.depth = self.settings.depth.into_iter().chain(asked.depth).min();
        limits.nodes = self.settings.nodes.into_iter().chain(asked.nodes).min();
        let divisor = self.settings.time_divisor;
        if asked.infinite {
            // Until the host says stop (or the depth or node limit ends it).
            limits.soft = None;
            limits.hard = None;
        } else if divisor > 1 {
            // A weaker level: a share of the time (its depth limit may end the search sooner).
            limits.soft = limits.soft.map(|t| t / divisor);
            limits.hard = limits.hard.map(|t| t / divisor);
        } else if self.settings.movetime.is_none()
            && clocks.own_ms.is_none()
            && clocks.movetime_ms.is_none()
            && (limits.depth.is_some() || limits.nodes.is_some())
        {
            // Untimed with a depth or node limit: that limit alone decides.
            limits.soft = None;
            limits.hard = None;
        }
        limits
    }

    /// Chooses a move in `position` (not finished) within `limits`, reporting each iteration.
    pub fn think(
        &mut self,
        position: &G::Position,
        limits: Limits,
        control: &Control,
    ) -> Iteration<G::Move> {
        match G::opening(position, &mut self.rng) {
            Opening::Search => self.searcher.exclude_root_moves(&[]),
            Opening::Play { mv, why } => {
                control.report(SearchInfo {
                    pv: mv.to_string(),
                    message: why,
                    ..SearchInfo::default()
                });
                return Iteration {
                    depth: 0,
                    seldepth: 0,
                    value: 0,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    pv: vec![mv],
                };
            }
            Opening::Avoid { mv, why } => {
                control.report(SearchInfo {
                    message: why,
                    ..SearchInfo::default()
                });
                self.searcher.exclude_root_moves(&[mv]);
            }
        }
        let mut report = |iteration: &Iteration<G::Move>| control.report(search_info(iteration));
        let found = self
            .searcher
            .search(position, limits, &control.stop, &mut report);
        if self.settings.noise == 0 {
            return found;
        }
        // A weaker level: every root move scored, noise added, the best of those taken.
        let depth = self.settings.depth.unwrap_or(1);
        let scored = self
            .searcher
            .score_root_moves(position, depth, limits, &control.stop);
        let noise = self.settings.noise;
        let chosen = scored
            .iter()
            .map(|&(mv, value)| {
                let value = if value.abs() >= search::MATE - 1000 {
                    value
                } else {
                    value + self.rng.gen_range(-noise..=noise)
                };
                (mv, value)
            })
            .max_by_key(|&(_, value)| value);
        match chosen {
            Some((mv, value)) => Iteration {
                value,
                pv: vec![mv],
                ..found
            },
            None => found,
        }
    }
}

/// An iteration as the host shows it.
#[must_use]
pub fn search_info<M: std::fmt::Display>(iteration: &Iteration<M>) -> SearchInfo {
    let (score, mate) = match iteration.score() {
        Score::Centi(cp) => (Some(cp), None),
        Score::Mate(moves) => (None, Some(moves)),
    };
    let pv: Vec<String> = iteration.pv.iter().map(ToString::to_string).collect();
    SearchInfo {
        depth: iteration.depth,
        seldepth: iteration.seldepth,
        nodes: iteration.nodes,
        score,
        mate,
        pv: pv.join(" "),
        message: format!("{} nps", iteration.nps()),
    }
}

impl<G: Evaluate> Brain<G> for BuiltinBrain<G> {
    /// Searches deeper and deeper within the limits from the settings and the clock, reporting
    /// after each depth; when asked to stop it answers with the deepest search finished, or the
    /// stopped one's best move once it has one ([`Searcher::search`]).
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        self.best_move(request, control).map(|mv| mv.to_string())
    }

    fn choose_typed(&mut self, request: &Request<G>, control: &Control) -> TypedAnswer<G::Move> {
        self.best_move(request, control).map(Choice::Move)
    }
}

impl<G: Evaluate> BuiltinBrain<G> {
    fn best_move(
        &mut self,
        request: &Request<G>,
        control: &Control,
    ) -> Result<G::Move, SeatFailure> {
        if request.position.outcome().is_some() {
            return Err(SeatFailure::Error(
                "asked to move in a finished game".to_owned(),
            ));
        }
        let limits = self.limits(&request.clocks, request.limits);
        eval::ataxx::set_weights(self.settings.ataxx_weights.unwrap_or(eval::ataxx::WEIGHTS));
        eval::dama::set_choice(self.settings.dama_eval.unwrap_or(eval::dama::DEFAULT));
        eval::gonnect::set_choice(self.settings.gonnect_eval.unwrap_or(eval::gonnect::DEFAULT));
        eval::tablut::set_choice(self.settings.tablut_eval.unwrap_or(eval::tablut::DEFAULT));
        let found = self.think(&request.position, limits, control);
        log::debug!(
            "builtin: depth {} score {:?} nodes {} pv {}",
            found.depth,
            found.score(),
            found.nodes,
            search_info(&found).pv
        );
        found
            .pv
            .first()
            .copied()
            .ok_or_else(|| SeatFailure::Error("asked to move with no legal move".to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::games::ataxx::Ataxx;

    use super::*;
    use crate::seat::{clocks, Control, Request};

    fn request(fen: &str) -> Request<Ataxx> {
        let position = Ataxx::parse_position(fen, None).unwrap();
        Request::<Ataxx>::new(fen.to_owned(), Vec::new(), position, clocks(None, None, 0))
    }

    fn brain(options: &[(&str, &str)], seed: u64) -> BuiltinBrain<Ataxx> {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        BuiltinBrain::from_options(&options, seed).unwrap()
    }

    #[test]
    fn takes_an_immediate_win_at_every_level() {
        // Only the jumps to c1 and c2 reach d1's last black piece; six other moves do not.
        for level in ["1", "5", "10"] {
            for seed in 0..4 {
                let mut bot = brain(&[("level", level), ("depth", "2")], seed);
                let mv = bot
                    .choose(&request("7/7/7/7/7/7/x2o3 x 0 1"), &Control::default())
                    .unwrap();
                assert!(
                    mv == "a1c1" || mv == "a1c2",
                    "level {level} seed {seed}: {mv}"
                );
            }
        }
    }

    #[test]
    fn reports_depth_score_nodes_and_pv() {
        let control = Control::default();
        let mut bot = brain(&[("depth", "3")], 1);
        let mv = bot
            .choose(&request("x5o/7/7/7/7/7/o5x x 0 1"), &control)
            .unwrap();
        let info = control.info.lock().unwrap().clone().expect("a report");
        assert_eq!(info.depth, 3);
        assert!(info.nodes > 16, "{info:?}");
        assert!(info.score.is_some());
        assert_eq!(info.pv.split(' ').next(), Some(mv.as_str()));
        assert!(info.pv.split(' ').count() >= 2, "{info:?}");
    }

    #[test]
    fn a_stop_request_answers_with_a_legal_move() {
        let request = request("x5o/7/7/7/7/7/o5x x 0 1");
        let control = Control::default();
        control
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut bot = brain(&[("depth", "30")], 1);
        let mv = bot.choose(&request, &control).unwrap();
        assert!(request.position.parse_move(&mv).is_ok());
    }

    #[test]
    fn gonnect_opens_and_swaps_from_its_table_at_every_level() {
        use tavola_sdk::games::gonnect::{Gonnect, Move, Point};

        use crate::builtin::eval::gonnect_book;

        let gonnect = |text: &str| {
            let position = Gonnect::parse_position(text, None).unwrap();
            Request::<Gonnect>::new(text.to_owned(), Vec::new(), position, clocks(None, None, 0))
        };
        let start = Gonnect::start(None).unwrap().to_string();
        for level in ["1", "5", "10"] {
            let options = [("level".to_owned(), level.to_owned())];
            let mut bot = BuiltinBrain::<Gonnect>::from_options(&options, 5).unwrap();
            let control = Control::default();
            let first = bot.choose(&gonnect(&start), &control).unwrap();
            let info = control.info.lock().unwrap().clone().expect("a report");
            assert_eq!(info.pv, first);
            assert!(info.message.contains("first-move table"), "{info:?}");
            let point: Point = first.parse().unwrap();
            let score = gonnect_book::black_score(point);
            assert!(
                (400..=600).contains(&score),
                "level {level}: {first} {score}"
            );
        }
        // After the first stone, White swaps the ones that favour Black and only those.
        let options = [("depth".to_owned(), "1".to_owned())];
        let mut bot = BuiltinBrain::<Gonnect>::from_options(&options, 5).unwrap();
        for point in Point::ALL {
            let mut request = gonnect(&start);
            request.position.play_unchecked(Move::Place(point));
            let answer = bot.choose(&request, &Control::default()).unwrap();
            let favours_black = gonnect_book::black_score(point) > 500;
            assert_eq!(answer == "swap", favours_black, "{point}: {answer}");
        }
    }

    #[test]
    fn weak_levels_vary_with_the_seed() {
        let request = request("x5o/7/7/7/7/7/o5x x 0 1");
        let moves: std::collections::HashSet<String> = (0..12)
            .map(|seed| {
                brain(&[("level", "1")], seed)
                    .choose(&request, &Control::default())
                    .unwrap()
            })
            .collect();
        assert!(moves.len() > 1, "{moves:?}");
    }

    #[test]
    fn each_level_takes_at_most_half_the_time_and_one_ply_less_than_the_next() {
        let limits = |level: &str, clocks: &tavola_sdk::abi::Clocks| {
            brain(&[("level", level)], 1).limits(clocks, MoveLimits::default())
        };
        for clocks in [
            clocks(None, None, 0),
            clocks(Some(120_000), Some(120_000), 0),
            tavola_sdk::abi::Clocks {
                movetime_ms: Some(100).into(),
                ..clocks(None, None, 0)
            },
        ] {
            let full = limits("10", &clocks);
            assert_eq!(full.depth, None);
            for k in 4..=9u32 {
                let level = limits(&k.to_string(), &clocks);
                assert_eq!(level.depth, Some(k - 3));
                let hard = level.hard.unwrap();
                assert_eq!(hard, full.hard.unwrap() / (1 << (10 - k)), "level {k}");
                assert!(level.soft <= level.hard);
                if k > 4 {
                    let weaker = limits(&(k - 1).to_string(), &clocks);
                    assert!(weaker.hard.unwrap() * 2 <= hard, "level {k}: {clocks:?}");
                }
            }
        }
        // An explicit depth without a clock still searches to that depth, whatever it takes.
        let deep =
            brain(&[("depth", "9")], 1).limits(&clocks(None, None, 0), MoveLimits::default());
        assert_eq!((deep.depth, deep.hard), (Some(9), None));
    }

    #[test]
    fn the_clock_is_spent_over_the_moves_the_option_asks() {
        let timed = clocks(Some(10_000), Some(10_000), 100);
        let soft = |options: &[(&str, &str)]| {
            brain(options, 1)
                .limits(&timed, MoveLimits::default())
                .soft
                .unwrap()
                .as_millis()
        };
        assert_eq!(soft(&[("tmleft", "20")]), 575);
        let moves_left = Ataxx::HEURISTICS.moves_left;
        assert_eq!(soft(&[]), u128::from(10_000 / moves_left + 75));
    }

    #[test]
    fn the_hosts_depth_node_and_infinite_limits_bind_under_the_settings_own() {
        let untimed = clocks(None, None, 0);
        let asked = |depth, nodes, infinite| MoveLimits {
            depth,
            nodes,
            infinite,
        };
        // `go depth 4` with no clock: four plies, however long they take.
        let l = brain(&[], 1).limits(&untimed, asked(Some(4), None, false));
        assert_eq!(
            (l.depth, l.nodes, l.soft, l.hard),
            (Some(4), None, None, None)
        );
        let l = brain(&[], 1).limits(&untimed, asked(None, Some(5000), false));
        assert_eq!((l.depth, l.nodes, l.hard), (None, Some(5000), None));
        // The lower of the two limits: a level or a seat's own limit stays.
        let l = brain(&[("depth", "3")], 1).limits(&untimed, asked(Some(8), None, false));
        assert_eq!(l.depth, Some(3));
        let l = brain(&[("nodes", "900")], 1).limits(&untimed, asked(None, Some(5000), false));
        assert_eq!(l.nodes, Some(900));
        let l = brain(&[("level", "5")], 1).limits(&untimed, asked(Some(1), None, false));
        assert_eq!(l.depth, Some(1));
        // With a clock, the clock still bounds the move.
        let timed = clocks(Some(60_000), Some(60_000), 0);
        let l = brain(&[], 1).limits(&timed, asked(Some(30), None, false));
        assert_eq!(l.depth, Some(30));
        assert!(l.hard.is_some());
        // `go infinite`: no time limit of its own, even on a clock.
        let l = brain(&[], 1).limits(&timed, asked(None, None, true));
        assert_eq!((l.soft, l.hard), (None, None));
        // Nothing asked: the bot's own default for an untimed move.
        let l = brain(&[], 1).limits(&untimed, MoveLimits::default());
        assert_eq!(l.hard, Some(time::UNTIMED));
    }

    #[test]
    fn a_depth_asked_by_the_host_ends_the_search_there() {
        let mut request = request("x5o/7/7/7/7/7/o5x x 0 1");
        request.limits.depth = Some(2);
        let control = Control::default();
        brain(&[], 1).choose(&request, &control).unwrap();
        let info = control.info.lock().unwrap().clone().expect("a report");
        assert_eq!(info.depth, 2);
    }

    #[test]
    fn options_are_checked() {
        let parse =
            |k: &str, v: &str| Settings::from_options::<Ataxx>(&[(k.to_owned(), v.to_owned())]);
        assert_eq!(parse("depth", "3").unwrap().depth, Some(3));
        assert_eq!(
            parse("movetime", "250").unwrap().movetime,
            Some(Duration::from_millis(250))
        );
        assert_eq!(parse("level", "1").unwrap().depth, Some(1));
        assert_eq!(parse("level", "10").unwrap(), Settings::default());
        // A game's own levels.
        let options = [("level".to_owned(), "5".to_owned())];
        let gonnect = Settings::from_options::<tavola_sdk::games::gonnect::Gonnect>(&options);
        let gonnect = gonnect.unwrap();
        assert_eq!((gonnect.depth, gonnect.noise), (Some(2), 60));
        assert_eq!(parse("level", "5").unwrap().noise, 0);
        let weights = parse("ataxx_clone", "20").unwrap().ataxx_weights.unwrap();
        assert_eq!(
            weights,
            eval::ataxx::Weights {
                clone_hint: 20,
                ..eval::ataxx::WEIGHTS
            }
        );
        for (key, value) in [
            ("depth", "99"),
            ("level", "0"),
            ("level", "x"),
            ("movetime", "-5"),
            ("ataxx_clone", "1001"),
        ] {
            let error = parse(key, value).unwrap_err();
            assert!(error.contains(&format!("{key}={value}")), "{error}");
            assert!(!error.contains('\n'));
        }
        let error = parse("speed", "1").unwrap_err();
        assert!(error.contains("speed"), "{error}");
    }

    #[test]
    fn the_hidden_evaluation_options_choose_dama_s_evaluation() {
        use tavola_sdk::games::dama::Dama;
        let parse =
            |k: &str, v: &str| Settings::from_options::<Dama>(&[(k.to_owned(), v.to_owned())]);
        assert_eq!(parse("depth", "3").unwrap().dama_eval, None, "the default");
        let classic = parse("dama_eval", "classic").unwrap().dama_eval;
        assert_eq!(classic, Some(eval::net::EvalChoice::Classic));
        let error = parse("dama_eval", "neural").unwrap_err();
        assert!(
            error.contains("dama_eval") && error.contains("neural"),
            "{error}"
        );
        let error = parse("dama_network", "/nonexistent/dama.nnue").unwrap_err();
        assert!(error.contains("/nonexistent/dama.nnue"), "{error}");
        assert!(!error.contains('\n'));
    }

    #[test]
    fn the_hidden_evaluation_options_choose_gonnect_s_evaluation() {
        use tavola_sdk::games::dama::Dama;
        use tavola_sdk::games::gonnect::Gonnect;
        let parse =
            |k: &str, v: &str| Settings::from_options::<Gonnect>(&[(k.to_owned(), v.to_owned())]);
        let network = parse("gonnect_eval", "network").unwrap();
        assert_eq!(network.gonnect_eval, Some(eval::net::EvalChoice::Network));
        assert_eq!(network.dama_eval, None, "Dama's is its own");
        let error = parse("gonnect_eval", "").unwrap_err();
        assert!(error.contains("gonnect_eval"), "{error}");
        // Dama's network is not Gonnect's: another number of inputs.
        let dir = std::env::temp_dir().join(format!("tavola-gonnect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dama = dir.join("dama.nnue");
        std::fs::write(&dama, <Dama as eval::net::Learned>::shipped().to_bytes()).unwrap();
        let error = parse("gonnect_network", dama.to_str().unwrap()).unwrap_err();
        assert!(
            error.starts_with("gonnect_network: ")
                && error.contains("not a Tavola Gonnect network"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_hidden_evaluation_options_choose_tablut_s_evaluation() {
        use eval::net::{EvalChoice, Learned as _};
        use tavola_sdk::games::gonnect::Gonnect;
        use tavola_sdk::games::tablut::Tablut;
        let parse =
            |k: &str, v: &str| Settings::from_options::<Tablut>(&[(k.to_owned(), v.to_owned())]);
        let classic = parse("tablut_eval", "classic").unwrap();
        assert_eq!(classic.tablut_eval, Some(EvalChoice::Classic));
        assert_eq!(classic.gonnect_eval, None, "Gonnect's is its own");
        let error = parse("tablut_eval", "nnue").unwrap_err();
        assert!(
            error.contains("tablut_eval") && error.contains("nnue"),
            "{error}"
        );
        let dir = std::env::temp_dir().join(format!("tavola-tablut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let own = dir.join("tablut.nnue");
        std::fs::write(&own, Tablut::shipped().to_bytes()).unwrap();
        let chosen = parse("tablut_network", own.to_str().unwrap()).unwrap();
        let loaded = eval::net::load::<Tablut>(&own).unwrap();
        assert_eq!(chosen.tablut_eval, Some(EvalChoice::File(loaded)));
        // Gonnect's network is not Tablut's: another number of inputs.
        let gonnect = dir.join("gonnect.nnue");
        std::fs::write(&gonnect, Gonnect::shipped().to_bytes()).unwrap();
        let error = parse("tablut_network", gonnect.to_str().unwrap()).unwrap_err();
        assert!(
            error.starts_with("tablut_network: ") && error.contains("not a Tavola Tablut network"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_hidden_heuristics_options_change_only_what_they_name() {
        let parse = |pairs: &[(&str, &str)]| {
            let options: Vec<_> = pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect();
            Settings::from_options::<Ataxx>(&options)
        };
        assert_eq!(parse(&[]).unwrap().heuristics, None, "the game's own");
        let off = parse(&[
            ("rfp", "off"),
            ("nmp", "on"),
            ("tm", "stable"),
            ("reduce", "quiet"),
            ("hopeless", "0"),
            ("se", "3"),
            ("iir", "off"),
            ("fp", "off"),
            ("fpd", "5"),
            ("fpb", "100"),
            ("fpm", "2"),
            ("fpn", "off"),
            ("tmleft", "20"),
            ("imp", "on"),
            ("hist", "quiet"),
            ("stage", "on"),
            ("ttpv", "off"),
            ("tte", "on"),
        ])
        .unwrap();
        let expected = search::Heuristics {
            reverse_futility: None,
            null_move: true,
            time: search::TimeUse::Stable,
            reduce_noisy: false,
            hopeless: Some(0),
            singular: Some(3),
            iir: false,
            futility: None,
            improving: true,
            noisy_history: false,
            staged: true,
            pv_table_cuts: false,
            table_eval: true,
            futility_depth: 5,
            futility_base: 100,
            futility_moves: 2,
            futility_noisy: false,
            moves_left: 20,
            ..Ataxx::HEURISTICS
        };
        assert_eq!(off.heuristics, Some(expected));
        assert_eq!(
            parse(&[("rfp", "90")])
                .unwrap()
                .heuristics
                .unwrap()
                .reverse_futility,
            Some(90)
        );
        let nodes = parse(&[("tm", "nodes")]).unwrap().heuristics.unwrap();
        assert_eq!(nodes.time, search::TimeUse::Nodes);
        let plain = parse(&[("tm", "plain")]).unwrap().heuristics.unwrap();
        assert_eq!(plain.time, search::TimeUse::Plain);
        for (key, value) in [
            ("rfp", "0"),
            ("nmp", "yes"),
            ("lmr", "x"),
            ("tm", ""),
            ("reduce", "noisy"),
            ("hopeless", "1001"),
            ("se", "-1"),
            ("tmleft", "1"),
            ("stage", "yes"),
            ("ttpv", "1"),
            ("tte", "yes"),
            ("fpb", "-1"),
            ("fpm", "0"),
            ("fpn", "yes"),
        ] {
            let error = parse(&[(key, value)]).unwrap_err();
            assert!(error.contains(key), "{error}");
        }
    }
}
