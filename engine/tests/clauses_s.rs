//! Rule-clause tests for Surprise Xiangqi, RULES.md §S1-§S11: one test (at least) per clause,
//! each named after it. Positions are §N3 FENs; expected counts are reasoned by hand in comments.

use engine::outcome::{EndReason, Outcome};
use engine::variant::game::VariantEnd;
use engine::variant::game_state::VariantGameState;
use engine::variant::perft::perft;
use engine::variant::state::{Agreement, Answer};
use engine::variant::view::View;
use engine::variant::{fen, notation, Action, State, Variant};
use engine::{Color, Role, Square};
use std::collections::HashSet;

const LAYOUTS: [&str; 10] = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A variant from TOML text written to a temporary file (each test uses its own `tag`).
fn custom(tag: &str, toml: &str) -> &'static Variant {
    let path = std::env::temp_dir().join(format!("anqi-clauses-s-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, toml).expect("write temp variant");
    let v = Variant::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let _ = std::fs::remove_file(&path);
    Box::leak(Box::new(v))
}

fn state(v: &'static Variant, text: &str) -> State {
    fen::parse(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

fn mv(text: &str) -> Action {
    Action::Move { from: sq(&text[..2]), to: sq(&text[2..4]), turn_down: false, marker: false }
}

fn flip(at: &str) -> Action {
    Action::Flip { at: sq(at) }
}

/// The points of the legal flips, sorted.
fn flips(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Flip { at } => Some(at.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

fn moves_from(s: &State, from: &str) -> Vec<String> {
    let mut v: Vec<String> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { from: f, to, .. } if f == sq(from) => Some(format!("{f}{to}")),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Start array with Red's h0 horse gone; both layouts A (Red: a0=C, b0=R, i0=C, b2=N, h2=N).
const RED_LOST_HORSE: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1 \
     a0=C,b0=R,i0=C,b2=N,h2=N,a9=c,b9=r,h9=r,i9=c,b7=n,h7=n 3:0/3:0";

/// Start array with Red's i0 chariot gone; both layouts A (Red: a0=C, b0=R, h0=R, b2=N, h2=N).
fn red_lost_chariot(rights: &str, h0: &str) -> String {
    format!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1 \
         a0=C,b0=R,h0={h0},b2=N,h2=N,b7=n,h7=n,a9=c,b9=r,h9=r,i9=c {rights}"
    )
}

#[test]
fn s1_six_discs_per_side_two_of_each_pair() {
    // Every layout gives each side two chariot|horse, two chariot|cannon and two horse|cannon
    // discs; no other piece has a back face.
    let v = variant("surprise");
    for name in LAYOUTS {
        let s = State::start(v, Some((name, name))).expect(name);
        for c in Color::ALL {
            let mut pairs: Vec<(Role, Role)> = Vec::new();
            for at in s.position().by_color(c) {
                let visible = s.position().piece_at(at).expect("piece").role;
                match s.back(at) {
                    Some(b) => {
                        assert!(matches!(visible, Role::Chariot | Role::Horse | Role::Cannon), "{name} {at}");
                        assert_ne!(visible, b, "{name} {at}: a disc's faces differ");
                        pairs.push(if visible.index() < b.index() { (visible, b) } else { (b, visible) });
                    }
                    None => assert!(!matches!(visible, Role::Chariot | Role::Horse | Role::Cannon), "{name} {at}"),
                }
            }
            pairs.sort_by_key(|(a, b)| (a.index(), b.index()));
            let mut want = vec![
                (Role::Horse, Role::Chariot),
                (Role::Horse, Role::Chariot),
                (Role::Chariot, Role::Cannon),
                (Role::Chariot, Role::Cannon),
                (Role::Horse, Role::Cannon),
                (Role::Horse, Role::Cannon),
            ];
            want = want.into_iter().map(|(a, b)| if a.index() < b.index() { (a, b) } else { (b, a) }).collect();
            want.sort_by_key(|(a, b)| (a.index(), b.index()));
            assert_eq!(pairs, want, "{name} {c}");
        }
    }
}

#[test]
fn s2_ten_layouts_distinct() {
    use Role::*;
    let v = variant("surprise");
    let discs = ["a0", "i0", "b0", "h0", "b2", "h2"];
    let visible = [Chariot, Chariot, Horse, Horse, Cannon, Cannon];
    let backs_of = |s: &State| -> Vec<Role> { discs.iter().map(|d| s.back(sq(d)).expect("disc")).collect() };
    let mut named = HashSet::new();
    for name in LAYOUTS {
        let s = State::start(v, Some((name, "A"))).expect(name);
        assert!(named.insert(backs_of(&s)), "layout {name} repeats another");
    }
    assert_eq!(named.len(), 10);
    // Every assignment of hidden faces (each disc hides one of the two other types, 2^6 = 64)
    // that shows R,R,N,N,C,C over two R|N, two R|C and two N|C discs: with a = chariots hiding a
    // horse, the pair counts force horses hiding a chariot = 2 - a and cannons hiding a chariot =
    // a, so a = 0 (layout A), a = 2 (layout B), or a = 1 with 2x2x2 = 8 left/right choices: 10.
    let mut all = HashSet::new();
    for bits in 0u32..64 {
        let mut backs = Vec::new();
        for (i, vis) in visible.iter().enumerate() {
            let others: Vec<Role> = [Chariot, Horse, Cannon].into_iter().filter(|r| r != vis).collect();
            backs.push(others[(bits >> i & 1) as usize]);
        }
        let count = |x: Role, y: Role| {
            visible.iter().zip(&backs).filter(|(a, b)| (**a == x && **b == y) || (**a == y && **b == x)).count()
        };
        if count(Chariot, Horse) == 2 && count(Chariot, Cannon) == 2 && count(Horse, Cannon) == 2 {
            all.insert(backs);
        }
    }
    assert_eq!(all, named, "the named layouts are exactly the valid hidden layouts");
    // Any other name is refused, naming §S2.
    for bad in ["C0", "C9", "D", "", "c1", "A1"] {
        let err = State::start(v, Some((bad, "A"))).err().unwrap_or_else(|| panic!("{bad:?} accepted"));
        assert!(err.to_string().contains("§S2"), "{bad}: {err}");
    }
}

#[test]
fn s2_layout_c_naming() {
    use Role::*;
    let v = variant("surprise");
    // C(1 + 4x + 2y + z): x = 1 if the a-file chariot hides a cannon, y = 1 if the b-file horse
    // hides a cannon, z = 1 if the b-file cannon hides a horse; the i/h-file piece hides the other.
    for k in 1..=8u32 {
        let (x, y, z) = ((k - 1) >> 2 & 1, (k - 1) >> 1 & 1, (k - 1) & 1);
        let s = State::start(v, Some((&format!("C{k}"), &format!("C{k}")))).expect("layout");
        for (c, r0, r2) in [(Color::Red, 0, 2), (Color::Black, 9, 7)] {
            let at = |f: char, r: u8| sq(&format!("{f}{r}"));
            let (ca, ci) = if x == 0 { (Horse, Cannon) } else { (Cannon, Horse) };
            let (nb, nh) = if y == 0 { (Chariot, Cannon) } else { (Cannon, Chariot) };
            let (cb, ch) = if z == 0 { (Chariot, Horse) } else { (Horse, Chariot) };
            assert_eq!(s.back(at('a', r0)), Some(ca), "C{k} {c} a-chariot");
            assert_eq!(s.back(at('i', r0)), Some(ci), "C{k} {c} i-chariot");
            assert_eq!(s.back(at('b', r0)), Some(nb), "C{k} {c} b-horse");
            assert_eq!(s.back(at('h', r0)), Some(nh), "C{k} {c} h-horse");
            assert_eq!(s.back(at('b', r2)), Some(cb), "C{k} {c} b-cannon");
            assert_eq!(s.back(at('h', r2)), Some(ch), "C{k} {c} h-cannon");
        }
    }
    // The two ends spelled out (RULES.md §S2): C1 = a-chariot hides horse, b-horse hides chariot,
    // b-cannon hides chariot; C8 = a-chariot hides cannon, b-horse hides cannon, b-cannon hides horse.
    let s = State::start(v, Some(("C1", "C8"))).expect("layouts");
    assert_eq!(
        fen::write(&s),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
         a0=N,b0=R,h0=C,i0=C,b2=R,h2=N,b7=n,h7=r,a9=c,b9=c,h9=r,i9=n 3:0/3:0"
    );
}

#[test]
fn s3_moves_by_visible_face() {
    let v = variant("surprise");
    // At the start every side has two of each type, so no flip is legal (§S6) and the moves are
    // the 44 of standard xiangqi, whatever the layouts.
    let s = State::start(v, Some(("C3", "B"))).expect("start");
    assert_eq!(s.legal_actions().len(), 44);
    // The b0 disc shows a horse (hiding a cannon in C3, y = 1): it moves as a horse, a2 and c2
    // only, not as the cannon underneath.
    assert_eq!(s.back(sq("b0")), Some(Role::Cannon));
    assert_eq!(moves_from(&s, "b0"), ["b0a2", "b0c2"]);
    // The i0 chariot (C3, x = 0: the i-file chariot hides a cannon) moves as a chariot: i1, i2.
    assert_eq!(moves_from(&s, "i0"), ["i0i1", "i0i2"]);
}

#[test]
fn s4_flip_is_whole_move_and_face_known() {
    let v = variant("surprise");
    let s = state(v, RED_LOST_HORSE);
    // Red has one horse: the discs hiding horses (cannons b2, h2) may flip; chariot and cannon
    // reveals are barred by the two-of-a-type limit. Moves: the standard 44 less the h0 horse's 2
    // plus i0-h0 and h2-h0 = 44; actions 44 + 2 flips = 46.
    assert_eq!(flips(&s), ["b2", "h2"]);
    assert_eq!(s.legal_actions().len(), 46);
    assert_eq!(notation::action_string(&s, flip("b2")), "b2b2N");
    let t = s.child(flip("b2"));
    // A whole move: Black to move, the halfmove clock advances, one right spent; the cannon face
    // is now underneath and known to both (`*`).
    assert_eq!(
        fen::write(&t),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1N5C1/9/RNBAKAB1R b - - 1 1 \
         a0=C,b0=R,i0=C,b2=C*,h2=N,b7=n,h7=n,a9=c,b9=r,h9=r,i9=c 2:0/3:0"
    );
    assert!(t.back_seen().contains(sq("b2")));
    // After a Black move the new horse moves as a horse: b2 to a4, c4, d1, d3 (a0 and c0 are own
    // pieces), never as a cannon.
    let u = t.child(mv("a6a5"));
    assert_eq!(moves_from(&u, "b2"), ["b2a4", "b2c4", "b2d1", "b2d3"]);
    // Red now has one cannon: the three discs hiding cannons may flip (b2 again, §S6a default);
    // h2 (hides a horse) may not, Red having two horses again.
    assert_eq!(flips(&u), ["a0", "b2", "i0"]);
}

#[test]
fn s5_chariot_reveal_costs_two_and_once() {
    let v = variant("surprise");
    // Red lost a chariot; its horses b0, h0 hide chariots: both may flip (cost 2, 3 rights).
    let s = state(v, &red_lost_chariot("3:0/3:0", "R"));
    assert_eq!(flips(&s), ["b0", "h0"]);
    let t = s.child(flip("h0"));
    assert_eq!(t.flip_rights(Color::Red), (1, 1));
    assert!(fen::write(&t).ends_with(" a0=C,b0=R,h0=N*,b2=N,h2=N,b7=n,h7=n,a9=c,b9=r,h9=r,i9=c 1:1/3:0"), "{}", fen::write(&t));
    // After a Black move: Red has two chariots, one horse, two cannons and 1 right: h0 (hides the
    // horse) and b2, h2 (hide horses) may flip; b0 hides a chariot (limit, rights, count all bar it).
    let u = t.child(mv("a6a5"));
    assert_eq!(flips(&u), ["b2", "h0", "h2"]);

    // Once per game: 3 rights left but a chariot already revealed.
    let s = state(v, &red_lost_chariot("3:1/3:0", "R"));
    assert!(flips(&s).is_empty());
    assert!(s.why_illegal(flip("b0")).contains("once"), "{}", s.why_illegal(flip("b0")));
    // Costs 2: with 1 right left it is illegal; with 2 it is legal and leaves 0.
    let s = state(v, &red_lost_chariot("1:0/3:0", "R"));
    assert!(flips(&s).is_empty());
    assert!(s.why_illegal(flip("b0")).contains("2 flip right"), "{}", s.why_illegal(flip("b0")));
    let s = state(v, &red_lost_chariot("2:0/3:0", "R"));
    assert_eq!(flips(&s), ["b0", "h0"]);
    assert_eq!(s.child(flip("b0")).flip_rights(Color::Red), (0, 1));
    // A chariot face seen before (h0 shows a horse, its chariot back marked `*`) is still a
    // chariot reveal: barred once one was made, and it costs 2 and counts when allowed.
    let s = state(v, &red_lost_chariot("3:1/3:0", "R*"));
    assert!(flips(&s).is_empty());
    let s = state(v, &red_lost_chariot("3:0/3:0", "R*"));
    assert_eq!(s.child(flip("h0")).flip_rights(Color::Red), (1, 1));
}

#[test]
fn s6_flip_needs_lost_type() {
    let v = variant("surprise");
    // Two of every type on the board: no flip in any of the 100 layout pairs.
    for r in LAYOUTS {
        for b in LAYOUTS {
            let s = State::start(v, Some((r, b))).expect("start");
            assert!(flips(&s).is_empty(), "{r},{b}");
        }
    }
    // After Red lost a horse only horse reveals are allowed (the b2, h2 cannons hide horses).
    let s = state(v, RED_LOST_HORSE);
    assert_eq!(flips(&s), ["b2", "h2"]);
    assert!(s.why_illegal(flip("a0")).contains("§S6"), "{}", s.why_illegal(flip("a0")));
    // Black, who lost nothing, has no flip after Red's move.
    assert!(flips(&s.child(mv("a3a4"))).is_empty());
    // At no time more than two of a type: after b2 turns into a horse, h2 (also hiding a horse)
    // may not follow; the cannon just flipped away makes cannon reveals legal instead.
    let t = s.child(flip("b2")).child(mv("a6a5"));
    assert_eq!(flips(&t), ["a0", "b2", "i0"]);
    // In play: the cannon takes a horse (start, layouts A/B): Black's chariots, which hide horses
    // in layout B, may then flip.
    let s = State::start(v, Some(("A", "B"))).expect("start").child(mv("h2h9"));
    assert_eq!(flips(&s), ["a9", "i9"]);
}

#[test]
fn s6_flip_right_by_history_option() {
    let v = custom("history", "inherits = \"surprise\"\n[surprise]\nflip_right_by_history = true\n");
    let board = RED_LOST_HORSE.trim_end_matches("3:0/3:0");
    // The horse is missing, but no capture is on record: no right.
    let s = state(v, &format!("{board}3:0:-/3:0:-"));
    assert!(flips(&s).is_empty());
    // A recorded horse capture creates the right.
    let s = state(v, &format!("{board}3:0:N/3:0:-"));
    assert_eq!(flips(&s), ["b2", "h2"]);
    let t = s.child(flip("b2"));
    assert_eq!(fen::write(&t).rsplit(' ').next(), Some("2:0:-/3:0:-"));
    // The cannon flipped away does not create a cannon right under this option (the default
    // would allow a0, b2, i0 here).
    assert!(flips(&t.child(mv("a6a5"))).is_empty());
    // A capture does: the b7 cannon takes the b0 horse over the b2 screen.
    let u = t.child(mv("b7b0"));
    assert_eq!(
        fen::write(&u),
        "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1N5C1/9/RcBAKAB1R w - - 0 2 \
         a0=C,i0=C,b2=C*,h2=N,b0=n,h7=n,a9=c,b9=r,h9=r,i9=c 2:0:N/3:0:-"
    );
    // Red has one horse and a horse right: only h2 (hiding a horse) may flip.
    assert_eq!(flips(&u), ["h2"]);
}

#[test]
fn s6a_flip_once_per_disc_option() {
    // Default: a disc may flip again (b2 back to a cannon).
    let s = state(variant("surprise"), RED_LOST_HORSE).child(flip("b2")).child(mv("a6a5"));
    assert_eq!(flips(&s), ["a0", "b2", "i0"]);
    // Option: b2 has flipped once and may not again; the other cannon-hiding discs may.
    let v = custom("once", "inherits = \"surprise\"\n[surprise]\nflip_once_per_disc = true\n");
    let s = state(v, RED_LOST_HORSE).child(flip("b2")).child(mv("a6a5"));
    assert_eq!(flips(&s), ["a0", "i0"]);
    // The restriction survives a FEN round trip (a `*` back means the disc has flipped).
    let back = state(v, &fen::write(&s));
    assert_eq!(flips(&back), ["a0", "i0"]);
    // It follows the disc when it moves.
    let moved = s.child(mv("b2d3")).child(mv("a5a4"));
    assert!(!flips(&moved).contains(&"d3".to_string()));
}

#[test]
fn s7_flip_may_give_check() {
    // Red K e0, a Red horse disc d5 hiding a chariot, Red has no chariot; black k d9 alone.
    // Actions: K d0, e1, f0 (3) + horse c7, e7, b6, f6, b4, f4, c3, e3 (8) + flip d5 (1) = 12.
    let v = variant("surprise");
    let s = state(v, "3k5/9/9/9/3N5/9/9/9/9/4K4 w - - 0 1 d5=R 3:0/3:0");
    assert_eq!(s.legal_actions().len(), 12);
    assert_eq!(flips(&s), ["d5"]);
    // The flip checks along the d-file and mates: d8 is on the file, e9 faces the Red general.
    let mut g = VariantGameState::unbounded(s);
    let text = g.play_recorded(flip("d5"), |_| unreachable!()).text;
    assert!(g.state().position().in_check());
    assert!(g.state().legal_actions().is_empty());
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Red, reason: EndReason::Checkmate })));
    assert_eq!(text, "d5d5R");
}

#[test]
fn s7_flip_cannot_answer_check() {
    // As above with a black chariot i0 checking along rank 0: a flip changes no occupancy, so
    // only e0-e1 answers (d0 and f0 stay on the rank, nothing can block f0-h0).
    let v = variant("surprise");
    let s = state(v, "3k5/9/9/9/3N5/9/9/9/9/4K3r w - - 0 1 d5=R 3:0/3:0");
    assert!(s.position().in_check());
    assert_eq!(s.legal_actions(), vec![mv("e0e1")]);
    assert!(s.why_illegal(flip("d5")).contains("§S7"), "{}", s.why_illegal(flip("d5")));
}

#[test]
fn s8_captured_back_revealed() {
    // Default: the red cannon takes the h9 horse (layout A: it hides a chariot); its back face is
    // shown to both.
    let s = State::start(variant("surprise"), Some(("A", "A"))).expect("start").child(mv("h2h9"));
    assert_eq!(s.captured_discs(), &[(Color::Black, Role::Horse, Role::Chariot, true)]);
    // The captured disc leaves the backs field; the capturing cannon's disc (hiding a horse)
    // now stands on h9.
    assert!(!fen::write(&s).contains("h9=r") && fen::write(&s).contains("h9=N"), "{}", fen::write(&s));
    // Option: it stays hidden ...
    let v = custom("hidden", "inherits = \"surprise\"\n[surprise]\ncaptured_back_revealed = false\n");
    let s = State::start(v, Some(("A", "A"))).expect("start").child(mv("h2h9"));
    assert_eq!(s.captured_discs(), &[(Color::Black, Role::Horse, Role::Chariot, false)]);
    // ... unless it was already seen (a flipped disc's back): black chariot e8 takes e5.
    let s = state(v, "4k4/4r4/9/9/4N4/9/9/9/9/3K5 b - - 0 1 e5=R* 3:0/3:0").child(mv("e8e5"));
    assert_eq!(s.captured_discs(), &[(Color::Red, Role::Horse, Role::Chariot, true)]);
    assert!(fen::write(&s).ends_with(" - 3:0/3:0"), "{}", fen::write(&s));
}

#[test]
fn s8_captured_back_hidden_belief_counts_only_consistent_layouts() {
    // §S8 option (back stays hidden), §S2: the red cannon b2 takes the black horse b9 over the
    // b7 cannon (Red layout A, Black layout C1); Red does not see the horse's back. All Red knows
    // of Black's layout is that it is one of the ten of §S2, played the same way: each of the
    // ten gives a different set of backs for the five discs left, so ten assignments stay
    // possible, and every unseen back is either of its two options half the time. (Counting the
    // board's backs alone, with "some disc type left over" for the captured one, gave 14 and
    // .571/.429: it let the captured horse be a chariot|cannon disc.)
    use rand::SeedableRng;
    let v = custom("hidden-belief", "inherits = \"surprise\"\n[surprise]\ncaptured_back_revealed = false\n");
    let s = State::start(v, Some(("A", "C1"))).expect("start").child(mv("b2b9"));
    assert_eq!(s.captured_discs(), &[(Color::Black, Role::Horse, Role::Chariot, false)]);
    let view = View::new(&s, Color::Red);
    assert!(view.fen().ends_with(" gone=n?"), "{}", view.fen());
    assert_eq!(view.surprise_assignments(), 10);
    let beliefs = view.back_beliefs();
    let squares: Vec<Square> = beliefs.iter().map(|b| b.0).collect();
    assert_eq!(squares, ["b7", "h7", "a9", "h9", "i9"].map(sq).to_vec());
    for (at, p) in &beliefs {
        let mut options: Vec<f32> = p.iter().copied().filter(|&x| x > 0.0).collect();
        options.sort_by(f32::total_cmp);
        assert_eq!(options, vec![0.5, 0.5], "{at}: {p:?}");
    }
    // The ten layouts, played the same way: the same view, each consistent with it, and ten
    // different sets of backs (the five on the board and the captured horse's).
    let backs = |t: &State| -> Vec<Role> { squares.iter().map(|&q| t.back(q).expect("a disc")).chain(t.captured_discs().iter().map(|d| d.2)).collect() };
    let mut truths = HashSet::new();
    for layout in LAYOUTS {
        let t = State::start(v, Some(("A", layout))).expect("start").child(mv("b2b9"));
        assert_eq!(View::new(&t, Color::Red).fen(), view.fen(), "{layout}");
        assert!(view.is_consistent(&t), "{layout}");
        truths.insert(backs(&t));
    }
    assert_eq!(truths.len(), 10);
    // Determinizations draw exactly those, uniformly, the captured disc's back included.
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(8);
    let mut seen: std::collections::HashMap<Vec<Role>, u32> = std::collections::HashMap::new();
    for _ in 0..2000 {
        let d = view.sample(&mut rng);
        assert!(view.is_consistent(&d));
        *seen.entry(backs(&d)).or_insert(0) += 1;
    }
    assert_eq!(seen.keys().cloned().collect::<HashSet<_>>(), truths);
    assert!(seen.values().all(|&n| (140..=260).contains(&n)), "{seen:?}");
    // Black sees its own captured disc; Red's layout is still one of ten.
    assert_eq!(View::new(&s, Color::Black).surprise_assignments(), 10);
}

#[test]
fn s9_rights_public_in_fen() {
    let v = variant("surprise");
    let s = state(v, &red_lost_chariot("3:0/3:0", "R")).child(flip("h0"));
    let text = fen::write(&s);
    assert!(text.ends_with(" 1:1/3:0"), "{text}");
    // Round trip.
    assert_eq!(fen::write(&state(v, &text)), text);
    // Public: the opponent's view shows the same rights and the flipped face (with `*`).
    let view = View::new(&s, Color::Black);
    assert!(view.fen().contains("1:1/3:0"), "{}", view.fen());
    assert!(view.fen().contains("h0=N*"), "{}", view.fen());
    assert_eq!(s.flip_rights(Color::Red), (1, 1));
    assert_eq!(s.flip_rights(Color::Black), (3, 0));
}

#[test]
fn s10_rights_zero_is_standard() {
    let v = custom("zero", "inherits = \"surprise\"\n[surprise]\nflip_rights = 0\n");
    let s = State::start(v, Some(("C3", "B"))).expect("start");
    assert!(fen::write(&s).ends_with(" 0:0/0:0"));
    // Standard xiangqi perft.
    assert_eq!(perft(&s, 1), 44);
    assert_eq!(perft(&s, 2), 1920);
    assert_eq!(perft(&s, 3), 79666);
    // No flip even after a loss.
    let s = state(v, &RED_LOST_HORSE.replace("3:0/3:0", "0:0/0:0"));
    assert!(flips(&s).is_empty());
    assert_eq!(s.legal_actions().len(), 44);
}

#[test]
fn s10_agreed_play_options() {
    let fen3 = red_lost_chariot("3:0/3:0", "R");
    // Only cannons may flip: the chariot-hiding horses b0, h0 may not.
    let v = custom("fliptypes", "inherits = \"surprise\"\n[surprise]\nflip_types = [\"C\"]\n");
    assert!(flips(&state(v, &fen3)).is_empty());
    // Chariots may not be revealed.
    let v = custom("revealtypes", "inherits = \"surprise\"\n[surprise]\nreveal_types = [\"N\", \"C\"]\n");
    assert!(flips(&state(v, &fen3)).is_empty());
    // Chariot cost 1, two chariot reveals, 5 rights.
    let v = custom(
        "costs",
        "inherits = \"surprise\"\n[surprise]\nflip_rights = 5\nchariot_cost = 1\nchariot_reveal_limit = 2\n",
    );
    let s = State::start(v, Some(("A", "A"))).expect("start");
    assert!(fen::write(&s).ends_with(" 5:0/5:0"));
    let s = state(v, &red_lost_chariot("5:0/5:0", "R")).child(flip("h0"));
    assert_eq!(s.flip_rights(Color::Red), (4, 1));
    // Unknown keys and bad values are refused naming the key.
    let path = std::env::temp_dir().join(format!("anqi-clauses-s-badkey-{}.toml", std::process::id()));
    std::fs::write(&path, "inherits = \"surprise\"\n[surprise]\nflip_typs = [\"C\"]\n").expect("write");
    let err = Variant::load(path.to_str().expect("utf-8")).expect_err("unknown key");
    assert!(err.to_string().contains("surprise.flip_typs"), "{err}");
    std::fs::write(&path, "inherits = \"surprise\"\n[surprise]\nreveal_types = [\"K\"]\n").expect("write");
    let err = Variant::load(path.to_str().expect("utf-8")).expect_err("bad value");
    let _ = std::fs::remove_file(&path);
    assert!(err.to_string().contains("surprise.reveal_types"), "{err}");
}

#[test]
fn s11_demand_answer_and_interval() {
    let v = variant("surprise-negotiation");
    assert_eq!(v.surprise.scores, [3, 1, 0]);
    assert_eq!(v.surprise.demand_interval, 10);
    let s = State::start(v, Some(("A", "A"))).expect("start");
    // 44 moves and a demand.
    let acts = s.legal_actions();
    assert_eq!(acts.len(), 45);
    assert!(acts.contains(&Action::Demand));
    // Perft does not count negotiation actions (§P5).
    assert_eq!(perft(&s, 1), 44);
    // The opponent answers: resign, draw or refuse.
    let d = s.child(Action::Demand);
    assert_eq!(d.turn(), Color::Black);
    assert_eq!(d.legal_actions(), vec![Action::Answer(Answer::Resign), Action::Answer(Answer::Draw), Action::Answer(Answer::Refuse)]);
    let r = d.child(Action::Answer(Answer::Resign));
    assert_eq!(r.agreement(), Some(Agreement::Resigned(Color::Black)));
    assert!(r.legal_actions().is_empty());
    assert_eq!(d.child(Action::Answer(Answer::Draw)).agreement(), Some(Agreement::Drawn));
    // Refused: play continues. RULES.md §S11 does not say who moves after a refusal; the engine
    // reads "play continues" as the demander still making its move (not marked [R] there: the
    // lead's reading, flagged in the clause-test report). The demander may not demand again
    // for 10 own moves.
    let mut g = VariantGameState::unbounded(s.clone());
    g.play(Action::Demand, |_| unreachable!());
    g.play(Action::Answer(Answer::Refuse), |_| unreachable!());
    assert_eq!(g.outcome(), None, "a refused demand is not a repetition");
    let mut t = g.state().clone();
    assert_eq!(t.turn(), Color::Red);
    assert_eq!(t.legal_actions().len(), 44);
    assert!(!t.legal_actions().contains(&Action::Demand));
    // Ten Red moves (and ten Black ones), chariots going up and down the a and i files.
    let red = ["a0a1", "a1a2", "a2a1", "a1a0", "i0i1", "i1i2", "i2i1", "i1i0", "a0a1", "a1a0"];
    let black = ["a9a8", "a8a7", "a7a8", "a8a9", "i9i8", "i8i7", "i7i8", "i8i9", "a9a8", "a8a9"];
    for k in 0..10 {
        assert!(!t.legal_actions().contains(&Action::Demand), "Red move {k}");
        t = t.child(mv(red[k]));
        if k == 0 {
            // Black has not demanded yet: it may.
            assert!(t.legal_actions().contains(&Action::Demand));
        }
        t = t.child(mv(black[k]));
    }
    assert_eq!(t.position().fullmove(), 11);
    assert!(t.legal_actions().contains(&Action::Demand), "10 own moves later");
    // Resignation and agreed draw end a VariantGameState with the right result.
    let mut g = VariantGameState::unbounded(s);
    g.play(Action::Demand, |_| unreachable!());
    g.play(Action::Answer(Answer::Resign), |_| unreachable!());
    assert_eq!(g.outcome(), Some(VariantEnd::Resigned(Color::Black)));
    assert_eq!(g.outcome().map(|o| o.result()), Some("1-0"));
}
