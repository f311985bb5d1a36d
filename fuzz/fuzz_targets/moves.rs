//! Move text, all four games, in positions reached by the moves the input picks. Invariants:
//! reading never panics; a move read is legal and listed; a move refused as illegal is well
//! formed and not listed as written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola_sdk::games::{ataxx::Ataxx, dama::Dama, gonnect::Gonnect, tablut::Tablut};
use tavola_sdk::{Game, ParseMoveError, Position};

fn check<G: Game>(data: &[u8]) {
    // The first bytes pick a line of play (each a legal move's index), the rest is the text.
    let (picks, text) = data.split_at(data.len().min(8));
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let mut position = G::start(None).expect("every game has a default variant");
    for &pick in picks {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[usize::from(pick) % moves.len()]);
    }
    let moves = position.legal_moves();
    match position.parse_move(text) {
        Ok(mv) => {
            assert!(moves.contains(&mv), "{text:?} read as {mv}, which is not listed");
            assert!(position.is_legal(mv));
        }
        Err(ParseMoveError::Illegal { .. }) => {
            assert!(
                !moves.iter().any(|m| m.to_string() == text),
                "{text:?} is listed but refused"
            );
        }
        Err(ParseMoveError::Invalid { .. }) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&game, rest)) = data.split_first() else {
        return;
    };
    match game % 4 {
        0 => check::<Ataxx>(rest),
        1 => check::<Tablut>(rest),
        2 => check::<Gonnect>(rest),
        _ => check::<Dama>(rest),
    }
});
