//! An arena results file (a settings header, then one JSON line a game). Invariants: reading
//! never panics; every game read writes back as a line that reads as the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola::arena::results::{parse_run, GameLine};

fuzz_target!(|data: &[u8]| {
    let Ok(run) = parse_run(data, "results.jsonl") else {
        return;
    };
    for read in &run.games {
        let line = serde_json::to_string(&read.game).expect("a game line serialises");
        let again: GameLine = serde_json::from_str(&line).expect("a written line reads");
        assert_eq!(serde_json::to_string(&again).unwrap(), line);
    }
});
