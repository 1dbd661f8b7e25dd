//! The random-play battery of issue #39 (item 6): random plies in every preset of both rule books,
//! hidden games and their open twins (`NAME+open`), checking after each ply that
//!
//! 1. the position round-trips through its full-state FEN (written, read, written alike);
//! 2. the incremental hash equals a fresh one: the state's hash equals that of the state read
//!    back from its FEN (built from nothing), and for the RULES.md variants the core position's
//!    incremental Zobrist key equals [`engine::position::Position::hash_from_scratch`];
//! 3. the legal actions of the side to move are a function of its view: every determinization
//!    sampled from its view (RULES.md variants: [`View::sample`]; RULES-more.md games:
//!    [`Game::sample_determinization`]) has the same legal actions as the true state.
//!
//! A game that ends starts again from the preset's start (an open twin's dealt as its tournaments
//! deal, docs/open-twins.md §O4); chance outcomes are drawn uniformly.
//! `ANQI_BATTERY_PLIES=N` sets the plies per preset (default 2,000 in the test suite); the long
//! run of the issue is `ANQI_BATTERY_PLIES=10000000 cargo test --release -p anqi-engine --test
//! battery_plies -- --ignored --nocapture`, which prints plies/s per preset;
//! `ANQI_BATTERY_ONLY=NAME,NAME` limits a run to the named presets.

use engine::game::{Game, Turn};
use engine::variant::config::{open_twin_names, preset_names};
use engine::variant::fen as vfen;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

fn plies(default: u64) -> u64 {
    std::env::var("ANQI_BATTERY_PLIES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// Every RULES.md preset and its open twin.
fn variant_names() -> Vec<String> {
    preset_names().map(str::to_string).chain(open_twin_names()).collect()
}

/// The three checks on one state of a RULES.md variant.
fn check_variant_state(name: &str, s: &State, rng: &mut Pcg64Mcg) {
    let v = s.variant();
    let f = vfen::write(s);
    let back = vfen::parse(v, &f).unwrap_or_else(|e| panic!("{name}: FEN {f:?} does not parse: {e}"));
    assert_eq!(vfen::write(&back), f, "{name}: FEN round trip");
    assert_eq!(back.hash(), s.hash(), "{name}: the incremental hash differs from the FEN's fresh one at {f}");
    assert_eq!(s.position().hash(), s.position().hash_from_scratch(), "{name}: Zobrist key at {f}");
    if s.is_chance() {
        return;
    }
    let mover = s.turn();
    let view = View::new(s, mover);
    let legal = s.legal_actions();
    for _ in 0..2 {
        let d = view.sample(rng);
        assert_eq!(d.legal_actions(), legal, "{name}: {mover}'s legal actions differ in a determinization of its view {}", view.fen());
    }
}

/// `n` random plies of variant `name`; returns the plies played.
fn variant_plies(name: &str, n: u64, seed: u64) -> u64 {
    let v: &'static Variant = Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))));
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut done = 0;
    // A hidden game from its set-up phase; an open twin dealt as its hidden game's tournaments
    // deal (docs/open-twins.md §O4), its set-up drawn too: 32 seeded starts, in turn.
    let dealt: Vec<State> = if v.open {
        (0..32u64)
            .map(|k| {
                let fen = engine::variant::seeded::generate(v, seed ^ k).unwrap_or_else(|e| panic!("{name}: {e}")).fen;
                vfen::parse(v, &fen).unwrap_or_else(|e| panic!("{name}: seeded start {fen:?}: {e}"))
            })
            .collect()
    } else {
        vec![State::new_game(v)]
    };
    let mut games = 0;
    while done < n {
        let mut game = VariantGameState::unbounded(dealt[games % dealt.len()].clone());
        games += 1;
        loop {
            let s = game.state().clone();
            check_variant_state(name, &s, &mut rng);
            if game.outcome().is_some() || done >= n {
                break;
            }
            let acts = s.legal_actions();
            assert!(!acts.is_empty(), "{name}: a state that is not over has no legal action: {}", vfen::write(&s));
            let a = acts[rng.random_range(0..acts.len())];
            game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
            done += 1;
        }
    }
    done
}

/// `n` random plies of a RULES-more.md game from `start` (a ply limit makes every game end);
/// `fen_check` does checks 1 and 2 on a game past its set-up.
fn more_plies<G: Game + Clone>(name: &str, start: impl Fn() -> G, n: u64, seed: u64, fen_check: impl Fn(&G)) -> u64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut done = 0;
    while done < n {
        let mut g = start();
        loop {
            match g.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let o = g.chance_outcomes();
                    let pick = o[rng.random_range(0..o.len())].0;
                    g.apply(pick);
                }
                Turn::Player(p) => {
                    fen_check(&g);
                    let legal = g.legal_actions();
                    assert!(!legal.is_empty(), "{name}: a player turn without legal actions");
                    for _ in 0..2 {
                        let d = g.sample_determinization(p, &mut rng);
                        assert_eq!(d.legal_actions(), legal, "{name}: the legal actions differ in a determinization of the mover's view");
                    }
                    if done >= n {
                        break;
                    }
                    g.apply(legal[rng.random_range(0..legal.len())]);
                    done += 1;
                }
            }
        }
    }
    done
}

