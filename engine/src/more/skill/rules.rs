//! The rule table of skill-tile xiangqi (RULES-more.md §1): the [ASM] readings of §1.10 as named
//! options with the stated defaults, and the presets `skill` (board A), `skill-points` (board B)
//! and `skill-secret` (board A, secret tile set-up, §1.9).

use super::super::MoreError;

/// Which board (RULES-more.md §1.2, §1.10 #1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillBoard {
    /// Default: 9x11 square-cell board with a river row.
    A,
    /// Flag: the standard 9x10 point board (no river row, no stagnation, no T32 effect).
    B,
}

/// T9 reading (RULES-more.md §1.6 T9, §1.10 #14).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RingReading {
    /// Default (reading A): along the outer ring, turning once at a board corner.
    Perimeter,
    /// Flag (reading B): any L-shaped path with one turn at an empty square.
    LShape,
}

/// The rule table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillRules {
    /// §1.2 board.
    pub board: SkillBoard,
    /// §1.5 setup 3 / §1.9: tiles chosen in secret and revealed together (default: open).
    pub secret_setup: bool,
    /// §1.10 #14 T9 geometry.
    pub ring: RingReading,
    /// §1.6.1 T31 [ASM option, DOC-003]: a soldier that reached the enemy back rank without
    /// promoting may still promote on its side's next move if the general steps onto T31 then.
    pub t31_second_window: bool,
    /// §1.10 #4 flag: a river piece that only moved along the river row does not count as moved
    /// (it must leave the river to escape removal); default: any move of it counts.
    pub stagnation_strict: bool,
    /// §1.10 #15 flag: T10's leap is blocked only when both of the first two squares in the long
    /// direction are occupied (as missile xiangqi's fighter); default: the first square blocks.
    pub t10_fighter_block: bool,
    /// §1.10 #13 flag: T11 may also move over one screen (default: exactly two).
    pub t11_one_or_two: bool,
    /// §1.8 [ASM]: repetition draws and perpetual check by one side loses its move (as missile).
    pub ban_perpetual_check: bool,
    /// §1.8 [ASM]: plies without removal that draw (`None`: never).
    #[serde(with = "crate::more::config::plies")]
    pub no_capture_plies: Option<u16>,
}

impl Default for SkillRules {
    fn default() -> Self {
        SkillRules {
            board: SkillBoard::A,
            secret_setup: false,
            ring: RingReading::Perimeter,
            t31_second_window: false,
            stagnation_strict: false,
            t10_fighter_block: false,
            t11_one_or_two: false,
            ban_perpetual_check: true,
            no_capture_plies: Some(120),
        }
    }
}

/// A named preset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SkillPreset {
    /// Name.
    pub name: &'static str,
    /// One line.
    pub description: &'static str,
    /// Rules.
    pub rules: SkillRules,
}

/// Preset names.
pub const PRESETS: [&str; 3] = ["skill", "skill-points", "skill-secret"];

impl SkillRules {
    /// The rules of a preset.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<SkillPreset, MoreError> {
        let d = SkillRules::default();
        let (name, description, rules) = match name {
            "skill" => ("skill", "Skill-tile xiangqi 奇策象棋 (RULES-more.md §1), 9x11 board A with river row, open tile set-up", d),
            "skill-points" => ("skill-points", "Skill-tile xiangqi on the 9x10 point board B (§1.2 B)", SkillRules { board: SkillBoard::B, ..d }),
            "skill-secret" => ("skill-secret", "Skill-tile xiangqi, board A, secret tile set-up (§1.9)", SkillRules { secret_setup: true, ..d }),
            _ => return Err(MoreError::UnknownPreset(name.to_string())),
        };
        Ok(SkillPreset { name, description, rules })
    }
}
