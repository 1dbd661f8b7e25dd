//! The `net:` bot in the RULES-more games (#17 item 3): built through the farm's bot registry
//! (`farm::netmore::bot_from_spec`: the net factory for `net:`, the engine's registry else), it
//! plays complete legal games of missile against `greedy` and `random`, keeps its tree between
//! decisions, takes every search key (`mix=`/`vdepth=`, `pimc=`/`prior=`/`vmix=`) but the
//! variants' `layouts=`, refuses a checkpoint of another game naming both, and decides
//! identically (fixed seed) in two states of a hidden preset its player cannot tell apart.

use engine::game::Turn;
use engine::search::game_bot::GameBot;
use farm::netmore::bot_from_spec as from_spec;
use engine::more::presets::{with_game, Playable, WithGame};
use farm::netcounters::NetCounted;
use farm::netmore::GameNetBot;
use models::checkpoint::{self, SaveInfo};
use models::net::{Net, NetConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::{Path, PathBuf};

/// Saves an untrained small net of preset `game`'s encoding as a checkpoint under `dir`.
fn checkpoint_of(dir: &Path, game: &str) -> PathBuf {
    struct Enc;
    impl WithGame for Enc {
        type Output = engine::observe::Encoding;
        fn run<G: Playable>(self, g: G) -> Self::Output {
            g.encoding()
        }
    }
    let enc = with_game(game, None, Enc).expect("preset");
    // The net's initial weights come from libtorch's one global generator (`tch::manual_seed`
    // inside `Net::with_encoding`): tests running in parallel threads would interleave their
    // draws and get different nets run to run, so the seeded build is serialized.
    static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = INIT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let net = Net::with_encoding(&NetConfig::new(1, 8), &enc, tch::Device::Cpu, 7);
    let run = dir.join(game);
    let info = SaveInfo { step: 1, variant: game, config: serde_json::json!({}), git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(&run, &net, None, info).expect("save");
    run
}

fn register() {
    tch::set_num_threads(1);
}

/// Plays `games` games of the preset, the `net:` spec against `other` (colours alternating),
/// to the end; every move is legal. Returns (net wins, draws, plies).
struct Match<'a> {
    net: &'a str,
    other: &'a str,
    games: u64,
}

impl WithGame for Match<'_> {
    type Output = (u32, u32, usize);
    fn run<G: Playable>(self, start: G) -> Self::Output {
        let (mut wins, mut draws, mut plies) = (0, 0, 0);
        for i in 0..self.games {
            let net = from_spec(self.net, 10 + i, &start).unwrap_or_else(|e| panic!("{}: {e}", self.net));
            assert!(net.name().starts_with("net:missile@"), "{}", net.name());
            let other = from_spec(self.other, 20 + i, &start).expect("other bot");
            let mut bots: [Box<dyn GameBot<G>>; 2] = if i % 2 == 0 { [net, other] } else { [other, net] };
            let mut g = start.clone();
            let mut n = 0;
            while let Turn::Player(p) = g.turn() {
                let a = bots[p.index()].choose(&g);
                assert!(g.legal_actions().contains(&a), "illegal {a:?} at ply {n}");
                g.apply(a);
                n += 1;
                assert!(n < 2_000, "no end after {n} plies");
            }
            let net_seat = engine::game::PlayerId::new((i % 2) as u8);
            let r = g.returns(net_seat);
            wins += u32::from(r > 0.0);
            draws += u32::from(r == 0.0);
            plies += n;
        }
        (wins, draws, plies)
    }
}

#[test]
fn net_bot_plays_complete_missile_games_through_the_registry() {
    register();
    let tmp = tempfile::tempdir().expect("tempdir");
    let ck = checkpoint_of(tmp.path(), "missile").display().to_string();
    for other in ["greedy", "random"] {
        let spec = format!("net:checkpoint={ck},sims=8,batch=4");
        let (wins, draws, plies) = with_game("missile", None, Match { net: &spec, other, games: 2 }).expect("preset");
        eprintln!("missile: net (untrained) vs {other}: {wins} wins, {draws} draws in 2 games, {plies} plies");
        assert!(plies > 0);
    }
}