/// Plays `n` plies of every preset of both rule books; the plies/s of each.
fn run_all(n: u64) -> Vec<(String, u64, f64)> {
    use engine::more::camel::{fen as cfen, CamelGame};
    use engine::more::missile::{fen as mfen, MissileGame};
    use engine::more::skill::{fen as sfen, SkillGame};
    let mut out = Vec::new();
    // `ANQI_BATTERY_ONLY=a,b,...` runs only the named presets (a long run resumed by name).
    let only: Option<Vec<String>> = std::env::var("ANQI_BATTERY_ONLY").ok().map(|s| s.split(',').map(|x| x.trim().to_string()).collect());
    let mut timed = |name: String, f: &dyn Fn() -> u64| {
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            return;
        }
        let t = Instant::now();
        let k = f();
        let rate = k as f64 / t.elapsed().as_secs_f64().max(1e-9);
        eprintln!("{name}: {k} plies, {rate:.0} plies/s");
        out.push((name, k, rate));
    };
    for name in variant_names() {
        timed(name.clone(), &|| variant_plies(&name, n, 0xBA77 ^ name.len() as u64));
    }
    for name in engine::more::missile::rules::PRESETS {
        timed(name.to_string(), &|| {
            more_plies(name, || MissileGame::preset(name).expect("preset").with_max_plies(400), n, 7, |g: &MissileGame| {
                if g.in_setup() {
                    return;
                }
                let p = g.position();
                let text = mfen::write(p);
                let back = mfen::parse(*p.rules(), &text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
                assert_eq!(mfen::write(&back), text, "{name}: FEN round trip");
                assert_eq!(back.hash(), p.hash(), "{name}: incremental hash at {text}");
            })
        });
    }
    for name in engine::more::skill::rules::PRESETS {
        timed(name.to_string(), &|| {
            more_plies(name, || SkillGame::preset(name).expect("preset").with_max_plies(400), n, 5, |g: &SkillGame| {
                if g.in_setup() {
                    return;
                }
                let p = g.position();
                let text = sfen::write(p);
                let back = sfen::parse(*p.rules(), &text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
                assert_eq!(sfen::write(&back), text, "{name}: FEN round trip");
                assert_eq!(back.hash(), p.hash(), "{name}: incremental hash at {text}");
            })
        });
    }
    for name in engine::more::camel::rules::PRESETS {
        timed(name.to_string(), &|| {
            more_plies(name, || CamelGame::preset(name).expect("preset").with_max_plies(400), n, 3, |g: &CamelGame| {
                let p = g.position();
                let text = cfen::write(p);
                let back = cfen::parse(*p.rules(), &text).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
                assert_eq!(cfen::write(&back), text, "{name}: FEN round trip");
                assert_eq!(back.hash(), p.hash(), "{name}: incremental hash at {text}");
            })
        });
    }
    // The open twins of the hidden RULES-more.md presets (docs/open-twins.md §O6): the same game
    // with everything shown, so a determinization is the state itself.
    use engine::more::open::Open;
    for (twin, _) in engine::more::open::twin_names() {
        let base = twin.trim_end_matches(engine::more::open::SUFFIX).to_string();
        let label: &'static str = Box::leak(twin.clone().into_boxed_str());
        let b = base.as_str();
        if b.starts_with("missile") {
            timed(twin.clone(), &|| {
                more_plies(label, || Open::new(MissileGame::preset(b).expect("preset").with_max_plies(400), label), n, 7, |g: &Open<MissileGame>| {
                    if g.inner().in_setup() {
                        return;
                    }
                    let p = g.inner().position();
                    let text = mfen::write(p);
                    let back = mfen::parse(*p.rules(), &text).unwrap_or_else(|e| panic!("{label}: {text}: {e}"));
                    assert_eq!((mfen::write(&back), back.hash()), (text, p.hash()), "{label}");
                })
            });
        } else if b.starts_with("skill") {
            timed(twin.clone(), &|| {
                more_plies(label, || Open::new(SkillGame::preset(b).expect("preset").with_max_plies(400), label), n, 5, |g: &Open<SkillGame>| {
                    if g.inner().in_setup() {
                        return;
                    }
                    let p = g.inner().position();
                    let text = sfen::write(p);
                    let back = sfen::parse(*p.rules(), &text).unwrap_or_else(|e| panic!("{label}: {text}: {e}"));
                    assert_eq!((sfen::write(&back), back.hash()), (text, p.hash()), "{label}");
                })
            });
        } else {
            timed(twin.clone(), &|| {
                more_plies(label, || Open::new(CamelGame::preset(b).expect("preset").with_max_plies(400), label), n, 3, |g: &Open<CamelGame>| {
                    let p = g.inner().position();
                    let text = cfen::write(p);
                    let back = cfen::parse(*p.rules(), &text).unwrap_or_else(|e| panic!("{label}: {text}: {e}"));
                    assert_eq!((cfen::write(&back), back.hash()), (text, p.hash()), "{label}");
                })
            });
        }
    }
    out
}

#[test]
fn battery_plies_every_preset_short() {
    let n = plies(2_000);
    for (name, k, _) in run_all(n) {
        assert_eq!(k, n, "{name}");
    }
}

/// The long run: 10 million plies per preset (set `ANQI_BATTERY_PLIES` for another count).
#[test]
#[ignore = "long: 10 million plies per preset"]
fn battery_plies_every_preset_long() {
    let n = plies(10_000_000);
    let rows = run_all(n);
    for (name, k, rate) in &rows {
        println!("{name:32} {k:>10} plies {rate:>10.0} plies/s");
    }
}
