//! The position text: 13 rows, top (row 13) first, of `.` (empty), `X` (Black) and `O` (White)
//! joined by `/`; then the side to move (`X` or `O`) and the number of the move about to be played.
//! The start is thirteen rows of thirteen dots, then ` X 1`.
//!
//! Printed exactly; read leniently: rows may also be separated by whitespace or new lines (one
//! row a line), stones may be lowercase, the side to move may also be `B`/`W` or `black`/`white`
//! in any case, and a missing move number means 1. A board with a chain that has no liberty is
//! refused: no game can reach it.

use std::fmt;
use std::str::FromStr;

use super::point::{Point, SIZE};
use super::position::{symbol, Position};
use super::Gonnect;
use crate::{Color, Game, ParsePositionError};

impl Position {
    /// Reads a position text (see the [module docs](super)). The position has no history: superko
    /// compares later boards with this one only.
    ///
    /// # Errors
    /// [`ParsePositionError::Invalid`], whose reason names the bad part of `text`.
    pub fn from_text(text: &str) -> Result<Position, ParsePositionError> {
        parse(text).map_err(|reason| ParsePositionError::Invalid {
            game: Gonnect::NAME,
            text: text.to_owned(),
            reason,
        })
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads a position text (see [`Position::from_text`]).
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_text(text)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..SIZE).rev() {
            for column in 0..SIZE {
                let stone = Point::from_coords(column, row).and_then(|p| self.stone(p));
                write!(f, "{}", stone.map_or('.', symbol))?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} {}", symbol(self.side), self.move_number)
    }
}

