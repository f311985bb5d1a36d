//! Dama, Italian draughts, under the rules of the FID (Federazione Italiana Dama).
//!
//! An 8x8 board, play on the 32 dark squares, the bottom-right square dark for each player.
//! Black men start on 1-12, White men on 21-32; White moves first. A man steps one square
//! diagonally forward; a king (*dama*) one square diagonally any way (kings do not fly).
//! Capturing is compulsory and a capture goes on while it can; the pieces it takes leave the
//! board at its end, so none is jumped twice and their squares cannot be landed on. A man
//! captures forward only and never a king. A man reaching the far row becomes a king, which ends
//! a capture. A side with no legal move (no pieces, or all blocked) loses.
//!
//! # Squares
//! Numbered 1-32 as seen from White: 1 is the top-left corner, left to right, row by row, so 32
//! is the bottom-right corner ([`Square`]).
//!
//! # Notation
//! - Moves: `23-19` for a step; a capture lists every landing square, `22x15` or `31x22x13x6`.
//!   [`crate::Position::parse_move`] also reads the short form `31x6` (origin and end) when it
//!   names exactly one legal capture, and says which captures it could mean when it names more.
//! - Positions (PDN FEN): `W:W21,22,...,32:B1,...,12` — the side to move, then each colour's
//!   squares, `K` before a king's; printed exactly, read leniently (ranges like `21-32`, any
//!   spacing; see [`Position::from_fen`]). The board as integers (0 empty, 1 white man, 2 white
//!   king, 3 black man, 4 black king): [`Position::to_integers`], [`Position::integers_text`].
//!
//! # Variants
//! - `fid` (default): among all captures the player must choose, in order, one that takes the
//!   most pieces; then one made with a king rather than a man; then one taking the most kings;
//!   then the one that meets a king first (comparing the captured pieces in order); otherwise the
//!   player chooses. Drawn when the same position (same side to move) occurs for the third time,
//!   or after [`MOVE_LIMIT`] plies in a row without a capture or a man move.
//! - `school`: capturing is compulsory but any capture may be chosen; also drawn when only one
//!   king each remains, or one king against two, plus the same repetition and 80-ply rules.
//!
//! A position read from text carries no history: repetitions and the 80-ply count start from it.
//! No game lasts longer than [`MAX_PLIES`].
//!
//! # Examples
//! ```
//! use tavola_sdk::games::dama::{Dama, Move};
//! use tavola_sdk::{Game, Position as _};
//!
//! let mut position = Dama::start(None).unwrap();
//! assert_eq!(position.perft(3), 302);
//! position.play(position.parse_move("23-19").unwrap()).unwrap();
//! position.play(position.parse_move("12-15").unwrap()).unwrap();
//! // Capturing is compulsory: 19x12 is the only move.
//! assert_eq!(position.legal_moves(), ["19x12".parse::<Move>().unwrap()]);
//! ```

use crate::{Game, ParsePositionError, UnknownVariantError};

mod fen;
mod history;
mod movegen;
mod moves;
mod perft;
mod position;
mod rules;
mod square;

#[cfg(test)]
mod invariants;

pub use moves::Move;
pub use position::{Piece, Position, MOVE_LIMIT};
pub use square::{Bitboard, Direction, ParseSquareError, Square, Squares};

/// No game of Dama, from any position, lasts more plies than this.
///
/// Each capture removes a piece (at most 31 of 32 captures) and each man step moves a man a row
/// nearer its far row (at most 7 rows for each of at most 32 men): at most 255 irreversible
/// moves. Before, between and after them come at most 80 king steps each (the 80th ends the
/// game), so a game has at most 255 + 256 x 80 = 20 735 plies.
pub const MAX_PLIES: u32 = 255 + 256 * MOVE_LIMIT;

/// The game of Dama: implements [`Game`] with variants `fid` and `school`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dama;

crate::games::variants::rule_sets! {
    /// The Dama rule sets.
    pub enum Variant for Dama {
        /// The FID rules: capture precedence, draws by repetition and by the 80-ply rule.
        Fid = "fid",
        /// Classroom rules: free choice among captures; one king against one or two draws.
        School = "school",
    }
}

impl Game for Dama {
    const NAME: &'static str = "dama";
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
        assert_eq!(Dama::NAME, "dama");
        assert_eq!(Dama::VARIANTS, ["fid", "school"]);
        for v in Variant::ALL {
            assert_eq!(v.name().parse(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(" School ".parse(), Ok(Variant::School));
        let err = "english".parse::<Variant>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant \"english\" of dama (known: fid, school)"
        );
        assert_eq!(MAX_PLIES, 20_735);
    }

    #[test]
    fn start_and_parse_take_the_variant() {
        assert_eq!(Dama::start(None).unwrap().variant(), "fid");
        assert_eq!(Dama::start(Some("school")).unwrap().variant(), "school");
        assert!(Dama::start(Some("pool")).is_err());
        let text = "W:W21-32:B1-12";
        assert_eq!(
            Dama::parse_position(text, Some("school")).unwrap().rules(),
            Variant::School
        );
        assert!(matches!(
            Dama::parse_position(text, Some("nope")),
            Err(ParsePositionError::UnknownVariant(_))
        ));
    }
}
