//! Training positions from the arena's games (`tavola match ... --positions FILE`): for each
//! game that ended by the rules (or was adjudicated a draw), one line per position whose mover
//! reported a score for its move, in the format of the trainers of NNUE-style networks (bullet's
//! text format):
//!
//! ```text
//! x5o/7/7/7/7/7/o5x x 0 1 | 35 | 1
//! ```
//!
//! the position in the game's own text, the mover's score for it in hundredths of a piece (as it
//! reported it: from the side to move's view), and the game's result for the side to move: `1`
//! a win, `0.5` a draw, `0` a loss. Positions scored as forced wins or losses are left out (their
//! score is a distance, not a value), as are the games a player lost by a fault (time, crash,
//! illegal move): their result says nothing of the positions.

use std::fmt::Write as _;

use tavola_sdk::Color;

use crate::referee::{GameResult, Termination};

/// One position as its mover scored it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Scored {
    /// The position, in the game's text.
    pub position: String,
    /// Whose move it was.
    pub mover: Color,
    /// The mover's score, in hundredths, from its own view.
    pub score: i32,
}

/// The lines of a finished game's scored positions; `None` for a game that did not end by the
/// rules or by a draw adjudication.
pub(super) fn lines(scored: &[Scored], result: &GameResult) -> Option<String> {
    if !matches!(
        result.termination,
        Termination::Normal | Termination::Adjudication
    ) {
        return None;
    }
    let mut text = String::with_capacity(scored.len() * 48);
    for position in scored {
        let outcome = match result.winner {
            None => "0.5",
            Some(winner) if winner == position.mover => "1",
            Some(_) => "0",
        };
        let _ = writeln!(
            text,
            "{} | {} | {outcome}",
            position.position, position.score
        );
    }
    Some(text)
}

/// One line read back: the position's text, the score, and the result for the side to move.
///
/// # Errors
/// A message naming what is wrong with the line.
pub fn parse_line(line: &str) -> Result<(&str, i32, f32), String> {
    let mut fields = line.split(" | ");
    let (Some(position), Some(score), Some(outcome), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(format!("{line:?} is not POSITION | SCORE | RESULT"));
    };
    let score = score
        .trim()
        .parse()
        .map_err(|_| format!("{line:?}: the score {score:?} is not a whole number"))?;
    let outcome = match outcome.trim() {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("{line:?}: the result {other:?} is not 1, 0.5 or 0")),
    };
    Ok((position.trim(), score, outcome))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(winner: Option<Color>, termination: Termination) -> GameResult {
        GameResult {
            winner,
            termination,
            reason: String::new(),
        }
    }

    #[test]
    fn each_position_has_the_result_for_its_mover_and_reads_back() {
        let scored = [
            Scored {
                position: "x5o/7/7/7/7/7/o5x x 0 1".into(),
                mover: Color::White,
                score: 35,
            },
            Scored {
                position: "x5o/7/7/7/7/1x5/o5x o 0 1".into(),
                mover: Color::Black,
                score: -40,
            },
        ];
        let text = lines(&scored, &result(Some(Color::White), Termination::Normal)).unwrap();
        let read: Vec<_> = text.lines().map(|l| parse_line(l).unwrap()).collect();
        assert_eq!(
            read,
            [
                ("x5o/7/7/7/7/7/o5x x 0 1", 35, 1.0),
                ("x5o/7/7/7/7/1x5/o5x o 0 1", -40, 0.0)
            ]
        );
        let draw = lines(&scored, &result(None, Termination::Adjudication)).unwrap();
        assert!(draw.lines().all(|l| l.ends_with("| 0.5")), "{draw}");
        assert_eq!(
            lines(
                &scored,
                &result(Some(Color::Black), Termination::TimeForfeit)
            ),
            None
        );
    }

    #[test]
    fn bad_lines_are_refused_with_the_line() {
        for line in ["x5o", "a | b | 1", "a | 3 | 2", "a | 3 | 1 | 4"] {
            let error = parse_line(line).unwrap_err();
            assert!(error.contains(line), "{error}");
        }
    }
}
