//! Board pictures, viewer frames and the play page's observations: what each viewer is shown,
//! and that two full states a viewer cannot tell apart give it byte-identical data.

use engine::any_game::{with_any_game, Start};
use engine::game::{Action as GameAction, Game};
use engine::more::presets::{Playable, WithGame};
use engine::seeded::{play_ply, ChanceSource};
use engine::variant::game_state::{decode_chance, VariantGameState};
use engine::variant::{fen as vfen, State, Variant};
use engine::{Color, Role};
use selfplay::serve::session::{observe, Meta, Observation};
use selfplay::viewer::seen::{move_seen, MoveText};
use selfplay::tournament::game::{Outcome, Setup};
use selfplay::tournament::pgn::{GameKey, Record};
use selfplay::viewer::{frames, picture_of, png, svg, Picture, PictureError, Viewpoint};
use engine::more::picture::from_fen;
use engine::picture::UNKNOWN_GLYPH;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

/// The picture of state `s` as `vp` sees it, drawn through the contract as every caller draws it.
fn pic(s: &State, vp: Viewpoint, beliefs: bool) -> Picture {
    picture_of(&VariantGameState::unbounded(s.clone()), vp, None, beliefs).expect("a variant always draws")
}

fn meta() -> Meta<'static> {
    Meta { variant: "v", bot: "greedy", result: None, saved: None }
}

#[test]
fn jieqi_start_hides_every_identity_from_both_sides_and_the_svg_names_the_squares() {
    let v = variant("jieqi");
    let s = State::start(v, None).expect("start");
    for vp in [Viewpoint::Red, Viewpoint::Black, Viewpoint::Full] {
        let p = pic(&s, vp, false);
        assert_eq!(p.board_field(), vfen::write(&s).split(' ').next().expect("board"), "{vp:?}");
        assert_eq!(p.tokens.iter().filter(|t| t.down).count(), 30);
        assert!(p.tokens.iter().filter(|t| t.down).all(|t| t.glyph == UNKNOWN_GLYPH));
        let doc = svg::document(&p, None).to_string();
        assert!(doc.contains("data-sq=\"e0\"") && doc.contains("data-glyph=\"帅\"") && doc.contains("data-glyph=\"将\""), "{doc}");
        assert_eq!(doc.matches("class=\"piece\"").count(), 32);
    }
}

#[test]
fn surprise_views_show_own_backs_and_hide_the_opponents_with_beliefs() {
    let v = variant("surprise");
    let s = State::start(v, Some(("A", "B"))).expect("start");
    let red = pic(&s, Viewpoint::Red, true);
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
    let full = pic(&s, Viewpoint::Full, true);
    assert!(full.tokens.iter().filter_map(|t| t.back).all(|b| b != '?'));
    assert_eq!(pic(&s, Viewpoint::Black, true).viewpoint, Viewpoint::Black);
}

#[test]
fn more_boards_of_every_size_are_drawn_from_their_fens() {
    for (name, files, ranks) in [("missile", 11, 10), ("skill", 9, 11), ("camel-7", 11, 10)] {
        struct Pic;
        impl engine::more::presets::WithGame for Pic {
            type Output = selfplay::viewer::Picture;
            fn run<G: engine::more::presets::Playable>(self, g: G) -> Self::Output {
                picture_of(&g, Viewpoint::Full, None, false).expect("picture")
            }
        }
        let p = engine::more::presets::with_game(name, None, Pic).expect("preset");
        assert_eq!((p.files, p.ranks), (files, ranks), "{name}");
        assert!(p.tokens.len() >= 32, "{name}");
        assert!(!svg::document(&p, None).to_string().is_empty());
    }
    let geo = engine::more::Geometry::missile();
    let e = from_fen(&geo, "mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRZ w", Color::Red, Viewpoint::Full, None, Default::default());
    assert!(matches!(e, Err(PictureError::Board { rank: 10, .. })), "{e:?}");
    let e = from_fen(&geo, "11/11/11/11/11/11/11/11/11/11 w", Color::Red, Viewpoint::Full, Some("z9z9"), Default::default());
    assert!(matches!(e, Err(PictureError::Last { .. })), "{e:?}");
}

