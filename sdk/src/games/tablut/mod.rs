//! Tablut under the Ashton rules, as played on the University of Bologna Tablut challenge server
//! (TablutCompetition, `GameAshtonTablut`), quirks included.
//!
//! White (8 soldiers and the king, on the castle e5) moves first; Black has 16 soldiers in four
//! *camps*. Every piece slides orthogonally any distance over empty squares. White wins when the
//! king reaches the edge; Black wins by capturing the king.
//!
//! # Board
//! Columns `a`-`i`, rows `1`-`9`, **row 1 at the top** (as the challenge draws it). The *castle*
//! is e5; the camps are a4 a5 a6 b5, d1 e1 f1 e2, i4 i5 i6 h5 and d9 e9 f9 e8, with *centres*
//! a5, e1, i5, e9.
//!
//! # Rules
//! - Nothing stops on or passes the castle once the king has left it; the king never returns.
//! - A piece outside a camp never enters or crosses a camp square. A piece standing in a camp
//!   may move within and through camp squares, but not to a camp square more than 5 squares
//!   away; once out, it cannot re-enter.
//! - Captures are active: a moved piece captures each enemy soldier next to its destination
//!   (four directions) when the square beyond holds an *anvil*. White's anvils: a white soldier,
//!   the king, the castle, a camp square other than a centre. Black's anvils: a black soldier,
//!   any camp square, the castle (empty or with the king). Moving between two enemies is safe.
//! - The king on the castle is captured by black on all four sides; next to the castle, by black
//!   on its three other sides; elsewhere between the moving black soldier and a black soldier or
//!   any camp square. The captured king stays on the board, as on the server; the game is over.
//! - The king escapes (White wins) as soon as it lands on an edge square (a king parsed on the
//!   edge has not escaped: the server decides it when the king moves there).
//! - After each move, the new state (board, side to move) is compared with every state reached
//!   after earlier moves since the last capture: the first repeat draws. The start position (or
//!   a parsed one) is never in that list; a capture restarts it. States are compared by 64-bit
//!   Zobrist hashes.
//! - A side with no legal move loses.
//!
//! # Notation
//! - Moves: from-to, `e3-h3` (read in either case, the dash optional).
//! - Positions: nine rows of `O` (empty), `W`, `B`, `K` and `T` (the empty castle), row 1 first,
//!   then `-` and the side to move, as the challenge prints a state. Printed on one line with
//!   `/` between rows — the start is
//!   `OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - W`
//!   — and read with `/` or any whitespace between rows (so the challenge's multi-line form
//!   reads as is). Text carries no history: the repetition list of a parsed position is empty.
//!
//! # Variants
//! One: `ashton` (the default).
//!
//! # Examples
//! ```
//! use tavola_sdk::games::tablut::{Cell, Tablut};
//! use tavola_sdk::{Game, Position as _};
//!
//! let mut position = Tablut::start(None).unwrap();
//! assert_eq!(position.legal_moves().len(), 56);
//! let mv = position.parse_move("e4-h4").unwrap();
//! position.play(mv).unwrap();
//! assert_eq!(position.cell("h4".parse().unwrap()), Cell::White);
//! assert_eq!(
//!     position.to_string(),
//!     "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOOOOWB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - B"
//! );
//! ```

use crate::{Game, ParsePositionError, UnknownVariantError};

mod history;
mod movegen;
mod moves;
mod position;
mod rules;
mod square;
mod text;

#[cfg(test)]
mod cases;
#[cfg(test)]
mod invariants;

pub use moves::Move;
pub use position::{Cell, Position};
pub use square::{Bitboard, ParseSquareError, Square, Squares};

/// The name of the one rule set.
const ASHTON: &str = "ashton";

/// The game of Tablut: implements [`Game`] with the one variant `ashton`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tablut;

/// Checks a variant name (`None` is the default), ignoring case and surrounding whitespace.
fn check_variant(name: Option<&str>) -> Result<(), UnknownVariantError> {
    match name {
        Some(name) if !name.trim().eq_ignore_ascii_case(ASHTON) => Err(UnknownVariantError {
            game: Tablut::NAME,
            variant: name.to_owned(),
            known: Tablut::VARIANTS.join(", "),
        }),
        _ => Ok(()),
    }
}

impl Game for Tablut {
    const NAME: &'static str = "tablut";
    const VARIANTS: &'static [&'static str] = &[ASHTON];
    type Position = Position;
    type Move = Move;

    fn start(variant: Option<&str>) -> Result<Position, UnknownVariantError> {
        check_variant(variant)?;
        Ok(Position::start())
    }

    fn parse_position(text: &str, variant: Option<&str>) -> Result<Position, ParsePositionError> {
        check_variant(variant)?;
        Position::from_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position as _;

    #[test]
    fn names_and_variants() {
        assert_eq!(Tablut::NAME, "tablut");
        assert_eq!(Tablut::VARIANTS, ["ashton"]);
        assert!(crate::games::NAMES.contains(&"tablut"));
        let start = Tablut::start(Some(" Ashton ")).unwrap();
        assert_eq!(start.variant(), "ashton");
        assert_eq!(start, Tablut::start(None).unwrap());
        let err = Tablut::start(Some("brandubh")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant \"brandubh\" of tablut (known: ashton)"
        );
    }

    #[test]
    fn parse_takes_the_variant() {
        let text = Tablut::start(None).unwrap().to_string();
        assert!(Tablut::parse_position(&text, Some("ashton")).is_ok());
        assert!(matches!(
            Tablut::parse_position(&text, Some("nope")),
            Err(ParsePositionError::UnknownVariant(_))
        ));
    }
}
