//! A greedy Ataxx bot: it plays the move that converts the most enemy pieces.
//!
//! One step up from random: it looks at each legal move once and keeps the best by a simple rule.
//! Ties go to a clone (which adds a piece instead of moving one), then to the first such move.

use tavola_sdk::games::ataxx::{Ataxx, Move, Position};
use tavola_sdk::{Bot, BotError, Context, Position as _, SearchInfo, Setup};

/// The greedy player.
pub struct GreedyBot;

impl Bot for GreedyBot {
    type Game = Ataxx;

    fn new(_setup: &Setup<'_>) -> Result<Self, BotError> {
        Ok(GreedyBot)
    }

    fn choose_move(&mut self, position: &Position, ctx: &Context<'_>) -> Result<Move, BotError> {
        // The gain of a move: pieces converted, plus one for a clone's new piece.
        let gain = |mv: &Move| position.converts(*mv) + u32::from(matches!(mv, Move::Clone(_)));
        let moves = position.legal_moves();
        // `max_by_key` keeps the last of equal moves; reversing makes it the first.
        let best = moves
            .iter()
            .rev()
            .copied()
            .max_by_key(|mv| (gain(mv), matches!(mv, Move::Clone(_))))
            .ok_or_else(|| BotError::from("no legal move"))?;
        // Tell the host what we found; the GUI shows it while a bot thinks.
        ctx.report(&SearchInfo {
            depth: 1,
            nodes: moves.len() as u64,
            score: Some(100 * gain(&best) as i32),
            pv: best.to_string(),
            ..SearchInfo::default()
        });
        log::debug!("greedy plays {best} (gain {})", gain(&best));
        Ok(best)
    }
}

tavola_sdk::export_bot! {
    name: "greedy",
    author: "The Tavola authors",
    description: "Plays the Ataxx move that converts the most pieces",
    bots: [GreedyBot],
}
