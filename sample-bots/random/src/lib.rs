//! The smallest complete Tavola bot: it plays a uniformly random legal move.
//!
//! Copy this crate to start your own bot. Build it with `cargo build --release -p random-bot`, then
//! play it: `tavola play --headless --white target/release/librandom_bot.so --black builtin`.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{Bot, BotError, Context, Game, Position, Setup};

/// A random player for any game `G`: one generic type serves every game the library exports.
pub struct RandomBot<G: Game> {
    rng: StdRng,
    // Reused between moves, so that choosing a move allocates nothing once warmed up.
    moves: Vec<G::Move>,
}

impl<G: Game> Bot for RandomBot<G> {
    type Game = G;

    fn new(setup: &Setup<'_>) -> Result<Self, BotError> {
        // The host hands every player a seed: using it makes games reproducible.
        Ok(RandomBot {
            rng: StdRng::seed_from_u64(setup.seed),
            moves: Vec::new(),
        })
    }

    fn choose_move(
        &mut self,
        position: &G::Position,
        _ctx: &Context<'_>,
    ) -> Result<G::Move, BotError> {
        self.moves.clear();
        position.generate_moves(&mut self.moves);
        // The host never asks in a finished game, so there is always a move; say so if not.
        self.moves
            .choose(&mut self.rng)
            .copied()
            .ok_or_else(|| BotError::from("no legal move"))
    }
}

// Makes this library a Tavola bot: one line per game it plays.
tavola_sdk::export_bot! {
    name: "random",
    author: "The Tavola authors",
    description: "Plays a uniformly random legal move",
    bots: [
        RandomBot<Ataxx>,
        RandomBot<Tablut>,
        RandomBot<Gonnect>,
        RandomBot<Dama>,
    ],
}
