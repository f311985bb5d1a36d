//! The Ataxx evaluations. By default the learned network of [`super::ataxx_net`] (the README's
//! "Learned evaluations": its first generation beat the classic evaluation below by +329 ± 69 Elo
//! in an SPRT at 2 s + 20 ms, the second the first by +82 ± 32; the third, on the board's 2 x 2
//! windows instead of its single squares, the second by +261 ± 56).
//!
//! The classic evaluation (`builtin:ataxx_eval=classic`): material, the mover's best immediate
//! conversion (a one-move quiescence),
//! exposure to conversion (own pieces next to empty squares the opponent can reach: the holes an
//! opponent clones or jumps into), and mobility.
//!
//! The weights are in hundredths of a piece, tuned by short fixed-depth matches (`tavola match
//! --game ataxx --tc 0` with the hidden options `ataxx_mobility`, `ataxx_exposed`, `ataxx_tempo`):
//! at depth 4 the full evaluation beat material alone by +158 ± 113 Elo (40 games); one-at-a-time
//! changes from (3, 10, 50) over 100 games were within the error bars or worse (exposed 5: -53 ± 56;
//! tempo 25: -49 ± 64; tempo 80: +53 ± 60 at depth 4 but 0 ± 62 at depth 5; tempo 100: -53 ± 58 and
//! tempo 80 with exposed 15: -53 ± 56 at depth 5), so they stay.

use tavola_sdk::games::ataxx::{Ataxx, Bitboard, Move, Position};
use tavola_sdk::{Game, Position as _};

use super::net::Learned as _;
use crate::builtin::search::{Heuristics, TimeUse, NOISY_HINT};
use crate::builtin::Evaluate;

use std::cell::Cell;

/// A piece.
const PIECE: i32 = 100;

/// The weights besides material, in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Per empty square next to one's pieces (room to clone into).
    pub mobility: i32,
    /// Per own piece next to an empty square the opponent can reach (clone or jump).
    pub exposed: i32,
    /// Share (in percent) of the mover's best immediate material swing that is credited.
    pub tempo_percent: i32,
    /// Whether the learned network ([`super::ataxx_net`]) evaluates instead of these weights.
    pub network: bool,
    /// Another network than the shipped one (`builtin:ataxx_network=PATH`).
    pub network_file: Option<&'static super::net::Network>,
    /// The move-ordering credit of a clone, in hundredths of a conversion
    /// ([`Evaluate::order_hint`]; the hidden `builtin:ataxx_clone=N`): 200, two conversions'
    /// worth (+53 ± 25 Elo at 2 s + 20 ms against 20, an SPRT).
    pub clone_hint: i32,
}

/// The default: the network; the classic evaluation's tuned weights.
pub const WEIGHTS: Weights = Weights {
    mobility: 3,
    exposed: 10,
    tempo_percent: 50,
    network: true,
    network_file: None,
    clone_hint: 200,
};

thread_local! {
    /// The weights of this thread's searches: [`WEIGHTS`] unless a tuning match sets others
    /// (the hidden `builtin:ataxx_mobility=N,ataxx_exposed=N,ataxx_tempo=N` options; each seat
    /// searches on its own thread).
    static CURRENT: Cell<Weights> = const { Cell::new(WEIGHTS) };
}

/// Sets the weights of the searches on this thread (for tuning matches).
pub fn set_weights(weights: Weights) {
    CURRENT.with(|c| c.set(weights));
}

/// Pieces of `enemy` next to `square`.
#[inline]
fn neighbours_in(square: tavola_sdk::games::ataxx::Square, enemy: Bitboard) -> i32 {
    (square.neighbours() & enemy).count() as i32
}

/// Own pieces in `own` next to the squares of `holes`, counted once per hole.
#[inline]
fn exposure(own: Bitboard, holes: Bitboard) -> i32 {
    holes.into_iter().map(|hole| neighbours_in(hole, own)).sum()
}

