//! The Ataxx [`Move`] and its text: `b6` (clone), `a7c5` (jump), `0000` (pass).

use std::fmt;
use std::str::FromStr;

use super::square::Square;
use crate::{MoveCode, ParseMoveError};

/// An Ataxx move. `Display` writes `b6`, `a7c5` or `0000`; `FromStr` reads them back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A new piece appears on the square, next to one of the mover's pieces.
    Clone(Square),
    /// A piece moves exactly two squares away; its origin becomes empty.
    Jump {
        /// Where the piece was.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// The side to move has pieces but no move (standard rules only).
    Pass,
}

impl Move {
    /// The square the move places a piece on (`None` for a pass).
    #[must_use]
    pub const fn to(self) -> Option<Square> {
        match self {
            Move::Clone(to) | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The square a jump leaves (`None` for a clone or a pass).
    #[must_use]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Jump { from, .. } => Some(from),
            Move::Clone(_) | Move::Pass => None,
        }
    }
}

/// The move codes of Ataxx (see [`MoveCode`]): bits 0-7 the destination's index
/// ([`Square::index`]), bits 8-15 a jump's origin, bits 16-17 the kind: 0 a clone (`b6` is `0x24`),
/// 1 a jump (`a7c5` is `0x1_2A_1E`), 2 the pass (`0x2_0000`). Every other bit is zero. Any two squares
/// make a jump's code, as they make a `Move::Jump` value (only those two squares apart can be legal).
impl MoveCode for Move {
    fn code(self) -> u64 {
        match self {
            Move::Clone(to) => to.index() as u64,
            Move::Jump { from, to } => 1 << 16 | (from.index() as u64) << 8 | to.index() as u64,
            Move::Pass => 2 << 16,
        }
    }

    fn from_code(code: u64) -> Option<Move> {
        let square = |bits: u64| Square::from_index((bits & 0xFF) as usize);
        match code >> 16 {
            0 if code >> 8 == 0 => square(code).map(Move::Clone),
            1 => Some(Move::Jump {
                from: square(code >> 8)?,
                to: square(code)?,
            }),
            2 if code & 0xFFFF == 0 => Some(Move::Pass),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Clone(to) => f.write_str(to.name()),
            Move::Jump { from, to } => {
                f.write_str(from.name())?;
                f.write_str(to.name())
            }
            Move::Pass => f.write_str("0000"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `b6`, `a7c5` or `0000`, ignoring case and surrounding whitespace; a clone written
    /// as origin+destination (`a7b6`, as some UAI engines do) reads as the clone `b6`.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        parse(text).map(|(mv, _)| mv)
    }
}

/// Parses move text, also returning the origin a clone was written with (`a7` of `a7b6`), which
/// only a position can check.
pub(super) fn parse(text: &str) -> Result<(Move, Option<Square>), ParseMoveError> {
    let invalid = |reason: String| ParseMoveError::Invalid {
        text: text.to_owned(),
        reason,
    };
    let trimmed = text.trim();
    if trimmed == "0000" {
        return Ok((Move::Pass, None));
    }
    // Byte by byte, trimmed once: the host and every bot read a move each ply.
    let square = |part: &str| {
        match part.as_bytes() {
            &[file, rank] => Square::from_coords(
                file.to_ascii_lowercase().wrapping_sub(b'a'),
                rank.wrapping_sub(b'1'),
            ),
            _ => None,
        }
        .ok_or_else(|| invalid(format!("{part:?} is not a square (a1 to g7)")))
    };
    match trimmed.len() {
        _ if !trimmed.is_ascii() => Err(invalid("unexpected non-ASCII character".to_owned())),
        2 => Ok((Move::Clone(square(trimmed)?), None)),
        4 => {
            let (from, to) = (square(&trimmed[..2])?, square(&trimmed[2..])?);
            match from.distance(to) {
                0 => Err(invalid(format!("{from} to {to} goes nowhere"))),
                1 => Ok((Move::Clone(to), Some(from))),
                2 => Ok((Move::Jump { from, to }, None)),
                d => Err(invalid(format!(
                    "{to} is {d} squares from {from} (a jump goes exactly 2)"
                ))),
            }
        }
        0 => Err(invalid("empty move text".to_owned())),
        _ => Err(invalid(
            "expected a clone (b6), a jump (a7c5) or a pass (0000)".to_owned(),
        )),
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
    fn writes_the_three_forms() {
        assert_eq!(Move::Clone(sq("b6")).to_string(), "b6");
        let jump = Move::Jump {
            from: sq("a7"),
            to: sq("c5"),
        };
        assert_eq!(jump.to_string(), "a7c5");
        assert_eq!(Move::Pass.to_string(), "0000");
        assert_eq!(jump.from(), Some(sq("a7")));
        assert_eq!(jump.to(), Some(sq("c5")));
        assert_eq!(Move::Pass.to(), None);
    }

    #[test]
    fn reads_leniently() {
        assert_eq!("b6".parse(), Ok(Move::Clone(sq("b6"))));
        assert_eq!(" B6\n".parse(), Ok(Move::Clone(sq("b6"))));
        assert_eq!(
            "A7C5".parse(),
            Ok(Move::Jump {
                from: sq("a7"),
                to: sq("c5")
            })
        );
        assert_eq!("\t0000 ".parse(), Ok(Move::Pass));
        // A clone written with its origin, as UAI engines sometimes do.
        assert_eq!("a7b6".parse(), Ok(Move::Clone(sq("b6"))));
        assert_eq!(parse("a7b6"), Ok((Move::Clone(sq("b6")), Some(sq("a7")))));
    }

    #[test]
    fn every_move_round_trips() {
        let mut moves = vec![Move::Pass];
        for from in Square::ALL {
            moves.push(Move::Clone(from));
            for to in from.jump_targets() {
                moves.push(Move::Jump { from, to });
            }
        }
        for mv in moves {
            assert_eq!(mv.to_string().parse(), Ok(mv));
        }
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(reason("").contains("empty"));
        assert!(reason("h1").contains("\"h1\" is not a square"));
        assert!(reason("a7a7").contains("goes nowhere"));
        assert!(reason("a7d4").contains("3 squares"));
        assert!(reason("a7c5x").contains("expected"));
        assert!(reason("pass").contains("\"pa\" is not a square"));
        assert!(reason("ä7").contains("non-ASCII"));
        assert!(reason("0").contains("expected"));
        assert!(reason("a9c5").contains("\"a9\""));
    }
}
