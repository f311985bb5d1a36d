//! Game records (the PGN-style files of every game). Invariants: reading never panics; what
//! reads prints as text that reads back to the same records; a record that replays by the rules
//! replays again from its printed text to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tavola::record::GameRecord;
use tavola_sdk::games::ataxx::Ataxx;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(records) = GameRecord::parse_all(text) else {
        return;
    };
    let printed: String = records.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    let again = GameRecord::parse_all(&printed)
        .unwrap_or_else(|e| panic!("{printed:?}, printed from {text:?}, does not read: {e}"));
    assert_eq!(again.len(), records.len(), "{printed:?}");
    for (a, b) in records.iter().zip(&again) {
        assert_eq!(a.to_string(), b.to_string(), "print, read, print is not stable");
        if let Ok((_, moves)) = a.replay::<Ataxx>() {
            let (_, again) = b.replay::<Ataxx>().expect("the printed record replays too");
            assert_eq!(moves, again);
        }
    }
});