tavola_sdk::multiversion! {
    /// The evaluation of `position` for the side to move, with the weights `w` (see
    /// [`tavola_sdk::cpu`]: compiled with and without the CPU's bit instructions).
    fn score(position: &Position, w: Weights) -> i32 {
        let me = position.side_to_move();
        let (mine, theirs) = (position.pieces(me), position.pieces(me.other()));
        let empty = position.empty_squares();
        let material = PIECE * (mine.count() as i32 - theirs.count() as i32);

        let (my_clones, their_clones) = (mine.dilate() & empty, theirs.dilate() & empty);
        let (my_reach, their_reach) = (mine.dilate2() & empty, theirs.dilate2() & empty);
        let mobility = w.mobility * (my_clones.count() as i32 - their_clones.count() as i32);
        let exposed = w.exposed * (exposure(theirs, my_reach) - exposure(mine, their_reach));

        // The mover's best move right now, in pieces swung: 2 per conversion, 1 for a clone.
        let best_swing = my_reach
            .into_iter()
            .map(|to| 2 * neighbours_in(to, theirs) + i32::from(my_clones.contains(to)))
            .max()
            .unwrap_or(0);
        let tempo = PIECE * best_swing * w.tempo_percent / 100;

        material + mobility + exposed + tempo
    }

    /// Appends the hint of each of `moves` to `hints` ([`hint`], a clone's credit being
    /// `clone_hint`), compiled the same two ways.
    fn hints_of(
        position: &Position,
        moves: &[Move],
        clone_hint: i32,
        hints: &mut Vec<i32>,
    ) -> () {
        hints.extend(moves.iter().map(|&mv| hint(position, mv, clone_hint)));
    }
}

impl Evaluate for Ataxx {
    /// Reads the shipped network (its first use would otherwise be charged to a move).
    fn prepare() {
        Self::shipped();
    }

    const HEURISTICS: Heuristics = Heuristics {
        log_reductions: true,
        reverse_futility: Some(40),
        null_move: false,
        late_moves: true,
        time: TimeUse::Nodes,
        moves_left: crate::builtin::time::MOVES_LEFT,
        // Zataxx's heuristics, on together (an SPRT at 2 s + 20 ms, 2026-12-06: see the README):
        // internal iterative reduction, futility pruning in its form, hopeless-move pruning (its
        // late-move pruning), history for the noisy moves too and the table's cut-offs at
        // principal-variation nodes.
        iir: true,
        futility: Some(80),
        futility_depth: 6,
        futility_base: 160,
        futility_moves: 3,
        futility_noisy: true,
        reduce_noisy: true,
        hopeless: Some(1),
        singular: Some(2),
        improving: false,
        noisy_history: true,
        staged: false,
        pv_table_cuts: true,
        table_eval: false,
    };

    fn evaluate(position: &<Ataxx as Game>::Position) -> i32 {
        let weights = CURRENT.with(Cell::get);
        if weights.network {
            let network = weights.network_file.unwrap_or_else(Ataxx::shipped);
            super::ataxx_net::evaluate(network, position)
        } else {
            score(position, weights)
        }
    }

    const ORDER_HINTS: bool = true;

    /// Conversions first (many before few), a clone worth two of them (as Zataxx orders its
    /// moves; it was worth a fifth of one before 2026-12-06), jumps that leave few own pieces
    /// exposed behind them. The conversions of two pieces or more are the noisy moves, ordered
    /// before the killers.
    fn order_hint(position: &Position, mv: Move) -> i32 {
        hint(position, mv, CURRENT.with(Cell::get).clone_hint)
    }

    /// Every move's hint at once: the weights read once, the conversions counted with the
    /// CPU's `popcnt` where it has one.
    fn order_hints(position: &Position, moves: &[Move], hints: &mut Vec<i32>) {
        hints_of(position, moves, CURRENT.with(Cell::get).clone_hint, hints);
    }
}

