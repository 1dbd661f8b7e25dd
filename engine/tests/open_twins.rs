//! Open twins of the RULES.md hidden presets (docs/open-twins.md §O1-§O5): the option and its
//! errors, views that show everything, the deal known at the start, the pair API, and perft
//! checked against independent counts.

use engine::variant::config::{open_twin_names, preset_names, VariantError};
use engine::variant::fen as vfen;
use engine::variant::game_state::VariantGameState;
use engine::variant::open::{open_state, pair, Deal};
use engine::variant::perft::perft;
use engine::variant::{Action, State, Variant, View};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// The RULES.md presets with hidden information (RULES.md "Information classes").
const HIDDEN: [&str; 11] =
    ["surprise", "surprise-negotiation", "fanqi-3", "fanqi-4", "fanqi-5", "fanqi-6", "fanqi-7", "fanqi-8", "fanqi-9", "fanqi-10", "jieqi"];

#[test]
fn o1_every_hidden_preset_has_an_open_twin() {
    let listed = open_twin_names();
    let want: Vec<String> = HIDDEN.iter().map(|n| format!("{n}+open")).collect();
    assert_eq!(listed, want);
    for name in HIDDEN {
        let h = variant(name);
        let o = variant(&format!("{name}+open"));
        assert!(o.open && !h.open, "{name}");
        assert_eq!(o.name, format!("{name}+open"));
        assert_eq!(o.family, h.family);
        assert_eq!((o.surprise.clone(), o.fanqi.clone(), o.end.clone()), (h.surprise.clone(), h.fanqi.clone(), h.end.clone()), "{name}: rules differ");
        // The two ways to the twin agree, and back.
        let t = h.open_twin().expect("twin");
        assert_eq!((t.name.as_str(), t.open), (o.name.as_str(), true));
        assert_eq!(o.hidden_twin().expect("hidden").name, *name);
        assert!(!o.hidden_twin().expect("hidden").open);
    }
}

#[test]
fn o1_open_twin_of_a_game_without_hidden_information_is_an_error() {
    for name in ["xiangqi", "king", "fanqi-1", "fanqi-2"] {
        assert!(preset_names().any(|n| n == name));
        match Variant::load(&format!("{name}+open")) {
            Err(VariantError::Contradiction { key, .. }) => assert_eq!(key, "info.open", "{name}"),
            other => panic!("{name}+open: {:?}", other.map(|v| v.name)),
        }
    }
}

