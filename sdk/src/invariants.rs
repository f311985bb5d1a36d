//! The invariant harness every game's tests run (test-only).
//!
//! Over many seeded random playouts it checks what must hold for any rules engine behind the
//! [`Game`] contract: the generated move list and `is_legal` agree over the whole move space, the
//! list has no duplicates, every legal move round-trips through its notation and its code (and any number decodes to no move
//! or to a move legal exactly when listed), every reached position
//! round-trips through its text, a finished game has no legal moves and refuses every move, and
//! every playout ends within the rules' bound. A game opts in by implementing [`Harness`].

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::{Game, MoveCode, Position};

/// What the harness needs to know about a game beyond the [`Game`] contract.
pub(crate) trait Harness: Game {
    /// No game of this rule set lasts longer than this many plies.
    const MAX_PLIES: usize;

    /// Every move that could be legal somewhere near `position`: a superset of its legal moves,
    /// ideally the game's whole move space (every from/to pair, every point, ...).
    fn move_space(position: &Self::Position) -> Vec<Self::Move>;

    /// A start for a random playout: the variant's start, or any other valid position.
    fn random_start(_rng: &mut StdRng, variant: &str) -> Self::Position {
        Self::start(Some(variant)).expect("the game's own variants exist")
    }
}

/// Plays `games` random games, alternating the game's variants, and checks every invariant at
/// every ply. The first `full_checks` games test `is_legal` over the whole move space at every ply;
/// later ones test a random sample of it (the whole space is slow in debug builds).
pub(crate) fn check_random_playouts<G: Harness>(games: usize, seed: u64, full_checks: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for game in 0..games {
        let variant = G::VARIANTS[game % G::VARIANTS.len()];
        let mut position = G::random_start(&mut rng, variant);
        let mut plies = 0;
        loop {
            let context = || format!("game {game} ({variant}), ply {plies}, position {position}");
            moves.clear();
            position.generate_moves(&mut moves);
            let legal: HashSet<G::Move> = moves.iter().copied().collect();
            assert_eq!(legal.len(), moves.len(), "duplicate moves in {}", context());
            let outcome = position.outcome();
            assert_eq!(
                moves.is_empty(),
                outcome.is_some(),
                "a position has no moves exactly when it is finished: {} (outcome {outcome:?})",
                context()
            );

            let space = G::move_space(&position);
            let sample: Vec<&G::Move> = if game < full_checks || outcome.is_some() {
                space.iter().collect()
            } else {
                space.choose_multiple(&mut rng, 48).collect()
            };
            for &mv in sample {
                assert_eq!(
                    G::Move::from_code(mv.code()),
                    Some(mv),
                    "{mv} does not round-trip through its code {:#x} in {}",
                    mv.code(),
                    context()
                );
                assert_eq!(
                    position.is_legal(mv),
                    legal.contains(&mv),
                    "is_legal({mv}) disagrees with the move list in {}",
                    context()
                );
            }
            for &mv in &legal {
                assert!(
                    position.is_legal(mv),
                    "generated {mv} is not legal in {}",
                    context()
                );
                let text = mv.to_string();
                assert_eq!(
                    position.parse_move(&text),
                    Ok(mv),
                    "{mv} does not round-trip through {text:?} in {}",
                    context()
                );
            }

            // Any number at all decodes to nothing, or to a move with that very code that is legal
            // exactly when the list has it: what the host relies on for a plugin's answer.
            for _ in 0..16 {
                let code = rng.gen::<u64>() >> rng.gen_range(0..64);
                if let Some(mv) = G::Move::from_code(code) {
                    assert_eq!(
                        mv.code(),
                        code,
                        "{code:#x} decodes to {mv}, whose code differs"
                    );
                    assert_eq!(
                        position.is_legal(mv),
                        legal.contains(&mv),
                        "is_legal({mv}, decoded from {code:#x}) disagrees with the list in {}",
                        context()
                    );
                }
            }

            let text = position.to_string();
            let reparsed = G::parse_position(&text, Some(variant))
                .unwrap_or_else(|e| panic!("{text:?} does not parse back: {e}"));
            assert_eq!(
                reparsed.to_string(),
                text,
                "position text does not round-trip"
            );
            assert_eq!(reparsed.side_to_move(), position.side_to_move());
            assert_eq!(
                reparsed.hash_key(),
                position.hash_key(),
                "the hash of a played position and of its text differ: {}",
                context()
            );

            if outcome.is_some() {
                for mv in space {
                    let mut copy = position.clone();
                    assert!(
                        copy.play(mv).is_err(),
                        "a finished game accepted {mv}: {}",
                        context()
                    );
                }
                break;
            }
            assert!(
                plies < G::MAX_PLIES,
                "the game did not end within {} plies: {}",
                G::MAX_PLIES,
                context()
            );
            let mv = moves[rng.gen_range(0..moves.len())];
            position
                .play(mv)
                .unwrap_or_else(|e| panic!("a generated move was refused: {e}"));
            plies += 1;
        }
    }
}

