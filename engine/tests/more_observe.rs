//! The observation tensors and action indices of the RULES-more.md games
//! ([`engine::observe::Observe`], docs/encoding.md "RULES-more.md games"): information security
//! (two states of one information set give one tensor), injective and inverted action indices
//! over random playouts of every preset, set-up phases included, and encoding sizes.

use engine::game::{Action, Game, PlayerId};
use engine::more::camel::{CamelGame, CamelPreset, CamelRules};
use engine::more::missile::{MissileGame, MissileRules};
use engine::more::observe::ObserveAll;
use engine::more::open::Open;
use engine::more::presets::{presets, Playable};
use engine::more::skill::{SkillGame, SkillRules};
use engine::observe::Observe;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::collections::HashMap;

/// The presets with hidden information (`anqi variants`: a hidden set-up, face-down pieces, a
/// secret tile or trick layout).
const HIDDEN: [&str; 6] = ["missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down", "skill-secret", "camel-7-secret"];

/// Plays random legal actions from `g` for at most `plies` plies, calling `f` on every state
/// reached (the start and the end included).
fn playout<G: Game>(mut g: G, seed: u64, plies: usize, mut f: impl FnMut(&G, &mut Pcg64Mcg)) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for _ in 0..=plies {
        f(&g, &mut rng);
        let legal = g.legal_actions();
        let Some(&a) = legal.choose(&mut rng) else { break };
        g.apply(a);
    }
}

/// A camel game of edition `edition` on a board `files` wide, with or without the river row.
fn camel_board(edition: u8, files: u8, river_row: bool) -> CamelGame {
    let rules = CamelRules { files, river_row, ..CamelRules::edition(edition) };
    CamelGame::new(CamelPreset { name: "camel-board", description: "a camel board option", rules })
}

/// Runs `check` on the game of every preset (and the camel board options), with its name.
trait Check {
    fn check<G: Game + Observe + Playable>(&mut self, name: &str, g: G);
}

fn for_every_game(c: &mut impl Check) {
    for (name, _) in presets() {
        if let Ok(p) = MissileRules::preset(name) {
            c.check(name, MissileGame::new(p));
        } else if let Ok(p) = SkillRules::preset(name) {
            c.check(name, SkillGame::new(p));
        } else if let Ok(p) = CamelRules::preset(name) {
            c.check(name, CamelGame::new(p));
        } else {
            panic!("preset {name} of no RULES-more.md game");
        }
    }
    for (files, river_row, edition) in [(13, false, 7), (15, false, 6), (11, true, 5), (13, true, 4)] {
        c.check(&format!("camel-{edition} {files} files river row {river_row}"), camel_board(edition, files, river_row));
    }
}

/// Runs `f` on the game of every hidden preset.
fn for_hidden(c: &mut impl Check) {
    for name in HIDDEN {
        if let Ok(p) = MissileRules::preset(name) {
            c.check(name, MissileGame::new(p));
        } else if let Ok(p) = SkillRules::preset(name) {
            c.check(name, SkillGame::new(p));
        } else {
            c.check(name, CamelGame::new(CamelRules::preset(name).expect("camel preset")));
        }
    }
}

/// Plies of a playout: every set-up phase (at most 24 placements or 18 tiles) and a middle game.
const PLIES: usize = 90;

struct SameInformationSameTensor;

impl Check for SameInformationSameTensor {
    fn check<G: Game + Observe + Playable>(&mut self, name: &str, g: G) {
        let mut resampled = 0;
        let mut states = 0;
        for seed in 0..4 {
            playout(g.clone(), seed, PLIES, |g, rng| {
                states += 1;
                for p in PlayerId::BOTH {
                    for _ in 0..2 {
                        let d = g.sample_determinization(p, rng);
                        assert_eq!(d.infoset_key(p), g.infoset_key(p), "{name}: the determinization keeps {p}'s information set");
                        assert_eq!(d.observation(p), g.observation(p), "{name}, {p} at {}: the tensor depends on what {p} cannot see", g.infoset_string(p));
                        if d.full_fen() != g.full_fen() {
                            resampled += 1;
                        }
                    }
                }
            });
        }
        assert!(resampled > states / 4, "{name}: determinizations changed the hidden part in only {resampled} of {states} states' draws");
    }
}

#[test]
fn two_states_of_one_information_set_give_one_observation() {
    for_hidden(&mut SameInformationSameTensor);
}

