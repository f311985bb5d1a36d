//! The built-in bot: a shallow negamax over a per-game evaluation.
//!
//! It uses only the SDK's public rules API, as a bot author would. It is deliberately simple for
//! now: it looks `depth` plies ahead (2 by default, deepening one ply at a time and reporting each
//! depth, so that a stop request is answered with the deepest finished search) and breaks ties at
//! random from its seed.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::{Game, Position, SearchInfo};

use crate::seat::{Answer, Brain, Control, Request, SeatFailure};

pub mod eval;
pub mod mcts;

/// A static evaluation for the built-in bot, from the point of view of the side to move.
pub trait Evaluate: Game {
    /// The score of a position that is not finished, for its side to move (positive is good).
    fn evaluate(position: &Self::Position) -> i32;
}

impl Evaluate for Ataxx {
    /// Pieces, in hundredths.
    fn evaluate(position: &<Ataxx as Game>::Position) -> i32 {
        let me = position.side_to_move();
        100 * (position.count(me) as i32 - position.count(me.other()) as i32)
    }
}

const WIN: i32 = 1_000_000;

/// The built-in bot.
#[derive(Debug)]
pub struct BuiltinBrain {
    depth: u32,
    rng: StdRng,
}

impl BuiltinBrain {
    /// The default depth.
    pub const DEFAULT_DEPTH: u32 = 2;

    /// A built-in bot searching `depth` plies, breaking ties from `seed`.
    pub fn new(depth: u32, seed: u64) -> BuiltinBrain {
        BuiltinBrain {
            depth: depth.max(1),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Parses the bot's options (`depth=N`).
    ///
    /// # Errors
    /// A message naming the bad option.
    pub fn from_options(options: &[(String, String)], seed: u64) -> Result<BuiltinBrain, String> {
        let mut depth = Self::DEFAULT_DEPTH;
        for (key, value) in options {
            match key.as_str() {
                "depth" => {
                    depth = value
                        .parse()
                        .ok()
                        .filter(|d| (1..=8).contains(d))
                        .ok_or_else(|| format!("depth={value}: expected a number from 1 to 8"))?;
                }
                _ => return Err(format!("unknown option {key:?} of builtin (known: depth)")),
            }
        }
        Ok(BuiltinBrain::new(depth, seed))
    }
}

fn negamax<G: Evaluate>(
    position: &G::Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(outcome) = position.outcome() {
        return match outcome.winner {
            None => 0,
            Some(c) if c == position.side_to_move() => WIN,
            Some(_) => -WIN,
        };
    }
    if depth == 0 {
        return G::evaluate(position);
    }
    let mut best = -WIN - 1;
    for mv in position.legal_moves() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let score = -negamax::<G>(&child, depth - 1, -beta, -alpha, nodes);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The best move of `position` at `depth` with its score, ties broken by the order of `moves`.
fn best_move<G: Evaluate>(
    position: &G::Position,
    moves: &[G::Move],
    depth: u32,
    nodes: &mut u64,
) -> Option<(G::Move, i32)> {
    let mut best: Option<(G::Move, i32)> = None;
    for &mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let alpha = best.map_or(-WIN - 1, |(_, s)| s);
        let score = -negamax::<G>(&child, depth - 1, -WIN - 1, -alpha, nodes);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((mv, score));
        }
    }
    best
}

impl<G: Evaluate> Brain<G> for BuiltinBrain {
    /// Searches 1, 2, ... `depth` plies deep, reporting after each depth; when asked to stop it
    /// answers with the deepest search finished. The last depth decides, as a single search at
    /// that depth would.
    fn choose(&mut self, request: &Request<G>, control: &Control) -> Answer {
        let mut moves = request.position.legal_moves();
        moves.shuffle(&mut self.rng);
        let mut nodes = 0;
        let mut chosen = None;
        for depth in 1..=self.depth {
            if chosen.is_some() && control.stop_requested() {
                break;
            }
            let Some((mv, score)) = best_move::<G>(&request.position, &moves, depth, &mut nodes)
            else {
                break;
            };
            chosen = Some(mv);
            let (score, mate) = if score.abs() >= WIN {
                (
                    None,
                    Some(if score > 0 {
                        depth as i32
                    } else {
                        -(depth as i32)
                    }),
                )
            } else {
                // Evaluations are already in hundredths of a piece.
                (Some(score), None)
            };
            control.report(SearchInfo {
                depth,
                seldepth: depth,
                nodes,
                score,
                mate,
                pv: mv.to_string(),
                message: String::new(),
            });
        }
        chosen
            .map(|mv| mv.to_string())
            .ok_or_else(|| SeatFailure::Error("asked to move with no legal move".to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use crate::seat::{clocks, Control, Request};

    use super::*;

    fn choose(fen: &str, depth: u32, seed: u64) -> String {
        let position = Ataxx::parse_position(fen, None).unwrap();
        let request = Request::<Ataxx> {
            start_text: fen.to_owned(),
            moves_text: String::new(),
            position,
            clocks: clocks(None, None, 0),
        };
        let mut brain = BuiltinBrain::new(depth, seed);
        Brain::<Ataxx>::choose(&mut brain, &request, &Control::default()).unwrap()
    }

    #[test]
    fn takes_an_immediate_win() {
        // Only the jumps to c1 and c2 reach d1's last black piece; six other moves do not.
        for seed in 0..8 {
            let mv = choose("7/7/7/7/7/7/x2o3 x 0 1", 2, seed);
            assert!(mv == "a1c1" || mv == "a1c2", "seed {seed}: {mv}");
        }
    }

    #[test]
    fn reports_each_depth() {
        let position = Ataxx::start(None).unwrap();
        let request = Request::<Ataxx> {
            start_text: position.to_string(),
            moves_text: String::new(),
            position,
            clocks: clocks(None, None, 0),
        };
        let control = Control::default();
        let mut brain = BuiltinBrain::new(3, 1);
        Brain::<Ataxx>::choose(&mut brain, &request, &control).unwrap();
        let info = control.info.lock().unwrap().clone().expect("a report");
        assert_eq!(info.depth, 3);
        assert!(info.nodes > 16, "{info:?}");
        assert!(info.score.is_some());
    }

    #[test]
    fn a_stop_request_answers_with_the_deepest_finished_search() {
        let position = Ataxx::start(None).unwrap();
        let request = Request::<Ataxx> {
            start_text: position.to_string(),
            moves_text: String::new(),
            position,
            clocks: clocks(None, None, 0),
        };
        let control = Control::default();
        control
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        // Depth 8 would take seconds; stopped, it answers after depth 1.
        let mut brain = BuiltinBrain::new(8, 1);
        let mv = Brain::<Ataxx>::choose(&mut brain, &request, &control).unwrap();
        assert!(request.position.parse_move(&mv).is_ok());
        let info = control.info.lock().unwrap().clone().expect("a report");
        assert_eq!(info.depth, 1);
    }

    #[test]
    fn options_are_checked() {
        assert!(BuiltinBrain::from_options(&[("depth".into(), "3".into())], 0).is_ok());
        let error = BuiltinBrain::from_options(&[("depth".into(), "99".into())], 0).unwrap_err();
        assert!(error.contains("depth=99"), "{error}");
        let error = BuiltinBrain::from_options(&[("speed".into(), "1".into())], 0).unwrap_err();
        assert!(error.contains("speed"), "{error}");
    }
}
