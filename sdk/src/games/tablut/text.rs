//! Tablut position text, as the Bologna challenge prints a state: nine rows of `O` (empty), `W`,
//! `B`, `K` and `T` (the empty castle), row 1 first, then `-` and the side to move, `W` or `B`.
//!
//! Printed on one line, rows separated by `/`:
//! `OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - W`.
//! Read leniently: rows separated by `/` or by any whitespace (so the challenge's multi-line
//! form reads as is), letters in either case, `.` for an empty square, an empty castle written
//! `O`, the `-` optional, and `white`/`black` for the side to move.

use std::fmt;
use std::str::FromStr;

use super::position::{Cell, Position};
use super::square::Square;
use super::Tablut;
use crate::{Color, Game, ParsePositionError};

impl Position {
    /// Reads position text (see the module documentation of [`super`] for the format). The
    /// position has no history: the repetition list starts empty and the ply count at 0.
    ///
    /// # Errors
    /// [`ParsePositionError::Invalid`], whose reason names the bad part of `text`: the row count,
    /// a row's length, an unknown letter, a misplaced `T`, a soldier on the castle, the number of
    /// kings, or the side to move.
    pub fn from_text(text: &str) -> Result<Position, ParsePositionError> {
        parse(text).map_err(|reason| ParsePositionError::Invalid {
            game: Tablut::NAME,
            text: text.to_owned(),
            reason,
        })
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads position text (see [`Position::from_text`]).
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_text(text)
    }
}

impl fmt::Display for Position {
    /// The one-line text: rows 1 to 9 separated by `/`, then ` - ` and `W` or `B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 9 rows of 9, 8 slashes, " - " and the side: built in one buffer, written once.
        let mut text = [b'/'; 93];
        for (index, bit) in (0..81).map(|i| (i, 1u128 << i)) {
            text[index / 9 * 10 + index % 9] = if self.white & bit != 0 {
                b'W'
            } else if self.black & bit != 0 {
                b'B'
            } else if self.king & bit != 0 {
                b'K'
            } else if index == Square::CASTLE.index() {
                b'T'
            } else {
                b'O'
            };
        }
        text[89..].copy_from_slice(match self.side {
            Color::White => b" - W",
            Color::Black => b" - B",
        });
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// The side to move a token names, if any.
fn side_of(token: &str) -> Option<Color> {
    match token.to_ascii_lowercase().as_str() {
        "w" | "white" => Some(Color::White),
        "b" | "black" => Some(Color::Black),
        _ => None,
    }
}

/// Parses position text; the error is the reason, naming the bad part.
fn parse(text: &str) -> Result<Position, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some((&last, rest)) = tokens.split_last() else {
        return Err("empty position text".to_owned());
    };
    let side = side_of(last).ok_or_else(|| {
        if last == "-" || last.contains('/') || last.chars().count() == 9 {
            "missing side to move (W or B after the rows)".to_owned()
        } else {
            format!("bad side to move {last:?} (expected W or B)")
        }
    })?;
    let board = match rest.split_last() {
        Some((&"-", board)) => board,
        _ => rest,
    };
    let rows: Vec<&str> = board.iter().flat_map(|token| token.split('/')).collect();
    if rows.len() != 9 {
        return Err(format!("expected 9 rows, found {}", rows.len()));
    }

    let mut position = Position::empty();
    let mut kings = Vec::new();
    for (row, text) in (0u8..).zip(rows) {
        let mut column: usize = 0;
        for c in text.chars() {
            let cell = match c.to_ascii_uppercase() {
                'O' | '.' | 'T' => Cell::Empty,
                'W' => Cell::White,
                'B' => Cell::Black,
                'K' => Cell::King,
                _ => return Err(format!("unknown piece {c:?} in row {}", row + 1)),
            };
            // Past the edge the count is only reported, never stored.
            if let Some(square) = u8::try_from(column)
                .ok()
                .and_then(|column| Square::from_coords(column, row))
            {
                if c.eq_ignore_ascii_case(&'T') && !square.is_castle() {
                    return Err(format!(
                        "'T' (the empty castle) on {square}: the castle is e5"
                    ));
                }
                match cell {
                    Cell::White | Cell::Black if square.is_castle() => {
                        return Err(format!(
                            "a {} soldier on the castle e5 (only the king stands there)",
                            cell.color().map_or("", Color::name)
                        ));
                    }
                    Cell::King => kings.push(square),
                    _ => position.set_cell(square, cell),
                }
            }
            column = column.saturating_add(1);
        }
        if column != 9 {
            return Err(format!("row {} has {column} squares", row + 1));
        }
    }
    match kings[..] {
        [king] => position.set_cell(king, Cell::King),
        [] => return Err("no king (K)".to_owned()),
        _ => {
            let at: Vec<String> = kings.iter().map(Square::to_string).collect();
            return Err(format!(
                "{} kings (on {}); there is one",
                kings.len(),
                at.join(", ")
            ));
        }
    }
    position.set_side_to_move(side);
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const START: &str = "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/\
                         OOOOBOOOO/OOOBBBOOO - W";

    /// The start as the challenge prints a state (`State.toString()`).
    const START_CHALLENGE: &str = "OOOBBBOOO\nOOOOBOOOO\nOOOOWOOOO\nBOOOWOOOB\nBBWWKWWBB\n\
                                   BOOOWOOOB\nOOOOWOOOO\nOOOOBOOOO\nOOOBBBOOO\n-\nW";

