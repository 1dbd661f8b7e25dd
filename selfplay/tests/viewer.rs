//! Board pictures, viewer frames and the play page's observations: what each viewer is shown,
//! and that two full states a viewer cannot tell apart give it byte-identical data.

use engine::variant::game::VariantGame;
use engine::variant::{fen as vfen, notation, State, Variant};
use engine::{Color, Role};
use selfplay::serve::session::{observe, Meta};
use selfplay::tournament::game::{Outcome, Setup};
use selfplay::tournament::pgn::{GameKey, Record};
use selfplay::viewer::{frames, more_picture, png, svg, variant_picture, Viewpoint};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).expect("preset")))
}

/// Plays record strings (reveal letters honoured) from `s`.
fn play(s: State, moves: &[&str]) -> VariantGame {
    let mut g = VariantGame::new(s);
    for m in moves {
        let (a, named) = notation::parse_record(g.state(), m).expect("legal move");
        g.play(a, |outs| named.unwrap_or(outs[0].0));
    }
    g
}

fn meta() -> Meta<'static> {
    Meta { variant: "v", bot: "greedy", result: None, saved: None }
}

#[test]
fn jieqi_start_hides_every_identity_from_both_sides_and_the_svg_names_the_squares() {
    let v = variant("jieqi");
    let s = State::start(v, None).expect("start");
    for vp in [Viewpoint::Red, Viewpoint::Black, Viewpoint::Full] {
        let p = variant_picture::picture(&s, vp, variant_picture::Options::default());
        assert_eq!(p.board_field(), vfen::write(&s).split(' ').next().expect("board"), "{vp:?}");
        assert_eq!(p.tokens.iter().filter(|t| t.down).count(), 30);
        assert!(p.tokens.iter().filter(|t| t.down).all(|t| t.glyph == variant_picture::UNKNOWN_GLYPH));
        let doc = svg::document(&p, None).to_string();
        assert!(doc.contains("data-sq=\"e0\"") && doc.contains("data-glyph=\"帅\"") && doc.contains("data-glyph=\"将\""), "{doc}");
        assert_eq!(doc.matches("class=\"piece\"").count(), 32);
    }
}

#[test]
fn surprise_views_show_own_backs_and_hide_the_opponents_with_beliefs() {
    let v = variant("surprise");
    let s = State::start(v, Some(("A", "B"))).expect("start");
    let opts = variant_picture::Options { beliefs: true, ..Default::default() };
    let red = variant_picture::picture(&s, Viewpoint::Red, opts);
    let red_discs: Vec<_> = red.tokens.iter().filter(|t| t.back.is_some()).collect();
    assert_eq!(red_discs.len(), 12);
    for t in red_discs {
        match t.color {
            'r' => assert!(t.back != Some('?') && t.beliefs.is_empty()),
            _ => {
                assert_eq!(t.back, Some('?'));
                let total: f32 = t.beliefs.iter().map(|b| b.1).sum();
                assert!((total - 1.0).abs() < 1e-4 && t.beliefs.len() >= 2, "{:?}", t.beliefs);
            }
        }
    }
    let full = variant_picture::picture(&s, Viewpoint::Full, opts);
    assert!(full.tokens.iter().filter_map(|t| t.back).all(|b| b != '?'));
    assert_eq!(variant_picture::picture(&s, Viewpoint::Black, opts).viewpoint, Viewpoint::Black);
}

#[test]
fn more_boards_of_every_size_are_drawn_from_their_fens() {
    for (name, files, ranks) in [("missile", 11, 10), ("skill", 9, 11), ("camel-7", 11, 10)] {
        struct Pic;
        impl engine::more::presets::WithGame for Pic {
            type Output = selfplay::viewer::Picture;
            fn run<G: engine::more::presets::Playable>(self, g: G) -> Self::Output {
                more_picture::picture(g.geometry(), &g.full_fen(), Color::Red, Viewpoint::Full, None).expect("picture")
            }
        }
        let p = engine::more::presets::with_game(name, None, Pic).expect("preset");
        assert_eq!((p.files, p.ranks), (files, ranks), "{name}");
        assert!(p.tokens.len() >= 32, "{name}");
        assert!(!svg::document(&p, None).to_string().is_empty());
    }
    let geo = engine::more::Geometry::missile();
    let e = more_picture::picture(&geo, "mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRZ w", Color::Red, Viewpoint::Full, None);
    assert!(matches!(e, Err(more_picture::MorePictureError::Board { rank: 10, .. })), "{e:?}");
    let e = more_picture::picture(&geo, "11/11/11/11/11/11/11/11/11/11 w", Color::Red, Viewpoint::Full, Some("z9z9"));
    assert!(matches!(e, Err(more_picture::MorePictureError::Last { .. })), "{e:?}");
}

