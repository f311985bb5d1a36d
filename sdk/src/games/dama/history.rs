//! The history behind the draw rules: the king steps since the last capture or man move.
//!
//! Only kings move between two irreversible moves (a capture or a man move), so the men and the
//! piece counts stay put and a position is repeated exactly when the kings stand where they
//! stood, with the same side to move. The history is those steps, one byte each; undoing them
//! one by one finds every earlier occurrence exactly (no hashing, no false draws), and the
//! position stays a flat ~100 bytes that clones without allocating.

use super::position::Position;
use super::square::{Square, STEP};
use crate::Color;

impl Position {
    /// The king steps since the last irreversible move, oldest first, as (from, to).
    pub fn quiet_steps(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.history[..usize::from(self.quiet)].iter().map(|&code| {
            let from = Square::ALL[usize::from(code & 31)];
            let to = STEP[from.index()][usize::from(code >> 5)];
            (from, Square::from_index(usize::from(to)).unwrap_or(from))
        })
    }

    /// Forgets the history: repetitions and the 80-ply count start from here.
    pub(super) fn clear_history(&mut self) {
        self.quiet = 0;
        self.repeated = false;
    }

    /// Adds a king step (`from index | direction << 5`) to the history and checks whether the
    /// position it reaches occurs for the third time. Between two irreversible moves only kings
    /// move, so undoing the steps one by one (toggling the kings' bits) and comparing with the
    /// current kings finds every earlier occurrence exactly.
    pub(super) fn record_king_step(&mut self, code: u8) {
        let len = usize::from(self.quiet);
        if len == self.history.len() {
            // The game ended on the 80-ply rule already; nothing more to record.
            return;
        }
        self.history[len] = code;
        self.quiet += 1;
        let mover_is_white = self.side == Color::White;
        let (mut diff, mut seen) = (0u64, 0);
        for (k, &step) in self.history[..=len].iter().rev().enumerate() {
            let from = usize::from(step & 31);
            let to = STEP[from][usize::from(step >> 5)] & 31;
            let bits = 1u64 << from | 1u64 << to;
            let white = (k % 2 == 0) == mover_is_white;
            diff ^= if white { bits } else { bits << 32 };
            if k % 2 == 1 && diff == 0 {
                seen += 1;
            }
        }
        self.repeated = seen >= 2;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::super::{Dama, Move, Piece};
    use super::*;
    use crate::{EndReason, Game, Outcome, Position as _};

    fn pos(fen: &str) -> Position {
        Dama::parse_position(fen, None).unwrap()
    }

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    /// Plays the moves (text) in order, checking each is legal.
    fn play(position: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = position
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            position.play(mv).unwrap();
        }
    }

    #[test]
    fn quiet_plies_count_king_steps_only() {
        let mut position = pos("W:WK29,21:BK4,12");
        play(&mut position, "29-25 4-8 25-29");
        assert_eq!(position.quiet_plies(), 3);
        let steps: Vec<(u8, u8)> = position
            .quiet_steps()
            .map(|(a, b)| (a.number(), b.number()))
            .collect();
        assert_eq!(steps, [(29, 25), (4, 8), (25, 29)]);
        play(&mut position, "12-16");
        assert_eq!(position.quiet_plies(), 0);
        play(&mut position, "29-25 8-4 21-17");
        assert_eq!(position.quiet_plies(), 0);
        assert_eq!(position.ply(), 7);
    }

    #[test]
    fn third_repetition_draws() {
        let mut position = pos("W:WK29:BK4");
        // The start position occurs again after 4 plies and a third time after 8.
        play(&mut position, "29-25 4-8 25-29 8-4");
        assert_eq!(position.outcome(), None);
        assert!(!position.is_third_repetition());
        play(&mut position, "29-25 4-8 25-29");
        assert_eq!(position.outcome(), None);
        play(&mut position, "8-4");
        assert!(position.is_third_repetition());
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::Repetition))
        );
        assert!(position.legal_moves().is_empty());
        assert_eq!(position.count_moves(), 0);
        // Any position counts, not only the first: (25, 4, Black to move) occurs after plies 1,
        // 5 and 9, while the start occurs only twice.
        let mut position = pos("W:WK29:BK4");
        play(&mut position, "29-25 4-8 25-21 8-4 21-25 4-8 25-29 8-4");
        assert_eq!(position.outcome(), None);
        play(&mut position, "29-25");
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::Repetition))
        );
    }

    #[test]
    fn eighty_quiet_plies_draw() {
        // Two kings each wander without repeating a position until the 80th ply.
        let start = pos("W:WK29,K30:BK3,K4");
        let mut position = start.clone();
        for (ply, mv) in quiet_walk(&start, 80).into_iter().enumerate() {
            assert_eq!(position.outcome(), None, "ply {ply}");
            position.play(mv).unwrap();
        }
        assert_eq!(position.quiet_plies(), 80);
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::MoveLimit))
        );
        assert!(position.legal_moves().is_empty());
        // A man move on the 80th ply resets the count instead.
        let mut position = pos("W:WK29,K30:B18,K3,K4");
        for mv in quiet_walk(&position, 79) {
            position.play(mv).unwrap();
        }
        assert_eq!(position.quiet_plies(), 79);
        let step = position
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == sq(18))
            .unwrap();
        position.play(step).unwrap();
        assert_eq!((position.quiet_plies(), position.outcome()), (0, None));
        position.set_piece(sq(20), Some(Piece::BlackMan));
        assert_eq!(position.quiet_plies(), 0, "the builder clears the history");
    }

    /// `plies` king steps from `start` that never repeat a position nor give a capture
    /// (a depth-first search).
    fn quiet_walk(start: &Position, plies: usize) -> Vec<Move> {
        fn search(
            position: &Position,
            plies: usize,
            seen: &mut HashSet<u64>,
            path: &mut Vec<Move>,
        ) -> bool {
            if plies == 0 {
                return true;
            }
            for mv in position.legal_moves() {
                let mut next = position.clone();
                next.play(mv).unwrap();
                let quiet = next.legal_moves().iter().all(|m| !m.is_capture());
                if !position.kings(position.side()).contains(mv.from())
                    || !quiet
                    || !seen.insert(next.key())
                {
                    continue;
                }
                path.push(mv);
                if search(&next, plies - 1, seen, path) {
                    return true;
                }
                path.pop();
                seen.remove(&next.key());
            }
            false
        }
        let (mut seen, mut path) = (HashSet::from([start.key()]), Vec::new());
        assert!(search(start, plies, &mut seen, &mut path), "no quiet walk");
        path
    }
}
