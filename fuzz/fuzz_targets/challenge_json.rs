//! The Tablut challenge's JSON: states from a server, actions from a player. Invariants: reading
//! never panics; a state read writes back as JSON that reads as the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola::protocol::challenge::{parse_action, parse_state, state_json};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_action(text);
    if let Ok((position, turn)) = parse_state(text) {
        let json = state_json(&position, turn);
        let (again, again_turn) = parse_state(&json).expect("a written state reads");
        assert_eq!(again.to_string(), position.to_string());
        assert_eq!(again_turn, turn);
    }
});