#[test]
fn png_has_glyphs_or_names_the_missing_font() {
    let v = variant("xiangqi");
    let p = variant_picture::picture(&State::start(v, None).expect("start"), Viewpoint::Full, variant_picture::Options::default());
    let text = svg::document(&p, Some("start")).to_string();
    match png::png(&text, 1.0) {
        Ok(bytes) => {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            assert!(bytes.len() > 20_000, "{} bytes: glyphs drawn", bytes.len());
        }
        Err(e @ png::PngError::NoCjkFont { .. }) => assert!(e.to_string().contains("fonts-wqy-zenhei")),
        Err(e) => panic!("{e}"),
    }
}

fn surprise_record(black_layout: &str, moves: &[&str]) -> Record {
    let v = variant("surprise");
    let s = State::start(v, Some(("A", black_layout))).expect("start");
    Record {
        event: "t".into(),
        fingerprint: "f".into(),
        key: GameKey { pairing: 0, pair: 0, game: 0 },
        variant: "surprise".into(),
        red: "a".into(),
        black: "b".into(),
        setup: Setup { fen: vfen::write(&s), seed: 1, label: "-".into() },
        moves: moves.iter().map(|m| m.to_string()).collect(),
        outcome: Outcome { winner: None, reason: "adjudication".into() },
        date: "2026.01.01".into(),
    }
}

#[test]
fn viewer_frames_of_red_are_identical_when_only_blacks_secret_layout_differs() {
    let moves = ["a3a4", "a6a5", "h2e2", "i6i5"];
    let one = frames::of_record(&surprise_record("B", &moves)).expect("frames");
    let two = frames::of_record(&surprise_record("C3", &moves)).expect("frames");
    let json = |g: &frames::GameFrames, k: usize| serde_json::to_string(&g.views[k]).expect("json");
    assert_eq!(json(&one, 0), json(&two, 0), "Red's frames must not depend on Black's layout");
    assert_ne!(json(&one, 1), json(&two, 1), "Black's own frames show its layout");
    assert_ne!(json(&one, 2), json(&two, 2), "the full view shows both");
    assert_eq!(one.views[0].pictures.len(), moves.len() + 1);
    assert_eq!(one.views[0].moves[2].chinese, "炮二平五");
}

#[test]
fn the_play_page_is_sent_the_same_bytes_for_two_surprise_states_red_cannot_tell_apart() {
    let v = variant("surprise");
    let moves = ["a3a4", "a6a5", "b0c2"];
    let starts = [State::start(v, Some(("C1", "B"))).expect("start"), State::start(v, Some(("C1", "C8"))).expect("start")];
    let games: Vec<VariantGame> = starts.iter().map(|s| play(s.clone(), &moves)).collect();
    let obs = |k: usize, c: Color| serde_json::to_string(&observe(&starts[k], &games[k], None, c, meta())).expect("json");
    assert_eq!(obs(0, Color::Red), obs(1, Color::Red));
    assert_ne!(obs(0, Color::Black), obs(1, Color::Black), "Black's own layout shows on its page");
}

#[test]
fn the_play_page_is_sent_the_same_bytes_whatever_identity_the_bots_capture_took() {
    // Jieqi: Black's face-down cannon takes Red's face-down piece on b0; under the default rules
    // only the capturer sees its identity (§F6). Two games that differ only in that identity.
    let v = variant("jieqi");
    let start = State::start(v, None).expect("start");
    let game = |captured: Role| {
        let mut g = VariantGame::new(start.clone());
        for (text, mover, cap) in [("a3a4", Some(Role::Soldier), None), ("b7b0", Some(Role::Cannon), Some(captured))] {
            let a = notation::parse_action(g.state(), text).expect("legal");
            g.play(a, |outs| {
                outs.iter().find(|(o, _)| o.mover == mover && o.captured == cap).map(|(o, _)| *o).expect("outcome available")
            });
        }
        g
    };
    let (one, two) = (game(Role::Horse), game(Role::Chariot));
    assert_ne!(one.plies()[1].text, two.plies()[1].text, "the full records differ");
    let obs = |g: &VariantGame| serde_json::to_string(&observe(&start, g, None, Color::Red, meta())).expect("json");
    assert_eq!(obs(&one), obs(&two), "Red's page must not learn what Black captured");
    let o = observe(&start, &one, None, Color::Red, meta());
    assert!(!o.legal.is_empty() && o.legal.iter().all(|m| m.from.is_some()));
    assert_eq!(o.moves.len(), 2);
}
