//! The Tablut [`Move`] and its text: `e3-h3` (from-to).

use std::fmt;
use std::str::FromStr;

use super::square::Square;
use crate::{MoveCode, ParseMoveError};

/// A Tablut move: a piece slides orthogonally from one square to another. `Display` writes
/// `e3-h3`; `FromStr` reads it back.
///
/// Any two squares make a `Move` value; only orthogonal ones can be legal, and
/// [`crate::Position::is_legal`] says which are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

/// The move codes of Tablut (see [`MoveCode`]): the origin's index ([`Square::index`]) times 256
/// plus the destination's (`e3-h3` is `0x16_19`), both below 81; every other bit is zero. Any two
/// squares make a code, as they make a `Move`.
impl MoveCode for Move {
    fn code(self) -> u64 {
        (self.from.index() as u64) << 8 | self.to.index() as u64
    }

    fn from_code(code: u64) -> Option<Move> {
        if code >> 16 != 0 {
            return None;
        }
        let from = Square::from_index((code >> 8) as usize)?;
        let to = Square::from_index((code & 0xFF) as usize)?;
        Some(Move { from, to })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `e3-h3`, ignoring case and whitespace around the squares; the dash may be left
    /// out (`e3h3`). The squares must differ and share a row or a column.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let invalid = |reason: String| ParseMoveError::Invalid {
            text: text.to_owned(),
            reason,
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(invalid("empty move text".to_owned()));
        }
        if !trimmed.is_ascii() {
            return Err(invalid("unexpected non-ASCII character".to_owned()));
        }
        let (from, to) = match trimmed.split_once('-') {
            Some(parts) => parts,
            None if trimmed.len() == 4 => trimmed.split_at(2),
            None => return Err(invalid("expected from-to, like e3-h3".to_owned())),
        };
        let square = |part: &str| {
            part.parse::<Square>()
                .map_err(|_| invalid(format!("{part:?} is not a square (a1 to i9)")))
        };
        let (from, to) = (square(from)?, square(to)?);
        if from == to {
            Err(invalid(format!("{from} to {to} goes nowhere")))
        } else if from.row() != to.row() && from.column() != to.column() {
            Err(invalid(format!(
                "{from} to {to} is not along a row or a column"
            )))
        } else {
            Ok(Move { from, to })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    fn reason(text: &str) -> String {
        match text.parse::<Move>() {
            Err(ParseMoveError::Invalid {
                text: echoed,
                reason,
            }) => {
                assert_eq!(echoed, text);
                reason
            }
            other => panic!("{text:?} parsed as {other:?}"),
        }
    }

    #[test]
    fn writes_from_dash_to() {
        let mv = Move::new(sq("e3"), sq("h3"));
        assert_eq!(mv.to_string(), "e3-h3");
        assert_eq!((mv.from, mv.to), (sq("e3"), sq("h3")));
    }

    #[test]
    fn reads_leniently() {
        let mv = Move::new(sq("e3"), sq("h3"));
        for text in ["e3-h3", " E3-H3\n", "e3h3", "\tE3h3 ", "e3 - h3"] {
            assert_eq!(text.parse(), Ok(mv), "{text:?}");
        }
    }

    #[test]
    fn every_orthogonal_move_round_trips() {
        let mut count = 0;
        for from in Square::ALL {
            for to in Square::ALL {
                let mv = Move::new(from, to);
                let parsed = mv.to_string().parse::<Move>();
                if from != to && (from.row() == to.row() || from.column() == to.column()) {
                    assert_eq!(parsed, Ok(mv));
                    count += 1;
                } else {
                    assert!(parsed.is_err(), "{mv}");
                }
            }
        }
        assert_eq!(count, 81 * 16);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(reason(""), "empty move text");
        assert_eq!(reason("  "), "empty move text");
        assert_eq!(reason("e3-j3"), "\"j3\" is not a square (a1 to i9)");
        assert_eq!(reason("e0-e3"), "\"e0\" is not a square (a1 to i9)");
        assert_eq!(reason("e3-e3"), "e3 to e3 goes nowhere");
        assert_eq!(reason("e3-f4"), "e3 to f4 is not along a row or a column");
        assert_eq!(reason("e3-h"), "\"h\" is not a square (a1 to i9)");
        assert_eq!(reason("e3 h3"), "expected from-to, like e3-h3");
        assert_eq!(reason("e3--h3"), "\"-h3\" is not a square (a1 to i9)");
        assert_eq!(reason("e3h3x"), "expected from-to, like e3-h3");
        assert_eq!(reason("é3-h3"), "unexpected non-ASCII character");
    }
}
