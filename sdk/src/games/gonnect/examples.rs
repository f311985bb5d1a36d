//! The rule examples of RULES.md section 3 as tests (test-only): captures and connections,
//! suicide, both ways of connecting for both colours, the swap, positional superko, and the
//! side without a legal move.

use super::{Gonnect, Move, Point, Position};
use crate::{Color, EndReason, Game, Outcome, ParseMoveError, PlayError, Position as _};

const EMPTY_ROW: &str = ".............";

fn pos(text: &str) -> Position {
    Gonnect::parse_position(text, None).unwrap()
}

/// A position from its 13 rows, top first, and the rest of the position text.
fn board(rows: [&str; 13], rest: &str) -> Position {
    pos(&format!("{} {rest}", rows.join("/")))
}

fn pt(text: &str) -> Point {
    text.parse().unwrap()
}

fn place(text: &str) -> Move {
    Move::Place(pt(text))
}

/// Plays `moves` (each must be legal) and returns the position.
fn after(mut position: Position, moves: &[&str]) -> Position {
    for text in moves {
        let mv = position.parse_move(text).unwrap();
        position.play(mv).unwrap();
    }
    position
}

/// RULES.md: "A move that captures and connects wins" — the connection counts after the
/// capture. G7 would be suicide but for the capture of G8, and it joins row 7.
#[test]
fn a_capture_that_also_connects_wins() {
    let rows = [
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        ".....OXO.....",
        "OOOOOXOXOOOOO",
        "XXXXXX.XXXXXX",
        "OOOOOOOOOOOOX",
        "............O",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
    ];
    let position = board(rows, "X 60");
    assert_eq!(position.outcome(), None);
    assert_eq!(position.captures(pt("G7")), pt("G8").bitboard());
    let mut won = position.clone();
    won.play(place("G7")).unwrap();
    assert_eq!(won.stone(pt("G8")), None, "G8 is captured");
    assert_eq!(
        won.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Connection))
    );
    assert!(won.legal_moves().is_empty());
    assert!(won.play(place("A1")).is_err());
    assert!(won
        .pretty()
        .ends_with("; Black wins (two opposite sides connected)"));
}

/// RULES.md: "a suicide is illegal even if it would connect".
#[test]
fn a_suicide_that_would_connect_is_illegal() {
    let rows = [
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        ".....O.O.....",
        "OOOOOXOXOOOOO",
        "XXXXXX.XXXXXX",
        "OOOOOOOOOOOOX",
        "............O",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
    ];
    let position = board(rows, "X 60");
    assert!(position.captures(pt("G7")).is_empty(), "G8 breathes at G9");
    assert!(!position.is_legal(place("G7")));
    assert!(!position.legal_moves().contains(&place("G7")));
    assert!(matches!(
        position.parse_move("G7"),
        Err(ParseMoveError::Illegal { .. })
    ));
    let mut copy = position.clone();
    assert_eq!(
        copy.play(place("G7")),
        Err(PlayError {
            mv: "G7".to_owned(),
            position: position.to_string()
        })
    );
    assert_eq!(copy, position);
    // White may play there (it is no suicide for White: G8 joins it).
    let mut white = position.clone();
    white.set_side_to_move(Color::White);
    assert!(white.is_legal(place("G7")));
}

#[test]
fn connections_both_ways_for_both_colours() {
    // Black top to bottom down column C, bent on the way.
    let mut black = Position::start();
    for p in Point::ALL
        .into_iter()
        .filter(|p| p.column() == 2 && p.row() != 5)
    {
        black.set_stone(p, Some(Color::Black));
    }
    for p in ["D5", "D6", "D7", "C7"] {
        black.set_stone(pt(p), Some(Color::Black));
    }
    black.set_stone(pt("C6"), Some(Color::White));
    black.set_side_to_move(Color::White);
    assert_eq!(black.connected(), Some(Color::Black));
    assert_eq!(
        black.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Connection))
    );

    // White left to right along row 10, completed by the last stone.
    let mut white = Position::start();
    for p in Point::ALL
        .into_iter()
        .filter(|p| p.row() == 9 && p.column() != 5)
    {
        white.set_stone(p, Some(Color::White));
    }
    white.set_side_to_move(Color::White);
    assert_eq!(white.outcome(), None);
    white.play(place("F10")).unwrap();
    assert_eq!(
        white.outcome(),
        Some(Outcome::win(Color::White, EndReason::Connection))
    );

    // White top to bottom and Black left to right, each finished by a move.
    let mut white = Position::start();
    for p in Point::ALL
        .into_iter()
        .filter(|p| p.column() == 12 && p.row() != 0)
    {
        white.set_stone(p, Some(Color::White));
    }
    white.set_side_to_move(Color::White);
    white.play(place("N1")).unwrap();
    assert_eq!(white.connected(), Some(Color::White));
    let mut black = Position::start();
    for p in Point::ALL
        .into_iter()
        .filter(|p| p.row() == 0 && p.column() != 0)
    {
        black.set_stone(p, Some(Color::Black));
    }
    black.play(place("A1")).unwrap();
    assert_eq!(black.connected(), Some(Color::Black));

    // Two sides meeting at a corner are not opposite: column A plus row 13 without N13.
    let mut corner = Position::start();
    for p in Point::ALL
        .into_iter()
        .filter(|p| (p.column() == 0 && p.row() > 0) || (p.row() == 12 && p.column() < 12))
    {
        corner.set_stone(p, Some(Color::Black));
    }
    assert_eq!(corner.outcome(), None);
}

