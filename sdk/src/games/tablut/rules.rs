//! The rules of play: the [`crate::Position`] implementation of [`Position`] — captures, the
//! king's capture and escape, repetition, the outcome, reading moves in context, printing the board.

use std::fmt::Write as _;

use super::moves::Move;
use super::position::{Cell, Position};
use super::square::{Square, CAMPS, CAMP_CENTRES, CASTLE, EDGE, NEIGHBOURS, NONE, STEP};
use crate::{Color, EndReason, Outcome, ParseMoveError};

/// The squares next to the castle, where the king needs black on its three other sides.
const NEXT_TO_CASTLE: u128 = NEIGHBOURS[Square::CASTLE.index()];

/// The enemy soldiers captured by a piece of `side` that has just arrived on `to` (the boards
/// already show the move), and whether Black captures the king.
///
/// Captures are active: only the (up to four) neighbours of `to` are checked, each against the
/// square beyond it (the *anvil*).
#[inline]
fn victims(white: u128, black: u128, king: u128, to: usize, side: Color) -> (u128, bool) {
    let (enemies, anvils) = match side {
        // The castle is an anvil empty or with the king; camp centres are not.
        Color::White => (black, white | king | CASTLE | (CAMPS & !CAMP_CENTRES)),
        Color::Black => (white, black | CAMPS | CASTLE),
    };
    let mut victims = 0;
    let mut king_captured = false;
    for step in &STEP {
        let next = step[to];
        if next == NONE {
            continue;
        }
        let next_bit = 1u128 << next;
        let beyond = step[usize::from(next)];
        if enemies & next_bit != 0 && beyond != NONE && anvils & (1 << beyond) != 0 {
            victims |= next_bit;
        }
        if side == Color::Black && king & next_bit != 0 {
            king_captured = king_is_captured(black, usize::from(next), beyond);
        }
    }
    (victims, king_captured)
}

/// Whether the king on `king`, next to a black piece that has just arrived, is captured, with
/// `black` the black soldiers; `beyond` is the square past the king seen from that piece.
#[inline]
fn king_is_captured(black: u128, king: usize, beyond: u8) -> bool {
    let around = if king == Square::CASTLE.index() {
        // On the castle: black on all four sides.
        NEIGHBOURS[king]
    } else if NEXT_TO_CASTLE & (1 << king) != 0 {
        // Next to it: black on the three sides other than the castle.
        NEIGHBOURS[king] & !CASTLE
    } else {
        // Elsewhere: like a soldier, against a black piece or any camp square.
        return beyond != NONE && (black | CAMPS) & (1 << beyond) != 0;
    };
    around & !black == 0
}

impl Position {
    /// The enemy soldiers captured by a piece of `side` that has just arrived on `to` (the board
    /// already shows the move), and whether Black captures the king.
    #[inline]
    pub(super) fn victims(&self, to: usize, side: Color) -> (u128, bool) {
        victims(self.white, self.black, self.king, to, side)
    }

    /// The enemy soldiers `mv` would capture and whether it would capture the king, worked out
    /// on copies of the boards (no position is made), whether or not `mv` is legal.
    #[inline]
    pub(super) fn victims_of(&self, mv: Move) -> (u128, bool) {
        let (mut white, mut black, mut king) = (self.white, self.black, self.king);
        super::position::shift_piece(&mut white, &mut black, &mut king, mv);
        victims(white, black, king, mv.to.index(), self.side)
    }

    /// The number of legal moves after `mv` (legal here), as [`Position::count_moves`] would
    /// count them after [`crate::Position::play_unchecked`], without making the new position:
    /// perft's last ply but one. The same steps as `play_unchecked`: the piece moves, its
    /// victims go, the king's capture or escape or a repeated state end the game.
    #[inline(always)]
    pub(super) fn count_moves_after(&self, mv: Move) -> u32 {
        use super::history::{keys_of, BLACK_KEYS, BLACK_TO_MOVE, WHITE_KEYS};
        let to = mv.to.index();
        let (mut white, mut black, mut king) = (self.white, self.black, self.king);
        let Some((_, keys)) = super::position::shift_piece(&mut white, &mut black, &mut king, mv)
        else {
            return 0;
        };
        let mut hash = self.hash ^ BLACK_TO_MOVE ^ keys;
        let (victims, king_captured) = victims(white, black, king, to, self.side);
        if king_captured || king & (1 << to) & EDGE != 0 {
            return 0;
        }
        let movers = match self.side {
            Color::White => {
                black &= !victims;
                hash ^= keys_of(BLACK_KEYS, victims);
                black
            }
            Color::Black => {
                white &= !victims;
                hash ^= keys_of(WHITE_KEYS, victims);
                white | king
            }
        };
        if victims == 0 && self.history.contains(hash) {
            return 0;
        }
        super::movegen::count_all(movers, white | black | king)
    }

