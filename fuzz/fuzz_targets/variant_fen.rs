//! RULES.md variants: full-state FENs (`engine::variant::fen::parse`) and view FENs
//! (`View::from_fen`) of every preset and open twin, picked by the first byte.
//!
//! Invariants on every text a parser accepts: the written FEN parses back to the same FEN and
//! hash; the legal actions can be generated; each side's view FEN parses back to itself; a
//! determinization sampled from a view is consistent with it and shows the same view FEN.
#![no_main]

use engine::variant::{fen as vfen, State, View};
use engine::Color;
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn check_view(view: &View) {
    let v = view.known().variant();
    let text = view.fen();
    let again = View::from_fen(v, text).unwrap_or_else(|e| panic!("{}: written view FEN {text:?} does not parse: {e}", v.name));
    assert_eq!(again.fen(), text, "{}: view FEN round trip", v.name);
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let s = view.sample(&mut rng);
    assert!(view.is_consistent(&s), "{}: a sample of view {text:?} is not consistent with it", v.name);
    assert_eq!(View::new(&s, view.player()).fen(), text, "{}: the view of a sample of {text:?}", v.name);
}

fn check_state(s: &State) {
    let v = s.variant();
    let text = vfen::write(s);
    let back = vfen::parse(v, &text).unwrap_or_else(|e| panic!("{}: written FEN {text:?} does not parse: {e}", v.name));
    assert_eq!(vfen::write(&back), text, "{}: FEN round trip", v.name);
    assert_eq!(back.hash(), s.hash(), "{}: hash after the FEN round trip of {text:?}", v.name);
    let _ = s.legal_actions();
    for c in Color::ALL {
        let view = View::new(s, c);
        assert!(view.is_consistent(s), "{}: {c:?}'s view of {text:?} does not hold the state", v.name);
        check_view(&view);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((sel, text)) = anqi_fuzz::split(data) else { return };
    let v = *anqi_fuzz::pick(anqi_fuzz::variants(), sel);
    if let Ok(s) = vfen::parse(v, text) {
        check_state(&s);
    }
    if let Ok(view) = View::from_fen(v, text) {
        check_view(&view);
    }
});