#[test]
fn swap_is_legal_only_at_ply_2() {
    let start = Position::start();
    assert!(!start.is_legal(Move::Swap));
    let first = after(start.clone(), &["G7"]);
    assert!(first.is_legal(Move::Swap));
    assert_eq!(first.legal_moves().last(), Some(&Move::Swap));
    assert_eq!(first.count_moves(), 169);
    let swapped = after(first.clone(), &["swap"]);
    assert_eq!(swapped.stone(pt("G7")), Some(Color::White));
    assert_eq!(swapped.side, Color::Black);
    assert_eq!(swapped.move_number(), 3);
    assert_eq!(
        swapped.to_string(),
        format!("{} X 3", {
            let mut rows = vec![EMPTY_ROW.to_owned(); 13];
            rows[6] = "......O......".to_owned();
            rows.join("/")
        })
    );
    assert!(!swapped.is_legal(Move::Swap));
    assert!(!after(first, &["A1"]).is_legal(Move::Swap));
    assert!(after(swapped, &["A1", "B1"])
        .legal_moves()
        .iter()
        .all(|&m| m != Move::Swap));

    // Parsed positions: move 2, White to move, exactly one stone and it is black.
    let one_black = |stone: &str, rest: &str| {
        let mut rows = [EMPTY_ROW; 13];
        rows[0] = stone;
        board(rows, rest)
    };
    assert!(one_black("X............", "O 2").is_legal(Move::Swap));
    assert_eq!(
        one_black("X............", "O 2").parse_move(" SWAP"),
        Ok(Move::Swap)
    );
    assert!(!one_black("X............", "X 2").is_legal(Move::Swap));
    assert!(!one_black("X............", "O 4").is_legal(Move::Swap));
    assert!(!one_black("O............", "O 2").is_legal(Move::Swap));
    assert!(!one_black("XX...........", "O 2").is_legal(Move::Swap));
    assert!(!one_black("X.O..........", "O 2").is_legal(Move::Swap));
    assert!(!one_black(EMPTY_ROW, "O 2").is_legal(Move::Swap));
}

/// Positional superko: a simple ko, whose immediate retake would recreate the board.
#[test]
fn a_superko_repetition_is_refused() {
    // Black E5 breathes only at D5, where White captures it.
    let mut rows = [EMPTY_ROW; 13];
    rows[7] = "...XO........";
    rows[8] = "..X.XO.......";
    rows[9] = "...XO........";
    let taken = after(board(rows, "O 40"), &["D5"]);
    assert_eq!(taken.stone(pt("E5")), None);
    // Retaking at E5 would capture D5 and recreate the board before White's move.
    assert_eq!(taken.captures(pt("E5")), pt("D5").bitboard());
    assert!(!taken.is_legal(place("E5")));
    assert!(!taken.legal_points().contains(pt("E5")));
    assert_eq!(taken.count_moves(), 169 - 7 - 1);
    assert!(matches!(
        taken.parse_move("e5"),
        Err(ParseMoveError::Illegal { .. })
    ));
    // The same board without its history allows it.
    assert!(pos(&taken.to_string()).is_legal(place("E5")));
    // After an exchange elsewhere the board differs, and the retake is legal...
    let later = after(taken, &["A1", "N13"]);
    assert!(later.is_legal(place("E5")));
    let retaken = after(later, &["E5"]);
    assert_eq!(retaken.stone(pt("D5")), None);
    // ...but White may not retake at D5 at once.
    assert!(!retaken.is_legal(place("D5")));
    assert!(retaken.is_legal(place("D5")) == retaken.legal_points().contains(pt("D5")));
}

/// A board where Black, to move, has no legal move: white fills everything but the long
/// diagonal, whose points are single eyes of two white groups (left+top and bottom+right, so
/// White is not connected). Every point is suicide for Black.
const DIAGONAL: [&str; 13] = [
    "OOOOOOOOOOOO.",
    "OOOOOOOOOOO.O",
    "OOOOOOOOOO.OO",
    "OOOOOOOOO.OOO",
    "OOOOOOOO.OOOO",
    "OOOOOOO.OOOOO",
    "OOOOOO.OOOOOO",
    "OOOOO.OOOOOOO",
    "OOOO.OOOOOOOO",
    "OOO.OOOOOOOOO",
    "OO.OOOOOOOOOO",
    "O.OOOOOOOOOOO",
    ".OOOOOOOOOOOO",
];

#[test]
fn no_legal_move_loses() {
    let position = board(DIAGONAL, "X 200");
    assert_eq!(position.connected(), None);
    assert!(position.legal_moves().is_empty());
    assert_eq!(
        position.outcome(),
        Some(Outcome::win(Color::White, EndReason::NoLegalMove))
    );
    assert!(!position.is_legal(place("A1")));
    // White, to move, could fill an eye.
    let mut white = position.clone();
    white.set_side_to_move(Color::White);
    assert_eq!(white.outcome(), None);
    assert_eq!(white.count_moves(), 13);
}

/// "No legal move" counts points forbidden by superko: after White takes the ko at B1, Black's
/// only non-suicide point, the retake at A1, would recreate the board before.
#[test]
fn no_legal_move_counts_superko_forbidden_points() {
    let mut rows = DIAGONAL;
    rows[11] = "OXXOOOOOOOOOO";
    rows[12] = "X.XOOOOOOOOOO";
    let position = board(rows, "O 200");
    assert_eq!(position.outcome(), None);
    let taken = after(position, &["B1"]);
    assert_eq!(taken.stone(pt("A1")), None);
    assert_eq!(taken.connected(), None);
    assert!(taken.legal_moves().is_empty());
    assert_eq!(
        taken.outcome(),
        Some(Outcome::win(Color::White, EndReason::NoLegalMove))
    );
    // Without the history, A1 (recapturing B1) is Black's one legal move.
    let fresh = pos(&taken.to_string());
    assert_eq!(fresh.legal_moves(), [place("A1")]);
    assert_eq!(fresh.outcome(), None);
}
