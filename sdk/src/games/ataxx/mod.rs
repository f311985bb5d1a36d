//! Ataxx on a 7x7 board, as played by UAI engines (libataxx, cuteataxx).
//!
//! White (`x`) starts on a7 and g1, Black (`o`) on g7 and a1; White moves first. A move either
//! *clones* a piece to an empty square next to it or *jumps* a piece exactly two squares away;
//! then every enemy piece around the destination turns to the mover's colour.
//!
//! # Notation
//! - Moves: a clone by its destination, `b6`; a jump by origin and destination, `a7c5`; a pass,
//!   `0000`. A clone written as origin+destination (`a7b6`) is read as the clone `b6`.
//! - Positions (FEN): `x5o/7/7/7/7/7/o5x x 0 1` — ranks 7 down to 1, `x` White, `o` Black, `-`
//!   a gap, digits for empty runs; then the side to move, the halfmove clock (plies since the
//!   last clone) and the fullmove number.
//!
//! # Variants
//! - `standard` (default): a side with pieces but no move must pass (`0000`); the game ends when
//!   a side has no pieces, when neither side can move, or at 100 plies without a clone (draw).
//! - `attax` (the original "Attax" program): no passing; the game also ends as soon as the side
//!   to move has no legal move.
//!
//! Where the game ends on the board, the side with more pieces wins; equal is a draw.
//!
//! # Examples
//! ```
//! use tavola_sdk::games::ataxx::{Ataxx, Move};
//! use tavola_sdk::{Game, Position as _};
//!
//! let mut position = Ataxx::start(None).unwrap();
//! assert_eq!(position.perft(2), 256);
//! let mv = position.parse_move("a7c5").unwrap();
//! assert!(matches!(mv, Move::Jump { .. }));
//! position.play(mv).unwrap();
//! assert_eq!(position.to_string(), "6o/7/2x4/7/7/7/o5x o 1 1");
//! ```

use crate::{Game, ParsePositionError, UnknownVariantError};

mod fen;
mod movegen;
mod moves;
mod position;
mod rules;
mod square;

#[cfg(test)]
mod invariants;

pub use moves::Move;
pub use position::{Cell, Position, MOVE_LIMIT};
pub use square::{Bitboard, ParseSquareError, Square, Squares};

/// The game of Ataxx: implements [`Game`] with variants `standard` and `attax`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ataxx;

crate::games::variants::rule_sets! {
    /// The Ataxx rule sets.
    pub enum Variant for Ataxx {
        /// UAI rules: a side with pieces but no move passes.
        Standard = "standard",
        /// The original program's rules: no passing; no legal move ends the game.
        Attax = "attax",
    }
}

impl Game for Ataxx {
    const NAME: &'static str = "ataxx";
    const VARIANTS: &'static [&'static str] = Variant::NAMES;
    type Position = Position;
    type Move = Move;

    fn start(variant_name: Option<&str>) -> Result<Position, UnknownVariantError> {
        Ok(Position::start(Variant::from_option(variant_name)?))
    }

    fn parse_position(
        text: &str,
        variant_name: Option<&str>,
    ) -> Result<Position, ParsePositionError> {
        Position::from_fen(text, Variant::from_option(variant_name)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position as _;

    #[test]
    fn names_and_variants() {
        assert_eq!(Ataxx::NAME, "ataxx");
        assert_eq!(Ataxx::VARIANTS, ["standard", "attax"]);
        for v in Variant::ALL {
            assert_eq!(v.name().parse(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(" ATTAX ".parse(), Ok(Variant::Attax));
        let err = "go".parse::<Variant>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant \"go\" of ataxx (known: standard, attax)"
        );
    }

    #[test]
    fn start_and_parse_take_the_variant() {
        assert_eq!(Ataxx::start(None).unwrap().variant(), "standard");
        assert_eq!(Ataxx::start(Some("attax")).unwrap().variant(), "attax");
        assert!(Ataxx::start(Some("chess")).is_err());
        let fen = "x5o/7/7/7/7/7/o5x x 0 1";
        assert_eq!(
            Ataxx::parse_position(fen, Some("attax")).unwrap().rules(),
            Variant::Attax
        );
        assert!(matches!(
            Ataxx::parse_position(fen, Some("nope")),
            Err(ParsePositionError::UnknownVariant(_))
        ));
    }
}