/// The colour a side-to-move field names, if any.
fn side_of(field: &str) -> Option<Color> {
    match field.to_ascii_lowercase().as_str() {
        "x" | "b" | "black" => Some(Color::Black),
        "o" | "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Parses a position text; the error is the reason, naming the bad part.
fn parse(text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, side, number) = match fields.as_slice() {
        [] => return Err("empty position text".to_owned()),
        [board @ .., side] if side_of(side).is_some() => (board, *side, None),
        [board @ .., side, number] if side_of(side).is_some() => (board, *side, Some(*number)),
        [.., side, _, extra] if side_of(side).is_some() => {
            return Err(format!("unexpected {extra:?} at the end"));
        }
        [.., side, number] if number.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(format!("bad side to move {side:?} (expected X or O)"));
        }
        [.., last] if last.chars().all(|c| "/.xXoO".contains(c)) => {
            return Err("missing side to move".to_owned());
        }
        [.., last] => return Err(format!("unexpected {last:?} at the end")),
    };
    let rows: Vec<&str> = board
        .iter()
        .flat_map(|field| field.split('/'))
        .filter(|row| !row.is_empty())
        .collect();
    if rows.len() != usize::from(SIZE) {
        return Err(format!(
            "expected 13 rows separated by '/' or new lines, found {}",
            rows.len()
        ));
    }

    let mut position = Position::start();
    for (row, line) in (0..SIZE).rev().zip(rows) {
        let mut columns: u32 = 0;
        for c in line.chars() {
            let stone = match c {
                '.' => None,
                'x' | 'X' => Some(Color::Black),
                'o' | 'O' => Some(Color::White),
                _ => return Err(format!("unknown point {c:?} in row {}", row + 1)),
            };
            let point = u8::try_from(columns)
                .ok()
                .and_then(|column| Point::from_coords(column, row));
            if let (Some(point), Some(color)) = (point, stone) {
                position.stones[color.index()] |= point.bitboard();
            }
            columns += 1;
        }
        if columns != u32::from(SIZE) {
            return Err(format!("row {} has {columns} points", row + 1));
        }
    }

    position.side = side_of(side).unwrap_or(Color::Black);
    if let Some(number) = number {
        position.move_number = match number.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(format!("bad move number {number:?} (moves count from 1)")),
        };
    }
    for color in [Color::Black, Color::White] {
        if let Some(point) = position.dead_chains(color).next() {
            return Err(format!(
                "the {} chain at {point} has no liberty",
                color.name()
            ));
        }
    }
    position.reset_history();
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const EMPTY_BOARD: &str = ".............";

    fn start_text() -> String {
        format!("{} X 1", [EMPTY_BOARD; 13].join("/"))
    }

    fn reason(text: &str) -> String {
        match Position::from_text(text) {
            Err(ParsePositionError::Invalid {
                game,
                text: echoed,
                reason,
            }) => {
                assert_eq!((game, echoed.as_str()), ("gonnect", text));
                reason
            }
            other => panic!("{text:?} parsed as {other:?}"),
        }
    }

    /// A board text from rows given bottom-up for the few that are not empty.
    fn with_rows(rows: &[(usize, &str)], rest: &str) -> String {
        let mut all = [EMPTY_BOARD; 13];
        for &(row, line) in rows {
            all[13 - row] = line;
        }
        format!("{} {rest}", all.join("/"))
    }

    #[test]
    fn start_prints_and_parses() {
        let start = Position::start();
        assert_eq!(start.to_string(), start_text());
        assert_eq!(start_text().parse::<Position>(), Ok(start));
    }

    #[test]
    fn prints_exactly() {
        for text in [
            with_rows(&[(1, "X............"), (13, "............O")], "O 2"),
            with_rows(&[(7, "XXXXXXOXXXXXX"), (6, "OOOOOO.OOOOOO")], "X 131"),
            with_rows(&[(3, "..X.O..X.O..X")], "O 4000000000"),
        ] {
            assert_eq!(text.parse::<Position>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn reads_leniently() {
        let expected = with_rows(&[(1, "X............"), (13, "............O")], "O 2");
        let lines = {
            let mut rows = vec![EMPTY_BOARD; 13];
            rows[0] = "............o";
            rows[12] = "x............";
            format!("  {}\n  w   2\n", rows.join("\n"))
        };
        for text in [
            expected.clone(),
            expected.replace('/', " "),
            expected.replace("O 2", "white 2"),
            expected.replace("O 2", "W\t2"),
            lines,
        ] {
            assert_eq!(
                Position::from_text(&text).map(|p| p.to_string()),
                Ok(expected.clone()),
                "{text:?}"
            );
        }
        let no_number = Position::from_text(&with_rows(&[], "black")).unwrap();
        assert_eq!((no_number.side, no_number.move_number()), (Color::Black, 1));
        let trailing = format!("{}/ O 9", [EMPTY_BOARD; 13].join("/"));
        assert_eq!(Position::from_text(&trailing).unwrap().move_number(), 9);
    }

    #[test]
    fn errors_name_the_bad_part() {
        let board = [EMPTY_BOARD; 13].join("/");
        assert_eq!(reason(""), "empty position text");
        assert_eq!(reason(" \n "), "empty position text");
        assert_eq!(reason(&board), "missing side to move");
        assert_eq!(
            reason(&format!("{board} Z 1")),
            "bad side to move \"Z\" (expected X or O)"
        );
        assert_eq!(
            reason(&format!("{board} X one")),
            "bad move number \"one\" (moves count from 1)"
        );
        assert_eq!(
            reason(&format!("{board} X 1 2")),
            "unexpected \"2\" at the end"
        );
        assert_eq!(
            reason(&format!("{board} X 1 moves")),
            "unexpected \"moves\" at the end"
        );
        assert_eq!(
            reason(&format!("{board} X 0")),
            "bad move number \"0\" (moves count from 1)"
        );
        assert_eq!(
            reason(&format!("{board} X 99999999999")),
            "bad move number \"99999999999\" (moves count from 1)"
        );
        assert_eq!(
            reason(&format!("{} X 1", [EMPTY_BOARD; 12].join("/"))),
            "expected 13 rows separated by '/' or new lines, found 12"
        );
        assert_eq!(
            reason(&format!("{board}/{EMPTY_BOARD} X 1")),
            "expected 13 rows separated by '/' or new lines, found 14"
        );
        assert_eq!(
            reason(&with_rows(&[(3, "..........")], "X 1")),
            "row 3 has 10 points"
        );
        assert_eq!(
            reason(&with_rows(&[(13, "..............")], "X 1")),
            "row 13 has 14 points"
        );
        assert_eq!(
            reason(&with_rows(&[(5, "....q........")], "X 1")),
            "unknown point 'q' in row 5"
        );
        assert_eq!(
            reason(&with_rows(&[(5, "....é........")], "X 1")),
            "unknown point 'é' in row 5"
        );
        assert_eq!(
            reason(&with_rows(
                &[(2, "O............"), (1, "XO...........")],
                "X 1"
            )),
            "the black chain at A1 has no liberty"
        );
        assert_eq!(
            reason(&with_rows(
                &[(2, "X............"), (1, "OX...........")],
                "X 1"
            )),
            "the white chain at A1 has no liberty"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = Position::from_text(&text);
        }

        #[test]
        fn board_like_text_round_trips(
            rows in proptest::collection::vec("[.xXoO]{12,14}", 12..15),
            side in "[xoXObwz]",
            number in proptest::option::of(0u64..5_000_000_000),
        ) {
            let number = number.map_or(String::new(), |n| format!(" {n}"));
            let text = format!("{} {side}{number}", rows.join("/"));
            if let Ok(position) = Position::from_text(&text) {
                let printed = position.to_string();
                prop_assert_eq!(Position::from_text(&printed), Ok(position));
            }
        }
    }
}
