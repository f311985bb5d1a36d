//! The Dama [`Move`] and its text: `23-19` (a step), `22x15` or `31x22x13x6` (a capture through
//! every landing square).

use std::fmt;
use std::str::FromStr;

use super::square::{Direction, Square, JUMP, NONE, STEP};
use crate::{MoveCode, ParseMoveError};

/// Bits 0-4 of a move: the origin's index.
const FROM_BITS: u64 = 0x1F;
/// Where the number of jumps starts (5 bits).
const COUNT_SHIFT: u32 = 5;
/// Where the directions start: two bits per jump (or the step's direction).
const DIRS_SHIFT: u32 = 10;

/// A Dama move: a step to a neighbouring square, or a capture as the whole path of jumps.
///
/// Packed into one `u64`: the origin, the number of jumps (0 for a step) and two bits of
/// direction per jump, so a move is 8 bytes, `Copy`, and equal exactly when the notation is.
/// `Display` writes `23-19` or `31x22x13x6`; `FromStr` reads them back.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u64);

impl Move {
    /// The most jumps a move can hold; more than any capture on the board (at most 18 pieces,
    /// those off the edge, can ever be jumped in one move).
    pub const MAX_JUMPS: usize = 27;

    /// A step from `from` in `direction`, if it stays on the board.
    #[must_use]
    pub const fn step(from: Square, direction: Direction) -> Option<Move> {
        if STEP[from.index()][direction as usize] == NONE {
            None
        } else {
            Some(Move(from.index() as u64 | (direction as u64) << DIRS_SHIFT))
        }
    }

    /// The step from `from` to `to`, if they are diagonal neighbours.
    #[must_use]
    pub fn step_to(from: Square, to: Square) -> Option<Move> {
        Move::step(from, from.step_direction(to)?)
    }

    /// The capture starting on `from` and landing on each of `landings` in turn, if each landing
    /// is a jump (two diagonal steps) from the previous square and there are 1 to
    /// [`Move::MAX_JUMPS`] of them. Whether anything stands in between is for a position to say.
    #[must_use]
    pub fn capture(from: Square, landings: &[Square]) -> Option<Move> {
        if landings.is_empty() || landings.len() > Move::MAX_JUMPS {
            return None;
        }
        let mut mv = Move::capture_start(from);
        let mut at = from;
        for &to in landings {
            mv = mv.with_jump(at.jump_direction(to)?);
            at = to;
        }
        Some(mv)
    }

    /// The start of a capture on `from`, before its first jump (not a move by itself).
    #[inline]
    pub(crate) const fn capture_start(from: Square) -> Move {
        Move(from.index() as u64)
    }

    /// This capture with one more jump in `direction` (the caller checks it stays on the board
    /// and that fewer than [`Move::MAX_JUMPS`] jumps are made).
    #[inline]
    #[must_use]
    pub(crate) const fn with_jump(self, direction: Direction) -> Move {
        let n = self.jumps() as u32;
        Move((self.0 + (1 << COUNT_SHIFT)) | (direction as u64) << (DIRS_SHIFT + 2 * n))
    }

    /// The square the moving piece leaves.
    #[must_use]
    pub const fn from(self) -> Square {
        match Square::from_index((self.0 & FROM_BITS) as usize) {
            Some(square) => square,
            None => unreachable!(),
        }
    }

    /// The square the moving piece ends on (for a capture, the last landing square).
    #[must_use]
    pub fn to(self) -> Square {
        if self.is_capture() {
            self.landings().last().unwrap_or(self.from())
        } else {
            self.follow(self.from(), self.direction(0), &STEP)
        }
    }

    /// Whether this is a capture.
    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.jumps() > 0
    }

    /// The number of jumps: the pieces a capture takes, 0 for a step.
    #[must_use]
    pub const fn jumps(self) -> usize {
        ((self.0 >> COUNT_SHIFT) & 0x1F) as usize
    }

    /// The direction of jump `i` (or of the step, for `i = 0`).
    #[must_use]
    pub const fn direction(self, i: usize) -> Direction {
        Direction::from_code((self.0 >> (DIRS_SHIFT as usize + 2 * i)) as u8)
    }

    /// The landing squares of a capture in order (empty for a step).
    pub fn landings(self) -> impl Iterator<Item = Square> {
        let mut at = self.from();
        (0..self.jumps()).map(move |i| {
            at = self.follow(at, self.direction(i), &JUMP);
            at
        })
    }

    /// The squares of the pieces a capture takes, in the order it jumps them.
    pub fn captured(self) -> impl Iterator<Item = Square> {
        let mut at = self.from();
        (0..self.jumps()).map(move |i| {
            let d = self.direction(i);
            let over = self.follow(at, d, &STEP);
            at = self.follow(at, d, &JUMP);
            over
        })
    }

    /// The square reached from `at` going `direction` by `table`; valid moves stay on the board.
    fn follow(self, at: Square, direction: Direction, table: &[[u8; 4]; 32]) -> Square {
        Square::from_index(table[at.index()][direction as usize] as usize).unwrap_or(at)
    }
}

