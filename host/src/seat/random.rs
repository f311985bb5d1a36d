//! The random player: a uniformly random legal move, reproducible from a seed.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola_sdk::{Game, Position};

use super::{Answer, Brain, Control, Request, SeatFailure};

/// Plays uniformly random legal moves.
#[derive(Debug)]
pub struct RandomBrain<G: Game> {
    rng: StdRng,
    moves: Vec<G::Move>,
}

impl<G: Game> RandomBrain<G> {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> RandomBrain<G> {
        RandomBrain {
            rng: StdRng::seed_from_u64(seed),
            moves: Vec::new(),
        }
    }
}

impl<G: Game> Brain<G> for RandomBrain<G> {
    fn choose(&mut self, request: &Request<G>, _control: &Control) -> Answer {
        self.moves.clear();
        request.position.generate_moves(&mut self.moves);
        self.moves
            .choose(&mut self.rng)
            .map(ToString::to_string)
            .ok_or_else(|| SeatFailure::Error("asked to move with no legal move".to_owned()))
    }
}
