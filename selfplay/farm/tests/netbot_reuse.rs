//! The `net:` bot and the self-play farm with the search tree kept between a player's decisions
//! (issue #14 item 2, `SearchConfig::reuse_tree`): a two-game match with reuse against
//! `reuse=0`, the bot deciding alike in two full states of one information set over a game, and
//! self-play keeping one tree per player. The bot is the one `net:` bot of every game
//! (`farm::netmore::GameNetBot`) seated at a RULES.md variant (`VariantGameState`), its tree the
//! one search's (`Search::reuse_generic`, keyed by the player's information-set key).

use engine::game::Game;
use engine::search::arena;
use engine::search::GameBot;
use engine::variant::game_state::{decode, player_of, public_hash, VariantGameState};
use engine::variant::{Action, State, Variant, View};
use engine::Color;
use farm::netcounters::NetCounted;
use farm::netmore::GameNetBot;
use farm::search::SearchConfig;
use farm::{GameConfig, GameJob, Player};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

mod common;

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

type NetBot = GameNetBot<VariantGameState>;

/// The `net:` bot of `params` seated at `v`'s games.
fn net_bot(params: &str, seed: u64, v: &'static Variant) -> NetBot {
    NetBot::from_params(params, seed, &VariantGameState::unbounded(State::new_game(v))).expect("bot")
}

/// The bot's move in `g`, as a variant action.
fn choose(bot: &mut NetBot, g: &VariantGameState) -> Action {
    decode(bot.choose(g)).expect("a player action")
}

/// An untrained checkpoint of `variant` (weights of seed 3) in a temporary directory.
fn checkpoint(variant: &str, tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("anqi-netbot-reuse-{tag}-{}", std::process::id()));
    common::save_untrained(&dir, variant, 3);
    dir
}