#[test]
fn net_bot_refuses_another_games_checkpoint() {
    register();
    let tmp = tempfile::tempdir().expect("tempdir");
    let skill = checkpoint_of(tmp.path(), "skill").display().to_string();
    struct Build(String);
    impl WithGame for Build {
        type Output = Result<String, String>;
        fn run<G: Playable>(self, g: G) -> Self::Output {
            from_spec(&self.0, 1, &g).map(|b| b.name())
        }
    }
    // Another game: the registry refuses it, naming both.
    let e = with_game("missile", None, Build(format!("net:checkpoint={skill}"))).expect("preset").err().unwrap_or_default();
    assert!(e.contains("\"skill\"") && e.contains("\"missile\""), "{e}");
    // The checkpoint's own game builds.
    assert!(with_game("skill", None, Build(format!("net:checkpoint={skill},sims=2"))).expect("preset").is_ok());
    // Every search key plays on every game: the leaf value (mix=/vdepth=, the game's expectimax
    // through `Scored::leaf_searcher`) and the PIMC root (pimc=/prior=/vmix=, `farm::hybrid`)
    // build on skill and choose a legal move.
    struct Plays(String);
    impl WithGame for Plays {
        type Output = Result<String, String>;
        fn run<G: Playable>(self, start: G) -> Self::Output {
            let mut bot = from_spec(&self.0, 1, &start)?;
            let mut g = start.clone();
            let mut rng = Pcg64Mcg::seed_from_u64(2);
            // Out of the set-up (its decisions are drawn without a search).
            while g.in_setup() {
                farm::search::resolve_chance(&mut g, &mut rng);
                let acts = g.legal_actions();
                g.apply(acts[rng.random_range(0..acts.len())]);
            }
            farm::search::resolve_chance(&mut g, &mut rng);
            let a = bot.choose(&g);
            assert!(g.legal_actions().contains(&a), "{}: illegal {a:?}", self.0);
            Ok(bot.name())
        }
    }
    for (extra, named) in [
        (",mix=0.5", ",mix=0.5,vdepth="),
        (",mix=1,vdepth=0", ",mix=1,vdepth=0"),
        (",pimc=0.5", ",pimc=0.5,prior=40"),
        (",pimc=1,prior=10,vmix=2", ",pimc=1,prior=10,vmix=2"),
    ] {
        let spec = format!("net:checkpoint={skill},sims=4{extra}");
        let name = with_game("skill", None, Plays(spec.clone())).expect("preset").unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(name.contains(named), "{spec}: {name}");
    }
    // layouts= (Surprise layout mixtures) is for the RULES.md variants alone: a valid mixture is
    // refused when the bot is seated at another game, naming it; a missing file, a missing
    // source and a missing checkpoint are refused.
    let mixture = tmp.path().join("mixture.txt");
    std::fs::write(&mixture, "red mixture A:1\nblack mixture A:1\n").expect("mixture");
    for (spec, says) in [
        (format!("net:checkpoint={skill},layouts={}", mixture.display()), "RULES.md variants"),
        (format!("net:checkpoint={skill},layouts=x.txt"), "layouts"),
        ("net:sims=3".to_string(), "checkpoint=PATH"),
        (format!("net:checkpoint={}", tmp.path().join("none").display()), "none"),
    ] {
        let e = with_game("skill", None, Build(spec.clone())).expect("preset").err().unwrap_or_default();
        assert!(e.contains(says), "{spec}: {e}");
    }
    let e = with_game("skill", None, Build(format!("net:checkpoint={skill},layouts={}", mixture.display()))).expect("preset").err().unwrap_or_default();
    assert!(e.contains("\"skill\""), "{e}");
    // A variant's checkpoint plays its variant only (the one factory loads it with the variants'
    // encoding), not a RULES-more game: refused naming both.
    let run = tmp.path().join("xq");
    let net = Net::new(&NetConfig::new(1, 8), tch::Device::Cpu, 3);
    let info = SaveInfo { step: 0, variant: "xiangqi", config: serde_json::json!({}), git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(&run, &net, None, info).expect("save");
    let e = with_game("skill", None, Build(format!("net:checkpoint={}", run.display()))).expect("preset").err().unwrap_or_default();
    assert!(e.contains("\"xiangqi\"") && e.contains("\"skill\""), "{e}");
    // ... and a RULES-more checkpoint is refused at a RULES.md variant, naming both.
    let xq = engine::variant::game_state::VariantGameState::new(engine::variant::State::start(engine::any_game::load_variant("xiangqi").expect("xiangqi"), None).expect("start"));
    let e = from_spec(&format!("net:checkpoint={skill}"), 1, &xq).err().unwrap_or_default();
    assert!(e.contains("\"skill\"") && e.contains("\"xiangqi\""), "{e}");
    // A preset of the same game type but another encoding: refused when built for a state of it.
    let missile = checkpoint_of(tmp.path(), "missile").display().to_string();
    struct ForState(String);
    impl WithGame for ForState {
        type Output = Result<(), String>;
        fn run<G: Playable>(self, g: G) -> Self::Output {
            GameNetBot::from_params(&self.0, 1, &g).map(|_| ())
        }
    }
    let same = with_game("missile", None, ForState(format!("checkpoint={missile}"))).expect("preset");
    assert!(same.is_ok(), "{same:?}");
    let enc_differs = {
        struct Enc;
        impl WithGame for Enc {
            type Output = engine::observe::Encoding;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                g.encoding()
            }
        }
        let a = with_game("missile", None, Enc).expect("preset");
        let b = with_game("missile-hidden-5-down", None, Enc).expect("preset");
        a.check_same(&b).is_err()
    };
    if enc_differs {
        let e = with_game("missile-hidden-5-down", None, ForState(format!("checkpoint={missile}"))).expect("preset").err().unwrap_or_default();
        assert!(e.contains("\"missile\"") && e.contains("missile-hidden-5-down"), "{e}");
    }
}

