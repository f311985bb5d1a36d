//! A greedy bot for every game: it wins at once when it can, and otherwise plays the move after
//! which it is furthest ahead in material (ties go to the first such move).
//!
//! One step up from random, and an example of one generic bot serving several games: the search is
//! written once over the SDK's `Game` trait, and each game only says what its material is. In Ataxx
//! that means the move converting the most pieces (a clone's new piece breaks ties).

use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{Bot, BotError, Color, Context, Game, Position, SearchInfo, Setup};

/// What a game counts as material, in hundredths of a piece.
pub trait Material: Game {
    /// The material of `color` in `position`.
    fn material(position: &Self::Position, color: Color) -> i32;
}

impl Material for Ataxx {
    fn material(position: &<Ataxx as Game>::Position, color: Color) -> i32 {
        100 * position.count(color) as i32
    }
}

impl Material for Tablut {
    // Black has twice as many soldiers as White: each is worth half as much.
    fn material(position: &<Tablut as Game>::Position, color: Color) -> i32 {
        let per_soldier = if color == Color::White { 100 } else { 50 };
        per_soldier * position.count_soldiers(color) as i32
    }
}

impl Material for Gonnect {
    // Stones: a placement adds one, a capture takes the opponent's away.
    fn material(position: &<Gonnect as Game>::Position, color: Color) -> i32 {
        100 * position.count(color) as i32
    }
}

impl Material for Dama {
    // A king is worth about two and a half men.
    fn material(position: &<Dama as Game>::Position, color: Color) -> i32 {
        let kings = position.count_kings(color) as i32;
        100 * (position.count(color) as i32 - kings) + 250 * kings
    }
}

/// The greedy player of game `G`.
pub struct Greedy<G: Game> {
    moves: Vec<G::Move>,
}

impl<G: Material> Bot for Greedy<G> {
    type Game = G;

    fn new(_setup: &Setup<'_>) -> Result<Self, BotError> {
        Ok(Greedy { moves: Vec::new() })
    }

    fn choose_move(
        &mut self,
        position: &G::Position,
        ctx: &Context<'_>,
    ) -> Result<G::Move, BotError> {
        let me = position.side_to_move();
        self.moves.clear();
        position.generate_moves(&mut self.moves);
        let mut best: Option<(G::Move, i32)> = None;
        for &mv in &self.moves {
            let mut next = position.clone();
            next.play_unchecked(mv);
            let score = match next.outcome() {
                Some(outcome) if outcome.winner == Some(me) => i32::MAX,
                Some(outcome) if outcome.winner.is_some() => i32::MIN + 1,
                _ => G::material(&next, me) - G::material(&next, me.other()),
            };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((mv, score));
            }
        }
        let (mv, score) = best.ok_or("no legal move")?;
        // Tell the host what we found; the GUI and `tavola play` show it.
        ctx.report(&SearchInfo {
            depth: 1,
            nodes: self.moves.len() as u64,
            score: Some(score.clamp(-100_000, 100_000)),
            pv: mv.to_string(),
            ..SearchInfo::default()
        });
        log::debug!("greedy plays {mv} (score {score})");
        Ok(mv)
    }
}

tavola_sdk::export_bot! {
    name: "greedy",
    author: "The Tavola authors",
    description: "Wins at once when it can, else takes the most material",
    bots: [Greedy<Ataxx>, Greedy<Tablut>, Greedy<Gonnect>, Greedy<Dama>],
}