/// RULES-more.md §1.2, §1.6: a skill game's tiles are drawn in their recesses (number and name),
/// not written as text; under the secret set-up (§1.5) the opponent's chosen tiles are `?`
/// without a name, and two set-ups the viewer cannot tell apart draw the same picture.
#[test]
fn skill_tiles_are_drawn_in_their_recesses_and_secret_ones_unnamed() {
    use engine::more::presets::{with_game, Playable, WithGame};
    use selfplay::viewer::picture_of;
    struct Pic(Viewpoint, Vec<usize>);
    impl WithGame for Pic {
        type Output = selfplay::viewer::Picture;
        fn run<G: Playable>(self, mut g: G) -> Self::Output {
            for i in self.1 {
                let legal = g.legal_actions();
                g.apply(legal[i]);
            }
            picture_of(&g, self.0, None, false).expect("picture")
        }
    }
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 1,2,3,4,5,6,7,8/1,2,3,4,5,6,7,8 - - 0 1";
    let p = with_game("skill", Some(start), Pic(Viewpoint::Red, vec![])).expect("skill");
    assert_eq!(p.marks.len(), 16);
    // Red's recesses d0 f0 d1 e1 f1 d2 e2 f2 (docs/notation.md §5.2): T6 is the sixth, on d2.
    let t6 = p.marks.iter().find(|m| m.color == 'r' && m.label == "T6").expect("red T6");
    assert_eq!((t6.file, t6.rank, t6.name.as_str()), (3, 2, "将可飞"));
    assert!(p.notes.iter().all(|n| !n.contains("1,2,3")), "the tiles field is drawn, not written: {:?}", p.notes);
    let svg_text = svg::document(&p, None).to_string();
    assert!(svg_text.contains("class=\"tile\"") && svg_text.contains("将可飞"), "tiles in the SVG");
    // Secret set-up: Red chooses two tiles; Black sees two unnamed marks, the same for two
    // different choices; Red sees its own named.
    let black_a = with_game("skill-secret", None, Pic(Viewpoint::Black, vec![0, 0])).expect("skill-secret");
    let black_b = with_game("skill-secret", None, Pic(Viewpoint::Black, vec![3, 5])).expect("skill-secret");
    assert_eq!(black_a, black_b, "one information set, one picture");
    assert_eq!(black_a.marks.iter().map(|m| (m.color, m.label.as_str(), m.name.as_str())).collect::<Vec<_>>(), [('r', "?", ""), ('r', "?", "")]);
    let red = with_game("skill-secret", None, Pic(Viewpoint::Red, vec![3, 5])).expect("skill-secret");
    assert!(red.marks.len() == 2 && red.marks.iter().all(|m| m.label.starts_with('T') && !m.name.is_empty()), "{:?}", red.marks);
    let full = with_game("skill-secret", None, Pic(Viewpoint::Full, vec![3, 5])).expect("skill-secret");
    assert_eq!(full.marks, red.marks);
    // The open twin (docs/open-twins.md §O6) hides nothing: Black sees Red's chosen tiles named.
    let open = with_game("skill-secret+open", None, Pic(Viewpoint::Black, vec![3, 5])).expect("skill-secret+open");
    assert_eq!(open.marks, red.marks, "an open twin's player sees every tile");
}