/// Along random games of the preset: at each decision after the set-up, a state drawn from the
/// mover's information set (its hidden pieces differ from the true state's, its information
/// key is the same) gets the same decision from a fresh bot of the same seed as the true state.
struct SameInformation<'a>(&'a str);

impl WithGame for SameInformation<'_> {
    type Output = u32;
    fn run<G: Playable>(self, start: G) -> u32 {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut compared = 0;
        for _ in 0..3 {
            let mut g = start.clone();
            for ply in 0..60 {
                let Turn::Player(me) = g.turn() else { break };
                let acts = g.legal_actions();
                if !g.in_setup() && ply % 3 == 0 {
                    let twin = (0..20).map(|_| g.sample_determinization(me, &mut rng)).find(|d| d.full_fen() != g.full_fen());
                    if let Some(twin) = twin {
                        assert_eq!(twin.infoset_key(me), g.infoset_key(me));
                        let a = from_spec(self.0, 99, &g).expect("net").choose(&g);
                        let b = from_spec(self.0, 99, &twin).expect("net").choose(&twin);
                        assert_eq!(a, b, "ply {ply}: {} vs {}", g.full_fen(), twin.full_fen());
                        compared += 1;
                    }
                }
                g.apply(acts[rng.random_range(0..acts.len())]);
            }
        }
        compared
    }
}

#[test]
fn net_bot_decides_alike_in_one_information_set() {
    register();
    let tmp = tempfile::tempdir().expect("tempdir");
    let game = "missile-hidden-5-down";
    let ck = checkpoint_of(tmp.path(), game).display().to_string();
    let compared = with_game(game, None, SameInformation(&format!("net:checkpoint={ck},sims=16,batch=4"))).expect("preset");
    assert!(compared >= 5, "only {compared} hidden states compared");
}

/// The bot keeps its tree: over a game against another net bot of the same net (whose replies
/// the bot's own tree explores most), decisions take over the previous tree with its visits;
/// `reuse=0` never does.
struct Reuse(String);

impl WithGame for Reuse {
    type Output = [(u64, u64, u64); 2];
    fn run<G: Playable>(self, start: G) -> Self::Output {
        let mut out = [(0, 0, 0); 2];
        for (k, extra) in ["", ",reuse=0"].into_iter().enumerate() {
            let mut bot = GameNetBot::<G>::from_params(&format!("{}{extra}", self.0), 3, &start).expect("net");
            let mut other = GameNetBot::<G>::from_params(&self.0, 4, &start).expect("net");
            let mut g = start.clone();
            for _ in 0..60 {
                let Turn::Player(p) = g.turn() else { break };
                let a = if p.index() == 0 { bot.choose(&g) } else { other.choose(&g) };
                assert!(g.legal_actions().contains(&a));
                g.apply(a);
            }
            out[k] = (bot.decisions(), bot.reused_decisions(), bot.reused_visits());
        }
        out
    }
}

#[test]
fn net_bot_keeps_its_tree_between_decisions() {
    register();
    let tmp = tempfile::tempdir().expect("tempdir");
    let ck = checkpoint_of(tmp.path(), "missile").display().to_string();
    let [on, off] = with_game("missile", None, Reuse(format!("checkpoint={ck},sims=200,batch=4"))).expect("preset");
    eprintln!("reuse on: {on:?}; off: {off:?} (decisions, reused decisions, reused visits)");
    // How many visits the taken-over roots held depends on the net's weights (24 or 3 in runs
    // of this test, once 0 when the weights were raced): that the visits of the line played are
    // kept exactly is `reuse_keeps_the_visits_of_the_line_played_in_every_more_game` (in
    // search_generic.rs); here the bot must take its tree over at all, and never with `reuse=0`.
    assert!(on.0 >= 10 && on.1 > 0, "{on:?}");
    assert_eq!((off.1, off.2), (0, 0));
}
