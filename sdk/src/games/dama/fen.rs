//! The position text, PDN FEN: `W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12`
//! — the side to move, then each colour's squares, `K` before a king's.
//!
//! Printed exactly: White's section then Black's, every square listed in increasing order.
//! Read leniently: whitespace anywhere, either case, sections in any order or missing (no pieces),
//! ranges such as `21-32` or `K1-3`, empty items, a final `.`, a `[FEN "..."]` wrapper, and the
//! Lidraughts-style `:H0:F1` fields (the fullmove number sets the ply count; the halfmove clock is
//! read but not used, since counters start from a position read from text, as RULES.md says).

use std::fmt;
use std::str::FromStr;

use super::position::{Piece, Position};
use super::square::{Square, Squares, BOTTOM_ROW, TOP_ROW};
use super::{Dama, Variant};
use crate::{Color, Game, ParsePositionError};

impl Position {
    /// Reads a PDN FEN under the rules of `rules`.
    ///
    /// # Errors
    /// [`ParsePositionError::Invalid`], whose reason names the bad part of `text`.
    pub fn from_fen(text: &str, rules: Variant) -> Result<Position, ParsePositionError> {
        parse(text, rules).map_err(|reason| ParsePositionError::Invalid {
            game: Dama::NAME,
            text: text.to_owned(),
            reason,
        })
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads a PDN FEN under the FID rules (see [`Position::from_fen`]).
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::from_fen(text, Variant::Fid)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(side_letter(self.side))?;
        for color in Color::ALL {
            write!(f, ":{}", side_letter(color))?;
            for (i, square) in Squares::of(self.pieces[color.index()]).enumerate() {
                let comma = if i == 0 { "" } else { "," };
                let king = if self.kings & square.bit() != 0 {
                    "K"
                } else {
                    ""
                };
                write!(f, "{comma}{king}{square}")?;
            }
        }
        Ok(())
    }
}

const fn side_letter(color: Color) -> &'static str {
    match color {
        Color::White => "W",
        Color::Black => "B",
    }
}

