//! The rules of play: the [`crate::Position`] implementation of [`Position`] — playing a move,
//! the repetition and 80-ply rules, the outcome, reading moves in context, printing the board.

use std::fmt::Write as _;

use super::moves::{self, Move, Parsed};
use super::position::{Position, MOVE_LIMIT};
use super::square::{Square, BOTTOM_ROW, JUMP, STEP, TOP_ROW};
use crate::{Color, EndReason, Outcome, ParseMoveError};

impl crate::Position for Position {
    type Move = Move;

    fn variant(&self) -> &'static str {
        self.rules.name()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.push_moves(moves);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv)
    }

    /// Moves the piece, removes what a capture took, crowns a man on the far row, and keeps the
    /// history: a capture or a man move clears it, a king step is added and checked for a third
    /// repetition.
    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let (us, them) = (self.side.index(), self.side.other().index());
        let from = mv.from().index();
        let mut to = from;
        let mut taken = 0;
        if mv.is_capture() {
            for i in 0..mv.jumps() {
                let d = mv.direction(i) as usize;
                taken |= 1u32 << (STEP[to][d] & 31);
                to = usize::from(JUMP[to][d] & 31);
            }
        } else {
            to = usize::from(STEP[from][mv.direction(0) as usize] & 31);
        }
        let (from_bit, to_bit) = (1u32 << from, 1u32 << to);
        let king = self.kings & from_bit != 0;
        self.pieces[them] &= !taken;
        self.kings &= !taken;
        self.pieces[us] = (self.pieces[us] & !from_bit) | to_bit;
        let far_row = if us == 0 { TOP_ROW } else { BOTTOM_ROW };
        if king || far_row & to_bit != 0 {
            self.kings = (self.kings & !from_bit) | to_bit;
        }
        if king && !mv.is_capture() {
            self.record_king_step(from as u8 | (mv.direction(0) as u8) << 5);
        } else {
            self.clear_history();
        }
        self.side = self.side.other();
        self.ply = self.ply.saturating_add(1);
    }

    /// A side without pieces or without a legal move loses; that takes precedence over the draw
    /// rules (school material, repetition, 80 plies), as a win on the board does in chess.
    fn outcome(&self) -> Option<Outcome> {
        let other = self.side.other();
        if self.pieces[self.side.index()] == 0 {
            Some(Outcome::win(other, EndReason::NoPieces))
        } else if !self.has_moves() {
            Some(Outcome::win(other, EndReason::NoLegalMove))
        } else if self.is_dead_material() {
            Some(Outcome::draw(EndReason::InsufficientMaterial))
        } else if self.repeated {
            Some(Outcome::draw(EndReason::Repetition))
        } else if u32::from(self.quiet) >= MOVE_LIMIT {
            Some(Outcome::draw(EndReason::MoveLimit))
        } else {
            None
        }
    }

    /// Reads `23-19`, `31x22x13x6`, or the short form `31x6` of a capture when exactly one legal
    /// capture goes from 31 to 6 (an error listing them when several do).
    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let (from, to) = match moves::parse(text)? {
            Parsed::Full(mv) if self.check_legal(mv) => return Ok(mv),
            // `22x15` may also be the short form of a king's loop ending there.
            Parsed::Full(mv) if mv.jumps() == 1 => (mv.from(), mv.to()),
            Parsed::Full(_) => return Err(self.illegal(text)),
            Parsed::Short { from, to } => (from, to),
        };
        let mut candidates = self.legal_moves_vec();
        candidates.retain(|m| m.is_capture() && m.from() == from && m.to() == to);
        match candidates[..] {
            [] => Err(self.illegal(text)),
            [mv] => Ok(mv),
            _ => Err(ParseMoveError::Invalid {
                text: text.to_owned(),
                reason: format!(
                    "ambiguous: {} legal captures go from {from} to {to}: {}",
                    candidates.len(),
                    candidates
                        .iter()
                        .map(Move::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        self.fast_perft(depth)
    }

    /// The board as White sees it (`w` `b` men, `W` `B` kings, `.` empty dark squares) beside
    /// the square numbers, then whose turn it is, the material and the counters.
    fn pretty(&self) -> String {
        let mut out = String::with_capacity(512);
        for row in 0..8u8 {
            let mut line = String::with_capacity(48);
            for column in 0..8u8 {
                let square = Square::from_coords(row, column);
                let cell = square.map_or(' ', |s| self.piece_at(s).map_or('.', |p| p.symbol()));
                let _ = write!(line, "{cell} ");
            }
            line.push_str("   ");
            for column in 0..8u8 {
                match Square::from_coords(row, column) {
                    Some(square) => {
                        let _ = write!(line, "{:>2} ", square.number());
                    }
                    None => line.push_str("   "),
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let material = |color: Color| {
            format!(
                "{} {} ({} kings)",
                color.name(),
                self.count(color),
                self.count_kings(color)
            )
        };
        let _ = write!(
            out,
            "{} to move; {}, {}; {} of {MOVE_LIMIT} plies without a capture or man move; \
             ply {}; {} rules",
            self.side,
            material(Color::White),
            material(Color::Black),
            self.quiet,
            self.ply,
            self.rules,
        );
        out
    }
}

impl Position {
    /// Adds a king step (`from index | direction << 5`) to the history and checks whether the
    /// position it reaches occurs for the third time. Between two irreversible moves only kings
    /// move, so undoing the steps one by one (toggling the kings' bits) and comparing with the
    /// current kings finds every earlier occurrence exactly.
    fn record_king_step(&mut self, code: u8) {
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

    /// The legal moves in a new vector (for the rare short-form lookup).
    fn legal_moves_vec(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.push_moves(&mut moves);
        moves
    }

    fn illegal(&self, text: &str) -> ParseMoveError {
        ParseMoveError::Illegal {
            text: text.to_owned(),
            position: self.to_string(),
        }
    }
}
