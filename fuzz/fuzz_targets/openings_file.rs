//! An openings file, all four games. Invariants: reading never panics; every opening read is a
//! position of the game that is not over, in its printed form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola::fuzzing::openings;
use tavola_sdk::games::{ataxx::Ataxx, dama::Dama, gonnect::Gonnect, tablut::Tablut};
use tavola_sdk::{Game, Position};

fn check<G: Game>(text: &str) {
    let Ok(read) = openings::<G>(text) else {
        return;
    };
    assert!(!read.is_empty());
    for opening in read {
        let position = G::parse_position(&opening, None).expect("an opening read parses");
        assert!(!position.is_game_over(), "{opening:?} is over");
        assert_eq!(position.to_string(), opening);
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
