//! PGN reading as `anqi view` does it: `selfplay::tournament::pgn::parse`, then each record of a
//! preset game turned into the viewer's frames (`selfplay::viewer::frames::of_record`, which
//! replays the record from its set-up).
//!
//! Invariants: every record read writes (`Record::to_pgn`) a text that reads back to that one
//! record, nothing torn. Records naming a variant that is not a preset are only round-tripped:
//! a rule file's path would have the harness read files.
#![no_main]

use libfuzzer_sys::fuzz_target;
use selfplay::tournament::pgn;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (records, _torn) = pgn::parse(text);
    for r in &records {
        let written = r.to_pgn();
        let (back, torn) = pgn::parse(&written);
        assert!(!torn, "a written record reads as torn: {written:?}");
        assert_eq!(back.as_slice(), std::slice::from_ref(r), "PGN round trip of {written:?}");
        let preset = anqi_fuzz::all_games().iter().any(|g| *g == r.variant);
        if preset && r.moves.len() <= 300 {
            let _ = selfplay::viewer::frames::of_record(r);
        }
    }
});
