//! The 32 skill tiles of 奇策象棋 (RULES-more.md §1.6): numbers T1-T32 (group 4 renumbered
//! T25-T32 as in the rules file), Chinese names and kinds.

/// A tile number, 1..=32 (RULES-more.md §1.6 "T1" .. "T32").
pub type TileId = u8;

/// 无阻车 Unobstructed Chariot (§1.6 T1).
pub const T1: TileId = 1;
/// 腾空马 Soaring Horse (T2).
pub const T2: TileId = 2;
/// 无敌炮 Invincible Cannon (T3).
pub const T3: TileId = 3;
/// 捐躯象 Self-sacrificing Elephant (T4).
pub const T4: TileId = 4;
/// 斜跳士 Vaulting Advisor (T5).
pub const T5: TileId = 5;
/// 将可飞 Flying General (T6, §1.6.1).
pub const T6: TileId = 6;
/// 拼底兵 Back-rank Trading Soldier (T7).
pub const T7: TileId = 7;
/// 可退兵 Retreating Soldier (T8).
pub const T8: TileId = 8;
/// 外环车 Ring-road Chariot (T9).
pub const T9: TileId = 9;
/// 行骡马 Mule Horse (T10).
pub const T10: TileId = 10;
/// 加能炮 Power Cannon (T11).
pub const T11: TileId = 11;
/// 阔步象 Striding Elephant (T12).
pub const T12: TileId = 12;
/// 阔步士 Striding Advisor (T13).
pub const T13: TileId = 13;
/// 将可牵 Pinning General (T14, §1.6.1).
pub const T14: TileId = 14;
/// 忘河兵 River-forgetting Soldier (T15).
pub const T15: TileId = 15;
/// 胜利兵 Victory Soldier (T16, §1.6.1).
pub const T16: TileId = 16;
/// 全线车 All-lines Chariot (T17).
pub const T17: TileId = 17;
/// 驼步马 Camel-step Horse (T18).
pub const T18: TileId = 18;
/// 全线炮 All-lines Cannon (T19).
pub const T19: TileId = 19;
/// 增值象 Value-added Elephant (T20).
pub const T20: TileId = 20;
/// 直角士 Right-angle Advisor (T21).
pub const T21: TileId = 21;
/// 将士和 General-as-Advisor (T22).
pub const T22: TileId = 22;
/// 卧底兵 Undercover Soldier (T23).
pub const T23: TileId = 23;
/// 侧冲兵 Side-charging Soldier (T24).
pub const T24: TileId = 24;
/// 王者车 Royal Chariot (T25).
pub const T25: TileId = 25;
/// 侵宫马 Palace-raiding Horse (T26).
pub const T26: TileId = 26;
/// 河架炮 River-screen Cannon (T27, §1.6.1).
pub const T27: TileId = 27;
/// 过河象 River-crossing Elephant (T28).
pub const T28: TileId = 28;
/// 离宫士 Palace-leaving Advisor (T29).
pub const T29: TileId = 29;
/// 帅阔步 Striding General (T30).
pub const T30: TileId = 30;
/// 升底兵 Promoting Soldier (T31, §1.6.1).
pub const T31: TileId = 31;
/// 水鬼兵 Water-ghost Soldier (T32).
pub const T32: TileId = 32;

/// Number of tiles per side (§1.5 setup 1).
pub const COUNT: u8 = 32;

/// Chinese names, index = tile number - 1.
pub const NAMES: [&str; 32] = [
    "无阻车", "腾空马", "无敌炮", "捐躯象", "斜跳士", "将可飞", "拼底兵", "可退兵", "外环车", "行骡马", "加能炮", "阔步象", "阔步士", "将可牵",
    "忘河兵", "胜利兵", "全线车", "驼步马", "全线炮", "增值象", "直角士", "将士和", "卧底兵", "侧冲兵", "王者车", "侵宫马", "河架炮", "过河象",
    "离宫士", "帅阔步", "升底兵", "水鬼兵",
];

/// The Chinese name of a tile (`?` for a number outside 1..=32).
pub fn name(t: TileId) -> &'static str {
    NAMES.get((t as usize).wrapping_sub(1)).copied().unwrap_or("?")
}
