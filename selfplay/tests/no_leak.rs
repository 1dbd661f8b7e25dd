//! The no-leak battery's UCI half (issue 13 item 8; the engine half is `engine/tests/no_leak.rs`,
//! the `net:` bot's `selfplay/farm/tests/no_leak_net.rs`): a UCI engine in a tournament is sent
//! identical bytes in two games that differ only in what its side cannot see.

use engine::variant::game::Ply;
use engine::variant::game_state::VariantGameState;
use engine::variant::{fen as vfen, notation, State, Variant};
use engine::Color;
use selfplay::tournament::dialect::Dialect;
use selfplay::tournament::engine_view::{check_variant_dialect, position_for};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// Jieqi from the start: Red's face-down h2 piece (revealed a chariot) takes the face-down piece
/// on h9, whose identity only Red sees, then Black plays `b9c7` revealing a horse.
fn jieqi_game(captured: char) -> (State, VariantGameState, Vec<Ply>) {
    let start = State::start(variant("jieqi"), None).expect("start");
    let mut g = VariantGameState::unbounded(start.clone());
    let mut plies = Vec::new();
    for text in [format!("h2h9R{captured}"), "b9c7N".to_string()] {
        let (a, o) = notation::parse_record(g.state(), &text).expect("record");
        plies.push(g.play_recorded(a, |outs| o.unwrap_or(outs[0].0)));
    }
    (start, g, plies)
}

#[test]
fn no_leak_uci_engine_gets_only_what_its_side_may_know_in_jieqi() {
    let (start, n, np) = jieqi_game('n');
    let (_, r, rp) = jieqi_game('r');
    for dialect in [Dialect::Anqi, Dialect::Pikafish] {
        // Black (to move) never saw what Red took: the same bytes in both games.
        let bn = position_for(dialect, &start, &n, &np, Color::Black).expect("position");
        let br = position_for(dialect, &start, &r, &rp, Color::Black).expect("position");
        assert_eq!(bn, br, "{dialect}");
        if dialect == Dialect::Pikafish {
            assert!(bn.contains(" h2h9R "), "the mover's reveal is public, the capture letter dropped: {bn}");
        } else {
            assert!(bn.contains("view=b"), "an anqi engine gets Black's view: {bn}");
        }
        // Red, the capturer, is sent the identity it saw.
        let rn = position_for(dialect, &start, &n, &np, Color::Red).expect("position");
        let rr = position_for(dialect, &start, &r, &rp, Color::Red).expect("position");
        assert_ne!(rn, rr, "{dialect}");
    }
}

#[test]
fn no_leak_uci_engine_gets_a_view_under_a_secret_set_up() {
    // Surprise: two games that differ only in Black's secret layout send Red's engine one view.
    let v = variant("surprise");
    let mut sent = Vec::new();
    for black in ["A", "C5"] {
        let start = State::start(v, Some(("C3", black))).expect("start");
        let mut g = VariantGameState::unbounded(start.clone());
        let mut plies = Vec::new();
        for m in ["h2e2", "h9g7"] {
            let (a, o) = notation::parse_record(g.state(), m).expect("record");
            plies.push(g.play_recorded(a, |outs| o.unwrap_or(outs[0].0)));
        }
        let line = position_for(Dialect::Anqi, &start, &g, &plies, Color::Red).expect("anqi dialect");
        assert!(line.contains("view=w"), "{line}");
        assert!(!line.contains(&vfen::write(g.state())), "not the full state");
        sent.push(line);
    }
    assert_eq!(sent[0], sent[1]);
    // Engines that read no view FEN are refused, naming why.
    for d in [Dialect::Pikafish, Dialect::FairyStockfish] {
        let err = check_variant_dialect(d, v).expect_err("refused");
        assert!(err.contains("§S2") && err.contains("view"), "{err}");
    }
    assert!(check_variant_dialect(Dialect::Pikafish, variant("jieqi")).is_ok());
    assert!(check_variant_dialect(Dialect::FairyStockfish, variant("xiangqi")).is_ok());
}