    /// The result of the move just played, given what it captured: the king's capture or escape
    /// end the game; otherwise the repetition list is updated (a capture restarts it).
    fn record(&mut self, captured: bool) {
        if captured {
            self.history.clear();
        }
        if self.is_decided() {
            return;
        }
        if captured || !self.history.contains(self.hash) {
            self.history.push(self.hash);
        } else {
            self.result = Some(Outcome::draw(EndReason::Repetition));
        }
    }
}

impl crate::Position for Position {
    type Move = Move;

    fn variant(&self) -> &'static str {
        super::ASHTON
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
        (!self.check_legal(mv)).then(|| self.explain_illegal(mv))
    }

    /// Moves the piece, removes the captured soldiers, records a king capture or a repetition,
    /// and passes the turn.
    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let side = self.side;
        self.move_piece(mv);
        let (victims, king_captured) = self.victims(mv.to.index(), side);
        if victims != 0 {
            match side {
                Color::White => self.black &= !victims,
                Color::Black => self.white &= !victims,
            }
            let kind = match side {
                Color::White => super::history::BLACK_KEYS,
                Color::Black => super::history::WHITE_KEYS,
            };
            self.hash ^= super::history::keys_of(kind, victims);
        }
        if king_captured {
            self.result = Some(Outcome::win(Color::Black, EndReason::KingCaptured));
        } else if self.king & mv.to.bitboard().bits() & EDGE != 0 {
            // Decided when the king lands there: a king parsed on the edge plays on.
            self.result = Some(Outcome::win(Color::White, EndReason::KingEscaped));
        }
        self.side = side.other();
        self.hash ^= super::history::BLACK_TO_MOVE;
        self.ply = self.ply.saturating_add(1);
        self.record(victims != 0);
    }

    /// The incremental Zobrist hash of the board and the side to move
    /// ([`Position::zobrist`]). The repetition history is left out.
    #[inline]
    fn hash_key(&self) -> u64 {
        self.hash
    }

    /// The king's escape or capture by the last move first, then a repetition, then a side
    /// without moves. (A board built without a king counts as won by Black.)
    fn outcome(&self) -> Option<Outcome> {
        if let Some(result) = self.result {
            Some(result)
        } else if self.king == 0 {
            Some(Outcome::win(Color::Black, EndReason::KingCaptured))
        } else if !self.has_moves() {
            Some(Outcome::win(self.side.other(), EndReason::NoLegalMove))
        } else {
            None
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

    /// Rows 1 (top) to 9 with coordinates: `W` `B` `K` pieces, `.` empty, `#` the empty castle,
    /// `*` an empty camp square; then whose turn it is, the soldier counts, the ply and the
    /// length of the repetition list.
    fn pretty(&self) -> String {
        let mut out = String::with_capacity(320);
        out.push_str("   a b c d e f g h i\n");
        for row in 0..9 {
            let _ = write!(out, "{} ", row + 1);
            for column in 0..9 {
                let symbol =
                    Square::from_coords(column, row).map_or('?', |sq| match self.cell(sq) {
                        Cell::Empty if sq.is_castle() => '#',
                        Cell::Empty if sq.is_camp() => '*',
                        Cell::Empty => '.',
                        cell => cell.symbol(),
                    });
                out.push(' ');
                out.push(symbol);
            }
            let _ = writeln!(out, "  {}", row + 1);
        }
        out.push_str("   a b c d e f g h i\n");
        let _ = write!(
            out,
            "{} to move; white {} + king, black {}; ply {}; {} state{} since the last capture",
            self.side,
            self.count_soldiers(Color::White),
            self.count_soldiers(Color::Black),
            self.ply,
            self.states_since_capture(),
            if self.states_since_capture() == 1 {
                ""
            } else {
                "s"
            },
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PlayError, Position as _};

    fn pos(text: &str) -> Position {
        Position::from_text(text).unwrap()
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    const START: &str = "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/\
                         OOOOBOOOO/OOOBBBOOO - W";

    /// A board with the king on c7, a white soldier on f8 and black soldiers on b9, h9 and h2.
    const SHUFFLE: &str =
        "OOOOOOOOO/OOOOOOOBO/OOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOKOOOOOO/OOOOOWOOO/OBOOOOOBO - W";

    #[test]
    fn repetition_draws_on_the_first_repeated_state() {
        let mut position = pos(SHUFFLE);
        for (i, text) in ["c7-c6", "h2-h3", "c6-c7", "h3-h2"].iter().enumerate() {
            position.play(mv(text)).unwrap();
            assert_eq!(position.outcome(), None, "after {text}");
            assert_eq!(position.states_since_capture(), i + 1);
        }
        // The parsed position is back, but it was never in the list.
        assert_eq!(position.to_string(), SHUFFLE);
        position.play(mv("c7-c6")).unwrap();
        // The state after the first move occurs a second time: draw.
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::Repetition))
        );
        assert!(position.legal_moves().is_empty());
        assert_eq!(position.count_moves(), 0);
        assert!(!position.is_legal(mv("h2-h3")));
        // Parsed from its text, the same board carries no history and goes on.
        let fresh = pos(&position.to_string());
        assert_eq!(fresh.outcome(), None);
        assert_eq!(fresh.states_since_capture(), 0);
    }

    #[test]
    fn repetition_needs_the_same_side_to_move() {
        // From the start: the state after ply 2 comes back after ply 6.
        let mut position = pos(START);
        for text in ["d5-d8", "a4-b4", "d8-d7", "b4-c4", "d7-d8"] {
            position.play(mv(text)).unwrap();
            assert_eq!(position.outcome(), None, "after {text}");
        }
        position.play(mv("c4-b4")).unwrap();
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::Repetition))
        );
        assert_eq!(position.ply(), 6);
    }

    #[test]
    fn a_capture_clears_the_repetition_list() {
        let mut position = pos(SHUFFLE);
        for text in [
            "c7-c6", "b9-b8", "c6-c5", "b8-b7", "c5-c4", "h9-h8", "c4-c3",
        ] {
            position.play(mv(text)).unwrap();
        }
        assert_eq!(position.states_since_capture(), 7);
        // Black h8-g8 captures f8 against the camp square e8; the list restarts with this state.
        position.play(mv("h8-g8")).unwrap();
        assert_eq!(position.cell("f8".parse().unwrap()), Cell::Empty);
        assert_eq!(position.states_since_capture(), 1);
        assert_eq!(position.outcome(), None);
    }

    #[test]
    fn illegal_moves_are_refused() {
        let mut position = pos(START);
        for text in [
            "e3-e2", // onto a camp
            "e4-e2", // through a piece
            "a4-a3", // the opponent's piece
            "c3-c4", // no piece
            "e5-e4", // the king is blocked
            "d5-d1", // into a camp
        ] {
            let m = mv(text);
            assert_eq!(
                position.play(m),
                Err(PlayError {
                    mv: text.to_owned(),
                    position: START.to_owned(),
                }),
                "{text}"
            );
        }
        assert!(!position.is_legal(Move::new("c3".parse().unwrap(), "d4".parse().unwrap())));
        assert_eq!(position.to_string(), START);
    }

    #[test]
    fn parse_move_checks_legality() {
        let start = pos(START);
        assert_eq!(start.parse_move(" E3-H3 "), Ok(mv("e3-h3")));
        assert_eq!(
            start.parse_move("e3-e2"),
            Err(ParseMoveError::Illegal {
                text: "e3-e2".to_owned(),
                position: START.to_owned(),
                reason: "e2 is occupied".to_owned(),
            })
        );
        for (text, reason) in [
            ("e4-e2", "the way is blocked at e3"),
            (
                "a4-a3",
                "a4 holds a piece of Black's, and it is White's turn",
            ),
            ("c3-c4", "there is no piece on c3"),
            ("c5-a5", "the way is blocked at b5"),
            ("e5-e4", "e4 is occupied"),
        ] {
            let err = start.parse_move(text).unwrap_err().to_string();
            assert_eq!(err, format!("illegal move {text:?}: {reason}"));
        }
        assert!(matches!(
            start.parse_move("z9-z1"),
            Err(ParseMoveError::Invalid { .. })
        ));
    }

    #[test]
    fn captures_lists_the_victims() {
        let position = pos(
            "OOOOOOOOO/OOOOOOOOO/OOWBOBWOO/OOOOWOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOKOO/OOOOOOOOO/OOOOOOOOO - W",
        );
        let captured: Vec<Square> = position.captures(mv("e4-e3")).into_iter().collect();
        assert_eq!(captured, ["d3".parse().unwrap(), "f3".parse().unwrap()]);
        assert!(position.captures(mv("g7-g8")).is_empty());
    }

    #[test]
    fn no_legal_move_loses() {
        // Black's only soldier, a1, is walled in by White; Black to move loses.
        let position = pos(
            "BWOOOOOOO/WOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOKOO/OOOOOOOOO/OOOOOOOOO - B",
        );
        assert_eq!(
            position.outcome(),
            Some(Outcome::win(Color::White, EndReason::NoLegalMove))
        );
        assert!(position.legal_moves().is_empty());
    }

    #[test]
    fn the_escape_is_decided_when_the_king_lands() {
        // A king parsed on the edge has not escaped yet (the server checks only the move).
        let mut edge = pos(
            "OOOOOOOOO/OOOOOOOOO/KOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOB - W",
        );
        assert_eq!(edge.outcome(), None);
        edge.play(mv("a3-b3")).unwrap();
        assert_eq!(edge.outcome(), None);
        edge.play(mv("i9-i8")).unwrap();
        edge.play(mv("b3-b1")).unwrap();
        assert_eq!(
            edge.outcome(),
            Some(Outcome::win(Color::White, EndReason::KingEscaped))
        );
        assert!(edge.legal_moves().is_empty());
        assert_eq!(edge.perft(2), 0);
        // Parsed again, the same board plays on.
        assert_eq!(pos(&edge.to_string()).outcome(), None);
    }

    #[test]
    fn a_board_without_a_king_is_won_by_black() {
        let mut kingless = Position::empty();
        kingless.set_cell("c3".parse().unwrap(), Cell::Black);
        assert_eq!(
            kingless.outcome(),
            Some(Outcome::win(Color::Black, EndReason::KingCaptured))
        );
    }

    #[test]
    fn pretty_board() {
        let text = pos(START).pretty();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   a b c d e f g h i");
        assert_eq!(lines[1], "1  . . . B B B . . .  1");
        assert_eq!(lines[5], "5  B B W W K W W B B  5");
        assert_eq!(lines[10], "   a b c d e f g h i");
        assert_eq!(
            lines[11],
            "White to move; white 8 + king, black 16; ply 0; 0 states since the last capture"
        );
        let mut moved = pos(START);
        for text in ["e4-h4", "a4-a3", "e5-e4"] {
            moved.play(mv(text)).unwrap();
        }
        assert!(moved.pretty().lines().nth(5).unwrap().contains("W W # W W"));
        let mut one = pos(START);
        one.play(mv("e4-h4")).unwrap();
        assert!(one
            .pretty()
            .ends_with("ply 1; 1 state since the last capture"));
    }

    #[test]
    fn illegal_moves_say_which_rule_they_break() {
        let position = pos("OOOOOOOOO/OOWOOOOOO/OOOOOOOOO/OOOOKOOOO/OOWOTOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOB/OOOOOOOOO - W");
        let why = |text: &str| position.why_illegal(mv(text));
        assert_eq!(
            why("c2-e2").as_deref(),
            Some("e2 is a camp square, which a piece from outside a camp may not enter or cross")
        );
        assert_eq!(
            why("c5-g5").as_deref(),
            Some("nothing may stop on or pass through the castle (e5) once the king has left it")
        );
        let diagonal = Move::new("c2".parse().unwrap(), "d3".parse().unwrap());
        assert_eq!(
            position.why_illegal(diagonal).as_deref(),
            Some("a piece moves along a row or a column")
        );
        assert_eq!(why("c2-c1"), None);
    }
}
