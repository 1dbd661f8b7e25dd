//! The rule table of missile xiangqi (RULES-more.md §3): every [ASM] reading of §3.9 is a named
//! option with the stated default, and the presets `missile`, `missile-hidden-5`,
//! `missile-hidden-centre` (§3.8) and the face-down readings of the two hidden set-ups,
//! `missile-hidden-5-down` and `missile-hidden-centre-down` (§3.8, alternative reading).

use super::super::MoreError;

/// Which in-base missiles the base rule protects (RULES-more.md §3.5, §3.9 #6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BaseReading {
    /// Default: only when an in-base missile attacks an in-base missile.
    Narrow,
    /// Flag: any missile attacking an in-base missile self-destructs.
    Broad,
}

/// What a protected missile attack does (RULES-more.md §3.5, §3.9 #7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BaseOutcome {
    /// Default: a legal move in which the attacker is removed and the target stays.
    SelfDestruct,
    /// Flag: the move is illegal.
    Illegal,
}

/// The "dead general" reading (RULES-more.md §3.7 win 3, §3.9 #9).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeadGeneral {
    /// Default: under check by an enemy missile standing in the defender's palace only general
    /// moves are legal.
    Strict,
    /// Flag: any legal answer (the general still never takes a missile).
    Lenient,
}

/// Which points block a fighter (RULES-more.md §3.3, §3.9 #4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FighterBlock {
    /// Default: both points straight ahead on the long axis, (0,s) and (0,2s), are occupied.
    TwoAhead,
    /// Flag: any two of the three long-side points (0,s), (0,2s), (0,3s) are occupied.
    AnyTwoOfThree,
}

/// The set-up method (RULES-more.md §3.8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetupMethod {
    /// 明布明著法: the fixed array of §3.6.
    Open,
    /// 暗布明著法, 五兵守門法 [ASM]: all five soldiers fixed; chariots, horses, cannons and
    /// fighters placed secretly on ranks 1-3 (our 0-2).
    HiddenFiveSoldiers,
    /// 暗布明著法, 中兵守門法 [ASM]: only the centre soldier fixed; the other four soldiers placed
    /// secretly on ranks 1-5 (our 0-4), the other pieces as above.
    HiddenCentreSoldier,
}

/// The rule table (RULES-more.md §3), options with their defaults.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileRules {
    /// §3.5 base protection reading.
    pub base_reading: BaseReading,
    /// §3.5 protected attack outcome.
    pub base_outcome: BaseOutcome,
    /// §3.7 dead general reading.
    pub dead_general: DeadGeneral,
    /// §3.9 #4 fighter blocking points.
    pub fighter_block: FighterBlock,
    /// §3.7 forbidden 1: perpetual check by any piece is banned.
    pub ban_perpetual_check: bool,
    /// §3.7 forbidden 2: perpetual chase by any piece except general and soldiers is banned.
    pub ban_perpetual_chase: bool,
    /// §3.7 draw 1 [ASM]: plies without removal after which the game is drawn (`None`: never).
    #[serde(with = "crate::more::config::plies")]
    pub no_capture_plies: Option<u16>,
    /// §3.8 set-up method.
    pub setup: SetupMethod,
    /// §3.8 alternative reading (flag) [ASM]: "pieces stay face-down until first moved, as in
    /// 揭棋". After a hidden set-up the pieces each side placed stay face-down (their owner knows
    /// them, the opponent sees only a piece of that colour) until they first move or are removed;
    /// see [`super::game`] for the exact semantics. Default `false` (the doc's "明著", open moves,
    /// argues against it). It needs a hidden set-up: a rule file that sets it with
    /// `setup = "open"` is an error ([`MoreError::RulesFile`] naming `rules.face_down`), and a
    /// game built from such rules directly has no face-down pieces.
    pub face_down: bool,
}

impl Default for MissileRules {
    fn default() -> Self {
        MissileRules {
            base_reading: BaseReading::Narrow,
            base_outcome: BaseOutcome::SelfDestruct,
            dead_general: DeadGeneral::Strict,
            fighter_block: FighterBlock::TwoAhead,
            ban_perpetual_check: true,
            ban_perpetual_chase: true,
            no_capture_plies: Some(120),
            setup: SetupMethod::Open,
            face_down: false,
        }
    }
}

/// A named preset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MissilePreset {
    /// Preset name (`anqi variants`).
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// The rules.
    pub rules: MissileRules,
}

/// The preset names of missile xiangqi.
pub const PRESETS: [&str; 5] = ["missile", "missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down"];

impl MissileRules {
    /// The rules of a preset.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`] for other names.
    pub fn preset(name: &str) -> Result<MissilePreset, MoreError> {
        let base = MissileRules::default();
        let (description, setup, face_down) = match name {
            "missile" => ("Missile xiangqi 飛彈象棋 (RULES-more.md §3), 11x10, open set-up", SetupMethod::Open, false),
            "missile-hidden-5" => ("Missile xiangqi, hidden set-up 五兵守門法 (§3.8)", SetupMethod::HiddenFiveSoldiers, false),
            "missile-hidden-centre" => ("Missile xiangqi, hidden set-up 中兵守門法 (§3.8)", SetupMethod::HiddenCentreSoldier, false),
            "missile-hidden-5-down" => {
                ("Missile xiangqi, hidden set-up 五兵守門法, placed pieces face-down until first moved (§3.8 alternative reading)", SetupMethod::HiddenFiveSoldiers, true)
            }
            "missile-hidden-centre-down" => {
                ("Missile xiangqi, hidden set-up 中兵守門法, placed pieces face-down until first moved (§3.8 alternative reading)", SetupMethod::HiddenCentreSoldier, true)
            }
            _ => return Err(MoreError::UnknownPreset(name.to_string())),
        };
        let name = PRESETS.iter().copied().find(|n| *n == name).unwrap_or("missile");
        Ok(MissilePreset { name, description, rules: MissileRules { setup, face_down, ..base } })
    }
}