    fn reason(text: &str) -> String {
        match Position::from_text(text) {
            Err(ParsePositionError::Invalid {
                game,
                text: echoed,
                reason,
            }) => {
                assert_eq!((game, echoed.as_str()), ("tablut", text));
                reason
            }
            other => panic!("{text:?} parsed as {other:?}"),
        }
    }

    #[test]
    fn start_position_text() {
        let start = Position::start();
        assert_eq!(start.to_string(), START);
        assert_eq!(START.parse::<Position>().as_ref(), Ok(&start));
        assert_eq!(Position::from_text(START_CHALLENGE).as_ref(), Ok(&start));
    }

    #[test]
    fn prints_exactly() {
        for text in [
            "OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOKOO/OOOOOOOOO/OOOOOOOOO - B",
            "OOOBBBOOO/OOOOBOOOO/OOOOOOOOO/BOOOWOOOB/BBWWTWWBB/BOOOKOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - W",
            "KOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOW - B",
        ] {
            assert_eq!(Position::from_text(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn reads_leniently() {
        let start = Position::start();
        for text in [
            "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO W",
            "  ooobbbooo/oooobOOOO/ooooWoooo/BOOOWOOOB/bbwwkwwbb/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO\t-  white\n",
            "...BBB.../....B..../....W..../B...W...B/BBWWKWWBB/B...W...B/....W..../....B..../...BBB... - w",
            "OOOBBBOOO OOOOBOOOO OOOOWOOOO BOOOWOOOB BBWWKWWBB BOOOWOOOB OOOOWOOOO OOOOBOOOO OOOBBBOOO - W",
            "OOOBBBOOO\r\nOOOOBOOOO\r\nOOOOWOOOO\r\nBOOOWOOOB\r\nBBWWKWWBB\r\nBOOOWOOOB\r\nOOOOWOOOO\r\nOOOOBOOOO\r\nOOOBBBOOO\r\n-\r\nW\r\n",
        ] {
            assert_eq!(Position::from_text(text).as_ref(), Ok(&start), "{text:?}");
        }
        let black = Position::from_text(&START.replace(" - W", " - b")).unwrap();
        assert_eq!(black.side, Color::Black);
        // The empty castle may be written O.
        let written_o = "OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOKOO/OOOOOOOOO/OOOOOOOOO - W";
        assert_eq!(
            Position::from_text(written_o).unwrap().to_string(),
            "OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOKOO/OOOOOOOOO/OOOOOOOOO - W"
        );
    }

    #[test]
    fn errors_name_the_bad_part() {
        let rows = |board: &str| format!("{board} - W");
        assert_eq!(reason(""), "empty position text");
        assert_eq!(reason(" \n "), "empty position text");
        assert_eq!(
            reason(&START.replace(" - W", "")),
            "missing side to move (W or B after the rows)"
        );
        assert_eq!(
            reason(&START.replace(" - W", " -")),
            "missing side to move (W or B after the rows)"
        );
        assert_eq!(
            reason(&START.replace(" - W", " - X")),
            "bad side to move \"X\" (expected W or B)"
        );
        assert_eq!(
            reason(&rows(
                "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO"
            )),
            "expected 9 rows, found 8"
        );
        assert_eq!(
            reason(&START.replace(" - W", "/ - W")),
            "expected 9 rows, found 10"
        );
        assert_eq!(
            reason(&START.replacen("OOOOWOOOO", "OOOOWOOOOO", 1)),
            "row 3 has 10 squares"
        );
        assert_eq!(
            reason(&START.replacen("OOOOBOOOO", "OOOBOOOO", 1)),
            "row 2 has 8 squares"
        );
        assert_eq!(
            reason(&START.replacen("OOOOBOOOO", "OOOOqOOOO", 1)),
            "unknown piece 'q' in row 2"
        );
        assert_eq!(
            reason(&START.replacen("OOOOBOOOO", "OOOOéOOOO", 1)),
            "unknown piece 'é' in row 2"
        );
        assert_eq!(
            reason(&START.replacen("OOOOWOOOO", "OOTOWOOOO", 1)),
            "'T' (the empty castle) on c3: the castle is e5"
        );
        assert_eq!(
            reason(&START.replace("BBWWKWWBB", "BBWWWWWBB")),
            "a white soldier on the castle e5 (only the king stands there)"
        );
        assert_eq!(
            reason(&START.replace("BBWWKWWBB", "BBWWBWWBB")),
            "a black soldier on the castle e5 (only the king stands there)"
        );
        assert_eq!(
            reason(&START.replace("BBWWKWWBB", "BBWWTWWBB")),
            "no king (K)"
        );
        assert_eq!(
            reason(&START.replacen("OOOOWOOOO", "OOKOWOOOO", 1)),
            "2 kings (on c3, e5); there is one"
        );
        assert_eq!(
            reason(&START.replace(" - W", " - W extra")),
            "bad side to move \"extra\" (expected W or B)"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = Position::from_text(&text);
        }

        #[test]
        fn board_like_text_round_trips(
            rows in proptest::collection::vec("[OWBKT.é]{8,10}", 8..=10),
            side in "[-]? ?[WBwbx]{1,2}",
        ) {
            let text = format!("{} {side}", rows.join("/"));
            if let Ok(position) = Position::from_text(&text) {
                let printed = position.to_string();
                prop_assert_eq!(Position::from_text(&printed), Ok(position));
            }
        }
    }
}
