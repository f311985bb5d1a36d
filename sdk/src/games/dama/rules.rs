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

    fn why_illegal(&self, mv: Move) -> Option<String> {
        (!self.check_legal(mv)).then(|| self.explain_illegal(mv.from(), mv.to(), mv.is_capture()))
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

    /// Both colours' pieces, the kings and the side to move, mixed (32-bit boards: two words
    /// to mix). The repetition history and the 80-ply counter are left out.
    fn hash_key(&self) -> u64 {
        use crate::games::mix64;
        let board = u64::from(self.pieces[0]) | u64::from(self.pieces[1]) << 32;
        let side = if self.side == Color::Black {
            0x5EED_0B1A_C000_0001
        } else {
            0
        };
        mix64(board ^ 0x9E37_79B9_7F4A_7C15)
            ^ mix64(u64::from(self.kings) ^ side ^ 0xD1B5_4A32_D192_ED03).rotate_left(32)
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
            // The same capture by another path round a loop: the move the list keeps.
            Parsed::Full(mv) if self.same_capture(mv).is_some() => {
                return self
                    .same_capture(mv)
                    .ok_or_else(|| self.illegal(text, mv.from(), mv.to(), true))
            }
            // `22x15` may also be the short form of a king's loop ending there.
            Parsed::Full(mv) if mv.jumps() == 1 => (mv.from(), mv.to()),
            Parsed::Full(mv) => {
                return Err(self.illegal(text, mv.from(), mv.to(), mv.is_capture()))
            }
            Parsed::Short { from, to } => (from, to),
        };
        let mut candidates = self.legal_moves_vec();
        candidates.retain(|m| m.is_capture() && m.from() == from && m.to() == to);
        match candidates[..] {
            [] => Err(self.illegal(text, from, to, text.contains('x'))),
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
            let kings = self.count_kings(color);
            let plural = if kings == 1 { "" } else { "s" };
            format!(
                "{} {} ({kings} king{plural})",
                color.name(),
                self.count(color)
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
    /// The legal moves in a new vector (for the rare short-form lookup).
    fn legal_moves_vec(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.push_moves(&mut moves);
        moves
    }

    fn illegal(&self, text: &str, from: Square, to: Square, capture: bool) -> ParseMoveError {
        ParseMoveError::Illegal {
            text: text.to_owned(),
            position: self.to_string(),
            reason: self.explain_illegal(from, to, capture),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Dama, Piece, Variant};
    use super::*;
    use crate::{Game, PlayError, Position as _};

    fn pos(fen: &str) -> Position {
        Dama::parse_position(fen, None).unwrap()
    }

    fn school(fen: &str) -> Position {
        Dama::parse_position(fen, Some("school")).unwrap()
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

    /// The position text after playing `moves` in `fen`.
    fn after(fen: &str, moves: &str) -> String {
        let mut position = pos(fen);
        play(&mut position, moves);
        position.to_string()
    }

    #[test]
    fn steps_and_captures_change_the_board() {
        assert_eq!(
            after("W:W21-32:B1-12", "23-19"),
            "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(after("W:W31:B12,20,28", "31x24x15x8"), "B:W8:B");
        assert_eq!(
            after("W:WK30:B10,12,18,K20,K26,27", "30x21x14x5"),
            "B:WK5:B12,K20,27"
        );
        // The black side moves down and captures down.
        assert_eq!(after("B:W18,K26:B9,14", "14x21"), "W:WK26:B9,21");
        // A king's loop ends on its own square; the origin is empty during the move.
        assert_eq!(after("W:WK22:B10,11,18,19", "22x13x6x15x22"), "B:WK22:B");
    }

    #[test]
    fn men_become_kings_on_the_far_row() {
        assert_eq!(after("W:W5:B20", "5-1"), "B:WK1:B20");
        assert_eq!(after("B:W5:B28", "28-32"), "W:W5:BK32");
        assert_eq!(after("W:W10:B6,7", "10x3"), "B:WK3:B7");
        let mut position = pos("W:W10:B6,7");
        play(&mut position, "10x3");
        assert_eq!(position.piece_at(sq(3)), Some(Piece::WhiteKing));
    }

    #[test]
    fn no_pieces_or_no_moves_lose() {
        assert_eq!(
            pos("W:W:B1").outcome(),
            Some(Outcome::win(Color::Black, EndReason::NoPieces))
        );
        assert_eq!(
            pos("B:W21:B").outcome(),
            Some(Outcome::win(Color::White, EndReason::NoPieces))
        );
        // The man on 29 cannot step onto the kings nor capture them.
        let blocked = pos("W:W29:BK25,K26");
        assert_eq!(
            blocked.outcome(),
            Some(Outcome::win(Color::Black, EndReason::NoLegalMove))
        );
        assert!(blocked.legal_moves().is_empty());
        // Capturing the last piece wins.
        let mut position = pos("W:W30:B27");
        play(&mut position, "30x23");
        assert_eq!(
            position.outcome(),
            Some(Outcome::win(Color::White, EndReason::NoPieces))
        );
    }

    #[test]
    fn school_draws_with_one_king_against_one_or_two() {
        let drawn = Some(Outcome::draw(EndReason::InsufficientMaterial));
        assert_eq!(school("W:WK1:BK32").outcome(), drawn);
        assert_eq!(school("B:WK1,K5:BK32").outcome(), drawn);
        assert_eq!(school("W:WK1:BK31,K32").outcome(), drawn);
        assert!(school("W:WK1:BK32").legal_moves().is_empty());
        assert_eq!(school("W:WK1,K5,K9:BK32").outcome(), None);
        assert_eq!(school("W:WK1,6:BK32").outcome(), None);
        assert_eq!(school("W:WK1,K2:BK31,K32").outcome(), None);
        assert_eq!(pos("W:WK1:BK32").outcome(), None, "fid plays on");
        // Reaching it by a capture ends the game.
        let mut position = school("W:WK22,K30:BK18,K1");
        play(&mut position, "22x13");
        assert_eq!(position.outcome(), drawn);
        // A blocked lone king still loses.
        assert_eq!(
            school("W:WK32:BK28,K23").outcome(),
            Some(Outcome::win(Color::Black, EndReason::NoLegalMove))
        );
    }

    #[test]
    fn illegal_moves_are_refused() {
        let mut position = pos("W:W21-32:B1-12");
        let text = position.to_string();
        for mv in ["25-21", "12-16", "13-9", "23x14", "29-25", "24-28"] {
            let Ok(mv) = mv.parse::<Move>() else {
                panic!("{mv}");
            };
            assert_eq!(
                position.play(mv),
                Err(PlayError {
                    mv: mv.to_string(),
                    position: text.clone()
                })
            );
            assert_eq!(position.to_string(), text);
        }
        // When a capture exists, a step is illegal; so is a capture stopped early.
        let position = pos("W:W31:B12,20,28");
        assert!(!position.is_legal("31-27".parse().unwrap()));
        assert!(!position.is_legal("31x24".parse().unwrap()));
        assert!(!position.is_legal("31x24x15".parse().unwrap()));
        assert!(position.is_legal("31x24x15x8".parse().unwrap()));
        // Men do not step backwards; kings do.
        let position = pos("W:W18,K26:B1");
        assert!(!position.is_legal("18-22".parse().unwrap()));
        assert!(position.is_legal("26-30".parse().unwrap()));
    }

    #[test]
    fn parse_move_reads_the_short_form() {
        let position = pos("W:W31:B12,20,28");
        let full = "31x24x15x8".parse::<Move>().unwrap();
        assert_eq!(position.parse_move("31x8"), Ok(full));
        assert_eq!(position.parse_move(" 31x24x15x8 "), Ok(full));
        let illegal = |text: &str, reason: &str| ParseMoveError::Illegal {
            text: text.to_owned(),
            position: position.to_string(),
            reason: reason.to_owned(),
        };
        let not_allowed = "it is not one of the captures the rules allow here (a capture goes on \
                           while it can, and the Italian rules choose among them): 31x24x15x8";
        assert_eq!(
            position.parse_move("31x15"),
            Err(illegal("31x15", not_allowed))
        );
        assert_eq!(
            position.parse_move("31x24"),
            Err(illegal("31x24", not_allowed))
        );
        assert_eq!(
            position.parse_move("31-27"),
            Err(illegal("31-27", "a capture is compulsory: 31x24x15x8"))
        );
        assert!(matches!(
            position.parse_move("31-24"),
            Err(ParseMoveError::Invalid { .. })
        ));
        // The loop around the diamond, either way round, is one capture: the short form names it.
        let position = pos("W:WK29:B10,11,18,19,26");
        let kept = "29x22x13x6x15x22".parse::<Move>().unwrap();
        assert_eq!(position.parse_move("29x22"), Ok(kept));
        assert_eq!(position.parse_move("29x22x15x6x13x22"), Ok(kept));
    }

    #[test]
    fn finished_games_refuse_moves() {
        let mut position = pos("W:W29:BK25,K26");
        assert!(position.play("29-25".parse().unwrap()).is_err());
        let mut position = school("W:WK1:BK32");
        assert!(position.play("1-5".parse().unwrap()).is_err());
        assert!(!position.is_legal("1-5".parse().unwrap()));
    }

    #[test]
    fn pretty_board() {
        let mut position = pos("W:W21-32:B1-12,K13");
        position.set_piece(sq(13), Some(Piece::BlackKing));
        position.set_rules(Variant::School);
        let text = position.pretty();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[0], "b   b   b   b       1     2     3     4");
        assert_eq!(lines[1], "  b   b   b   b        5     6     7     8");
        assert_eq!(lines[3], "  B   .   .   .       13    14    15    16");
        assert_eq!(lines[4], ".   .   .   .      17    18    19    20");
        assert_eq!(lines[7], "  w   w   w   w       29    30    31    32");
        assert_eq!(
            lines[8],
            "White to move; white 12 (0 kings), black 13 (1 king); \
             0 of 80 plies without a capture or man move; ply 0; school rules"
        );
    }

    #[test]
    fn illegal_moves_say_which_rule_they_break() {
        let position = pos("W:W22:B5");
        let why = |text: &str| position.parse_move(text).unwrap_err().to_string();
        assert_eq!(
            why("22-26"),
            "illegal move \"22-26\": a man moves forward only"
        );
        assert_eq!(
            why("5-9"),
            "illegal move \"5-9\": 5 holds a piece of Black's, and it is White's turn"
        );
        assert_eq!(
            why("21-17"),
            "illegal move \"21-17\": there is no piece on 21"
        );
        assert_eq!(
            why("22x13"),
            "illegal move \"22x13\": there is nothing to capture"
        );
    }
}
