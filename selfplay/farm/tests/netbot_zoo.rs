//! The `net:` bot on a published net (issue #14 item 5): `zoo=NAME` with `zoo_dir=DIR` or
//! `$ANQI_ZOO`, one move played; a bad combination, an unknown name and a tampered net are
//! errors that say so. The bot is the one net bot (`farm::netmore::GameNetBot`) on the
//! published net's variant (`VariantGameState`), built with the game in hand or by the one
//! factory (`farm::netmore::factory`, which reads the game from the published net).

use engine::game::Game;
use engine::search::GameBot;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use farm::netcounters::NetCounted;
use farm::netmore::GameNetBot;
use models::checkpoint::{self, SaveInfo};
use models::net::{Net, NetConfig};
use models::zoo::{self, PublishInfo};

#[test]
fn net_bot_plays_a_published_net() {
    tch::set_num_threads(1);
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    let net = Net::new(&NetConfig::new(1, 8), tch::Device::Cpu, 5);
    let info = SaveInfo { step: 3, variant: "xiangqi", config: serde_json::json!({}), git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(&run, &net, None, info).expect("save");
    let z = tmp.path().join("zoo");
    let e = zoo::publish(&run, &z, "tiny", PublishInfo::default()).expect("publish");
    let zd = z.display().to_string();

    let variant: &'static Variant = engine::any_game::load_variant("xiangqi").expect("xiangqi");
    let g = VariantGameState::new(State::start(variant, None).expect("start"));
    for spec in [format!("zoo=tiny,zoo_dir={zd},sims=4"), format!("zoo={},zoo_dir={zd},sims=4,batch=2", e.stem)] {
        let mut bot = GameNetBot::from_params(&spec, 1, &g).unwrap_or_else(|err| panic!("{spec}: {err}"));
        assert!(bot.name().contains(&format!("zoo:{}", e.stem)), "{}", bot.name());
        assert_eq!(bot.trained_for(), "xiangqi");
        let a = bot.choose(&g);
        assert!(g.legal_actions().contains(&a));
        assert!(bot.evaluations() > 0);
    }
    // The one factory reads the game from the published net and seats it at that game.
    let built = farm::netmore::factory(&format!("zoo=tiny,zoo_dir={zd},sims=2"), 1).expect("factory");
    assert_eq!(built.game, "xiangqi");
    let mut bot = built.into_bot(&g).expect("seated at xiangqi");
    assert!(g.legal_actions().contains(&bot.choose(&g)));
    // $ANQI_ZOO when no zoo_dir is given (only this test in this binary reads it).
    std::env::set_var(zoo::ENV_DIR, &z);
    let bot = GameNetBot::from_params("zoo=tiny,sims=2", 1, &g);
    std::env::remove_var(zoo::ENV_DIR);
    assert!(bot.is_ok(), "{:?}", bot.err());

    let ck = run.display().to_string();
    for (spec, says) in [
        (format!("zoo=tiny,checkpoint={ck}"), "exclude each other"),
        (format!("checkpoint={ck},zoo_dir={zd}"), "zoo_dir= goes with zoo"),
        (format!("zoo=nope,zoo_dir={zd}"), &e.stem),
        ("sims=3".to_owned(), "zoo=NAME"),
    ] {
        let err = GameNetBot::from_params(&spec, 1, &g).err().unwrap_or_default();
        assert!(err.contains(says), "{spec}: {err}");
    }
    let mut bytes = std::fs::read(&e.weights).expect("weights");
    let k = bytes.len() - 5;
    bytes[k] ^= 1;
    std::fs::write(&e.weights, &bytes).expect("tamper");
    let err = GameNetBot::from_params(&format!("zoo=tiny,zoo_dir={zd}"), 1, &g).err().unwrap_or_default();
    assert!(err.contains("SHA-256 mismatch") && err.contains(&checkpoint::sha256_hex(&bytes)), "{err}");
}
