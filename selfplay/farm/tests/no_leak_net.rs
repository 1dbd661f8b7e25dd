//! The no-leak battery's `net:` bot (issue 13 item 8; the engine half is
//! `engine/tests/no_leak.rs`, the UCI half `selfplay/tests/no_leak.rs`): with a saved (untrained)
//! checkpoint of each variant, the one net bot (`farm::netmore::GameNetBot` on
//! `VariantGameState`) chooses alike in two full states of one information set of the player to
//! move, over random Surprise and Jieqi positions.

use engine::search::GameBot;
use engine::variant::game_state::VariantGameState;
use engine::variant::{fen as vfen, Variant, View};
use farm::netmore::GameNetBot;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

mod common;

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

#[test]
fn no_leak_net_bot_chooses_alike_in_one_information_set() {
    let dir = std::env::temp_dir().join(format!("anqi-no-leak-net-{}", std::process::id()));
    // The bot refuses a checkpoint of another variant (`GameBot::check_game`): one per variant,
    // of the same untrained weights.
    for name in ["surprise", "jieqi"] {
        common::save_untrained(&dir.join(name), name, 3);
    }
    let ck = |name: &str| dir.join(name).display().to_string();
    // One leaf per net call, and eight with virtual loss (the bot's default).
    for (name, params) in [
        ("surprise", format!("checkpoint={},sims=16,batch=1", ck("surprise"))),
        ("jieqi", format!("checkpoint={},sims=16,batch=1", ck("jieqi"))),
        ("surprise", format!("checkpoint={},sims=24,batch=8", ck("surprise"))),
        ("jieqi", format!("checkpoint={},sims=24,batch=8", ck("jieqi"))),
        // Leaf values mixed with a tactical search of the determinization (value_mix).
        ("surprise", format!("checkpoint={},sims=8,batch=4,mix=1,vdepth=1", ck("surprise"))),
        ("jieqi", format!("checkpoint={},sims=8,batch=1,mix=0.5", ck("jieqi"))),
        // A PIMC root ranked with the net's search distribution (crate::hybrid).
        ("surprise", format!("checkpoint={},sims=4,batch=4,pimc=1,prior=40", ck("surprise"))),
        ("jieqi", format!("checkpoint={},sims=4,batch=4,pimc=0.5,prior=1000", ck("jieqi"))),
        // ... with the net's values of the root actions (vmix; a large weight so they decide).
        ("surprise", format!("checkpoint={},sims=4,batch=4,pimc=1,prior=0,vmix=50", ck("surprise"))),
        ("jieqi", format!("checkpoint={},sims=4,batch=4,pimc=0.5,prior=40,vmix=2", ck("jieqi"))),
    ] {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut positions = 0;
        // A PIMC root searches 8 determinizations at depth 2 per decision (0.3-4 s in Jieqi on
        // the 2-core box): fewer positions for those.
        let want = if params.contains("pimc=") { 5 } else { 20 };
        while positions < want {
            let s = common::random_decision(v, 40, &mut rng);
            let d = View::new(&s, s.turn()).sample(&mut rng);
            let (gs, gd) = (VariantGameState::new(s.clone()), VariantGameState::new(d));
            let a1 = GameNetBot::from_params(&params, 5, &gs).expect("net bot").choose(&gs);
            let a2 = GameNetBot::from_params(&params, 5, &gd).expect("net bot").choose(&gd);
            assert_eq!(a1, a2, "{name}: the net bot chose differently in one information set: {}", vfen::write(&s));
            positions += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
