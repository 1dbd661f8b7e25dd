//! The registry of the RULES-more.md games: what a game's folder gives the rest of the engine
//! ([`RuleFamily`]), and the one list ([`games!`], invoked in `more/mod.rs`) that turns the
//! folders into [`super::MoreVariant`], the rule-file families and the preset list.
//!
//! A new game is its folder `more/NAME/` (rules, move generation, FEN, [`crate::game::Game`],
//! [`crate::search::Scored`], [`crate::observe::Observe`], [`super::observe::ObserveAll`],
//! [`super::presets::Playable`] and this trait) and one line of the list; every command that
//! resolves a game name (`anqi play`, `perft`, `variants`, `tournament`, `ladder`, `serve`,
//! `train`) then plays it (docs/architecture.md §10).

use super::observe::ObserveAll;
use super::presets::Playable;
use super::MoreError;
use crate::any_game::Start;

/// A RULES-more.md game as its folder registers it: the preset type (`name`, `description`,
/// `rules`) of one family, with everything the registry needs to list its presets, read a rule
/// file's `[rules]` table for it and build its game.
pub trait RuleFamily: Copy + std::fmt::Debug + Eq + Into<super::MoreVariant> + 'static {
    /// The family's name: `game = NAME` in a rule file, [`super::MoreVariant::family`].
    const NAME: &'static str;
    /// The preset a rule file with `game = NAME` and no `base` starts from.
    const DEFAULT_PRESET: &'static str;
    /// The preset names, in the order `anqi variants` lists them.
    const PRESETS: &'static [&'static str];
    /// The rule struct: a rule file's `[rules]` table (its fields are the keys).
    type Rules: serde::Serialize + serde::de::DeserializeOwned + Copy;
    /// The game these rules are played as.
    type Game: Playable + ObserveAll;

    /// The preset `name`.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`] for a name not in [`RuleFamily::PRESETS`].
    fn preset(name: &str) -> Result<Self, MoreError>;
    /// A preset of this family with these rules (a rule file's result).
    fn with_rules(name: &'static str, description: &'static str, rules: Self::Rules) -> Self;
    /// The name (preset name, or a rule file's `name`).
    fn name(&self) -> &'static str;
    /// One line.
    fn description(&self) -> &'static str;
    /// The rules.
    fn rules(&self) -> &Self::Rules;
    /// Whether a player's set-up is hidden from the other, so that the preset has an open twin
    /// (docs/open-twins.md §O6).
    fn hidden_setup(&self) -> bool;
    /// Checks rules a rule file produced beyond their form (a combination the game cannot play).
    ///
    /// # Errors
    /// [`MoreError::RulesFile`] naming `file` and the key at fault. Default: none.
    fn check(rules: &Self::Rules, file: &str) -> Result<(), MoreError> {
        let _ = (rules, file);
        Ok(())
    }
    /// The game of this preset at `start` ([`Start::AfterSetup`] is perft's start, RULES.md
    /// §P4), without a ply horizon of its own.
    ///
    /// # Errors
    /// The FEN's error for [`Start::Fen`].
    fn game(self, start: Start<'_>) -> Result<Self::Game, MoreError>;
}

/// The accessors of [`RuleFamily`] for a preset struct with the fields `name`, `description` and
/// `rules` (every game's `NAMEPreset`): `preset_fields!(NAMERules);` inside its impl.
macro_rules! preset_fields {
    ($rules:ty) => {
        fn with_rules(name: &'static str, description: &'static str, rules: $rules) -> Self {
            Self { name, description, rules }
        }
        fn name(&self) -> &'static str {
            self.name
        }
        fn description(&self) -> &'static str {
            self.description
        }
        fn rules(&self) -> &$rules {
            &self.rules
        }
    };
}
pub(crate) use preset_fields;

/// Something done with a preset whatever its family: [`super::MoreVariant::visit`] hands the
/// preset to [`WithFamily::run`].
pub trait WithFamily {
    /// What the body returns.
    type Output;
    /// The body, for preset `p`.
    fn run<P: RuleFamily>(self, p: P) -> Self::Output;
}

/// What every preset tells of itself, whatever its family ([`super::MoreVariant::info`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PresetInfo {
    /// [`RuleFamily::name`].
    pub name: &'static str,
    /// [`RuleFamily::description`].
    pub description: &'static str,
    /// [`RuleFamily::NAME`].
    pub family: &'static str,
    /// [`RuleFamily::hidden_setup`].
    pub hidden_setup: bool,
}

impl PresetInfo {
    /// What preset `p` tells of itself.
    pub fn of<P: RuleFamily>(p: &P) -> PresetInfo {
        PresetInfo { name: p.name(), description: p.description(), family: P::NAME, hidden_setup: p.hidden_setup() }
    }
}

/// What the registry lists of one family (the rule-file loader and `anqi variants`).
#[derive(Copy, Clone, Debug)]
pub struct FamilyEntry {
    /// [`RuleFamily::NAME`].
    pub name: &'static str,
    /// [`RuleFamily::DEFAULT_PRESET`].
    pub default_preset: &'static str,
    /// [`RuleFamily::PRESETS`].
    pub presets: &'static [&'static str],
    /// [`RuleFamily::preset`], as the registry's variant.
    pub preset: fn(&str) -> Result<super::MoreVariant, MoreError>,
}

impl FamilyEntry {
    /// The entry of family `P`.
    pub const fn of<P: RuleFamily>() -> FamilyEntry {
        FamilyEntry { name: P::NAME, default_preset: P::DEFAULT_PRESET, presets: P::PRESETS, preset: preset_of::<P> }
    }
}

fn preset_of<P: RuleFamily>(name: &str) -> Result<super::MoreVariant, MoreError> {
    P::preset(name).map(Into::into)
}

/// The one list of the RULES-more.md games: `module: Arm(PresetType),` per game, in the order
/// `anqi variants` lists their presets. Declares each module, the enum
/// [`super::MoreVariant`] with one arm per game, `From<PresetType>` for it,
/// [`super::MoreVariant::visit`], [`super::MoreVariant::info`] and the table [`super::FAMILIES`].
macro_rules! games {
    ($($module:ident: $arm:ident($preset:ty),)+) => {
        $(pub mod $module;)+

        /// A RULES-more.md game with its resolved rules: a built-in preset or one loaded from a
        /// rule file ([`config`]). One arm per game of the registry ([`family::games!`]).
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub enum MoreVariant {
            $(
                #[doc = concat!("A preset of `more::", stringify!($module), "`.")]
                $arm($preset),
            )+
        }

        $(
            impl From<$preset> for MoreVariant {
                fn from(p: $preset) -> MoreVariant {
                    MoreVariant::$arm(p)
                }
            }
        )+

        impl MoreVariant {
            /// Runs `body` on the preset, typed by its family.
            pub fn visit<W: family::WithFamily>(self, body: W) -> W::Output {
                match self {
                    $(MoreVariant::$arm(p) => body.run(p),)+
                }
            }

            /// Name, description, family and whether the set-up is hidden.
            pub fn info(&self) -> family::PresetInfo {
                match self {
                    $(MoreVariant::$arm(p) => family::PresetInfo::of(p),)+
                }
            }
        }

        /// Every family of the registry, in its order.
        pub const FAMILIES: &[family::FamilyEntry] = &[$(family::FamilyEntry::of::<$preset>(),)+];
    };
}
pub(crate) use games;
