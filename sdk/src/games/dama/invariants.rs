//! Invariants over many random games: the generic harness (move list against `is_legal` over
//! every step, every single jump, the school captures and every prefix of a legal capture; text
//! round trips; every game ends), plus Dama's own: fast and generic perft agree, counting agrees
//! with the list, and the outcome agrees with the pieces.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{Dama, Direction, Move, Piece, Position, Square, Variant, MAX_PLIES};
use crate::invariants::{check_random_playouts, check_text_input, Harness};
use crate::{Color, EndReason, Position as _};

/// A start for a random game: the real start, or a board with random men and kings.
fn random_start(rng: &mut StdRng, rules: Variant) -> Position {
    if rng.gen_bool(0.4) {
        return Position::start(rules);
    }
    let mut position = Position::empty(rules);
    for square in Square::ALL {
        let piece = match rng.gen_range(0..100) {
            0..=14 => Some(Piece::WhiteMan),
            15..=29 => Some(Piece::BlackMan),
            30..=34 => Some(Piece::WhiteKing),
            35..=39 => Some(Piece::BlackKing),
            _ => None,
        };
        // A man never stands on its far row: it would have been crowned.
        let piece = match piece {
            Some(Piece::WhiteMan) if square.row() == 0 => Some(Piece::WhiteKing),
            Some(Piece::BlackMan) if square.row() == 7 => Some(Piece::BlackKing),
            other => other,
        };
        position.set_piece(square, piece);
    }
    let side = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    position.set_side_to_move(side);
    position
}

/// Every step and single jump on the board, whoever could make them.
fn steps_and_jumps() -> Vec<Move> {
    let mut space = Vec::new();
    for from in Square::ALL {
        for d in Direction::ALL {
            space.extend(Move::step(from, d));
            if let Some(to) = from.jump(d) {
                space.extend(Move::capture(from, &[to]));
            }
        }
    }
    space
}

impl Harness for Dama {
    // See `MAX_PLIES`: captures and man steps are bounded, and at most 80 king steps come
    // between two of them.
    const MAX_PLIES: usize = MAX_PLIES as usize;

    /// Every step and single jump, the legal moves, the captures of the other rule set, and
    /// every proper prefix of each capture (which must be refused: a capture goes on while it
    /// can).
    fn move_space(position: &Position) -> Vec<Move> {
        let mut space = steps_and_jumps();
        let mut other = position.clone();
        other.set_rules(match position.rules() {
            Variant::Fid => Variant::School,
            Variant::School => Variant::Fid,
        });
        let captures: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .chain(other.legal_moves())
            .collect();
        for mv in captures {
            space.push(mv);
            if mv.is_capture() {
                let landings: Vec<Square> = mv.landings().collect();
                for end in 1..landings.len() {
                    space.extend(Move::capture(mv.from(), &landings[..end]));
                }
            }
        }
        let mut seen = HashSet::new();
        space.retain(|&mv| seen.insert(mv));
        space
    }

    fn random_start(rng: &mut StdRng, variant: &str) -> Position {
        let rules = variant
            .parse()
            .expect("the harness passes Dama's own variants");
        random_start(rng, rules)
    }
}

#[test]
fn equal_positions_hash_equal_and_the_side_to_move_counts() {
    crate::invariants::check_hash_keys::<Dama>(
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "21-17 12-16 22-18 11-15",
        "22-18 11-15 21-17 12-16",
        "B:W17,18,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,15,16",
    );
}

#[test]
fn the_generic_harness_holds() {
    check_random_playouts::<Dama>(2000, 11, 40);
}

/// Checks Dama's own invariants in one position.
fn check(position: &Position) {
    let moves = position.legal_moves();
    assert_eq!(position.count_moves() as usize, moves.len(), "{position}");
    let outcome = position.outcome();
    assert_eq!(outcome.is_some(), moves.is_empty(), "{position}");
    // Either every move captures or none does; under FID all have the same number of jumps.
    let captures = moves.iter().filter(|m| m.is_capture()).count();
    assert!(captures == 0 || captures == moves.len(), "{position}");
    if position.rules() == Variant::Fid && captures > 0 {
        assert!(
            moves.iter().all(|m| m.jumps() == moves[0].jumps()),
            "{position}"
        );
    }
    for &mv in &moves {
        assert!(position.pieces(position.side()).contains(mv.from()));
        let mut next = position.clone();
        next.play_unchecked(mv);
        let taken = position.count(!position.side()) - next.count(!position.side());
        assert_eq!(taken as usize, mv.jumps(), "{mv} in {position}");
        assert_eq!(next.count(position.side()), position.count(position.side()));
        let quiet = !mv.is_capture() && position.kings(position.side()).contains(mv.from());
        assert_eq!(next.quiet_plies() > 0, quiet, "{mv} in {position}");
    }
    if let Some(outcome) = outcome {
        let us = position.side();
        match outcome.reason {
            EndReason::NoPieces => assert_eq!(position.count(us), 0),
            EndReason::NoLegalMove => assert!(position.count(us) > 0),
            EndReason::InsufficientMaterial => assert_eq!(position.rules(), Variant::School),
            EndReason::Repetition => assert!(position.is_third_repetition()),
            EndReason::MoveLimit => assert_eq!(position.quiet_plies(), 80),
            other => panic!("unexpected ending {other:?} in {position}"),
        }
        let loss = matches!(outcome.reason, EndReason::NoPieces | EndReason::NoLegalMove);
        assert_eq!(outcome.winner, loss.then_some(!us), "{position}");
    }
}

#[test]
fn random_games_keep_dama_invariants() {
    let mut reasons = HashSet::new();
    for seed in 0..1000 {
        let rules = Variant::ALL[seed as usize % 2];
        let mut rng = StdRng::seed_from_u64(seed);
        let mut position = random_start(&mut rng, rules);
        for ply in 0.. {
            check(&position);
            if ply % 50 == 7 {
                let generic = crate::perft::perft(&position, 3);
                assert_eq!(position.perft(3), generic, "{position}");
            }
            let moves = position.legal_moves();
            // Every fourth game mostly moves kings where they offer nothing to capture, to
            // reach the 80-ply rule.
            let kings = position.kings(position.side());
            let king_moves: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut next = position.clone();
                    next.play_unchecked(m);
                    kings.contains(m.from()) && next.legal_moves().iter().all(|r| !r.is_capture())
                })
                .collect();
            let pool = if seed % 4 == 3 && !king_moves.is_empty() && rng.gen_bool(0.97) {
                &king_moves
            } else {
                &moves
            };
            let Some(&mv) = pool.choose(&mut rng) else {
                reasons.insert(position.outcome().map(|o| o.reason));
                break;
            };
            position.play(mv).unwrap();
        }
    }
    for reason in [
        EndReason::NoPieces,
        EndReason::NoLegalMove,
        EndReason::InsufficientMaterial,
        EndReason::Repetition,
        EndReason::MoveLimit,
    ] {
        assert!(
            reasons.contains(&Some(reason)),
            "no game ended by {reason:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_handled(text in "\\PC{0,40}|[WBK:, 0-9x\\-.HF]{0,40}") {
        check_text_input::<Dama>(&text);
    }
}
