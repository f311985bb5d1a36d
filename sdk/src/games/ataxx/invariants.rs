//! Invariants over many random games (the board-game-rs style harness): the move list agrees with
//! `is_legal` over the whole move space, text round-trips, fast and generic perft agree, and every
//! game ends.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{Cell, Move, Position, Square, Variant};
use crate::{Color, Position as _};

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

/// Checks one position; `full` checks `is_legal` against the whole move space.
fn check(position: &Position, space: &[Move], full: bool, rng: &mut StdRng) {
    let moves = position.legal_moves();
    let set: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {position}");
    assert_eq!(position.count_moves() as usize, moves.len(), "{position}");
    assert_eq!(position.outcome().is_some(), moves.is_empty(), "{position}");
    assert_eq!(
        set.contains(&Move::Pass),
        moves == [Move::Pass],
        "{position}"
    );
    if full {
        for &mv in space {
            assert_eq!(
                position.is_legal(mv),
                set.contains(&mv),
                "{mv} in {position}"
            );
        }
    } else {
        for &mv in space.choose_multiple(rng, 64) {
            assert_eq!(
                position.is_legal(mv),
                set.contains(&mv),
                "{mv} in {position}"
            );
        }
    }
    for &mv in &moves {
        let text = mv.to_string();
        assert_eq!(text.parse(), Ok(mv));
        assert_eq!(position.parse_move(&text), Ok(mv), "{text} in {position}");
    }
    let fen = position.to_string();
    assert_eq!(
        Position::from_fen(&fen, position.rules()).as_ref(),
        Ok(position)
    );
}

/// Plays one random game to its end, checking every position; returns its length in plies.
fn playout(seed: u64, rules: Variant, full: bool, space: &[Move]) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = random_start(&mut rng, rules);
    let mut moves = Vec::new();
    for ply in 0.. {
        check(&position, space, full, &mut rng);
        if ply % 64 == 5 {
            assert_eq!(
                position.perft(2),
                crate::perft::perft(&position, 2),
                "{position}"
            );
        }
        moves.clear();
        position.generate_moves(&mut moves);
        let Some(&mv) = moves.choose(&mut rng) else {
            let refused = position.clone().play(Move::Pass);
            assert!(
                refused.is_err(),
                "a finished game refuses moves: {position}"
            );
            return ply;
        };
        position.play(mv).unwrap();
        // 49 clones at most, at most 100 plies between two of them, plus passes.
        assert!(ply < 49 * 202, "game does not end: {position}");
    }
    unreachable!()
}

#[test]
fn random_games_keep_the_invariants() {
    let space = move_space();
    let mut plies = 0;
    for seed in 0..2000 {
        let rules = Variant::ALL[seed as usize % 2];
        plies += playout(seed, rules, seed < 40, &space);
    }
    assert!(plies > 2000 * 20, "games too short: {plies} plies");
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
