//! Position text, all four games. Invariants: whatever parses prints as text that parses to the
//! same text; every listed move plays and is written as text that reads back as that move, and
//! `is_legal` agrees; a finished game lists no moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola_sdk::games::{ataxx::Ataxx, dama::Dama, gonnect::Gonnect, tablut::Tablut};
use tavola_sdk::{Game, Position};

fn check<G: Game>(text: &str) {
    let Ok(position) = G::parse_position(text, None) else {
        return;
    };
    let printed = position.to_string();
    let again = G::parse_position(&printed, Some(position.variant()))
        .unwrap_or_else(|e| panic!("{printed:?}, printed from {text:?}, does not parse: {e}"));
    assert_eq!(again.to_string(), printed, "print, parse, print is not stable");
    let moves = position.legal_moves();
    if position.is_game_over() {
        assert!(moves.is_empty(), "the finished game {printed:?} lists moves");
    }
    for &mv in &moves {
        assert!(position.is_legal(mv), "{mv} is listed but not legal in {printed:?}");
        let written = mv.to_string();
        assert_eq!(
            position.parse_move(&written),
            Ok(mv),
            "{written:?} does not read back in {printed:?}"
        );
        let mut next = position.clone();
        next.play_unchecked(mv);
        let after = next.to_string();
        assert!(
            G::parse_position(&after, Some(next.variant())).is_ok(),
            "{after:?} (after {written} in {printed:?}) does not parse"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&game, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match game % 4 {
        0 => check::<Ataxx>(text),
        1 => check::<Tablut>(text),
        2 => check::<Gonnect>(text),
        _ => check::<Dama>(text),
    }
});
