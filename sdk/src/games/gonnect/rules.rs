//! The rules of play: the [`crate::Position`] implementation of [`Position`] — playing a move,
//! deciding the outcome, reading moves in context, printing the board.

use std::fmt::Write as _;

use super::moves::Move;
use super::point::{Point, SIZE};
use super::position::{symbol, Position};
use super::STANDARD;
use crate::{Color, EndReason, Outcome, ParseMoveError};

impl Position {
    /// Places a stone of the side to move on `point`, removes the opposing chains left without
    /// liberties, records the board and checks the mover's connection.
    #[inline]
    fn place(&mut self, point: Point) {
        let (us, them) = (self.side, self.side.other());
        let captured = self.captures(point);
        self.key = self.key_after(point, captured);
        self.history.push(self.key);
        self.stones[us.index()] |= point.bitboard();
        self.stones[them.index()] = self.stones[them.index()].and_not(captured);
        // Captures only remove opposing stones, so only the new stone's chain can newly connect;
        // the cheap test on all the mover's stones rules most moves out.
        let stones = self.stones(us);
        if stones.spans() && point.bitboard().flood(stones).spans() {
            self.connected = Some(us);
        }
    }

    /// The swap: every black stone (the single one when legal) turns white.
    fn swap(&mut self) {
        let black = self.stones(Color::Black);
        self.stones[Color::White.index()] |= black;
        self.stones[Color::Black.index()] = super::bitboard::Bitboard::EMPTY;
        self.key = self.key_after_swap();
        self.history.push(self.key);
    }
}

impl crate::Position for Position {
    type Move = Move;

