//! The Gonnect [`Move`] and its text: a point (`G7`) or `swap`.

use std::fmt;
use std::str::FromStr;

use super::point::Point;
use crate::{MoveCode, ParseMoveError};

/// A Gonnect move. `Display` writes `G7` or `swap`; `FromStr` reads them back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone of the side to move is placed on the (empty) point.
    Place(Point),
    /// White's first move may be the swap: the single black stone becomes white, and Black moves.
    Swap,
}

impl Move {
    /// The point a stone is placed on (`None` for the swap).
    #[must_use]
    pub const fn point(self) -> Option<Point> {
        match self {
            Move::Place(point) => Some(point),
            Move::Swap => None,
        }
    }
}

impl From<Point> for Move {
    fn from(point: Point) -> Move {
        Move::Place(point)
    }
}

/// The move codes of Gonnect (see [`MoveCode`]): a placement is its point's dense index
/// ([`Point::index`], `row * 13 + column`: `G7` is `84`), the swap is `0x100`.
impl MoveCode for Move {
    fn code(self) -> u64 {
        match self {
            Move::Place(point) => point.index() as u64,
            Move::Swap => 0x100,
        }
    }

    fn from_code(code: u64) -> Option<Move> {
        match code {
            0x100 => Some(Move::Swap),
            _ => Point::from_index(usize::try_from(code).ok()?).map(Move::Place),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(point) => write!(f, "{point}"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads a point (`G7`) or `swap`, ignoring case and surrounding whitespace.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        let reason = if trimmed.is_empty() {
            "empty move text".to_owned()
        } else if !trimmed.is_ascii() {
            "unexpected non-ASCII character".to_owned()
        } else {
            match trimmed.parse::<Point>() {
                Ok(point) => return Ok(Move::Place(point)),
                Err(_) => format!(
                    "{trimmed:?} is neither a point (a column A-N without I and a row 1-13, \
                     like G7) nor swap"
                ),
            }
        };
        Err(ParseMoveError::Invalid {
            text: text.to_owned(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn writes_and_reads_both_forms() {
        let g7 = Move::Place("G7".parse().unwrap());
        assert_eq!(g7.to_string(), "G7");
        assert_eq!(Move::Swap.to_string(), "swap");
        assert_eq!(" g7 ".parse(), Ok(g7));
        assert_eq!("SWAP\n".parse(), Ok(Move::Swap));
        assert_eq!("Swap".parse(), Ok(Move::Swap));
        assert_eq!(g7.point(), "G7".parse().ok());
        assert_eq!(Move::Swap.point(), None);
        for point in Point::ALL {
            let mv = Move::from(point);
            assert_eq!(mv.to_string().parse(), Ok(mv));
        }
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(reason(""), "empty move text");
        assert_eq!(reason("  "), "empty move text");
        assert!(reason("I5").starts_with("\"I5\" is neither a point"));
        assert!(reason(" pass ").starts_with("\"pass\" is neither"));
        assert!(reason("A14").contains("A14"));
        assert_eq!(reason("ä7"), "unexpected non-ASCII character");
    }
}