#[test]
fn net_bot_reuses_its_tree_in_a_two_game_match() {
    tch::set_num_threads(1);
    let dir = checkpoint("surprise", "match");
    let ck = dir.display();
    let v = variant("surprise");
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let sims = 64;
    let mut kept = net_bot(&format!("checkpoint={ck},sims={sims},batch=4"), 7, v);
    let mut fresh = net_bot(&format!("checkpoint={ck},sims={sims},batch=4,reuse=0"), 8, v);
    assert!(fresh.name().contains("reuse=0") && !kept.name().contains("reuse="), "{} / {}", kept.name(), fresh.name());
    for game in 0..2 {
        let s = farm::start_state(v, &mut rng);
        let r = if game == 0 {
            arena::play(s, &mut kept, &mut fresh, 11, 60)
        } else {
            arena::play(s, &mut fresh, &mut kept, 12, 60)
        };
        assert!(r.plies > 0);
    }
    for b in [&kept, &fresh] {
        assert!(b.decisions() >= 20, "{}: {} decisions", b.name(), b.decisions());
        // Equal cost: at most `sims` new evaluations a decision either way.
        assert!(b.evaluations() <= b.decisions() * sims, "{}: {} evaluations", b.name(), b.evaluations());
    }
    // A fresh root ends with at most sims - 1 visits (its own evaluation has no edge); a kept one
    // adds the visits it had.
    assert!(fresh.root_visits() <= fresh.decisions() * (sims - 1));
    let mean = |b: &NetBot| b.root_visits() as f64 / b.decisions() as f64;
    eprintln!("kept {} of {} decisions, root visits a decision: kept {:.1}, fresh {:.1}", kept.reused_decisions(), kept.decisions(), mean(&kept), mean(&fresh));
    assert!(kept.reused_decisions() >= 3 && fresh.reused_decisions() == 0);
    assert!(mean(&kept) > mean(&fresh), "root visits a decision: kept {:.1}, fresh {:.1}", mean(&kept), mean(&fresh));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn net_bot_with_reuse_decides_alike_in_one_information_set() {
    // Surprise: two full states with Black's hidden backs drawn apart and one view of Red. Red is
    // the bot (reuse on, one seed); Black plays, in both games, actions legal in both whose
    // public observation is the same in both (so the public records stay equal): the choice of
    // a net bot in game 0 where it is one of those (as often as not a reply in Red's tree), else
    // one at random.
    tch::set_num_threads(1);
    let dir = checkpoint("surprise", "infoset");
    let params = format!("checkpoint={},sims=48,batch=4", dir.display());
    let v = variant("surprise");
    let mut rng = Pcg64Mcg::seed_from_u64(21);
    let mut reused = 0;
    let mut compared = 0;
    for game in 0..2u64 {
        let s = farm::start_state(v, &mut rng);
        let d = View::new(&s, Color::Red).sample(&mut rng);
        let mut g = [VariantGameState::unbounded(s), VariantGameState::unbounded(d)];
        let mut bots = [net_bot(&params, 40 + game, v), net_bot(&params, 40 + game, v)];
        let mut pick = Pcg64Mcg::seed_from_u64(game);
        let mut black = net_bot(&format!("{params},reuse=0"), game, v);
        for _ in 0..30 {
            if g[0].outcome().is_some() {
                break;
            }
            let (s0, s1) = (g[0].state(), g[1].state());
            if View::new(s0, Color::Red) != View::new(s1, Color::Red) {
                // Red saw something that differs (the back of a disc it captured, §S8): two
                // information sets from here on.
                break;
            }
            assert_eq!(g[0].infoset_key(player_of(Color::Red)), g[1].infoset_key(player_of(Color::Red)), "one information set of Red");
            let a = if s0.turn() == Color::Red {
                let [b0, b1] = &mut bots;
                let a0 = choose(b0, &g[0]);
                let a1 = choose(b1, &g[1]);
                assert_eq!(a0, a1, "game {game}: two decisions in one information set");
                assert_eq!(bots[0].root_visits(), bots[1].root_visits(), "game {game}");
                compared += 1;
                a0
            } else {
                let l1 = s1.legal_actions();
                let both: Vec<_> = s0
                    .legal_actions()
                    .into_iter()
                    .filter(|a| l1.contains(a) && public_hash(&s0.child(*a)) == public_hash(&s1.child(*a)))
                    .collect();
                if both.is_empty() {
                    break;
                }
                let b = choose(&mut black, &g[0]);
                if both.contains(&b) {
                    b
                } else {
                    both[pick.random_range(0..both.len())]
                }
            };
            assert!(!g[0].state().child(a).is_chance());
            for gi in &mut g {
                gi.play(a, |outs| outs[0].0);
            }
            assert_eq!(g[0].record(), g[1].record());
        }
        assert_eq!(bots[0].reused_decisions(), bots[1].reused_decisions());
        reused += bots[0].reused_decisions();
    }
    eprintln!("{compared} decisions of Red compared, {reused} reused");
    assert!(compared >= 6, "only {compared} decisions of Red compared");
    assert!(reused > 0, "no game reused a tree");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn self_play_keeps_one_tree_per_player() {
    tch::set_num_threads(1);
    let v = variant("surprise");
    let net = common::untrained_net(3);
    let cfg = GameConfig { concurrent_games: 2, max_plies: 40, temperature_plies: 6, ..GameConfig::default() };
    for reuse in [true, false] {
        let mut search = SearchConfig::with_simulations(48);
        search.reuse_tree = reuse;
        let player = Player::Net { net: 0, search };
        let jobs = (0..2)
            .map(|id| GameJob {
                id,
                seed: 90 + id,
                red: player.clone(),
                black: player.clone(),
                record: true,
                noise: true,
                temperature: 1.0,
                temperature_plies: 6,
            })
            .collect();
        let (results, _) = farm::play(v, &[&net], jobs, &cfg, |_| {});
        assert_eq!(results.len(), 2);
        let reused: u32 = results.iter().map(|r| r.reused_roots).sum();
        if reuse {
            assert!(reused >= 3, "only {reused} reused roots in two games");
        } else {
            assert_eq!(reused, 0);
        }
        for r in &results {
            assert!(!r.samples.is_empty());
            for s in &r.samples {
                // The policy target is the (reused) root's visit distribution over legal slots.
                let total: f32 = s.policy.iter().map(|p| p.1).sum();
                assert!((total - 1.0).abs() < 1e-4, "policy sums to {total}");
                assert!(s.policy.iter().all(|p| s.legal.contains(&p.0)));
            }
        }
    }
}