/// Checks [`Position::hash_key`]: the positions reached from `start` by the moves `first` and by
/// the moves `second` (a different order, same board and side to move) hash equal, and the
/// position `other_side` (the same board, the other side to move) hashes differently.
pub(crate) fn check_hash_keys<G: Game>(start: &str, first: &str, second: &str, other_side: &str) {
    let play = |moves: &str| {
        let mut position = G::parse_position(start, None).expect("a valid start");
        for text in moves.split_whitespace() {
            let mv = position
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{text} in {position}: {e}"));
            position.play_unchecked(mv);
        }
        position
    };
    let (a, b) = (play(first), play(second));
    assert_eq!(
        a.hash_key(),
        b.hash_key(),
        "{a} and {b} (by {first:?} and {second:?})"
    );
    assert_ne!(play("").hash_key(), a.hash_key(), "moves change the hash");
    let flipped = G::parse_position(other_side, None).expect("a valid position");
    assert_eq!(flipped.pretty().lines().count(), a.pretty().lines().count());
    assert_ne!(
        flipped.side_to_move(),
        a.side_to_move(),
        "{other_side} is the other side"
    );
    assert_ne!(flipped.hash_key(), a.hash_key(), "{flipped} and {a}");
}

/// Feeds arbitrary text to the parsers: they may refuse it, never panic, and what they accept
/// prints back to text that parses to the same thing.
pub(crate) fn check_text_input<G: Game>(text: &str) {
    for &variant in G::VARIANTS {
        if let Ok(position) = G::parse_position(text, Some(variant)) {
            let printed = position.to_string();
            let again = G::parse_position(&printed, Some(variant)).unwrap_or_else(|e| {
                panic!("{text:?} parsed, but its text {printed:?} does not: {e}")
            });
            assert_eq!(again.to_string(), printed);
            let _ = position.parse_move(text);
            let _ = position.legal_moves();
            let _ = position.outcome();
        }
        let start = G::start(Some(variant)).expect("the game's own variants exist");
        if let Ok(mv) = start.parse_move(text) {
            assert!(start.is_legal(mv), "parse_move accepted the illegal {mv}");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::games::{ataxx, dama, gonnect, tablut};
    use crate::{Game, MoveCode, Position};

    /// The examples in each game's `MoveCode` documentation.
    #[test]
    fn the_documented_move_codes() {
        let code = |mv: Result<u64, String>| mv.unwrap();
        let ataxx = |t: &str| {
            t.parse::<ataxx::Move>()
                .map(MoveCode::code)
                .map_err(|e| e.to_string())
        };
        assert_eq!(code(ataxx("b6")), 0x24);
        assert_eq!(code(ataxx("a7c5")), 0x1_2A_1E);
        assert_eq!(code(ataxx("0000")), 0x2_0000);
        let tablut = |t: &str| {
            t.parse::<tablut::Move>()
                .map(MoveCode::code)
                .map_err(|e| e.to_string())
        };
        assert_eq!(code(tablut("e3-h3")), 0x16_19);
        let gonnect = |t: &str| {
            t.parse::<gonnect::Move>()
                .map(MoveCode::code)
                .map_err(|e| e.to_string())
        };
        assert_eq!(code(gonnect("G7")), 84);
        assert_eq!(code(gonnect("swap")), 0x100);
        let start = dama::Dama::start(None).unwrap();
        let dama = |t: &str| {
            start
                .parse_move(t)
                .map(MoveCode::code)
                .map_err(|e| e.to_string())
        };
        assert_eq!(code(dama("23-19")), 0x16);
        let capture = |t: &str| {
            t.parse::<dama::Move>()
                .map(MoveCode::code)
                .map_err(|e| e.to_string())
        };
        assert_eq!(code(capture("22x15")), 0x435);
        // Not codes: stray bits, squares off the board.
        assert_eq!(ataxx::Move::from_code(49), None);
        assert_eq!(ataxx::Move::from_code(0x1_31_00), None);
        assert_eq!(ataxx::Move::from_code(0x2_0001), None);
        assert_eq!(tablut::Move::from_code(0x51_00), None);
        assert_eq!(gonnect::Move::from_code(169), None);
        assert_eq!(dama::Move::from_code(0x16 | 1 << 12), None);
        assert_eq!(dama::Move::from_code(u64::MAX), None);
    }
}
