//! UAI input to `tavola uai` (`position ...`, `go ...`) and engines' `info` lines read by the
//! host. Invariants: reading never panics; a position reached prints as text that parses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola::fuzzing::{engine_info, uai_go, uai_position};
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let _ = uai_go(&words);
    if let Ok(text) = uai_position(&words) {
        assert!(Ataxx::parse_position(&text, None).is_ok(), "{text:?} from {line:?}");
    }
    let _ = engine_info(line);
});
