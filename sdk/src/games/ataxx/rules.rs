//! The rules of play: the [`crate::Position`] implementation of [`Position`] — playing a move,
//! deciding the outcome, reading moves in context, printing the board.

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::moves::{self, Move};
use super::position::{Cell, Position, MOVE_LIMIT};
use super::square::{dilate2, Square, NEIGHBOURS};
use super::Variant;
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
        let black = u32::from(self.side == Color::Black);
        self.fullmove_number
            .saturating_sub(1)
            .saturating_mul(2)
            .saturating_add(black)
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

    /// Converts the destination's neighbours, moves the jumper, updates the clocks and the side
    /// to move.
    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let (us, them) = (self.side.index(), self.side.other().index());
        match mv {
            Move::Clone(to) => {
                let flipped = NEIGHBOURS[to.index()] & self.pieces[them];
                self.pieces[us] |= to.bitboard().bits() | flipped;
                self.pieces[them] ^= flipped;
                self.halfmove_clock = 0;
            }
            Move::Jump { from, to } => {
                let flipped = NEIGHBOURS[to.index()] & self.pieces[them];
                self.pieces[us] &= !from.bitboard().bits();
                self.pieces[us] |= to.bitboard().bits() | flipped;
                self.pieces[them] ^= flipped;
                self.halfmove_clock = self.halfmove_clock.saturating_add(1);
            }
            Move::Pass => self.halfmove_clock = self.halfmove_clock.saturating_add(1),
        }
        if self.side == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = self.side.other();
    }

    /// The side to move passes, as [`Move::Pass`] does (the no-progress clock counts it).
    fn null_move(&self) -> Option<Position> {
        let mut passed = self.clone();
        passed.play_unchecked(Move::Pass);
        Some(passed)
    }

    /// The two colours' pieces, the gaps and the side to move, mixed (not incremental: the
    /// board is three `u64`s, so hashing on demand costs a few multiplications and playing a
    /// move nothing). The halfmove clock and the move number are left out.
    #[inline]
    fn hash_key(&self) -> u64 {
        use crate::games::mix64;
        let side = if self.side == Color::Black {
            0x5EED_0B1A_C000_0001
        } else {
            0
        };
        mix64(self.pieces[0] ^ 0x9E37_79B9_7F4A_7C15)
            ^ mix64(self.pieces[1] ^ 0xD1B5_4A32_D192_ED03).rotate_left(21)
            ^ mix64(self.gaps ^ side ^ 0x8CB9_2BA7_2F3D_8DD7).rotate_left(42)
    }

    /// Board-decided endings (no pieces, nobody can move) take precedence over the 100-ply
    /// draw, as in libataxx.
    fn outcome(&self) -> Option<Outcome> {
        let by_count = |reason| {
            let (white, black) = (self.count(Color::White), self.count(Color::Black));
            match white.cmp(&black) {
                Ordering::Greater => Outcome::win(Color::White, reason),
                Ordering::Less => Outcome::win(Color::Black, reason),
                Ordering::Equal => Outcome::draw(reason),
            }
        };
        if self.pieces[0] == 0 || self.pieces[1] == 0 {
            return Some(by_count(EndReason::NoPieces));
        }
        let empty = self.empty_bits();
        let us_can = dilate2(self.pieces[self.side.index()]) & empty != 0;
        let them_can = dilate2(self.pieces[self.side.other().index()]) & empty != 0;
        if !us_can && !them_can {
            Some(by_count(EndReason::BoardBlocked))
        } else if !us_can && self.rules == Variant::Attax {
            Some(by_count(EndReason::NoLegalMove))
        } else if self.halfmove_clock >= MOVE_LIMIT {
            Some(Outcome::draw(EndReason::MoveLimit))
        } else {
            None
        }
    }

    /// A clone written with its origin (`a7b6`) must also start from one of the mover's pieces.
    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let (mv, clone_origin) = moves::parse(text)?;
        let origin_ok = match clone_origin {
            Some(from) => self.pieces(self.side).contains(from),
            None => true,
        };
        if origin_ok && self.check_legal(mv) {
            Ok(mv)
        } else {
            let reason = match clone_origin {
                Some(from) if !origin_ok => {
                    format!("there is no stone of the side to move on {from}")
                }
                _ => self.explain_illegal(mv),
            };
            Err(ParseMoveError::Illegal {
                text: text.to_owned(),
                position: self.to_string(),
                reason,
            })
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        self.fast_perft(depth)
    }

    /// Ranks 7 to 1 with coordinates and `x o - .` symbols, then whose turn it is, the piece
    /// counts and the clocks.
    fn pretty(&self) -> String {
        let mut out = String::with_capacity(256);
        out.push_str("  a b c d e f g\n");
        for rank in (0..7).rev() {
            let _ = write!(out, "{}", rank + 1);
            for file in 0..7 {
                let cell = Square::from_coords(file, rank).map_or(Cell::Empty, |s| self.cell(s));
                out.push(' ');
                out.push(cell.symbol());
            }
            let _ = writeln!(out, " {}", rank + 1);
        }
        out.push_str("  a b c d e f g\n");
        let _ = write!(
            out,
            "{} ({}) to move; x {}, o {}; halfmove clock {}, move {}; {} rules",
            Cell::Piece(self.side).symbol(),
            self.side,
            self.count(Color::White),
            self.count(Color::Black),
            self.halfmove_clock,
            self.fullmove_number,
            self.rules,
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PlayError, Position as _};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Variant::Standard).unwrap()
    }

    fn attax(fen: &str) -> Position {
        Position::from_fen(fen, Variant::Attax).unwrap()
    }

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    /// The FEN after playing `mv` (legally) in `fen`.
    fn after(fen: &str, mv: &str) -> String {
        let mut position = pos(fen);
        let mv = position.parse_move(mv).unwrap();
        position.play(mv).unwrap();
        position.to_string()
    }

    #[test]
    fn clone_converts_the_eight_neighbours() {
        let fen = "7/7/7/7/ooo4/o1o4/x6 x 3 1";
        assert_eq!(pos(fen).converts(Move::Clone(sq("b2"))), 5);
        assert_eq!(after(fen, "b2"), "7/7/7/7/xxx4/xxx4/x6 o 0 1");
        // Only the destination's neighbours turn, not the origin's.
        assert_eq!(
            after("7/7/7/7/7/o6/x1o4 x 0 1", "a1b1"),
            "7/7/7/7/7/x6/xxx4 o 0 1"
        );
    }

    #[test]
    fn jump_empties_its_origin_and_converts() {
        assert_eq!(
            after("7/7/7/7/7/7/x5o x 5 1", "a1c3"),
            "7/7/7/7/2x4/7/6o o 6 1"
        );
        let fen = "7/7/7/3o3/7/7/x5o x 0 1";
        assert_eq!(
            pos(fen).converts(Move::Jump {
                from: sq("a1"),
                to: sq("c3")
            }),
            1
        );
        assert_eq!(after(fen, "a1c3"), "7/7/7/3x3/2x4/7/6o o 1 1");
    }

    #[test]
    fn clone_duplicates_are_merged() {
        let position = pos("6o/7/7/7/7/7/x1x4 x 0 1");
        let moves = position.legal_moves();
        // Clones a2 b1 b2 c2 d1 d2 once each, 4 jumps from a1, 8 from c1.
        assert_eq!(moves.len(), 18);
        assert_eq!(
            moves
                .iter()
                .filter(|&&m| m == Move::Clone(sq("b1")))
                .count(),
            1
        );
        assert_eq!(position.count_moves(), 18);
    }

    #[test]
    fn clocks() {
        // Clones reset the halfmove clock; jumps and passes increment it.
        assert_eq!(
            after("x5o/7/7/7/7/7/o5x x 42 3", "b6"),
            "x5o/1x5/7/7/7/7/o5x o 0 3"
        );
        assert_eq!(
            after("x5o/7/7/7/7/7/o5x x 42 3", "a7c5"),
            "6o/7/2x4/7/7/7/o5x o 43 3"
        );
        // The fullmove number grows after Black moves.
        assert_eq!(
            after("x5o/7/7/7/7/7/o5x o 9 7", "f6"),
            "x5o/5o1/7/7/7/7/o5x x 0 8"
        );
        assert_eq!(
            after("x5o/7/7/7/7/7/o5x o 9 7", "g7e5"),
            "x6/7/4o2/7/7/7/o5x x 10 8"
        );
        let passing = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 7 2";
        assert_eq!(
            after(passing, "0000"),
            "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 8 2"
        );
        assert_eq!(pos("x5o/7/7/7/7/7/o5x x 0 1").ply(), 0);
        assert_eq!(pos("x5o/7/7/7/7/7/o5x o 0 5").ply(), 9);
        assert_eq!(pos("x5o/7/7/7/7/7/o5x x 0 0").ply(), 0);
    }

    #[test]
    fn hundred_plies_without_a_clone_draw() {
        let mut position = pos("x5o/7/7/7/7/7/o5x x 99 1");
        assert_eq!(position.outcome(), None);
        position
            .play(Move::Jump {
                from: sq("a7"),
                to: sq("c5"),
            })
            .unwrap();
        assert_eq!(
            position.outcome(),
            Some(Outcome::draw(EndReason::MoveLimit))
        );
        assert!(position.legal_moves().is_empty());
        assert!(position.play(Move::Clone(sq("f6"))).is_err());
        // A clone on ply 100 resets the clock instead.
        let mut position = pos("x5o/7/7/7/7/7/o5x x 99 1");
        position.play(Move::Clone(sq("b6"))).unwrap();
        assert_eq!((position.halfmove_clock(), position.outcome()), (0, None));
    }

    #[test]
    fn no_pieces_loses_before_the_move_limit() {
        let mut position = pos("7/7/7/7/7/1o5/x6 x 0 1");
        position.play(Move::Clone(sq("b1"))).unwrap();
        assert_eq!(
            position.outcome(),
            Some(Outcome::win(Color::White, EndReason::NoPieces))
        );
        assert!(position.legal_moves().is_empty());
        let win = Some(Outcome::win(Color::White, EndReason::NoPieces));
        assert_eq!(pos("7/7/7/7/7/7/x6 o 100 1").outcome(), win);
        assert_eq!(attax("7/7/7/7/7/7/x6 x 0 1").outcome(), win);
        assert_eq!(
            pos("o6/7/7/7/7/7/7 x 0 1").outcome().unwrap().winner,
            Some(Color::Black)
        );
        assert_eq!(
            pos("7/7/7/7/7/7/7 x 0 1").outcome(),
            Some(Outcome::draw(EndReason::NoPieces))
        );
    }

    #[test]
    fn full_or_sealed_board_counts_pieces() {
        let blocked = |winner: Option<Color>| {
            Some(Outcome {
                winner,
                reason: EndReason::BoardBlocked,
            })
        };
        let full = "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo";
        assert_eq!(
            pos(&format!("{full} x 0 1")).outcome(),
            blocked(Some(Color::White))
        );
        assert_eq!(
            attax(&format!("{full} o 0 1")).outcome(),
            blocked(Some(Color::White))
        );
        // Sealed by gaps; the count beats the 100-ply draw (libataxx's result tests).
        assert_eq!(
            pos("7/7/7/7/-------/-------/xxxxooo x 100 1").outcome(),
            blocked(Some(Color::White))
        );
        assert_eq!(
            pos("7/7/7/7/-------/-------/xxxoooo o 0 1").outcome(),
            blocked(Some(Color::Black))
        );
        assert_eq!(
            pos("7/7/7/7/-------/-------/xxx-ooo x 0 1").outcome(),
            blocked(None)
        );
        // Filling the last square ends the game.
        let mut last = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/oooooo1 o 0 9");
        assert!(last.legal_moves().contains(&Move::Clone(sq("g1"))));
        last.play(Move::Clone(sq("g1"))).unwrap();
        assert_eq!(last.outcome(), blocked(Some(Color::White)));
    }

    #[test]
    fn standard_passes_attax_ends() {
        let fen = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1";
        let standard = pos(fen);
        assert_eq!(standard.outcome(), None);
        assert_eq!(standard.legal_moves(), [Move::Pass]);
        assert_eq!(standard.parse_move("0000"), Ok(Move::Pass));
        let attax = attax(fen);
        assert_eq!(
            attax.outcome(),
            Some(Outcome::win(Color::Black, EndReason::NoLegalMove))
        );
        assert!(attax.legal_moves().is_empty());
        assert!(!attax.is_legal(Move::Pass));
        // Passing is legal only when forced.
        assert!(!pos("x5o/7/7/7/7/7/o5x x 0 1").is_legal(Move::Pass));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let start = "x5o/7/7/7/2-4/7/o5x x 0 1";
        let mut position = pos(start);
        let jump = |from, to| Move::Jump {
            from: sq(from),
            to: sq(to),
        };
        for mv in [
            Move::Clone(sq("d4")), // nothing next to it
            Move::Clone(sq("a7")), // occupied
            Move::Pass,            // moves exist
            jump("b7", "d5"),      // no piece on b7
            jump("g7", "e5"),      // the opponent's piece
            jump("a7", "a6"),      // distance 1 is a clone
            jump("a7", "a4"),      // distance 3
            jump("g1", "g1"),      // nowhere
            jump("a1", "c3"),      // the opponent's piece, onto a gap
        ] {
            assert_eq!(
                position.play(mv),
                Err(PlayError {
                    mv: mv.to_string(),
                    position: start.to_owned()
                }),
                "{mv}"
            );
            assert_eq!(position.to_string(), start);
        }
        // c3 is a gap: neither a clone nor a jump may land there.
        let gap = pos("6o/7/7/7/2-4/1x5/x6 x 0 1");
        assert!(!gap.is_legal(Move::Clone(sq("c3"))));
        assert!(!gap.is_legal(jump("a1", "c3")));
        assert!(gap.is_legal(Move::Clone(sq("b3"))));
        assert!(gap.is_legal(jump("b2", "d4")));
    }

    #[test]
    fn parse_move_checks_legality_and_clone_origin() {
        let start = pos("x5o/7/7/7/7/7/o5x x 0 1");
        assert_eq!(start.parse_move(" B6 "), Ok(Move::Clone(sq("b6"))));
        assert_eq!(start.parse_move("a7b6"), Ok(Move::Clone(sq("b6"))));
        assert_eq!(
            start.parse_move("a7c5"),
            Ok(Move::Jump {
                from: sq("a7"),
                to: sq("c5")
            })
        );
        let illegal = |text: &str, reason: &str| ParseMoveError::Illegal {
            text: text.to_owned(),
            position: start.to_string(),
            reason: reason.to_owned(),
        };
        assert_eq!(
            start.parse_move("d4"),
            Err(illegal(
                "d4",
                "no x stone next to d4 to grow from (a jump names its origin, like a1c3)"
            ))
        );
        assert_eq!(
            start.parse_move("b7b6"),
            Err(illegal(
                "b7b6",
                "there is no stone of the side to move on b7"
            ))
        );
        assert_eq!(
            start.parse_move("0000"),
            Err(illegal(
                "0000",
                "a pass is allowed only when there is no other move"
            ))
        );
        assert_eq!(
            start.parse_move("g7e5").unwrap_err().to_string(),
            "illegal move \"g7e5\": there is no x stone on g7"
        );
        assert_eq!(start.why_illegal(start.parse_move("a7c5").unwrap()), None);
        assert!(matches!(
            start.parse_move("z9"),
            Err(ParseMoveError::Invalid { .. })
        ));
    }

    #[test]
    fn pretty_board() {
        let text = pos("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").pretty();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  a b c d e f g");
        assert_eq!(lines[1], "7 x . . . . . o 7");
        assert_eq!(lines[3], "5 . . - . - . . 5");
        assert_eq!(lines[7], "1 o . . . . . x 1");
        assert_eq!(lines[8], "  a b c d e f g");
        assert!(
            lines[9].starts_with("x (White) to move; x 2, o 2"),
            "{}",
            lines[9]
        );
    }
}
