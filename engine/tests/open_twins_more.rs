//! Open twins of the RULES-more.md hidden presets (docs/open-twins.md §O6): same game tree,
//! same set-up drawn from a seed, views that show everything, and the option's errors.

use engine::game::PlayerId;
use engine::more::open::{split, twin_names};
use engine::more::presets::{perft, with_game, Playable, WithGame};
use engine::more::MoreError;
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const HIDDEN: [&str; 6] = ["camel-7-secret", "skill-secret", "missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down"];

/// Plays `n` uniformly random actions (set-up included) from the start and returns every
/// legal-action list, every action string and every seat's view FEN and infoset key.
struct Walk(u64, usize);
type Trace = Vec<(Vec<String>, [String; 2], [u64; 2], String)>;
impl WithGame for Walk {
    type Output = Trace;
    fn run<G: Playable>(self, mut g: G) -> Trace {
        let mut rng = Pcg64Mcg::seed_from_u64(self.0);
        let mut out = Vec::new();
        for _ in 0..self.1 {
            if g.is_terminal() {
                break;
            }
            let l = g.legal_actions();
            let strings = l.iter().map(|&a| g.action_string(a)).collect();
            let views = [g.view_fen(Color::Red), g.view_fen(Color::Black)];
            let keys = [g.infoset_key(PlayerId::FIRST), g.infoset_key(PlayerId::SECOND)];
            out.push((strings, views, keys, g.full_fen()));
            g.apply(l[rng.random_range(0..l.len())]);
        }
        out
    }
}

#[test]
fn o6_open_twin_has_the_hidden_games_legal_actions_and_shows_everything() {
    for name in HIDDEN {
        let hidden = with_game(name, None, Walk(5, 60)).expect(name);
        let open = with_game(&format!("{name}+open"), None, Walk(5, 60)).expect(name);
        assert_eq!(hidden.len(), open.len(), "{name}");
        let mut hid_somewhere = false;
        for (i, (h, o)) in hidden.iter().zip(&open).enumerate() {
            assert_eq!(h.0, o.0, "{name} ply {i}: legal actions differ");
            assert_eq!(h.3, o.3, "{name} ply {i}: full states differ");
            assert_eq!(o.1, [o.3.clone(), o.3.clone()], "{name} ply {i}: open views are the full FEN");
            assert_eq!(o.2[0], o.2[1], "{name} ply {i}: open keys are the same for both seats");
            hid_somewhere |= h.1[0] != h.3 || h.1[1] != h.3;
        }
        assert!(hid_somewhere, "{name}: the hidden game never hid anything in 60 plies");
    }
}

/// The infoset key of `seat` after `actions` (indices into the legal list) from the start.
struct KeyAfter(Vec<usize>, PlayerId);
impl WithGame for KeyAfter {
    type Output = (u64, String);
    fn run<G: Playable>(self, mut g: G) -> (u64, String) {
        for i in self.0 {
            let l = g.legal_actions();
            g.apply(l[i % l.len()]);
        }
        (g.infoset_key(self.1), g.sample_determinization(self.1, &mut Pcg64Mcg::seed_from_u64(1)).full_fen())
    }
}

#[test]
fn o6_open_twin_keys_tell_apart_what_the_hidden_game_hides() {
    // skill-secret: Red picks tile 1 or tile 2 first; Black cannot tell in the hidden game.
    for (name, tells) in [("skill-secret", false), ("skill-secret+open", true)] {
        let (a, _) = with_game(name, None, KeyAfter(vec![0], PlayerId::SECOND)).expect(name);
        let (b, det) = with_game(name, None, KeyAfter(vec![1], PlayerId::SECOND)).expect(name);
        assert_eq!(a != b, tells, "{name}");
        if tells {
            let (_, truth) = with_game(name, None, KeyAfter(vec![1], PlayerId::FIRST)).expect(name);
            assert_eq!(det, truth, "{name}: the only determinization is the state");
        }
    }
}

/// The set-up drawn from a seed (as tournaments draw it) and the FEN after it.
struct Setup(u64);
impl WithGame for Setup {
    type Output = String;
    fn run<G: Playable>(self, mut g: G) -> String {
        let mut rng = Pcg64Mcg::seed_from_u64(self.0);
        while g.in_setup() {
            let l = g.legal_actions();
            g.apply(l[rng.random_range(0..l.len())]);
        }
        g.full_fen()
    }
}

#[test]
fn o5_perft_more_twins_equal_the_hidden_games() {
    for name in HIDDEN {
        let twin = format!("{name}+open");
        // §P4 default start after set-up, depth 2.
        assert_eq!(perft(name, None, 2, false).expect(name).1, perft(&twin, None, 2, false).expect(name).1, "{name}");
        // A set-up drawn from one seed is the same in both, and so is its tree.
        let fen = with_game(name, None, Setup(17)).expect(name);
        assert_eq!(fen, with_game(&twin, None, Setup(17)).expect(name), "{name}: same seed, same set-up");
        let (h, o) = (perft(name, Some(&fen), 2, false).expect(name).1, perft(&twin, Some(&fen), 2, false).expect(name).1);
        assert!(h > 0);
        assert_eq!(h, o, "{name} after set-up");
    }
}

#[test]
fn o1_more_open_twins_listed_and_errors_name_info_open() {
    let names: Vec<String> = twin_names().into_iter().map(|(n, _)| n).collect();
    let want: Vec<String> = ["camel-7-secret", "skill-secret", "missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down"]
        .iter()
        .map(|n| format!("{n}+open"))
        .collect();
    assert_eq!(names, want);
    for plain in ["skill", "camel-5", "missile"] {
        match split(&format!("{plain}+open")) {
            Err(MoreError::RulesFile { key, .. }) => assert_eq!(key, "info.open", "{plain}"),
            other => panic!("{plain}+open: {other:?}"),
        }
    }
    let dir = std::env::temp_dir().join(format!("anqi-open-more-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = |n: &str, text: &str| {
        let p = dir.join(n);
        std::fs::write(&p, text).expect("write");
        p.to_string_lossy().into_owned()
    };
    let good = file("open.toml", "base = \"missile-hidden-5\"\n[info]\nopen = true\n");
    assert_eq!(split(&good).expect("splits"), Some((good.clone(), true)));
    let trace = with_game(&good, None, Walk(3, 4)).expect("plays");
    assert_eq!(trace[1].1[0], trace[1].3, "the file's twin shows everything");
    let bad = file("bad.toml", "base = \"missile-hidden-5\"\n[info]\nopen = 1\n");
    assert!(matches!(split(&bad), Err(MoreError::RulesFile { key, .. }) if key == "info.open"));
    let unknown = file("unknown.toml", "base = \"missile-hidden-5\"\n[info]\nshown = true\n");
    assert!(matches!(engine::more::MoreVariant::resolve(&unknown), Err(MoreError::RulesFile { key, .. }) if key == "info.shown"));
    let _ = std::fs::remove_dir_all(&dir);
}