    fn variant(&self) -> &'static str {
        STANDARD
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    /// The move number less one.
    fn ply(&self) -> u32 {
        self.move_number.saturating_sub(1)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.push_moves(moves);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv)
    }

    fn why_illegal(&self, mv: Move) -> Option<String> {
        (!self.check_legal(mv)).then(|| self.explain_illegal(mv))
    }

    /// Places the stone (capturing, recording the board, checking for a connection) or swaps,
    /// then passes the turn and counts the move.
    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Place(point) => self.place(point),
            Move::Swap => self.swap(),
        }
        self.side = self.side.other();
        self.move_number = self.move_number.saturating_add(1);
    }

    /// The incremental board key (Zobrist hash and stone counts), with the side to move and
    /// whether the swap is available mixed in. The superko history is left out.
    #[inline]
    fn hash_key(&self) -> u64 {
        let side = if self.side == Color::Black {
            0x5EED_0B1A_C000_0001
        } else {
            0
        };
        let swap = if self.move_number == 2 {
            0x00A5_3C96_0F1E_2D4B
        } else {
            0
        };
        crate::games::mix64(self.key ^ side ^ swap)
    }

    /// A connection wins ([`EndReason::Connection`]); otherwise a side to move without a legal
    /// move (every empty point suicide or a repetition of an earlier board) loses
    /// ([`EndReason::NoLegalMove`]).
    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.connected {
            Some(Outcome::win(winner, EndReason::Connection))
        } else if self.can_move() {
            None
        } else {
            Some(Outcome::win(self.side.other(), EndReason::NoLegalMove))
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let mv: Move = text.parse()?;
        if self.check_legal(mv) {
            Ok(mv)
        } else {
            Err(ParseMoveError::Illegal {
                text: text.to_owned(),
                position: self.to_string(),
                reason: self.explain_illegal(mv),
            })
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        self.fast_perft(depth)
    }

    /// Rows 13 to 1 with coordinates and `X O .` symbols, then whose turn it is, the move number,
    /// the stone counts, and the swap or the result when they apply.
    fn pretty(&self) -> String {
        let letters: String = Point::ALL[..usize::from(SIZE)]
            .iter()
            .map(|p| format!(" {}", p.column_letter()))
            .collect();
        let mut out = String::with_capacity(512);
        let _ = writeln!(out, "  {letters}");
        for row in (0..SIZE).rev() {
            let _ = write!(out, "{:>2}", row + 1);
            for column in 0..SIZE {
                let stone = Point::from_coords(column, row).and_then(|p| self.stone(p));
                out.push(' ');
                out.push(stone.map_or('.', symbol));
            }
            let _ = writeln!(out, " {}", row + 1);
        }
        let _ = writeln!(out, "  {letters}");
        let _ = write!(
            out,
            "{} ({}) to move, move {}; X {} stones, O {} stones",
            symbol(self.side),
            self.side,
            self.move_number,
            self.count(Color::Black),
            self.count(Color::White),
        );
        if self.swap_is_legal() {
            out.push_str("; swap available");
        }
        if let Some(outcome) = crate::Position::outcome(self) {
            let _ = write!(out, "; {outcome}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Gonnect;
    use super::*;
    use crate::{Game, Position as _};

    fn pos(text: &str) -> Position {
        Gonnect::parse_position(text, None).unwrap()
    }

    fn pt(text: &str) -> Point {
        text.parse().unwrap()
    }

    fn place(text: &str) -> Move {
        Move::Place(pt(text))
    }

    /// Plays `moves` (each must be legal) and returns the position.
    fn after(mut position: Position, moves: &[&str]) -> Position {
        for text in moves {
            let mv = position.parse_move(text).unwrap();
            position.play(mv).unwrap();
        }
        position
    }

    const EMPTY_ROW: &str = ".............";

    /// A board from its 13 rows, top first, with the rest of the position text.
    fn board(rows: [&str; 13], rest: &str) -> Position {
        pos(&format!("{} {rest}", rows.join("/")))
    }

    #[test]
    fn placing_and_capturing() {
        let position = after(Position::start(), &["B1", "A1"]);
        assert_eq!(position.stone(pt("A1")), Some(Color::White));
        assert_eq!(position.liberties(pt("A1")), pt("A2").bitboard());
        let position = after(position, &["A2"]);
        assert_eq!(position.stone(pt("A1")), None, "A1 had no liberty left");
        assert_eq!(position.count(Color::White), 0);
        assert_eq!((position.move_number(), position.ply()), (4, 3));
        assert_eq!(position.side_to_move(), Color::White);
        assert_eq!(position.history_len(), 4);
    }

    #[test]
    fn a_capture_removes_the_chain_and_updates_the_key() {
        // White B2 C2 breathe only at D2.
        let position = board(
            [
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                EMPTY_ROW,
                ".XX..........",
                "XOO..........",
                ".XX..........",
            ],
            "X 12",
        );
        let mut played = position.clone();
        played.play(place("D2")).unwrap();
        assert_eq!(played.stone(pt("B2")), None);
        assert_eq!(played.stone(pt("C2")), None);
        assert_eq!(played.count(Color::White), 0);
        assert_eq!(played.key, super::super::position::board_key(played.stones));
        let reparsed = pos(&played.to_string());
        assert_eq!(reparsed.key, played.key);
        assert_eq!(played.history_len(), 2);
    }

    #[test]
    fn parse_move_checks_legality() {
        let start = Position::start();
        assert_eq!(start.parse_move(" g7 "), Ok(place("G7")));
        let occupied = after(start.clone(), &["G7"]);
        assert_eq!(
            occupied.parse_move("G7"),
            Err(ParseMoveError::Illegal {
                text: "G7".to_owned(),
                position: occupied.to_string(),
                reason: "G7 is occupied".to_owned(),
            })
        );
        assert_eq!(
            start.parse_move("swap"),
            Err(ParseMoveError::Illegal {
                text: "swap".to_owned(),
                position: start.to_string(),
                reason: "swap is legal only as White's first move, with one black stone on the \
                         board"
                    .to_owned(),
            })
        );
        assert!(matches!(
            start.parse_move("I9"),
            Err(ParseMoveError::Invalid { .. })
        ));
    }

    #[test]
    fn pretty_board() {
        let text = after(Position::start(), &["G7"]).pretty();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   A B C D E F G H J K L M N");
        assert_eq!(lines[1], "13 . . . . . . . . . . . . . 13");
        assert_eq!(lines[7], " 7 . . . . . . X . . . . . . 7");
        assert_eq!(lines[13], " 1 . . . . . . . . . . . . . 1");
        assert_eq!(lines[14], lines[0]);
        assert_eq!(
            lines[15],
            "O (White) to move, move 2; X 1 stones, O 0 stones; swap available"
        );
    }

    #[test]
    fn illegal_moves_say_which_rule_they_break() {
        // Black to move; A1 is walled in by White at A2 and B1.
        let mut rows = vec![".............".to_owned(); 13];
        rows[11] = "O............".to_owned();
        rows[12] = ".O...........".to_owned();
        let position = pos(&format!("{} X 4", rows.join("/")));
        let err = position.parse_move("A1").unwrap_err().to_string();
        assert_eq!(
            err,
            "illegal move \"A1\": a stone on A1 would have no liberty (no suicide)"
        );
        assert_eq!(position.why_illegal(place("C3")), None);
    }
}
