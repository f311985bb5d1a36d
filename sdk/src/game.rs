//! The rules contract every game implements: [`Game`], [`Position`], [`Color`], [`Outcome`].
//!
//! The host, the built-in bot, the arena and every plugin talk to a game only through these traits,
//! so anything written against them works for all games.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use thiserror::Error;

/// One of the two players. White is the first player in every game except Gonnect, where Black
/// moves first (as in Go).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The first player of Ataxx (`x`), Tablut and Dama; the second of Gonnect.
    White = 0,
    /// The second player of Ataxx (`o`), Tablut and Dama; the first of Gonnect.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for White, `1` for Black: handy for indexing per-colour arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase name, `"white"` or `"black"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// The error of parsing a [`Color`] from text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown colour {0:?} (expected white or black)")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError(s.to_owned())),
        }
    }
}

/// Why a game ended by its rules (the host records other reasons, such as time forfeits, itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// The loser has no pieces left.
    NoPieces,
    /// Neither side can move (board full or regions sealed); pieces were counted.
    BoardBlocked,
    /// The side to move has no legal move and the rules make that the end of the game.
    NoLegalMove,
    /// A no-progress counter reached its limit (Ataxx: 100 plies without a clone).
    MoveLimit,
    /// A position occurred again and the rules make that a draw.
    Repetition,
    /// Only material that cannot win remains.
    InsufficientMaterial,
    /// Tablut: the king reached an edge square.
    KingEscaped,
    /// Tablut: the king was captured.
    KingCaptured,
    /// Gonnect: a chain connects two opposite sides.
    Connection,
}

impl EndReason {
    /// The reason in a few words, as a person would say it ("the king escaped").
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::NoPieces => "no pieces left",
            EndReason::BoardBlocked => "no side can move, pieces counted",
            EndReason::NoLegalMove => "no legal move",
            EndReason::MoveLimit => "move limit without progress",
            EndReason::Repetition => "position repeated",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::KingEscaped => "the king escaped",
            EndReason::KingCaptured => "the king was captured",
            EndReason::Connection => "two opposite sides connected",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// How a finished game ended: the winner (`None` for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    #[must_use]
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    #[must_use]
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result in PGN form: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    #[must_use]
    pub const fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

/// The error of asking a game for a variant (rule set) it does not have.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant {variant:?} of {game} (known: {known})")]
pub struct UnknownVariantError {
    /// The game asked.
    pub game: &'static str,
    /// The variant asked for.
    pub variant: String,
    /// The variants the game has, comma-separated.
    pub known: String,
}

/// The error of [`Position::play`]: the move is not legal here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv} in position {position}")]
pub struct PlayError {
    /// The move, in notation.
    pub mv: String,
    /// The position, as text.
    pub position: String,
}

/// The error of parsing a move in a position ([`Position::parse_move`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    /// The text is not a move in this game's notation.
    #[error("invalid move {text:?}: {reason}")]
    Invalid {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is a well-formed move, but not a legal one in this position.
    #[error("illegal move {text:?}: {reason}")]
    Illegal {
        /// The text given.
        text: String,
        /// The position, as text.
        position: String,
        /// Why it is not legal ([`Position::why_illegal`]).
        reason: String,
    },
}

/// A move as one number: how moves cross the plugin ABI's typed path (a bot built with this SDK
/// answers the host with a code, and hears the game's moves as codes, instead of writing and
/// parsing notation each ply).
///
/// Each game documents its encoding on its move type; the codes are part of the ABI and do not
/// change within SDK 0.1.x. Every move has exactly one code, and [`MoveCode::from_code`] accepts
/// exactly the codes of moves: `from_code(mv.code()) == Some(mv)`, and `from_code(c)` is either
/// `None` or a move whose code is `c`. A decoded move is well-formed, not necessarily legal: ask
/// [`Position::is_legal`].
pub trait MoveCode: Sized {
    /// The move's code.
    fn code(self) -> u64;

