//! The random player: a uniformly random legal move, reproducible from a seed.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola_sdk::{Game, Position};

use super::{Answer, Brain, Choice, Control, Request, SeatFailure, TypedAnswer};

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

impl<G: Game> RandomBrain<G> {
    fn pick(&mut self, request: &Request<G>) -> Result<G::Move, SeatFailure> {
        self.moves.clear();
        request.position.generate_moves(&mut self.moves);
        self.moves
            .choose(&mut self.rng)
            .copied()
            .ok_or_else(|| SeatFailure::Error("asked to move with no legal move".to_owned()))
    }
}

impl<G: Game> Brain<G> for RandomBrain<G> {
    fn choose(&mut self, request: &Request<G>, _control: &Control) -> Answer {
        self.pick(request).map(|mv| mv.to_string())
    }

    fn choose_typed(&mut self, request: &Request<G>, _control: &Control) -> TypedAnswer<G::Move> {
        self.pick(request).map(Choice::Move)
    }
}
