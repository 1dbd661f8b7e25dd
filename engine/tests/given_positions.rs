//! Positions given as one player knows them (issue 13 item 2, RULES.md §F6 capturer-only
//! knowledge): view FENs and JieqiBox's six-field Jieqi FEN read into the same information set as
//! the full state they come from, and two full states in one information set give one view.

use engine::variant::game_state::VariantGameState;
use engine::variant::given::Given;
use engine::variant::{fen as vfen, notation, State, Variant, View};
use engine::Color;

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// Jieqi from the start after Red's face-down h2 piece (revealed a chariot) takes the face-down
/// piece on h9, whose identity (`captured`) only Red sees.
fn after_capture(captured: char) -> State {
    let v = variant("jieqi");
    let mut g = VariantGameState::unbounded(State::start(v, None).expect("start"));
    let (a, o) = notation::parse_record(g.state(), &format!("h2h9R{captured}")).expect("record");
    g.play(a, |outs| o.unwrap_or(outs[0].0));
    g.state().clone()
}

#[test]
fn f6_capturer_only_knowledge_is_one_information_set_for_the_other_side() {
    let (n, r) = (after_capture('n'), after_capture('r'));
    assert_ne!(vfen::write(&n), vfen::write(&r), "the full states differ in the pool");
    let (bn, br) = (View::new(&n, Color::Black), View::new(&r, Color::Black));
    assert_eq!(bn.fen(), br.fen());
    assert_eq!(bn.infoset_key(), br.infoset_key());
    // Red, the capturer, tells them apart.
    assert_ne!(View::new(&n, Color::Red).fen(), View::new(&r, Color::Red).fen());
    // Black's view as text reads back to the same view, and a determinization of it is Black's
    // view again: the position can be given as Black knows it.
    let given = Given::parse(variant("jieqi"), bn.fen()).expect("view FEN");
    assert_eq!(given.viewer(), Some(Color::Black));
    let v = given.view(Color::Black).expect("black's view");
    assert_eq!(v.fen(), bn.fen());
    assert_eq!(View::new(&given.state(), Color::Black).fen(), bn.fen());
    assert!(given.view(Color::Red).is_err(), "Red's view cannot be made from Black's");
    // The legal actions given to Black are those of the view.
    assert_eq!(given.state().legal_actions(), n.legal_actions());
}

#[test]
fn n2_jieqibox_six_field_fen_is_the_side_to_moves_view() {
    let s = after_capture('n');
    let view = View::new(&s, Color::Black);
    let f: Vec<&str> = view.fen().split_whitespace().collect();
    // JieqiBox: board side pool captured halfmove fullmove; Black saw no captured identity.
    let jb = format!("{} {} {} - {} {}", f[0], f[1], f[2], f[3], f[4]);
    let given = Given::parse(variant("jieqi"), &jb).expect("JieqiBox FEN");
    assert_eq!(given.viewer(), Some(Color::Black));
    assert_eq!(given.view(Color::Black).expect("view").fen(), view.fen());
    // The start position in JieqiBox's form is Red's view of the start.
    let start = State::start(variant("jieqi"), None).expect("start");
    let jb = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 - 0 1";
    let given = Given::parse(variant("jieqi"), jb).expect("JieqiBox start");
    assert_eq!(given.view(Color::Red).expect("view").fen(), View::new(&start, Color::Red).fen());
    // A pool smaller than the face-down pieces is an error naming the field.
    let bad = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2 - 0 1";
    let err = Given::parse(variant("jieqi"), bad).err().expect("rejected").to_string();
    assert!(err.contains("pool"), "{err}");
    // The full-state forms of RULES.md §N2 are read as full states.
    assert!(matches!(Given::parse(variant("jieqi"), &vfen::write(&s)).expect("full"), Given::Full(_)));
}