/// Writes the open-twin tensor of `g` for `p` (everything shown).
fn all<G: ObserveAll>(g: &G, p: PlayerId) -> Vec<f32> {
    let mut v = vec![0.0; g.encoding().obs_len()];
    g.observe_all_into(p, &mut v);
    v
}

#[test]
fn the_hidden_part_is_in_the_open_twin_tensor_only() {
    // Determinizations differ only in what the player cannot see: the player's own tensor is
    // the same, the open twin's (everything shown) is not, so the hidden part is really there
    // to hide and really hidden.
    fn run<G: ObserveAll + Playable>(name: &'static str, g: G) {
        let mut differ = 0;
        for seed in 0..3 {
            playout(g.clone(), 100 + seed, PLIES, |g, rng| {
                for p in PlayerId::BOTH {
                    let d = g.sample_determinization(p, rng);
                    if d.full_fen() != g.full_fen() {
                        assert_ne!(all(&d, p), all(g, p), "{name}: a resampled hidden part is missing from the open tensor");
                        assert_eq!(d.observation(p), g.observation(p), "{name}");
                        differ += 1;
                    }
                }
            });
        }
        assert!(differ > 0, "{name}: no determinization changed the hidden part");
        // The open twin observes with nothing hidden and keeps the base game's encoding.
        let twin = Open::new(g.clone(), name);
        assert_eq!(twin.encoding(), g.encoding());
        assert_eq!(twin.observation(PlayerId::FIRST), all(&g, PlayerId::FIRST));
    }
    run("missile-hidden-5", MissileGame::preset("missile-hidden-5").expect("preset"));
    run("missile-hidden-centre-down", MissileGame::preset("missile-hidden-centre-down").expect("preset"));
    run("skill-secret", SkillGame::preset("skill-secret").expect("preset"));
    run("camel-7-secret", CamelGame::preset("camel-7-secret").expect("preset"));
}

struct ActionIndex;

impl Check for ActionIndex {
    fn check<G: Game + Observe + Playable>(&mut self, name: &str, g: G) {
        let n = g.encoding().actions();
        let mut kinds = 0;
        for seed in 0..3 {
            playout(g.clone(), 200 + seed, 150, |g, _| {
                let mut seen: HashMap<usize, Action> = HashMap::new();
                for a in g.legal_actions() {
                    let i = g.action_index(a);
                    assert!(i < n, "{name}: slot {i} of {} is not below {n}", g.action_string(a));
                    if let Some(b) = seen.insert(i, a) {
                        panic!("{name}: {} and {} share slot {i} at {}", g.action_string(a), g.action_string(b), g.full_fen());
                    }
                    assert_eq!(g.index_action(i), Some(a), "{name}: slot {i} of {} does not invert", g.action_string(a));
                }
                kinds += seen.len();
            });
        }
        assert!(kinds > 0, "{name}: no legal action met");
    }
}

#[test]
fn action_index_is_injective_bounded_and_inverted_over_every_preset() {
    for_every_game(&mut ActionIndex);
    // The open twins index their actions as their games.
    for name in HIDDEN {
        let twin = format!("{name}+open");
        if let Ok(p) = MissileRules::preset(name) {
            ActionIndex.check(&twin, Open::new(MissileGame::new(p), "twin"));
        } else if let Ok(p) = SkillRules::preset(name) {
            ActionIndex.check(&twin, Open::new(SkillGame::new(p), "twin"));
        } else {
            ActionIndex.check(&twin, Open::new(CamelGame::new(CamelRules::preset(name).expect("preset")), "twin"));
        }
    }
}

struct Sizes(Vec<(String, engine::observe::Encoding)>);

