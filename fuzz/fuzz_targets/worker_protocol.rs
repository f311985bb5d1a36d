//! The worker protocol's lines, both ways. Invariants: reading never panics; a message read
//! encodes as a line that reads as the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola::seat::worker::protocol::{encode, FromWorker, ToWorker};

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(message) = serde_json::from_str::<ToWorker>(line) {
        let again: ToWorker = serde_json::from_str(&encode(&message)).expect("an encoded line reads");
        assert_eq!(again, message);
    }
    if let Ok(message) = serde_json::from_str::<FromWorker>(line) {
        let again: FromWorker =
            serde_json::from_str(&encode(&message)).expect("an encoded line reads");
        assert_eq!(again, message);
    }
});