    /// The move with this code, or `None` when no move has it.
    fn from_code(code: u64) -> Option<Self>;
}

/// A game: its name, its variants, and how to make positions.
///
/// A unit type per game (for example [`crate::games::ataxx::Ataxx`]) implements it, so generic code
/// names a game as a type parameter: `fn perft<G: Game>(..)`.
pub trait Game: 'static {
    /// The game's name on the command line and in records, lowercase (`"ataxx"`).
    const NAME: &'static str;
    /// The variants (rule sets) the game has; the first is the default.
    const VARIANTS: &'static [&'static str];
    /// A position, with everything needed to go on playing (side to move, counters, rule set).
    type Position: Position<Move = Self::Move>;
    /// A move: small and `Copy`; `Display` writes the game's notation, [`MoveCode`] its number.
    type Move: MoveCode + Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// The start position of `variant` (`None` for the default).
    ///
    /// # Errors
    /// [`UnknownVariantError`] when the game has no such variant.
    fn start(variant: Option<&str>) -> Result<Self::Position, UnknownVariantError>;

    /// Parses a position from the game's position text, under the rules of `variant`.
    ///
    /// # Errors
    /// A message naming the bad part of `text`, or the unknown variant.
    fn parse_position(
        text: &str,
        variant: Option<&str>,
    ) -> Result<Self::Position, ParsePositionError>;
}

/// The error of parsing a position text, naming the bad part.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    /// The text does not describe a position of this game.
    #[error("invalid {game} position {text:?}: {reason}")]
    Invalid {
        /// The game.
        game: &'static str,
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The variant is unknown.
    #[error(transparent)]
    UnknownVariant(#[from] UnknownVariantError),
}

/// A position of a game: the board, the side to move and whatever counters the rules need.
///
/// `Display` writes the game's position text (for Ataxx, FEN) exactly; [`Game::parse_position`]
/// reads it back.
pub trait Position: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The game's move type.
    type Move: MoveCode + Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// The variant (rule set) this position is played under.
    fn variant(&self) -> &'static str;

    /// Whose turn it is.
    fn side_to_move(&self) -> Color;

    /// The number of plies played since the start of the game (for a parsed position, as its text says).
    fn ply(&self) -> u32;

    /// Appends every legal move to `moves` (which is not cleared). Nothing else allocates.
    /// A finished game has no legal moves.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Every legal move, in a new vector. Prefer [`Position::generate_moves`] in hot loops.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::with_capacity(64);
        self.generate_moves(&mut moves);
        moves
    }

    /// Whether `mv` is legal here. Agrees with [`Position::generate_moves`] for every move.
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Why `mv` cannot be played here, in a few words for people (`"the way is blocked at
    /// e4"`, `"a capture is compulsory: 23x14"`); `None` when it is legal. Every game says the
    /// rule it breaks; this default only says that it is not legal.
    fn why_illegal(&self, mv: Self::Move) -> Option<String> {
        (!self.is_legal(mv)).then(|| "it is not a legal move here".to_owned())
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`PlayError`], leaving the position unchanged, when `mv` is not legal here.
    fn play(&mut self, mv: Self::Move) -> Result<(), PlayError> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(PlayError {
                mv: mv.to_string(),
                position: self.to_string(),
            })
        }
    }

    /// Plays a move without checking that it is legal. The result of an illegal move is unspecified
    /// (but memory-safe); use it only with moves from [`Position::generate_moves`].
    fn play_unchecked(&mut self, mv: Self::Move);

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit hash of the position for transposition tables (Zobrist-style): equal for equal
    /// boards with the same side to move and the same state that decides which moves are legal,
    /// however they were reached; different, with high probability, otherwise.
    ///
    /// Counters that only end the game (the Ataxx and Dama no-progress clocks, repetition
    /// histories) are left out, as chess engines leave out the fifty-move counter: a search must
    /// ask [`Position::outcome`] as well. Cheap: at most a few multiplications, no allocation.
    fn hash_key(&self) -> u64;

    /// The position after the side to move passes its turn, for a search's null-move pruning,
    /// where the game has a pass to pass with (Ataxx: its pass, which the rules allow only to a
    /// side without another move); `None` where it has none, as by default. Not a move of the
    /// game: the result may be a position the rules never reach.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// Whether the game is over.
    fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Parses a move written in the game's notation and checks that it is legal here.
    ///
    /// # Errors
    /// [`ParseMoveError::Invalid`] for text that is not a move, [`ParseMoveError::Illegal`] for a
    /// well-formed move that cannot be played here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Counts the leaf nodes of the move tree `depth` plies deep (a finished game has no moves).
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft(self, depth)
    }

    /// The board as text for a terminal, several lines, with coordinates.
    fn pretty(&self) -> String;
}
