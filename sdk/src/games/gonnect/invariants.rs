//! Invariants over many random games: the bitboard engine agrees with the plain reference
//! implementation (`naive.rs`) move for move, the generic harness holds, and perft from the start
//! is what both implementations count.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::naive::Naive;
use super::{Gonnect, Move, Point, Position};
use crate::{Color, EndReason, Game, Position as _};

/// A position with stones scattered at random (`density` percent of the points, half each
/// colour), chains without liberties removed, a random side to move and move number.
fn random_board(rng: &mut StdRng, density: u32) -> Position {
    let mut position = Position::start();
    for point in Point::ALL {
        if rng.gen_range(0..100) < density {
            let color = if rng.gen_bool(0.5) {
                Color::Black
            } else {
                Color::White
            };
            position.set_stone(point, Some(color));
        }
    }
    // A chain without liberties cannot arise in play: take such chains off, one at a time.
    loop {
        let dead = [Color::Black, Color::White]
            .into_iter()
            .find_map(|color| position.dead_chains(color).next());
        let Some(point) = dead else { break };
        for stone in position.chain(point) {
            position.set_stone(stone, None);
        }
    }
    position.set_side_to_move(if rng.gen_bool(0.5) {
        Color::Black
    } else {
        Color::White
    });
    position.set_move_number(rng.gen_range(3..300));
    position
}

/// A start for a random game: the real start, a scattered board, or move 2 with one black stone
/// (where White may swap).
fn random_start(rng: &mut StdRng) -> Position {
    match rng.gen_range(0..8) {
        0..=3 => Position::start(),
        4 => {
            let mut position = Position::start();
            let point = *Point::ALL.choose(rng).expect("the board has points");
            crate::Position::play(&mut position, Move::Place(point))
                .expect("the first stone may go anywhere");
            position
        }
        _ => {
            let density = rng.gen_range(20..75);
            random_board(rng, density)
        }
    }
}

/// Chooses a random move, preferring captures half of the time (which makes kos, and so
/// superko, come up far more often than uniform play does) and the swap when it is there.
fn choose(position: &Position, moves: &[Move], rng: &mut StdRng) -> Move {
    if moves.contains(&Move::Swap) && rng.gen_bool(0.5) {
        return Move::Swap;
    }
    if rng.gen_bool(0.5) {
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| mv.point().is_some_and(|p| !position.captures(p).is_empty()))
            .collect();
        if let Some(&mv) = captures.choose(rng) {
            return mv;
        }
    }
    *moves.choose(rng).expect("only called with moves")
}

/// What the cross-check saw, to make sure it covered the interesting rules.
#[derive(Debug, Default)]
struct Coverage {
    plies: usize,
    superko_refusals: usize,
    swaps: usize,
    captures: usize,
    connections: usize,
    no_legal_move: usize,
    longest: usize,
}

/// Plays `games` random games in both implementations, comparing move lists, outcomes and boards
/// at every ply.
fn cross_check(games: u64, seed: u64) -> Coverage {
    let mut coverage = Coverage::default();
    let mut rng = StdRng::seed_from_u64(seed);
    for game in 0..games {
        let mut position = random_start(&mut rng);
        let mut naive = Naive::from_position(&position);
        let mut plies = 0;
        loop {
            let context = || format!("game {game}, ply {plies}: {position}");
            let mut moves = position.legal_moves();
            let mut expected = naive.legal_moves();
            let key = |mv: &Move| mv.point().map_or(usize::MAX, Point::index);
            moves.sort_by_key(key);
            expected.sort_by_key(key);
            assert_eq!(moves, expected, "{}", context());
            assert_eq!(
                position.count_moves() as usize,
                moves.len(),
                "{}",
                context()
            );
            assert_eq!(position.outcome(), naive.outcome(), "{}", context());
            let text = position.to_string();
            assert_eq!(text.split(' ').next(), Some(naive.board_text().as_str()));
            if let Some(outcome) = position.outcome() {
                match outcome.reason {
                    EndReason::Connection => coverage.connections += 1,
                    _ => coverage.no_legal_move += 1,
                }
                break;
            }
            let mv = choose(&position, &moves, &mut rng);
            coverage.swaps += usize::from(mv == Move::Swap);
            coverage.captures +=
                usize::from(mv.point().is_some_and(|p| !position.captures(p).is_empty()));
            crate::Position::play(&mut position, mv).expect("generated moves are legal");
            naive.play(mv);
            plies += 1;
        }
        coverage.plies += plies;
        coverage.longest = coverage.longest.max(plies);
        coverage.superko_refusals += naive.superko_refusals;
    }
    coverage
}

