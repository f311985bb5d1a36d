//! The rule cases checked against the Bologna challenge server (`cases.md`, a copy of the shared
//! `tablut-cases.md`), run as one table-driven test: each board is built from its pieces, the
//! move is played for the side given, and the result (winner, side to move, captured squares,
//! or an illegal move) is compared with the server's.
//!
//! Five cases capture the only piece of the side to move (the boards hold nothing else but the
//! king): the server then shows that side to move and waits; RULES.md's "a side with no legal
//! move loses" ends the game at once. The test accepts that ending for those cases.

use super::{Cell, Move, Position, Square};
use crate::{Color, EndReason, Outcome, ParseMoveError, Position as _};

/// The case table, verbatim.
const CASES: &str = include_str!("cases.md");

/// Where the king stands in a case that lists none: off the edges, away from every other piece.
const SPARE_KING: &str = "g7";

/// What the server does with a case's move.
#[derive(Debug, PartialEq, Eq)]
enum Expected {
    /// The move is refused.
    Illegal,
    /// The game is over.
    Wins(Color),
    /// The game goes on with this side to move, these squares captured.
    Goes(Color, Vec<Square>),
}

/// One row of the table.
#[derive(Debug)]
struct Case<'a> {
    name: &'a str,
    position: Position,
    side: Color,
    mv: Move,
    expected: Expected,
}

fn color(word: &str) -> Color {
    word.parse()
        .unwrap_or_else(|e| panic!("bad colour {word:?}: {e}"))
}

fn square(name: &str) -> Square {
    name.trim()
        .parse()
        .unwrap_or_else(|e| panic!("bad square {name:?}: {e}"))
}

/// Parses one table row: `| name | e5=K e4=B | B c5-d5 | Black wins |`.
fn case(row: &str) -> Case<'_> {
    let cells: Vec<&str> = row
        .trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    let [name, pieces, play, expected] = cells[..] else {
        panic!("a case row has four cells: {row:?}");
    };
    let mut position = Position::empty();
    for piece in pieces.split_whitespace() {
        let (at, letter) = piece.split_once('=').expect("pieces are written e5=K");
        let cell = match letter {
            "K" => Cell::King,
            "W" => Cell::White,
            "B" => Cell::Black,
            _ => panic!("unknown piece {piece:?} in {name:?}"),
        };
        position.set_cell(square(at), cell);
    }
    if position.king().is_none() {
        assert_eq!(position.cell(square(SPARE_KING)), Cell::Empty, "{name}");
        position.set_cell(square(SPARE_KING), Cell::King);
    }
    let (side, mv) = play.split_once(' ').expect("moves are written B c5-d5");
    let side = color(side);
    position.set_side_to_move(side);
    let expected = if expected == "illegal" {
        Expected::Illegal
    } else if let Some(winner) = expected.strip_suffix(" wins") {
        Expected::Wins(color(winner))
    } else {
        let (to_move, captured) = expected
            .split_once(" to move, ")
            .unwrap_or_else(|| panic!("unknown result {expected:?}"));
        let captured = match captured {
            "nothing captured" => Vec::new(),
            list => {
                let list = list.strip_prefix("captured ").expect("captured a1,b2");
                list.split(',').map(square).collect()
            }
        };
        Expected::Goes(color(to_move), captured)
    };
    Case {
        name,
        position,
        side,
        mv: mv
            .parse()
            .unwrap_or_else(|e| panic!("bad move in {name:?}: {e}")),
        expected,
    }
}

/// Every case of the table.
fn cases() -> Vec<Case<'static>> {
    CASES
        .lines()
        .filter(|line| line.starts_with('|'))
        .skip(2) // the header and the |---| line
        .map(case)
        .collect()
}

/// What the engine does with a case's move.
fn run(case: &Case<'_>) -> Expected {
    let mut position = case.position.clone();
    assert_eq!(position.side_to_move(), case.side);
    assert_eq!(position.outcome(), None, "{}: already over", case.name);
    let text = case.mv.to_string();
    if !position.is_legal(case.mv) {
        assert_eq!(
            position.parse_move(&text),
            Err(ParseMoveError::Illegal {
                text: text.clone(),
                position: position.to_string(),
                reason: position.why_illegal(case.mv).expect("illegal"),
            })
        );
        assert!(position.clone().play(case.mv).is_err());
        return Expected::Illegal;
    }
    assert_eq!(position.parse_move(&text), Ok(case.mv));
    let predicted: Vec<Square> = position.captures(case.mv).into_iter().collect();
    let before = position.occupied();
    position.play(case.mv).unwrap();
    let emptied = before & !position.occupied() & !case.mv.from.bitboard();
    let captured: Vec<Square> = emptied.into_iter().collect();
    assert_eq!(captured, predicted, "{}: captures()", case.name);
    match position.outcome() {
        None => Expected::Goes(position.side_to_move(), captured),
        // The server has no rule for a side without moves: it just waits for one. Where a case
        // captures the last piece the side to move could move, RULES.md ends the game there.
        Some(Outcome {
            winner: Some(winner),
            reason: EndReason::NoLegalMove,
        }) => {
            assert_eq!(winner, case.side, "{}", case.name);
            assert!(position.legal_moves().is_empty());
            Expected::Goes(position.side_to_move(), captured)
        }
        Some(Outcome {
            winner: Some(winner),
            reason,
        }) => {
            let expected_reason = match winner {
                Color::White => EndReason::KingEscaped,
                Color::Black => EndReason::KingCaptured,
            };
            assert_eq!(reason, expected_reason, "{}", case.name);
            Expected::Wins(winner)
        }
        Some(draw) => panic!("{}: unexpected {draw}", case.name),
    }
}

#[test]
fn every_case_matches_the_server() {
    let cases = cases();
    assert_eq!(cases.len(), 35, "the table has 35 cases");
    let mut failures = Vec::new();
    for case in &cases {
        let got = run(case);
        if got != case.expected {
            failures.push(format!(
                "{}: {} {} in {} gave {got:?}, expected {:?}",
                case.name, case.side, case.mv, case.position, case.expected
            ));
        }
        // The naive model of the rules agrees on every move of the case's board.
        super::invariants::cross_check(&case.position);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_table_covers_every_kind_of_result() {
    let cases = cases();
    let count = |f: fn(&Expected) -> bool| cases.iter().filter(|c| f(&c.expected)).count();
    assert_eq!(count(|e| *e == Expected::Illegal), 8);
    assert_eq!(count(|e| matches!(e, Expected::Wins(Color::Black))), 7);
    assert_eq!(count(|e| matches!(e, Expected::Wins(Color::White))), 2);
    assert_eq!(
        count(|e| matches!(e, Expected::Goes(_, c) if c.len() == 2)),
        1
    );
}