impl Check for Sizes {
    fn check<G: Game + Observe + Playable>(&mut self, name: &str, g: G) {
        let e = g.encoding();
        let shape = e.observation;
        assert_eq!((shape.rows, shape.files), (g.geometry().ranks as usize, g.geometry().files as usize), "{name}: rows are ranks, files are files");
        let mut distinct = std::collections::HashSet::new();
        let mut states = 0;
        playout(g.clone(), 7, 60, |g, _| {
            assert_eq!(g.encoding(), e, "{name}: one encoding for every state");
            for p in PlayerId::BOTH {
                let v = g.observation(p);
                assert_eq!(v.len(), e.obs_len(), "{name}");
                assert!(v.iter().all(|x| (0.0..=1.0).contains(x)), "{name}: planes hold 0..1");
            }
            states += 1;
            distinct.insert(g.observation(PlayerId::FIRST).iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        });
        assert!(distinct.len() * 10 >= states * 9, "{name}: {} distinct tensors over {states} states", distinct.len());
        self.0.push((name.to_string(), e));
    }
}

#[test]
fn observation_sizes_come_from_the_game_and_boards_tell_encodings_apart() {
    let mut s = Sizes(Vec::new());
    for_every_game(&mut s);
    let enc: HashMap<String, engine::observe::Encoding> = s.0.into_iter().collect();
    let e = |n: &str| enc.get(n).unwrap_or_else(|| panic!("{n} checked")).clone();
    for n in ["missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down"] {
        assert_eq!(e(n), e("missile"), "one board, one missile encoding");
    }
    assert_eq!(e("missile").observation.points(), 110);
    assert_eq!(e("skill"), e("skill-secret"));
    assert_ne!(e("skill"), e("skill-points"), "board A (9x11) and board B (9x10)");
    assert_eq!(e("skill-points").observation.rows, 10);
    for n in ["camel-1", "camel-2", "camel-3", "camel-4", "camel-5", "camel-6", "camel-7-secret"] {
        assert_eq!(e(n), e("camel-7"), "one board, one camel encoding");
    }
    let wide = e("camel-7 13 files river row false");
    let wider = e("camel-6 15 files river row false");
    let river = e("camel-5 11 files river row true");
    assert_eq!((wide.observation.files, wider.observation.files, river.observation.rows), (13, 15, 11));
    for other in [&wide, &wider, &river] {
        assert_ne!(other, &e("camel-7"), "a camel board option changes the encoding");
        assert!(e("camel-7").check_same(other).is_err());
    }
    assert_ne!(e("missile"), e("camel-7"), "one board, two games");
}

#[test]
fn both_colours_see_a_symmetric_start_alike_from_their_own_side() {
    // The start arrays are symmetric: Black's tensor is Red's but for "the observer is Red" and
    // "the observer acts".
    fn run<G: Observe>(g: &G, constant: &[usize]) {
        let e = g.encoding();
        let n = e.observation.points();
        let (r, b) = (g.observation(PlayerId::FIRST), g.observation(PlayerId::SECOND));
        for plane in 0..e.observation.planes {
            let same = r[plane * n..(plane + 1) * n] == b[plane * n..(plane + 1) * n];
            assert_eq!(same, !constant.contains(&plane), "plane {plane}");
        }
    }
    use engine::more::{camel, missile, skill};
    run(&MissileGame::preset("missile").expect("preset"), &[missile::observe::IS_RED, missile::observe::TO_ACT]);
    run(&CamelGame::preset("camel-7").expect("preset"), &[camel::observe::IS_RED, camel::observe::TO_ACT]);
    run(&camel_board(7, 15, true), &[camel::observe::IS_RED, camel::observe::TO_ACT]);
    // Recesses are numbered in square order for both sides (§1.2), so Black's recess i is the
    // 180° image of Red's recess 7 - i: Black's layout reversed is Red's seen from its side.
    let tiles = [[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]];
    run(&SkillGame::with_tiles(SkillRules::preset("skill").expect("preset"), tiles), &[skill::observe::IS_RED, skill::observe::TO_ACT]);
}

#[test]
fn a_move_changes_the_piece_planes_and_nothing_off_the_board() {
    // The piece planes (own and opponent pieces by kind) are not constant: a board move changes
    // them, in both players' tensors, at exactly the two points of the move.
    fn run<G: Observe>(mut g: G, piece_planes: usize) {
        let e = g.encoding();
        let n = e.observation.points();
        let a = g.legal_actions()[0];
        let before = [g.observation(PlayerId::FIRST), g.observation(PlayerId::SECOND)];
        g.apply(a);
        for (p, old) in PlayerId::BOTH.into_iter().zip(before) {
            let new = g.observation(p);
            let changed: std::collections::BTreeSet<usize> = (0..piece_planes * n).filter(|&i| old[i] != new[i]).map(|i| i % n).collect();
            assert_eq!(changed.len(), 2, "{p}: a move from one point to another changes two points, not {changed:?}");
        }
    }
    use engine::more::{camel, missile, skill};
    run(MissileGame::preset("missile").expect("preset"), missile::observe::OWN_DOWN);
    run(CamelGame::preset("camel-1").expect("preset"), camel::observe::OWN_UNDER);
    run(SkillGame::with_tiles(SkillRules::preset("skill").expect("preset"), skill::game::DEFAULT_TILES), skill::observe::OWN_TILES);
}

#[test]
fn every_slot_that_means_an_action_indexes_back_to_itself_for_both_colours() {
    // The other direction of the inversion, over the whole slot space (every move kind,
    // promotion, removal, plate action and set-up slot, legal or not): a slot's action has
    // that slot.
    fn run<G: Observe>(name: &str, mut g: G) {
        for _ in 0..2 {
            let n = g.encoding().actions();
            let mut meaningful = 0;
            for i in 0..n {
                if let Some(a) = g.index_action(i) {
                    assert_eq!(g.action_index(a), i, "{name}: slot {i}");
                    meaningful += 1;
                }
            }
            assert!(meaningful * 10 >= n * 9, "{name}: only {meaningful} of {n} slots mean an action");
            assert_eq!(g.index_action(n), None, "{name}: no slot past the index");
            // The second round from the other colour's side.
            let a = g.legal_actions()[0];
            g.apply(a);
        }
    }
    run("missile", MissileGame::preset("missile").expect("preset"));
    run("missile-hidden-5", MissileGame::preset("missile-hidden-5").expect("preset"));
    run("skill", SkillGame::with_tiles(SkillRules::preset("skill").expect("preset"), engine::more::skill::game::DEFAULT_TILES));
    run("skill-points", SkillGame::preset("skill-points").expect("preset"));
    run("camel-7", CamelGame::preset("camel-7").expect("preset"));
    run("camel 15 files, river row", camel_board(7, 15, true));
}

#[test]
#[ignore = "timing, run by hand: cargo test --release --test more_observe -- --ignored --nocapture"]
fn observation_speed() {
    fn run<G: Observe>(name: &str, g: G) {
        let mut out = vec![0.0; g.encoding().obs_len()];
        let t = std::time::Instant::now();
        let reps = 20_000;
        for _ in 0..reps {
            g.observe_into(PlayerId::SECOND, &mut out);
        }
        println!("{name}: {:.2} us per observation ({} floats)", t.elapsed().as_secs_f64() * 1e6 / reps as f64, out.len());
    }
    run("missile", MissileGame::preset("missile").expect("preset"));
    run("skill", SkillGame::with_tiles(SkillRules::preset("skill").expect("preset"), engine::more::skill::game::DEFAULT_TILES));
    run("camel-7", CamelGame::preset("camel-7").expect("preset"));
}

#[test]
fn missile_face_down_beliefs_are_distributions_that_add_up_to_the_pool() {
    // Under the face-down reading (§3.8) the observer sees where the opponent's face-down pieces
    // are and which kinds they are as a whole (the pool): each such point's belief planes sum to
    // 1, each kind's plane sums to that kind's count, and no kind plane shows them.
    use engine::more::missile::observe::{FREE, OPP, OPP_BELIEF, OPP_DOWN};
    for name in ["missile-hidden-5-down", "missile-hidden-centre-down"] {
        let mut checked = 0;
        playout(MissileGame::preset(name).expect("preset"), 5, 60, |g, _| {
            if g.in_setup() || g.is_terminal() {
                return;
            }
            let e = g.encoding();
            let n = e.observation.points();
            for p in PlayerId::BOTH {
                let v = g.observation(p);
                let me = if p == PlayerId::FIRST { engine::piece::Color::Red } else { engine::piece::Color::Black };
                let mut pool = [0usize; 5];
                let mut down_points = 0;
                for (s, piece) in g.position().board().pieces() {
                    if piece.color != me && g.is_face_down(s) {
                        pool[FREE.iter().position(|&k| k == piece.kind).expect("a free kind")] += 1;
                        down_points += 1;
                    }
                }
                let plane = |i: usize| &v[i * n..(i + 1) * n];
                assert_eq!(plane(OPP_DOWN).iter().sum::<f32>() as usize, down_points, "{name}");
                for pt in 0..n {
                    let b: f32 = (0..5).map(|k| plane(OPP_BELIEF + k)[pt]).sum();
                    let down = plane(OPP_DOWN)[pt] == 1.0;
                    assert!((b - if down { 1.0 } else { 0.0 }).abs() < 1e-5, "{name}: belief at point {pt} sums to {b}");
                    if down {
                        assert!((0..9).all(|k| plane(OPP + k)[pt] == 0.0), "{name}: a face-down kind shown");
                    }
                }
                for (k, &count) in pool.iter().enumerate() {
                    let total: f32 = plane(OPP_BELIEF + k).iter().sum();
                    assert!((total - count as f32).abs() < 1e-4, "{name}: {:?} beliefs sum to {total}, pool holds {count}", FREE[k]);
                }
                checked += 1;
            }
        });
        assert!(checked > 0, "{name}: no state past the set-up");
    }
}
