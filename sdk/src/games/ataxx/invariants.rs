//! Invariants over many random games (the board-game-rs style harness): the move list agrees with
//! `is_legal` over the whole move space, text round-trips, fast and generic perft agree, and every
//! game ends.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{Cell, Move, Position, Square, Variant};
use crate::{Color, EndReason, Outcome, Position as _};

/// Every value a `Move` can take: the pass, 49 clones and all 49 x 49 (from, to) pairs.
fn move_space() -> Vec<Move> {
    let mut space = vec![Move::Pass];
    space.extend(Square::ALL.map(Move::Clone));
    for from in Square::ALL {
        space.extend(Square::ALL.map(|to| Move::Jump { from, to }));
    }
    space
}

/// A start for a random game: the real start, or a board with random gaps and pieces.
fn random_start(rng: &mut StdRng, rules: Variant) -> Position {
    if rng.gen_bool(0.5) {
        return Position::start(rules);
    }
    let mut position = Position::empty(rules);
    for sq in Square::ALL {
        let cell = match rng.gen_range(0..20) {
            0 | 1 => Cell::Gap,
            2 => Cell::Piece(Color::White),
            3 => Cell::Piece(Color::Black),
            _ => Cell::Empty,
        };
        position.set_cell(sq, cell);
    }
    position.set_side_to_move(if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    });
    position.set_halfmove_clock(rng.gen_range(0..60));
    position
}

/// Checks what is particular to Ataxx in one position (the generic harness checks the rest): the
/// fast move counter agrees with the list, and a pass stands alone. Returns the legal moves.
fn check(position: &Position) -> Vec<Move> {
    let moves = position.legal_moves();
    assert_eq!(position.count_moves() as usize, moves.len(), "{position}");
    assert_eq!(position.outcome().is_some(), moves.is_empty(), "{position}");
    assert!(
        !moves.contains(&Move::Pass) || moves == [Move::Pass],
        "a pass is legal only alone: {position}"
    );
    moves
}

/// Plays one random game to its end, checking every position; returns how it ended, its length in
/// plies and the number of passes.
fn playout(seed: u64, rules: Variant) -> (Outcome, usize, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = random_start(&mut rng, rules);
    let mut passes = 0;
    for ply in 0.. {
        let moves = check(&position);
        if ply % 64 == 5 {
            let generic = crate::perft::perft(&position, 2);
            assert_eq!(position.perft(2), generic, "{position}");
        }
        // Every fourth game mostly jumps, to reach the 100-ply rule.
        let jumps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.from().is_some())
            .collect();
        let pool = if seed % 4 == 3 && !jumps.is_empty() && rng.gen_bool(0.97) {
            &jumps
        } else {
            &moves
        };
        let Some(&mv) = pool.choose(&mut rng) else {
            for mv in [Move::Pass, Move::Clone(Square::ALL[24])] {
                let refused = position.clone().play(mv);
                assert!(refused.is_err(), "a finished game refuses {mv}: {position}");
            }
            let outcome = position.outcome().expect("no moves means the game is over");
            return (outcome, ply, passes);
        };
        passes += usize::from(mv == Move::Pass);
        position.play(mv).unwrap();
        // The piece total grows only by clones (49 at most) and 100 plies without one end the game.
        assert!(ply < 50 * 101, "game does not end: {position}");
    }
    unreachable!()
}

#[test]
fn random_games_keep_the_invariants() {
    let (mut plies, mut passes, mut reasons) = (0, 0, HashSet::new());
    for seed in 0..2000 {
        let rules = Variant::ALL[seed as usize % 2];
        let (outcome, length, passed) = playout(seed, rules);
        assert!(
            rules == Variant::Standard || passed == 0,
            "attax never passes"
        );
        assert!(rules == Variant::Attax || outcome.reason != EndReason::NoLegalMove);
        plies += length;
        passes += passed;
        reasons.insert(outcome.reason);
    }
    assert!(plies > 2000 * 20, "games too short: {plies} plies");
    assert!(passes > 0, "no game passed");
    for reason in [
        EndReason::NoPieces,
        EndReason::BoardBlocked,
        EndReason::NoLegalMove,
        EndReason::MoveLimit,
    ] {
        assert!(reasons.contains(&reason), "no game ended by {reason:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn reached_positions_round_trip_through_fen(seed: u64, attax: bool) {
        let rules = if attax { Variant::Attax } else { Variant::Standard };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut position = random_start(&mut rng, rules);
        while let Some(&mv) = position.legal_moves().choose(&mut rng) {
            position.play(mv).unwrap();
            let text = position.to_string();
            prop_assert_eq!(Position::from_fen(&text, rules), Ok(position.clone()));
        }
    }
}

impl crate::invariants::Harness for super::Ataxx {
    // The piece total grows only by clones (49 at most), and 100 plies without one end the game.
    const MAX_PLIES: usize = 50 * 101;

    fn move_space(_position: &Position) -> Vec<Move> {
        move_space()
    }

    fn random_start(rng: &mut StdRng, variant: &str) -> Position {
        let rules = variant
            .parse()
            .expect("the harness passes Ataxx's own variants");
        random_start(rng, rules)
    }
}

#[test]
fn equal_positions_hash_equal_and_the_side_to_move_counts() {
    crate::invariants::check_hash_keys::<super::Ataxx>(
        "x5o/7/7/7/7/7/o5x x 0 1",
        "b6 f6 f2 b2",
        "f2 b2 b6 f6",
        "x5o/1x3o1/7/7/7/1o3x1/o5x o 0 3",
    );
}

#[test]
fn the_generic_harness_holds() {
    crate::invariants::check_random_playouts::<super::Ataxx>(2000, 7, 20);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_handled(text in "\\PC{0,40}|[xo1-7/ -]{0,40}") {
        crate::invariants::check_text_input::<super::Ataxx>(&text);
    }
}