#[test]
fn o1_rule_file_info_open_key_and_its_errors() {
    let dir = std::env::temp_dir().join(format!("anqi-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p.to_string_lossy().into_owned()
    };
    let good = file("open.toml", "inherits = \"jieqi\"\nname = \"my-open-jieqi\"\n[info]\nopen = true\n");
    let v = variant(&good);
    assert!(v.open);
    let s = State::start(v, None).expect("start");
    let t = State::start(variant("jieqi+open"), None).expect("start");
    assert_eq!(perft(&s, 2), perft(&t, 2));
    // A file inheriting an open twin is open; `+open` on a file works too.
    let inherit = file("inherit.toml", "inherits = \"surprise+open\"\n[surprise]\nflip_rights = 2\n");
    assert!(variant(&inherit).open);
    let plain = file("plain.toml", "inherits = \"fanqi-3\"\n");
    assert!(variant(&format!("{plain}+open")).open);
    let bad_value = file("bad-value.toml", "inherits = \"jieqi\"\n[info]\nopen = \"yes\"\n");
    match Variant::load(&bad_value) {
        Err(VariantError::BadValue { key, source_name, .. }) => {
            assert_eq!(key, "info.open");
            assert!(source_name.ends_with("bad-value.toml"));
        }
        other => panic!("{:?}", other.map(|v| v.name)),
    }
    let bad_key = file("bad-key.toml", "inherits = \"jieqi\"\n[info]\nshown = true\n");
    assert!(matches!(Variant::load(&bad_key), Err(VariantError::UnknownKey { key, .. }) if key == "info.shown"));
    let nothing = file("nothing.toml", "inherits = \"king\"\n[info]\nopen = true\n");
    assert!(matches!(Variant::load(&nothing), Err(VariantError::Contradiction { key, .. }) if key == "info.open"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn o2_open_view_shows_everything_and_hidden_view_does_not() {
    // Two Surprise states that differ only in Black's layout: Red cannot tell them apart in the
    // hidden game, and can in the open twin.
    for (name, tells) in [("surprise", false), ("surprise+open", true)] {
        let v = variant(name);
        let a = State::start(v, Some(("C3", "A"))).expect("start");
        let b = State::start(v, Some(("C3", "B"))).expect("start");
        let (va, vb) = (View::new(&a, Color::Red), View::new(&b, Color::Red));
        assert_eq!(va.infoset_key() != vb.infoset_key(), tells, "{name}");
        if tells {
            assert_eq!(va.fen(), format!("{} view=w", vfen::write(&a)));
            assert_eq!(va.surprise_assignments(), 1);
            // The only determinization is the true state.
            let d = va.sample(&mut Pcg64Mcg::seed_from_u64(3));
            assert_eq!(vfen::write(&d), vfen::write(&a));
            assert_eq!(d.hash(), a.hash());
            // The view FEN reads back to the same view.
            let back = View::from_fen(v, va.fen()).expect("view fen");
            assert_eq!(back.fen(), va.fen());
        } else {
            assert!(va.fen().contains("=?"));
        }
    }
}

#[test]
fn o2_open_capture_of_a_face_down_piece_is_seen_by_both() {
    // Jieqi: the face-down piece on b2 moves as a cannon and takes the face-down piece on b9
    // over the screen on b7 (§F6: in the hidden game only the capturer learns its identity).
    for name in ["jieqi", "jieqi+open"] {
        let v = variant(name);
        let start = State::start(variant("jieqi"), None).expect("start");
        let deal = Deal::draw(&start, &mut Pcg64Mcg::seed_from_u64(11));
        let s0 = if v.open { open_state(v, &start, &deal).expect("open") } else { start };
        let mut g = VariantGameState::unbounded(s0);
        // b2b9: the cannon on b2 takes the face-down horse-point piece on b9 over b7.
        let a = Action::Move { from: sq("b2"), to: sq("b9"), turn_down: false, marker: false };
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        g.play(a, |outs| deal.resolve(a, outs, &mut rng));
        let known = g.state().captured_known()[0];
        assert_eq!(known, if v.open { [true, true] } else { [true, false] }, "{name}");
        let black = View::new(g.state(), Color::Black);
        assert_eq!(black.fen().contains("unseen="), !v.open, "{name}: {}", black.fen());
    }
}

fn sq(name: &str) -> engine::geometry::Square {
    engine::geometry::Square::parse(name).expect("square")
}

#[test]
fn o3_open_twin_fen_needs_the_whole_deal() {
    let v = variant("jieqi+open");
    let hidden_start = vfen::write(&State::start(variant("jieqi"), None).expect("start"));
    match vfen::parse(v, &hidden_start) {
        Err(e) => assert!(e.to_string().contains("determined"), "{e}"),
        Ok(_) => panic!("an open twin accepted an undetermined pool"),
    }
    // Its own start FEN (the identity deal) reads back.
    let s = State::start(v, None).expect("start");
    let again = vfen::parse(v, &vfen::write(&s)).expect("reads back");
    assert_eq!(vfen::write(&again), vfen::write(&s));
    assert!(!s.is_chance() && s.pool(Color::Red).iter().all(|&n| n == 0));
}

#[test]
fn o3_open_state_rejects_a_wrong_twin_or_a_short_deal() {
    let start = State::start(variant("jieqi"), None).expect("start");
    let deal = Deal::draw(&start, &mut Pcg64Mcg::seed_from_u64(5));
    assert!(open_state(variant("fanqi-10+open"), &start, &deal).is_err(), "fanqi-10 is not jieqi");
    assert!(open_state(variant("jieqi"), &start, &deal).is_err(), "not open");
    assert!(open_state(variant("jieqi+open"), &start, &Deal::none()).is_err(), "no deal");
    assert!(open_state(variant("jieqi+open"), &start, &deal).is_ok());
}

/// The hidden game's state with the deal written into the FEN's sixth field (RULES.md §N2): an
/// independent route to the physical position of the deal.
fn dealt_by_fen(hidden: &State, deal: &Deal) -> State {
    let mut fields: Vec<String> = vfen::write(hidden).split_whitespace().map(str::to_string).collect();
    let mut entries = Vec::new();
    for c in Color::ALL {
        for s in hidden.face_down() & hidden.position().by_color(c) {
            let r = hidden.identity(s).or(deal.role(s)).expect("dealt");
            entries.push(format!("{s}={}", engine::Piece::new(c, r).char()));
        }
    }
    fields[2] = "-".into();
    fields.truncate(5);
    fields.push(entries.join(","));
    vfen::parse(hidden.variant(), &fields.join(" ")).expect("dealt FEN")
}

#[test]
fn o5_perft_open_twin_equals_hidden_game_from_the_same_full_state() {
    for name in HIDDEN {
        let h = variant(name);
        let o = variant(&format!("{name}+open"));
        let layouts = Some(("C3", "B"));
        let hs = State::start(h, layouts).expect("start");
        let os = State::start(o, layouts).expect("start");
        // §P from the full state: owner's choices and layouts are in the state, so the counts
        // are equal; in the random modes the open start is the identity deal, which is §P3's
        // identity perft of the hidden game.
        let mut ident = hs.clone();
        ident.make_identity();
        for d in 1..=3 {
            assert_eq!(perft(&os, d), perft(&ident, d), "{name} depth {d}");
        }
        // A random deal: the open state from `open_state` against the hidden game's FEN with
        // the deal written in.
        let deal = Deal::draw(&hs, &mut Pcg64Mcg::seed_from_u64(42));
        let p = pair(o, hs.clone(), deal.clone()).expect("pair");
        let by_fen = if deal.is_empty() { hs.clone() } else { dealt_by_fen(&hs, &deal) };
        for d in 1..=3 {
            assert_eq!(perft(&p.open, d), perft(&by_fen, d), "{name} dealt, depth {d}");
        }
    }
}

#[test]
fn o5_perft_jieqi_open_start_is_standard_xiangqi_to_depth_4() {
    // §P3: the identity deal moves as standard xiangqi until a revealed advisor or elephant
    // leaves its region (depth 5).
    let s = State::start(variant("jieqi+open"), None).expect("start");
    let counts = [44, 1920, 79666, 3290240];
    for (d, want) in counts.iter().enumerate().take(3) {
        assert_eq!(perft(&s, d as u32 + 1), *want);
    }
    let mut core = engine::notation::fen::parse(engine::notation::fen::START).expect("start");
    assert_eq!(engine::perft::perft(&mut core, 3), counts[2]);
}

#[test]
fn o5_perft_open_twin_has_no_chance_nodes_where_the_hidden_game_has() {
    // Hand count at depth 1 (RULES.md §P2): the hidden Jieqi start multiplies each reveal by the
    // six pool types; its open twin has one outcome per move.
    let h = State::start(variant("jieqi"), None).expect("start");
    let o = State::start(variant("jieqi+open"), None).expect("start");
    assert_eq!(perft(&h, 1), 41 * 6 + 2 * 36 + 1);
    assert_eq!(perft(&o, 1), 41 + 2 + 1);
}

#[test]
fn o4_pair_same_seed_same_deal_and_same_physical_game() {
    // Hidden and open play the same actions; the hidden game's reveals are resolved by the
    // deal; at every step the legal actions agree and the physical positions agree.
    for name in HIDDEN {
        let h = variant(name);
        let o = variant(&format!("{name}+open"));
        let start = State::start(h, Some(("C5", "A"))).expect("start");
        let deal = Deal::draw(&start, &mut Pcg64Mcg::seed_from_u64(9));
        assert_eq!(deal, Deal::draw(&start, &mut Pcg64Mcg::seed_from_u64(9)), "{name}: a seed is one deal");
        let p = pair(o, start, deal).expect("pair");
        let (mut hg, mut og) = (VariantGameState::unbounded(p.hidden.clone()), VariantGameState::unbounded(p.open.clone()));
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut chance = Pcg64Mcg::seed_from_u64(8);
        for ply in 0..80 {
            if hg.outcome().is_some() {
                assert!(og.outcome().is_some(), "{name} ply {ply}");
                break;
            }
            for sqr in og.state().face_down() {
                assert_eq!(og.state().identity(sqr), hg.state().identity(sqr).or(p.deal.role(sqr)), "{name} ply {ply}: identity on {sqr}");
            }
            let mut la = hg.state().legal_actions();
            let mut lb = og.state().legal_actions();
            la.sort_by_key(|a| format!("{a:?}"));
            lb.sort_by_key(|a| format!("{a:?}"));
            assert_eq!(la, lb, "{name} ply {ply}: legal actions differ");
            let acts: Vec<Action> = la.into_iter().filter(|a| !matches!(a, Action::Demand | Action::Answer(_))).collect();
            let a = acts[rng.random_range(0..acts.len())];
            hg.play(a, |outs| p.deal.outcome(a, outs).expect("the deal fits"));
            let drawn = og.play(a, |outs| engine::variant::game::draw_outcome(outs, &mut chance));
            assert!(drawn.is_none(), "{name}: the open twin drew chance");
            assert_eq!(board(hg.state()), board(og.state()), "{name} ply {ply}");
            // The open twin's views are the whole state.
            for c in Color::ALL {
                let f = View::new(og.state(), c).fen().to_string();
                assert!(f.starts_with(&format!("{} view={}", vfen::write(og.state()), if c == Color::Red { 'w' } else { 'b' })), "{name}: {f}");
                assert!(!f.contains('?') && !f.contains("unseen="), "{name}: {f}");
            }
        }
    }
}

/// The board as both games show it (pieces by the type they move as, face-down marks) and the
/// side to move; face-down identities are compared separately.
fn board(s: &State) -> Vec<String> {
    let pos = s.position();
    let mut out = Vec::new();
    for sq in pos.occupied() {
        let p = pos.piece_at(sq).expect("piece");
        out.push(format!("{sq} {} {}", p.char(), s.face_down().contains(sq)));
    }
    out.push(format!("{:?}", pos.turn()));
    out
}
