//! Ataxx FEN: `x5o/7/7/7/7/7/o5x x 0 1` — ranks 7 down to 1 (`x` White, `o` Black, `-` gap,
//! digits for runs of empty squares), the side to move, the halfmove clock, the fullmove number.
//!
//! Printed exactly; read leniently: any whitespace between fields, missing clocks default to
//! `0 1`, and `X`/`O`/`W`/`B` (either case) name the colours on the board and as the side to move.

use std::fmt;
use std::str::FromStr;

use super::position::{Cell, Position};
use super::square::Square;
use super::{Ataxx, Variant};
use crate::{Color, Game, ParsePositionError};

impl Position {
    /// Reads a FEN under the rules of `rules`.
    ///
    /// # Errors
    /// [`ParsePositionError::Invalid`], whose reason names the bad part of `text`.
    pub fn from_fen(text: &str, rules: Variant) -> Result<Position, ParsePositionError> {
        parse(text, rules).map_err(|reason| ParsePositionError::Invalid {
            game: Ataxx::NAME,
            text: text.to_owned(),
            reason,
        })
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads a FEN under the standard rules (see [`Position::from_fen`]).
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_fen(text, Variant::Standard)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..7u8).rev() {
            let mut run = 0;
            for file in 0..7 {
                let cell = Square::from_coords(file, rank).map_or(Cell::Empty, |s| self.cell(s));
                if cell == Cell::Empty {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                write!(f, "{}", cell.symbol())?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = Cell::Piece(self.side).symbol();
        write!(
            f,
            " {side} {} {}",
            self.halfmove_clock, self.fullmove_number
        )
    }
}

/// The colour a board letter or side-to-move letter names, if any.
fn color_of(letter: char) -> Option<Color> {
    match letter {
        'x' | 'X' | 'w' | 'W' => Some(Color::White),
        'o' | 'O' | 'b' | 'B' => Some(Color::Black),
        _ => None,
    }
}

/// Parses a FEN; the error is the reason, naming the bad part.
fn parse(text: &str, rules: Variant) -> Result<Position, String> {
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or("empty position text")?;
    let mut position = Position::empty(rules);

    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 7 {
        return Err(format!(
            "expected 7 ranks separated by '/', found {}",
            ranks.len()
        ));
    }
    for (rank, row) in (0..7u8).rev().zip(ranks) {
        let mut file: u32 = 0;
        for c in row.chars() {
            if let Some(run) = c.to_digit(10).filter(|&d| d > 0) {
                file = file.saturating_add(run);
                continue;
            }
            let cell = match c {
                '-' => Cell::Gap,
                _ => Cell::Piece(
                    color_of(c)
                        .ok_or_else(|| format!("unknown piece {c:?} in rank {}", rank + 1))?,
                ),
            };
            // Past the board's edge the count is only reported, never stored.
            if let Some(square) = u8::try_from(file)
                .ok()
                .and_then(|f| Square::from_coords(f, rank))
            {
                position.set_cell(square, cell);
            }
            file = file.saturating_add(1);
        }
        if file != 7 {
            return Err(format!("rank {} has {file} squares", rank + 1));
        }
    }

    let side = fields.next().ok_or("missing side to move")?;
    position.side = match side {
        "white" | "White" => Color::White,
        "black" | "Black" => Color::Black,
        _ => {
            let mut letters = side.chars();
            match (letters.next().and_then(color_of), letters.next()) {
                (Some(color), None) => color,
                _ => return Err(format!("bad side to move {side:?} (expected x or o)")),
            }
        }
    };
    if let Some(clock) = fields.next() {
        position.halfmove_clock = clock
            .parse()
            .map_err(|_| format!("bad halfmove clock {clock:?}"))?;
    }
    if let Some(number) = fields.next() {
        position.fullmove_number = number
            .parse()
            .map_err(|_| format!("bad fullmove number {number:?}"))?;
    }
    if let Some(extra) = fields.next() {
        return Err(format!("unexpected {extra:?} after the fullmove number"));
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const START: &str = "x5o/7/7/7/7/7/o5x x 0 1";

    fn reason(text: &str) -> String {
        match Position::from_fen(text, Variant::Standard) {
            Err(ParsePositionError::Invalid {
                game,
                text: echoed,
                reason,
            }) => {
                assert_eq!((game, echoed.as_str()), ("ataxx", text));
                reason
            }
            other => panic!("{text:?} parsed as {other:?}"),
        }
    }

    #[test]
    fn start_position_round_trips() {
        let start = Position::start(Variant::Standard);
        assert_eq!(start.to_string(), START);
        assert_eq!(START.parse::<Position>(), Ok(start));
    }

    #[test]
    fn prints_exactly() {
        for fen in [
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "x5o/7/3-3/2-1-2/3-3/7/o5x o 17 42",
            "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
            "-------/-------/-------/-------/-------/-------/------- o 99 100",
            "7/7/7/7/7/7/7 x 0 0",
        ] {
            assert_eq!(fen.parse::<Position>().unwrap().to_string(), fen);
        }
    }

    #[test]
    fn reads_leniently() {
        let start: Position = START.parse().unwrap();
        for text in [
            "x5o/7/7/7/7/7/o5x x",
            "x5o/7/7/7/7/7/o5x x 0",
            "  x5o/7/7/7/7/7/o5x\tX  0\n1 ",
            "X5O/7/7/7/7/7/O5X w 0 1",
            "w5b/7/7/7/7/7/b5w white 0 1",
            "x32o/7/7/7/7/7/o5x x 0 1",
        ] {
            assert_eq!(text.parse::<Position>().as_ref(), Ok(&start), "{text:?}");
        }
        let black: Position = "x5o/7/7/7/7/7/o5x B".parse().unwrap();
        assert_eq!(black.side, Color::Black);
    }

    #[test]
    fn errors_name_the_bad_part() {
        assert_eq!(reason(""), "empty position text");
        assert_eq!(reason("   "), "empty position text");
        assert_eq!(
            reason("x5o/7/7/7/7/o5x x 0 1"),
            "expected 7 ranks separated by '/', found 6"
        );
        assert_eq!(
            reason("x5o/7/7/7/7/7/o5x/ x 0 1"),
            "expected 7 ranks separated by '/', found 8"
        );
        assert_eq!(reason("x5o/7/7/7/8/7/o5x x 0 1"), "rank 3 has 8 squares");
        assert_eq!(reason("x5o/6/7/7/7/7/o5x x 0 1"), "rank 6 has 6 squares");
        assert_eq!(reason("x5o/7/7/7/7/7/o99x x 0 1"), "rank 1 has 20 squares");
        assert_eq!(
            reason("x5o/7/7/q6/7/7/o5x x 0 1"),
            "unknown piece 'q' in rank 4"
        );
        assert_eq!(
            reason("x5o/7/7/06/7/7/o5x x 0 1"),
            "unknown piece '0' in rank 4"
        );
        assert_eq!(reason("x5o/7/7/7/7/7/o5x"), "missing side to move");
        assert_eq!(
            reason("x5o/7/7/7/7/7/o5x z 0 1"),
            "bad side to move \"z\" (expected x or o)"
        );
        assert_eq!(
            reason("x5o/7/7/7/7/7/o5x xo 0 1"),
            "bad side to move \"xo\" (expected x or o)"
        );
        assert_eq!(
            reason("x5o/7/7/7/7/7/o5x x -1 1"),
            "bad halfmove clock \"-1\""
        );
        assert_eq!(
            reason("x5o/7/7/7/7/7/o5x x 0 one"),
            "bad fullmove number \"one\""
        );
        assert_eq!(
            reason("x5o/7/7/7/7/7/o5x x 0 1 moves"),
            "unexpected \"moves\" after the fullmove number"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = Position::from_fen(&text, Variant::Standard);
        }

        #[test]
        fn fen_like_text_never_panics_and_round_trips(
            text in "[xoXOwb1-9\\-é/]{0,40}( [xoXObwz]{1,2})?( [0-9]{1,11})?( [0-9]{1,11})?"
        ) {
            if let Ok(position) = Position::from_fen(&text, Variant::Attax) {
                let printed = position.to_string();
                prop_assert_eq!(Position::from_fen(&printed, Variant::Attax), Ok(position));
            }
        }
    }
}
