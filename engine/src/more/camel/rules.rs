//! The rule table of camel xiangqi 神驼象棋 (RULES-more.md §2): the edition (1-7, each adding to
//! the one before, §2.2) and the [ASM] readings of §2.14 as options with their defaults; presets
//! `camel-1` .. `camel-7`.

use super::super::MoreError;

/// Stacking rule set (RULES-more.md §2.10, §2.14 #27).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StackRules {
    /// 第一组合规则: the stack moves by either piece's rule; only the top leaves alone.
    I,
    /// Default, 第二组合规则: only singleton types, not while attacked, no river crossing as a
    /// unit, the top's rule only. Written `"ii"` in rule files (kebab case would make it
    /// `"i-i"`, still read).
    #[serde(rename = "ii", alias = "i-i")]
    II,
}

/// The rule table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CamelRules {
    /// Edition 1-7 (§2.2).
    pub edition: u8,
    /// §2.10 stacking rule set (edition 6+).
    pub stacking: StackRules,
    /// §2.14 #3 alternative: one 丞 per side on the palace's front-centre square instead of two
    /// on the elephant lattice.
    pub one_chancellor: bool,
    /// §2.14 #14 flag: edition 4's "no consecutive palace actions" already in edition 3.
    pub no_consecutive_rotation_ed3: bool,
    /// §2.14 #1: the board width in files ("棋盘扩大" gives no size; 11 [ASM] by default). Odd,
    /// 11 to 15; the §2.5 array stands on the centre 11 files and the palaces on the centre 3.
    pub files: u8,
    /// §2.3, §2.14 #12 option: doc 002's river row (§1.2 board A, §1.3) between the halves, so
    /// the board has 11 ranks; default `false` (points map to squares one-to-one, 10 ranks).
    pub river_row: bool,
    /// §2.13 optional non-canonical variant (edition 5+): each player places the 8 tricks and
    /// the blank under its own plate in secret before the game (a set-up phase); the layout
    /// stays hidden from the opponent until the plate is first flipped. Default `false`: the
    /// fixed public layout of §2.9 [ASM].
    pub secret_tricks: bool,
    /// §2.12 [ASM]: third repetition draws unless one side checked throughout (it loses).
    pub ban_perpetual_check: bool,
    /// §2.12 [ASM]: plies without capture that draw.
    #[serde(with = "crate::more::config::plies")]
    pub no_capture_plies: Option<u16>,
}

impl CamelRules {
    /// Edition `e` with the default options.
    pub fn edition(e: u8) -> CamelRules {
        CamelRules { edition: e, stacking: StackRules::II, one_chancellor: false, no_consecutive_rotation_ed3: false, files: 11, river_row: false, secret_tricks: false, ban_perpetual_check: true, no_capture_plies: Some(120) }
    }

    /// Widths [`CamelRules::files`] may take.
    pub const WIDTHS: [u8; 3] = [11, 13, 15];

    /// Camel redemption (edition 2+, §2.6).
    pub fn redemption(&self) -> bool {
        self.edition >= 2
    }
    /// Rotating plate (edition 3+, §2.7).
    pub fn rotation(&self) -> bool {
        self.edition >= 3
    }
    /// Translation, soldier retreat, no consecutive palace actions, no enemy on a moving plate
    /// (edition 4+, §2.8).
    pub fn translation(&self) -> bool {
        self.edition >= 4
    }
    /// Trick face and flip (edition 5+, §2.9).
    pub fn tricks(&self) -> bool {
        self.edition >= 5
    }
    /// Stacking (edition 6+, §2.10).
    pub fn stacking(&self) -> bool {
        self.edition >= 6
    }
    /// Number face, soldier freeze, reversible flips (edition 7, §2.11).
    pub fn numbers(&self) -> bool {
        self.edition >= 7
    }
}

/// A named preset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CamelPreset {
    /// Name.
    pub name: &'static str,
    /// One line.
    pub description: &'static str,
    /// Rules.
    pub rules: CamelRules,
}

/// Preset names.
pub const PRESETS: [&str; 8] = ["camel-1", "camel-2", "camel-3", "camel-4", "camel-5", "camel-6", "camel-7", "camel-7-secret"];

const DESCRIPTIONS: [&str; 8] = [
    "Camel xiangqi 神驼象棋 ed. 1 普通版 (RULES-more.md §2): camel and chancellor on 11x10",
    "Camel xiangqi ed. 2 加强版: camel redemption (§2.6)",
    "Camel xiangqi ed. 3 魔宫版: rotating palace plate (§2.7)",
    "Camel xiangqi ed. 4 魔宫加强版: translating plate, soldier retreat (§2.8)",
    "Camel xiangqi ed. 5 魔宫奇计版: trick face and flip (§2.9)",
    "Camel xiangqi ed. 6 组合变化版: stacking, rule set II (§2.10)",
    "Camel xiangqi ed. 7 魔宫计算版: number face, soldier freeze, reversible flips (§2.11)",
    "Camel xiangqi ed. 7 with secret trick layouts placed before the game (§2.13 option)",
];

impl CamelRules {
    /// The rules of a preset.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<CamelPreset, MoreError> {
        let i = PRESETS.iter().position(|n| *n == name).ok_or_else(|| MoreError::UnknownPreset(name.to_string()))?;
        Ok(CamelPreset { name: PRESETS[i], description: DESCRIPTIONS[i], rules: match PRESETS[i] {
                "camel-7-secret" => CamelRules { secret_tricks: true, ..CamelRules::edition(7) },
                _ => CamelRules::edition(i as u8 + 1),
            },
        })
    }
}