/// [`Evaluate::order_hint`] of `mv`, a clone's credit being `clone_hint`.
#[inline(always)]
fn hint(position: &Position, mv: Move, clone_hint: i32) -> i32 {
    let converts = position.converts(mv) as i32;
    let kind = match mv {
        Move::Clone(_) => clone_hint,
        Move::Jump { from, .. } => {
            -(neighbours_in(from, position.pieces(position.side_to_move())) * 5)
        }
        Move::Pass => 0,
    };
    if converts >= 2 {
        NOISY_HINT + 100 * converts + kind
    } else {
        100 * converts + kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic evaluation of `fen` (each test runs on a thread of its own, so the
    /// thread's weights are this test's).
    fn eval(fen: &str) -> i32 {
        set_weights(Weights {
            network: false,
            ..WEIGHTS
        });
        Ataxx::evaluate(&Ataxx::parse_position(fen, None).unwrap())
    }

    #[test]
    fn the_start_is_even_and_material_counts() {
        // Symmetric, but the mover may clone: a small plus.
        let start = eval("x5o/7/7/7/7/7/o5x x 0 1");
        assert!((0..=60).contains(&start), "{start}");
        assert!(eval("x5o/7/7/7/7/7/x5x x 0 1") > 200);
        assert!(eval("x5o/7/7/7/7/7/x5x o 0 1") < -100);
    }

    /// Not a speed test (it asserts nothing about time): the cost per call of each evaluation,
    /// measured in release with `cargo test --release -p tavola --lib eval_speed -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore]
    fn eval_speed() {
        let positions = super::super::sample_positions::<Ataxx>(64);
        for network in [false, true] {
            set_weights(Weights { network, ..WEIGHTS });
            let (ns, sum) = super::super::time_per_call::<Ataxx>(&positions, 2_000_000);
            let name = if network { "network" } else { "classic" };
            println!("ataxx {name} eval: {ns:.0} ns per call ({sum})");
        }
        // Networks of other widths. Their weights' values do not change the cost, but zeros
        // would: a fresh vector of zeros reads one shared page of memory, always in the cache,
        // where a real network's rows are spread over its whole table.
        for hidden in [64, 128, 256] {
            let mut network = super::super::net::Network::zero(
                Ataxx::INPUTS,
                hidden,
                super::super::net::Activation::Clipped,
            );
            for (k, w) in network.w1.iter_mut().enumerate() {
                *w = (k % 13) as i16 - 6;
            }
            let network = Box::leak(Box::new(network));
            set_weights(Weights {
                network_file: Some(network),
                ..WEIGHTS
            });
            let (ns, _) = super::super::time_per_call::<Ataxx>(&positions, 2_000_000);
            println!("ataxx network eval, {hidden} hidden values: {ns:.0} ns per call");
        }
        set_weights(WEIGHTS);
    }

    #[test]
    fn a_clone_is_ordered_as_two_conversions() {
        set_weights(WEIGHTS);
        let position = Ataxx::parse_position("7/7/7/7/2o4/7/x6 x 0 1", None).unwrap();
        let hint = |text: &str| Ataxx::order_hint(&position, position.parse_move(text).unwrap());
        // A clone that converts nothing before a jump that converts one; a clone that converts
        // one before both.
        assert!(hint("a2") > hint("a1c2"), "{} {}", hint("a2"), hint("a1c2"));
        assert!(hint("b2") > hint("a2"));
        assert!(hint("a1c2") > hint("a1a3"));
    }

    #[test]
    fn the_hints_of_all_moves_at_once_are_each_moves_hint() {
        for clone_hint in [WEIGHTS.clone_hint, 20] {
            set_weights(Weights {
                clone_hint,
                ..WEIGHTS
            });
            for position in super::super::sample_positions::<Ataxx>(300) {
                let moves = position.legal_moves();
                let each: Vec<i32> = moves
                    .iter()
                    .map(|&mv| Ataxx::order_hint(&position, mv))
                    .collect();
                let mut all = vec![7];
                Ataxx::order_hints(&position, &moves, &mut all);
                assert_eq!(all[0], 7, "appended, not overwritten");
                assert_eq!(all[1..], each, "{position}");
                let mut plain = Vec::new();
                baseline::hints_of(&position, &moves, clone_hint, &mut plain);
                assert_eq!(plain, each, "{position}");
            }
        }
        set_weights(WEIGHTS);
    }

    #[test]
    fn exposed_pieces_cost() {
        // The same material; the x pieces on the open board are next to squares o can reach.
        let tight = eval("xxx4/xxx4/xxx4/7/7/7/6o o 0 1");
        let loose = eval("x1x1x2/7/x1x1x2/7/x1x1x2/7/6o o 0 1");
        assert!(loose > tight, "{loose} {tight}");
    }
}
