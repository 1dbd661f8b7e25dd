//! Chinese records of the RULES-more.md games (engine::more::notation).

use engine::more::presets::Playable;
use engine::more::missile::MissileGame;
use engine::more::skill::game::DEFAULT_TILES;
use engine::more::skill::{SkillGame, SkillRules};

fn chinese_of<G: Playable>(g: &G, s: &str) -> String {
    let a = g.legal_actions().into_iter().find(|&a| g.action_string(a) == s).unwrap_or_else(|| panic!("{s} not legal"));
    g.chinese(a)
}

#[test]
fn chinese_records_on_the_11_file_board() {
    let g = MissileGame::preset("missile").expect("test fixture");
    assert_eq!(chinese_of(&g, "c2f2"), "炮九平六");
    assert_eq!(chinese_of(&g, "c0d2"), "马九进八");
    assert_eq!(chinese_of(&g, "a0a9"), "弹十一进九自毁");
    assert_eq!(chinese_of(&g, "b2c5"), "机十进九");
    let mut h = g.clone();
    h.play_str("c2f2").expect("test fixture");
    assert_eq!(chinese_of(&h, "c9d7"), "马３进４");
}

#[test]
fn chinese_records_on_the_skill_board_match_xiangqi_names() {
    let g = SkillGame::with_tiles(SkillRules::preset("skill").expect("test fixture"), DEFAULT_TILES);
    assert_eq!(chinese_of(&g, "b2e2"), "炮八平五");
    assert_eq!(chinese_of(&g, "a0a2"), "车九进二");
}

#[test]
fn actions_report_replays_moves_of_every_game() {
    let r = engine::more::presets::actions("missile", None, "c2f2 c7f7").expect("test fixture");
    assert_eq!(r.actions.len(), engine::more::presets::actions("missile", None, "c2f2 c7f7").expect("test fixture").actions.len());
    assert!(r.fen.ends_with("w a0,k0,a9,k9 2 2"));
    let s = engine::more::presets::actions("skill", None, "").expect("test fixture");
    assert_eq!(s.actions.len(), 32, "the tile set-up comes first");
    let c = engine::more::presets::actions("camel-3", None, "c2f2").expect("test fixture");
    assert!(c.fen.contains(" b "));
    assert!(engine::more::presets::actions("camel-3", None, "z9z9").is_err());
}
