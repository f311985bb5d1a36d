//! The rules of play: the [`crate::Position`] implementation of [`Position`] — playing a move,
//! deciding the outcome, reading moves in context, printing the board.

use std::fmt::Write as _;

use super::history::{count_bits, count_in, zobrist, COUNT_BITS};
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
        let mut hash = self.key ^ zobrist(us, point);
        for stone in captured {
            hash ^= zobrist(them, stone);
        }
        self.stones[us.index()] |= point.bitboard();
        self.stones[them.index()] = self.stones[them.index()].and_not(captured);
        let own = count_in(self.key, us) + 1;
        let opp = count_in(self.key, them).saturating_sub(captured.count());
        let counts = match us {
            Color::White => count_bits(own, opp),
            Color::Black => count_bits(opp, own),
        };
        self.key = (hash & !COUNT_BITS) | counts;
        self.history.push(self.key);
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
        self.stones[Color::Black.index()] = super::point::Bitboard::EMPTY;
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
    use crate::{Game, PlayError, Position as _};

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

    /// RULES.md: "A move that captures and connects wins" — the connection counts after the
    /// capture. G7 would be suicide but for the capture of G8, and it joins row 7.
    #[test]
    fn a_capture_that_also_connects_wins() {
        let rows = [
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            ".....OXO.....",
            "OOOOOXOXOOOOO",
            "XXXXXX.XXXXXX",
            "OOOOOOOOOOOOX",
            "............O",
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
        ];
        let position = board(rows, "X 60");
        assert_eq!(position.outcome(), None);
        assert_eq!(position.captures(pt("G7")), pt("G8").bitboard());
        let mut won = position.clone();
        won.play(place("G7")).unwrap();
        assert_eq!(won.stone(pt("G8")), None, "G8 is captured");
        assert_eq!(
            won.outcome(),
            Some(Outcome::win(Color::Black, EndReason::Connection))
        );
        assert!(won.legal_moves().is_empty());
        assert!(won.play(place("A1")).is_err());
        assert!(won
            .pretty()
            .ends_with("; Black wins (two opposite sides connected)"));
    }

    /// RULES.md: "a suicide is illegal even if it would connect".
    #[test]
    fn a_suicide_that_would_connect_is_illegal() {
        let rows = [
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            ".....O.O.....",
            "OOOOOXOXOOOOO",
            "XXXXXX.XXXXXX",
            "OOOOOOOOOOOOX",
            "............O",
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
        ];
        let position = board(rows, "X 60");
        assert!(position.captures(pt("G7")).is_empty(), "G8 breathes at G9");
        assert!(!position.is_legal(place("G7")));
        assert!(!position.legal_moves().contains(&place("G7")));
        assert!(matches!(
            position.parse_move("G7"),
            Err(ParseMoveError::Illegal { .. })
        ));
        let mut copy = position.clone();
        assert_eq!(
            copy.play(place("G7")),
            Err(PlayError {
                mv: "G7".to_owned(),
                position: position.to_string()
            })
        );
        assert_eq!(copy, position);
        // White may play there (it is no suicide for White: G8 joins it).
        let mut white = position.clone();
        white.set_side_to_move(Color::White);
        assert!(white.is_legal(place("G7")));
    }

    #[test]
    fn connections_both_ways_for_both_colours() {
        // Black top to bottom down column C, bent on the way.
        let mut black = Position::start();
        for p in Point::ALL
            .into_iter()
            .filter(|p| p.column() == 2 && p.row() != 5)
        {
            black.set_stone(p, Some(Color::Black));
        }
        for p in ["D5", "D6", "D7", "C7"] {
            black.set_stone(pt(p), Some(Color::Black));
        }
        black.set_stone(pt("C6"), Some(Color::White));
        black.set_side_to_move(Color::White);
        assert_eq!(black.connected(), Some(Color::Black));
        assert_eq!(
            black.outcome(),
            Some(Outcome::win(Color::Black, EndReason::Connection))
        );

        // White left to right along row 10, completed by the last stone.
        let mut white = Position::start();
        for p in Point::ALL
            .into_iter()
            .filter(|p| p.row() == 9 && p.column() != 5)
        {
            white.set_stone(p, Some(Color::White));
        }
        white.set_side_to_move(Color::White);
        assert_eq!(white.outcome(), None);
        white.play(place("F10")).unwrap();
        assert_eq!(
            white.outcome(),
            Some(Outcome::win(Color::White, EndReason::Connection))
        );

        // White top to bottom and Black left to right, each finished by a move.
        let mut white = Position::start();
        for p in Point::ALL
            .into_iter()
            .filter(|p| p.column() == 12 && p.row() != 0)
        {
            white.set_stone(p, Some(Color::White));
        }
        white.set_side_to_move(Color::White);
        white.play(place("N1")).unwrap();
        assert_eq!(white.connected(), Some(Color::White));
        let mut black = Position::start();
        for p in Point::ALL
            .into_iter()
            .filter(|p| p.row() == 0 && p.column() != 0)
        {
            black.set_stone(p, Some(Color::Black));
        }
        black.play(place("A1")).unwrap();
        assert_eq!(black.connected(), Some(Color::Black));

        // Two sides meeting at a corner are not opposite: column A plus row 13 without N13.
        let mut corner = Position::start();
        for p in Point::ALL
            .into_iter()
            .filter(|p| (p.column() == 0 && p.row() > 0) || (p.row() == 12 && p.column() < 12))
        {
            corner.set_stone(p, Some(Color::Black));
        }
        assert_eq!(corner.outcome(), None);
    }

    #[test]
    fn swap_is_legal_only_at_ply_2() {
        let start = Position::start();
        assert!(!start.is_legal(Move::Swap));
        let first = after(start.clone(), &["G7"]);
        assert!(first.is_legal(Move::Swap));
        assert_eq!(first.legal_moves().last(), Some(&Move::Swap));
        assert_eq!(first.count_moves(), 169);
        let swapped = after(first.clone(), &["swap"]);
        assert_eq!(swapped.stone(pt("G7")), Some(Color::White));
        assert_eq!(swapped.side, Color::Black);
        assert_eq!(swapped.move_number(), 3);
        assert_eq!(
            swapped.to_string(),
            format!("{} X 3", {
                let mut rows = vec![EMPTY_ROW.to_owned(); 13];
                rows[6] = "......O......".to_owned();
                rows.join("/")
            })
        );
        assert!(!swapped.is_legal(Move::Swap));
        assert!(!after(first, &["A1"]).is_legal(Move::Swap));
        assert!(after(swapped, &["A1", "B1"])
            .legal_moves()
            .iter()
            .all(|&m| m != Move::Swap));

        // Parsed positions: move 2, White to move, exactly one stone and it is black.
        let one_black = |stone: &str, rest: &str| {
            let mut rows = [EMPTY_ROW; 13];
            rows[0] = stone;
            board(rows, rest)
        };
        assert!(one_black("X............", "O 2").is_legal(Move::Swap));
        assert_eq!(
            one_black("X............", "O 2").parse_move(" SWAP"),
            Ok(Move::Swap)
        );
        assert!(!one_black("X............", "X 2").is_legal(Move::Swap));
        assert!(!one_black("X............", "O 4").is_legal(Move::Swap));
        assert!(!one_black("O............", "O 2").is_legal(Move::Swap));
        assert!(!one_black("XX...........", "O 2").is_legal(Move::Swap));
        assert!(!one_black("X.O..........", "O 2").is_legal(Move::Swap));
        assert!(!one_black(EMPTY_ROW, "O 2").is_legal(Move::Swap));
    }

    /// Positional superko: a simple ko, whose immediate retake would recreate the board.
    #[test]
    fn a_superko_repetition_is_refused() {
        // Black E5 breathes only at D5, where White captures it.
        let mut rows = [EMPTY_ROW; 13];
        rows[7] = "...XO........";
        rows[8] = "..X.XO.......";
        rows[9] = "...XO........";
        let taken = after(board(rows, "O 40"), &["D5"]);
        assert_eq!(taken.stone(pt("E5")), None);
        // Retaking at E5 would capture D5 and recreate the board before White's move.
        assert_eq!(taken.captures(pt("E5")), pt("D5").bitboard());
        assert!(!taken.is_legal(place("E5")));
        assert!(!taken.legal_points().contains(pt("E5")));
        assert_eq!(taken.count_moves(), 169 - 7 - 1);
        assert!(matches!(
            taken.parse_move("e5"),
            Err(ParseMoveError::Illegal { .. })
        ));
        // The same board without its history allows it.
        assert!(pos(&taken.to_string()).is_legal(place("E5")));
        // After an exchange elsewhere the board differs, and the retake is legal...
        let later = after(taken, &["A1", "N13"]);
        assert!(later.is_legal(place("E5")));
        let retaken = after(later, &["E5"]);
        assert_eq!(retaken.stone(pt("D5")), None);
        // ...but White may not retake at D5 at once.
        assert!(!retaken.is_legal(place("D5")));
        assert!(retaken.is_legal(place("D5")) == retaken.legal_points().contains(pt("D5")));
    }

    /// A board where Black, to move, has no legal move: white fills everything but the long
    /// diagonal, whose points are single eyes of two white groups (left+top and bottom+right, so
    /// White is not connected). Every point is suicide for Black.
    const DIAGONAL: [&str; 13] = [
        "OOOOOOOOOOOO.",
        "OOOOOOOOOOO.O",
        "OOOOOOOOOO.OO",
        "OOOOOOOOO.OOO",
        "OOOOOOOO.OOOO",
        "OOOOOOO.OOOOO",
        "OOOOOO.OOOOOO",
        "OOOOO.OOOOOOO",
        "OOOO.OOOOOOOO",
        "OOO.OOOOOOOOO",
        "OO.OOOOOOOOOO",
        "O.OOOOOOOOOOO",
        ".OOOOOOOOOOOO",
    ];

    #[test]
    fn no_legal_move_loses() {
        let position = board(DIAGONAL, "X 200");
        assert_eq!(position.connected(), None);
        assert!(position.legal_moves().is_empty());
        assert_eq!(
            position.outcome(),
            Some(Outcome::win(Color::White, EndReason::NoLegalMove))
        );
        assert!(!position.is_legal(place("A1")));
        // White, to move, could fill an eye.
        let mut white = position.clone();
        white.set_side_to_move(Color::White);
        assert_eq!(white.outcome(), None);
        assert_eq!(white.count_moves(), 13);
    }

    /// "No legal move" counts points forbidden by superko: after White takes the ko at B1, Black's
    /// only non-suicide point, the retake at A1, would recreate the board before.
    #[test]
    fn no_legal_move_counts_superko_forbidden_points() {
        let mut rows = DIAGONAL;
        rows[11] = "OXXOOOOOOOOOO";
        rows[12] = "X.XOOOOOOOOOO";
        let position = board(rows, "O 200");
        assert_eq!(position.outcome(), None);
        let taken = after(position, &["B1"]);
        assert_eq!(taken.stone(pt("A1")), None);
        assert_eq!(taken.connected(), None);
        assert!(taken.legal_moves().is_empty());
        assert_eq!(
            taken.outcome(),
            Some(Outcome::win(Color::White, EndReason::NoLegalMove))
        );
        // Without the history, A1 (recapturing B1) is Black's one legal move.
        let fresh = pos(&taken.to_string());
        assert_eq!(fresh.legal_moves(), [place("A1")]);
        assert_eq!(fresh.outcome(), None);
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
                position: occupied.to_string()
            })
        );
        assert_eq!(
            start.parse_move("swap"),
            Err(ParseMoveError::Illegal {
                text: "swap".to_owned(),
                position: start.to_string()
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
}