#[test]
fn moves_match_the_reference_implementation() {
    let coverage = cross_check(12, 11);
    assert!(coverage.superko_refusals > 0, "{coverage:?}");
    assert!(coverage.swaps > 0 && coverage.captures > 50, "{coverage:?}");
    assert!(coverage.connections > 0, "{coverage:?}");
}

/// Many more games: `cargo test --release -p tavola-sdk --lib gonnect -- --ignored`.
#[test]
#[ignore = "long; run in release"]
fn moves_match_the_reference_implementation_long() {
    let coverage = cross_check(3000, 12);
    eprintln!("{coverage:?}");
    assert!(
        coverage.superko_refusals > 0 && coverage.no_legal_move > 0,
        "{coverage:?}"
    );
}

#[test]
fn perft_matches_the_reference_implementation() {
    let start = Position::start();
    let mut naive = Naive::from_position(&start);
    assert_eq!(naive.perft(2), start.perft(2));
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..4 {
        let position = random_board(&mut rng, 70);
        let mut naive = Naive::from_position(&position);
        assert_eq!(naive.perft(2), position.perft(2), "{position}");
    }
}

/// Perft from the start to depth 3 by the reference implementation.
#[test]
#[ignore = "slow; run in release"]
fn perft_3_matches_the_reference_implementation() {
    let mut naive = Naive::from_position(&Position::start());
    assert_eq!(naive.perft(3), super::movegen::START_PERFT[2]);
}

impl crate::invariants::Harness for Gonnect {
    // Superko makes every game finite, but its bound is astronomically large (a game cannot
    // repeat a board, and there are up to 3^169 boards). Random games end far sooner: the board
    // fills within a few hundred plies, captures included, and then a chain spans two sides or
    // the side to move is smothered. The longest of 3000 random games of the long cross-check
    // (from the start and from scattered boards, captures preferred) was about 320 plies; 5000
    // is a generous practical bound that random play never reaches.
    const MAX_PLIES: usize = 5000;

    fn move_space(_position: &Position) -> Vec<Move> {
        let mut space: Vec<Move> = Point::ALL.into_iter().map(Move::Place).collect();
        space.push(Move::Swap);
        space
    }

    fn random_start(rng: &mut StdRng, _variant: &str) -> Position {
        random_start(rng)
    }
}

#[test]
fn equal_positions_hash_equal_and_the_side_to_move_counts() {
    crate::invariants::check_hash_keys::<Gonnect>(
        "............./............./............./............./............./............./............./............./............./............./............./............./............. X 1",
        "A1 N13 B1 M13",
        "B1 M13 A1 N13",
        "...........OO/............./............./............./............./............./............./............./............./............./............./............./XX........... O 5",
    );
}

#[test]
fn the_generic_harness_holds() {
    crate::invariants::check_random_playouts::<Gonnect>(2000, 7, 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_handled(text in "\\PC{0,40}|[xoXO./ 1-9]{0,200}|swap|[a-nA-N][0-9]{1,2}") {
        crate::invariants::check_text_input::<Gonnect>(&text);
    }

    #[test]
    fn reached_positions_round_trip_through_text(seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut position = random_start(&mut rng);
        for _ in 0..60 {
            let Some(&mv) = position.legal_moves().choose(&mut rng) else { break };
            crate::Position::play(&mut position, mv).unwrap();
            let text = position.to_string();
            let reparsed = Gonnect::parse_position(&text, None).unwrap();
            prop_assert_eq!(reparsed.to_string(), text);
            prop_assert_eq!(reparsed.zobrist_hash(), position.zobrist_hash());
        }
    }
}