/// The move codes of Dama (see [`MoveCode`]) are the packed moves themselves: bits 0-4 the
/// origin's index ([`Square::index`], the number minus one), bits 5-9 the number of jumps (0 for a
/// step, at most [`Move::MAX_JUMPS`]), then two bits per jump from bit 10 (one for a step) giving
/// its direction ([`Direction`]'s codes). Every step and jump stays on the board; every other bit is
/// zero. `23-19` is `0x16`; `22x15` is `0x435`.
impl MoveCode for Move {
    fn code(self) -> u64 {
        self.0
    }

    fn from_code(code: u64) -> Option<Move> {
        let mv = Move(code);
        let (jumps, from) = (mv.jumps(), mv.from().index());
        if jumps > Move::MAX_JUMPS {
            return None;
        }
        let used = DIRS_SHIFT as usize + 2 * jumps.max(1);
        if used < 64 && code >> used != 0 {
            return None;
        }
        if jumps == 0 {
            return (STEP[from][mv.direction(0) as usize] != NONE).then_some(mv);
        }
        let mut at = from;
        for i in 0..jumps {
            match JUMP[at][mv.direction(i) as usize] {
                NONE => return None,
                next => at = next as usize,
            }
        }
        Some(mv)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            write!(f, "{}", self.from())?;
            for at in self.landings() {
                write!(f, "x{at}")?;
            }
            Ok(())
        } else {
            write!(f, "{}-{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `23-19` or `31x22x13x6` (`X` also separates), ignoring surrounding whitespace. The
    /// short form `31x6` of a longer capture needs a position: see
    /// [`crate::Position::parse_move`].
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        match parse(text)? {
            Parsed::Full(mv) => Ok(mv),
            Parsed::Short { from, to } => Err(ParseMoveError::Invalid {
                text: text.to_owned(),
                reason: format!(
                    "{to} is not a jump from {from}; the short form of a longer capture \
                     needs a position to read it"
                ),
            }),
        }
    }
}

/// Move text as read without a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parsed {
    /// A step or a capture with every landing square.
    Full(Move),
    /// `from x to` where `to` is no single jump away: the short form of a longer capture.
    Short {
        /// Where the capture starts.
        from: Square,
        /// Where it ends.
        to: Square,
    },
}