#[test]
fn png_has_glyphs_or_names_the_missing_font() {
    let v = variant("xiangqi");
    let p = pic(&State::start(v, None).expect("start"), Viewpoint::Full, false);
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

/// A served game for the play page's tests: the game at its start, then each record string
/// played with the chance outcome `pick` gives it (by mover's and captured identity), and the
/// moves as `human` saw them.
struct Served {
    game: VariantGameState,
    seen: Vec<MoveText>,
}

/// Chance outcomes chosen by the test: the outcome of each reveal, in order.
struct Pick(Vec<(Option<Role>, Option<Role>)>);

impl ChanceSource<VariantGameState> for Pick {
    fn outcome(&mut self, g: &VariantGameState) -> GameAction {
        let (mover, captured) = self.0.remove(0);
        let outs = g.chance_outcomes();
        outs.iter().map(|&(o, _)| o).find(|&o| decode_chance(o).is_some_and(|c| c.mover == mover && c.captured == captured)).expect("outcome available")
    }
}

fn serve(start: State, moves: &[&str], reveals: Vec<(Option<Role>, Option<Role>)>, human: Color) -> Served {
    let mut game = VariantGameState::new(start);
    let mut pick = Pick(reveals);
    let mut seen = Vec::new();
    for m in moves {
        let before = game.clone();
        let a = game.parse_entry(m).expect("legal move");
        let (entry, chance) = play_ply(&mut game, a, &mut pick);
        seen.push(move_seen(&before, a, chance, &entry, Viewpoint::from(human)));
    }
    Served { game, seen }
}

fn observation(s: &Served, human: Color) -> Observation {
    observe(&s.game, false, &s.seen, None, human, meta()).expect("observation")
}

#[test]
fn the_play_page_is_sent_the_same_bytes_for_two_surprise_states_red_cannot_tell_apart() {
    let v = variant("surprise");
    let moves = ["a3a4", "a6a5", "b0c2"];
    let starts = [State::start(v, Some(("C1", "B"))).expect("start"), State::start(v, Some(("C1", "C8"))).expect("start")];
    let obs = |k: usize, c: Color| serde_json::to_string(&observation(&serve(starts[k].clone(), &moves, Vec::new(), c), c)).expect("json");
    assert_eq!(obs(0, Color::Red), obs(1, Color::Red));
    assert_ne!(obs(0, Color::Black), obs(1, Color::Black), "Black's own layout shows on its page");
}

#[test]
fn the_play_page_is_sent_the_same_bytes_whatever_identity_the_bots_capture_took() {
    // Jieqi: Black's face-down cannon takes Red's face-down piece on b0; under the default rules
    // only the capturer sees its identity (§F6). Two games that differ only in that identity.
    let v = variant("jieqi");
    let start = State::start(v, None).expect("start");
    let game = |captured: Role| serve(start.clone(), &["a3a4", "b7b0"], vec![(Some(Role::Soldier), None), (Some(Role::Cannon), Some(captured))], Color::Red);
    let (one, two) = (game(Role::Horse), game(Role::Chariot));
    let full = |s: &Served| s.game.state().clone();
    assert_ne!(vfen::write(&full(&one)), vfen::write(&full(&two)), "the full states differ");
    let obs = |s: &Served| serde_json::to_string(&observation(s, Color::Red)).expect("json");
    assert_eq!(obs(&one), obs(&two), "Red's page must not learn what Black captured");
    let o = observation(&one, Color::Red);
    assert!(!o.legal.is_empty() && o.legal.iter().all(|m| m.from.is_some()));
    assert_eq!(o.moves.len(), 2);
}

#[test]
fn the_play_page_hides_a_preset_s_secret_placements() {
    // Missile xiangqi with the hidden set-up (RULES-more.md §3.8): Red places all its pieces,
    // then Black places its first one in secret. Red's page is sent the same bytes wherever
    // Black placed it; Red's own placements are listed to Red as the set-up choices.
    struct Obs(usize, Color);
    impl WithGame for Obs {
        type Output = Observation;
        fn run<G: Playable>(self, mut g: G) -> Observation {
            let red = engine::game::Turn::Player(engine::game::PlayerId::FIRST);
            while g.turn() == red && g.in_setup() {
                g.apply(g.legal_actions()[0]);
            }
            assert!(g.in_setup(), "Black places after Red");
            g.apply(g.legal_actions()[self.0]);
            observe(&g, g.in_setup(), &[], None, self.1, meta()).expect("observation")
        }
    }
    let obs = |k: usize, c: Color| with_any_game("missile-hidden-5", Start::Setup, Obs(k, c)).expect("missile");
    let (one, two) = (obs(0, Color::Red), obs(1, Color::Red));
    assert_eq!(serde_json::to_string(&one).expect("json"), serde_json::to_string(&two).expect("json"), "Red's page must not learn where Black placed");
    let json = |o: &Observation| serde_json::to_string(o).expect("json");
    assert_ne!(json(&obs(0, Color::Black)), json(&obs(1, Color::Black)), "Black's page shows its own placement");
    assert_eq!(one.status, "black sets up in secret");
    assert!(one.legal.is_empty());
    struct First;
    impl WithGame for First {
        type Output = Observation;
        fn run<G: Playable>(self, g: G) -> Observation {
            observe(&g, g.in_setup(), &[], None, Color::Red, meta()).expect("observation")
        }
    }
    let first = with_any_game("missile-hidden-5", Start::Setup, First).expect("missile");
    assert_eq!(first.status, "set-up: choose");
    assert!(first.legal.iter().any(|m| m.text == "R@a1") && first.legal.iter().all(|m| m.from.is_none()), "{:?}", first.legal);
}
