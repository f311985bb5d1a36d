//! Gonnect on a 13x13 board: Go's stones, captures and superko, with Hex's goal.
//!
//! Reference: João Neto's rules ("the rules of Go apply, except that passing is not allowed").
//! Black moves first. A move places a stone of the mover's colour on an empty point; opposing
//! chains (orthogonally connected stones) left without liberties are then removed; a move whose
//! own chain is then left without a liberty is illegal (no suicide). A move may not recreate any
//! board of the game so far (positional superko). There is no passing.
//!
//! - **Winning.** A player wins by connecting two opposite sides — left and right, or top and
//!   bottom — with one chain ([`crate::EndReason::Connection`]); the connection is looked at after the
//!   captures, so a move that captures and connects wins, while a suicide is illegal even if it
//!   would connect. A move can never connect the opponent (captures only remove the opponent's
//!   stones). A player without a legal move on their turn — every empty point suicide or
//!   forbidden by superko — loses ([`crate::EndReason::NoLegalMove`]). There are no draws.
//! - **Swap.** As White's first move (move 2) White may play `swap`: the single black stone
//!   becomes white and Black moves next; the players keep their colours, which is the same game
//!   as exchanging seats since the rules are symmetric. The swap is legal only at move 2 with
//!   White to move and exactly one stone, a black one, on the board (so also in a parsed position
//!   of that shape, and never in any other).
//!
//! # Notation
//! - Points, Go style: a column `A`-`N` without `I` (left to right) and a row `1`-`13` from the
//!   bottom, `G7`; read in either case. Moves are a point or `swap`.
//! - Positions: the 13 rows, top first, of `.` (empty), `X` (Black), `O` (White) joined by `/`;
//!   a space; the side to move `X` or `O`; a space; the number of the move about to be played,
//!   counting from 1. The start is thirteen rows of thirteen dots then ` X 1`. Rows given on
//!   separate lines are read too (see [`Position::from_text`] for the other leniencies).
//!   A position read from text has no history: superko starts from it.
//!
//! # Variants
//! - `standard`, the only one.
//!
//! # Examples
//! ```
//! use tavola_sdk::games::gonnect::{Gonnect, Move, Point};
//! use tavola_sdk::{Color, Game, Position as _};
//!
//! let mut position = Gonnect::start(None).unwrap();
//! assert_eq!(position.perft(2), 169 * 169);
//! position.play(position.parse_move("G7").unwrap()).unwrap();
//! assert!(position.is_legal(Move::Swap));
//! position.play(Move::Swap).unwrap();
//! let g7: Point = "G7".parse().unwrap();
//! assert_eq!(position.stone(g7), Some(Color::White));
//! assert_eq!(position.side_to_move(), Color::Black);
//! assert!(position.to_string().ends_with(" X 3"));
//! ```

use crate::{Game, ParsePositionError, UnknownVariantError};

mod bitboard;
mod history;
mod movegen;
mod moves;
mod point;
mod position;
mod rules;
mod text;

#[cfg(test)]
mod examples;
#[cfg(test)]
mod invariants;
#[cfg(test)]
mod naive;

pub use bitboard::{Bitboard, Points};
pub use moves::Move;
pub use point::{ParsePointError, Point, SIZE};
pub use position::{symbol, Position};

/// The name of the one rule set.
const STANDARD: &str = "standard";

/// The game of Gonnect: implements [`Game`] with the single variant `standard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Gonnect;

/// Checks a variant name (`None` is the default).
fn check_variant(name: Option<&str>) -> Result<(), UnknownVariantError> {
    match name {
        Some(name) if !name.trim().eq_ignore_ascii_case(STANDARD) => Err(UnknownVariantError {
            game: Gonnect::NAME,
            variant: name.to_owned(),
            known: Gonnect::VARIANTS.join(", "),
        }),
        _ => Ok(()),
    }
}

impl Game for Gonnect {
    const NAME: &'static str = "gonnect";
    const VARIANTS: &'static [&'static str] = &[STANDARD];
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
    fn name_and_variant() {
        assert_eq!(Gonnect::NAME, "gonnect");
        assert_eq!(Gonnect::VARIANTS, ["standard"]);
        let start = Gonnect::start(None).unwrap();
        assert_eq!(start.variant(), "standard");
        assert_eq!(Gonnect::start(Some(" Standard ")).unwrap(), start);
        let err = Gonnect::start(Some("go")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant \"go\" of gonnect (known: standard)"
        );
        assert!(matches!(
            Gonnect::parse_position(&start.to_string(), Some("hex")),
            Err(ParsePositionError::UnknownVariant(_))
        ));
        assert_eq!(
            Gonnect::parse_position(&start.to_string(), Some("standard")),
            Ok(start)
        );
    }
}