/// Parses a PDN FEN; the error is the reason, naming the bad part.
fn parse(text: &str, rules: Variant) -> Result<Position, String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut body = compact.as_str();
    if let Some(inner) = strip_prefix_ignore_case(body, "[FEN").and_then(|b| b.strip_suffix(']')) {
        body = inner;
    }
    body = body.trim_matches('"');
    body = body.strip_suffix('.').unwrap_or(body);
    if body.is_empty() {
        return Err("empty position text".to_owned());
    }
    let mut fields = body.split(':');
    let side = fields.next().unwrap_or_default();
    let mut position = Position::empty(rules);
    position.side = match side {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        _ => return Err(format!("bad side to move {side:?} (expected W or B)")),
    };
    let mut listed = [false; 2];
    let mut fullmove: u32 = 1;
    for field in fields {
        let mut chars = field.chars();
        let Some(tag) = chars.next() else {
            continue;
        };
        let rest = chars.as_str();
        match tag.to_ascii_uppercase() {
            'W' | 'B' => {
                let color = if tag.eq_ignore_ascii_case(&'W') {
                    Color::White
                } else {
                    Color::Black
                };
                if std::mem::replace(&mut listed[color.index()], true) {
                    return Err(format!("{} pieces listed twice", color.name()));
                }
                for item in rest.split(',').filter(|item| !item.is_empty()) {
                    place(&mut position, color, item)?;
                }
            }
            'H' => {
                rest.parse::<u32>()
                    .map_err(|_| format!("bad halfmove clock {field:?}"))?;
            }
            'F' => {
                fullmove = rest
                    .parse()
                    .map_err(|_| format!("bad fullmove number {field:?}"))?;
            }
            _ => {
                return Err(format!(
                    "unknown field {field:?} (expected W or B and squares, H or F)"
                ))
            }
        }
    }
    let black = u32::from(position.side == Color::Black);
    position.ply = fullmove
        .saturating_sub(1)
        .saturating_mul(2)
        .saturating_add(black);
    Ok(position)
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// Puts the pieces of one item (`21`, `K5`, `21-24`, `K1-3`) on the board.
fn place(position: &mut Position, color: Color, item: &str) -> Result<(), String> {
    let (king, squares) = match item.strip_prefix(['K', 'k']) {
        Some(rest) => (true, rest),
        None => (false, item),
    };
    if let Some(c) = squares.chars().next().filter(|c| !c.is_ascii_digit()) {
        return Err(format!(
            "unknown piece {c:?} in {item:?} (expected a square number, K before a king's)"
        ));
    }
    let square = |text: &str| {
        text.parse::<Square>()
            .map_err(|_| format!("bad square {text:?} in {item:?} (expected 1 to 32)"))
    };
    let (first, last) = match squares.split_once('-') {
        Some((a, b)) => (square(a)?, square(b)?),
        None => (square(squares)?, square(squares)?),
    };
    if first > last {
        return Err(format!("range {item:?} runs backwards"));
    }
    let piece = Piece::new(color, king);
    for number in first.number()..=last.number() {
        let Some(square) = Square::new(number) else {
            continue;
        };
        if position.piece_at(square).is_some() {
            return Err(format!("square {square} is given twice"));
        }
        let far_row = if color == Color::White {
            TOP_ROW
        } else {
            BOTTOM_ROW
        };
        if !king && far_row & square.bit() != 0 {
            return Err(format!(
                "{} man on square {square}, on the row where it would be a king",
                color.name()
            ));
        }
        position.set_piece(square, Some(piece));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position as _;
    use proptest::prelude::*;

    const START: &str = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

    fn pos(text: &str) -> Position {
        Position::from_fen(text, Variant::Fid).unwrap()
    }

    fn reason(text: &str) -> String {
        match Position::from_fen(text, Variant::Fid) {
            Err(ParsePositionError::Invalid {
                game,
                text: echoed,
                reason,
            }) => {
                assert_eq!((game, echoed.as_str()), ("dama", text));
                reason
            }
            other => panic!("{text:?} parsed as {other:?}"),
        }
    }

    #[test]
    fn start_position_round_trips() {
        let start = Position::start(Variant::Fid);
        assert_eq!(start.to_string(), START);
        assert_eq!(START.parse::<Position>(), Ok(start));
    }

    #[test]
    fn prints_exactly() {
        for text in [
            "W:W30:B27",
            "W:WK21,31:B10,18,27",
            "B:WK23:B19,K28",
            "W:W:B1,K32",
            "B:WK1,5:B",
            "W:W:B",
        ] {
            assert_eq!(pos(text).to_string(), text);
        }
    }

    #[test]
    fn reads_leniently() {
        let start = pos(START);
        for text in [
            "W:W21-32:B1-12",
            " w : w 21 - 32 : b 1-4, 5-8,9,10,11,12 ",
            "W:B1-12:W21-32",
            "W:W21-32:B1-12.",
            "[FEN \"W:W21-32:B1-12\"]",
            "\"W:W21-32:B1-12\"",
            "W:W21-32,:B,1-12:H0:F1",
            "W:W21-32:B1-12::",
        ] {
            assert_eq!(pos(text), start, "{text:?}");
        }
        assert_eq!(pos("W:WK1-3:B").to_string(), "W:WK1,K2,K3:B");
        assert_eq!(pos("W:Wk9:Bk10").to_string(), "W:WK9:BK10");
        assert_eq!(pos("W:W21").to_string(), "W:W21:B");
        assert_eq!(pos("W").to_string(), "W:W:B");
        assert_eq!(pos("B:W21:B1:F10").ply(), 19);
        assert_eq!(pos("W:W21:B1:H7:F10").ply(), 18);
        assert_eq!(pos("W:W21:B1:H7:F10").quiet_plies(), 0);
        assert_eq!(pos("B:W21:B1").ply(), 1);
    }

    #[test]
    fn errors_name_the_bad_part() {
        assert_eq!(reason(""), "empty position text");
        assert_eq!(reason(" . "), "empty position text");
        assert_eq!(
            reason("X:W21:B1"),
            "bad side to move \"X\" (expected W or B)"
        );
        assert_eq!(reason(":W21:B1"), "bad side to move \"\" (expected W or B)");
        assert_eq!(
            reason("W:WQ21:B1"),
            "unknown piece 'Q' in \"Q21\" (expected a square number, K before a king's)"
        );
        assert_eq!(
            reason("W:W33:B1"),
            "bad square \"33\" in \"33\" (expected 1 to 32)"
        );
        assert_eq!(
            reason("W:W21-:B1"),
            "bad square \"\" in \"21-\" (expected 1 to 32)"
        );
        assert_eq!(reason("W:W24-21:B1"), "range \"24-21\" runs backwards");
        assert_eq!(reason("W:W21:B21"), "square 21 is given twice");
        assert_eq!(reason("W:W21-24:B1:W25"), "white pieces listed twice");
        assert_eq!(
            reason("W:W2:B9"),
            "white man on square 2, on the row where it would be a king"
        );
        assert_eq!(
            reason("W:W21:B30"),
            "black man on square 30, on the row where it would be a king"
        );
        assert_eq!(reason("W:W21:B1:H-1"), "bad halfmove clock \"H-1\"");
        assert_eq!(reason("W:W21:B1:Fx"), "bad fullmove number \"Fx\"");
        assert_eq!(
            reason("W:W21:B1:X3"),
            "unknown field \"X3\" (expected W or B and squares, H or F)"
        );
        assert_eq!(
            reason("W:W21:é"),
            "unknown field \"é\" (expected W or B and squares, H or F)"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = Position::from_fen(&text, Variant::Fid);
        }

        #[test]
        fn fen_like_text_round_trips(
            text in "[WBwb]?(:[WBK]?[0-9K,\\- ]{0,20}){0,3}(:[HF][0-9]{0,3})?\\.?"
        ) {
            if let Ok(position) = Position::from_fen(&text, Variant::School) {
                let printed = position.to_string();
                let again = Position::from_fen(&printed, Variant::School);
                prop_assert_eq!(again.map(|p| p.to_string()), Ok(printed));
            }
        }
    }
}