/// Parses move text without a position.
pub(super) fn parse(text: &str) -> Result<Parsed, ParseMoveError> {
    let invalid = |reason: String| ParseMoveError::Invalid {
        text: text.to_owned(),
        reason,
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(invalid("empty move text".to_owned()));
    }
    let is_x = |c: char| c == 'x' || c == 'X';
    let (step, capture) = (trimmed.contains('-'), trimmed.contains(is_x));
    let separator: &dyn Fn(char) -> bool = match (step, capture) {
        (true, true) => return Err(invalid("mixes '-' and 'x'".to_owned())),
        (false, false) => {
            return Err(invalid(
                "expected a step (23-19) or a capture (22x15)".to_owned(),
            ))
        }
        (true, false) => &|c| c == '-',
        (false, true) => &is_x,
    };
    let mut squares = [Square::ALL[0]; Move::MAX_JUMPS + 1];
    let mut count = 0;
    for part in trimmed.split(separator) {
        let square = part
            .parse::<Square>()
            .map_err(|_| invalid(format!("{part:?} is not a square (1 to 32)")))?;
        if count == squares.len() {
            return Err(invalid(format!(
                "more than {} jumps in one capture",
                Move::MAX_JUMPS
            )));
        }
        squares[count] = square;
        count += 1;
    }
    let squares = &squares[..count];
    let (from, to) = (squares[0], squares[count - 1]);
    if step {
        if count != 2 {
            return Err(invalid("a step names two squares".to_owned()));
        }
        return Move::step_to(from, to).map(Parsed::Full).ok_or_else(|| {
            invalid(format!(
                "{to} is not a diagonal neighbour of {from} (a capture is written {from}x{to})"
            ))
        });
    }
    if count == 2 && from.jump_direction(to).is_none() {
        return if from.step_direction(to).is_some() {
            Err(invalid(format!(
                "{from} and {to} are neighbours: a step is written {from}-{to}"
            )))
        } else if from == to {
            Err(invalid(format!(
                "{from}x{to} names no path (write every landing square)"
            )))
        } else {
            Ok(Parsed::Short { from, to })
        };
    }
    for pair in squares.windows(2) {
        if pair[0].jump_direction(pair[1]).is_none() {
            return Err(invalid(format!(
                "{} to {} is not a jump (two diagonal steps)",
                pair[0], pair[1]
            )));
        }
    }
    Move::capture(from, &squares[1..])
        .map(Parsed::Full)
        .ok_or_else(|| invalid("not a capture path".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
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
    fn steps_and_captures_write_their_notation() {
        let step = Move::step_to(sq(23), sq(19)).unwrap();
        assert_eq!(step.to_string(), "23-19");
        assert_eq!((step.from(), step.to(), step.jumps()), (sq(23), sq(19), 0));
        assert!(!step.is_capture());
        assert_eq!(step.landings().count(), 0);
        let capture = Move::capture(sq(31), &[sq(22), sq(13), sq(6)]).unwrap();
        assert_eq!(capture.to_string(), "31x22x13x6");
        assert_eq!(
            (capture.from(), capture.to(), capture.jumps()),
            (sq(31), sq(6), 3)
        );
        let over: Vec<u8> = capture.captured().map(Square::number).collect();
        assert_eq!(over, [27, 18, 10]);
        assert_eq!(format!("{capture:?}"), "Move(31x22x13x6)");
        assert_eq!(std::mem::size_of::<Move>(), 8);
        assert_eq!(Move::step_to(sq(23), sq(15)), None);
        assert_eq!(Move::capture(sq(31), &[sq(22), sq(14)]), None);
        assert_eq!(Move::capture(sq(31), &[]), None);
        assert_eq!(Move::step(sq(1), Direction::UpLeft), None);
    }

    #[test]
    fn every_step_and_jump_round_trips() {
        for from in Square::ALL {
            for d in Direction::ALL {
                if let Some(mv) = Move::step(from, d) {
                    assert_eq!(mv.to_string().parse(), Ok(mv));
                }
                if let Some(to) = from.jump(d) {
                    let mv = Move::capture(from, &[to]).unwrap();
                    assert_eq!(mv.to_string().parse(), Ok(mv));
                    // A king's loop back to its start is a path like any other.
                    let back = Move::capture(from, &[to, from]).unwrap();
                    assert_eq!(back.to(), from);
                    assert_eq!(back.to_string().parse(), Ok(back));
                }
            }
        }
    }

    #[test]
    fn long_paths_fit() {
        let path: Vec<Square> = [sq(14), sq(5)]
            .repeat(13)
            .into_iter()
            .chain([sq(14)])
            .collect();
        let mv = Move::capture(sq(5), &path).unwrap();
        assert_eq!(mv.jumps(), Move::MAX_JUMPS);
        assert_eq!(mv.to(), sq(14));
        assert_eq!(mv.to_string().parse(), Ok(mv));
        let longer: Vec<Square> = [sq(14), sq(5)].repeat(14);
        assert_eq!(Move::capture(sq(5), &longer), None);
        let text = format!("5{}", "x14x5".repeat(14));
        assert!(reason(&text).contains("more than 27 jumps"));
    }

    #[test]
    fn reads_leniently() {
        let capture = Move::capture(sq(22), &[sq(15)]).unwrap();
        assert_eq!(" 22x15\n".parse(), Ok(capture));
        assert_eq!("22X15".parse(), Ok(capture));
        assert_eq!(
            parse("31x6"),
            Ok(Parsed::Short {
                from: sq(31),
                to: sq(6)
            })
        );
        assert_eq!(parse("22x15"), Ok(Parsed::Full(capture)));
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(reason(""), "empty move text");
        assert_eq!(
            reason("2319"),
            "expected a step (23-19) or a capture (22x15)"
        );
        assert_eq!(reason("23-19x15"), "mixes '-' and 'x'");
        assert_eq!(reason("23-33"), "\"33\" is not a square (1 to 32)");
        assert_eq!(reason("-19"), "\"\" is not a square (1 to 32)");
        assert_eq!(reason("23-19-15"), "a step names two squares");
        assert_eq!(
            reason("23-15"),
            "15 is not a diagonal neighbour of 23 (a capture is written 23x15)"
        );
        assert_eq!(
            reason("23x19"),
            "23 and 19 are neighbours: a step is written 23-19"
        );
        assert_eq!(
            reason("23x23"),
            "23x23 names no path (write every landing square)"
        );
        assert_eq!(
            reason("31x22x14"),
            "22 to 14 is not a jump (two diagonal steps)"
        );
        assert!(reason("31x6").contains("short form"));
        assert_eq!(reason("2é-19"), "\"2é\" is not a square (1 to 32)");
    }
}
