//! Camel xiangqi in the registry of the RULES-more.md games ([`crate::more::family`]): its
//! presets and rule-file checks, its start, and what the CLI plays it by ([`Playable`]).

use super::{CamelGame, CamelPreset, CamelRules};
use crate::any_game::Start;
use crate::game::{Action, Game};
use crate::more::config::file_error;
use crate::more::family::RuleFamily;
use crate::more::presets::Playable;
use crate::more::MoreError;
use crate::piece::Color;

impl RuleFamily for CamelPreset {
    const NAME: &'static str = "camel";
    const DEFAULT_PRESET: &'static str = "camel-1";
    const PRESETS: &'static [&'static str] = &super::rules::PRESETS;
    type Rules = CamelRules;
    type Game = CamelGame;

    fn preset(name: &str) -> Result<CamelPreset, MoreError> {
        CamelRules::preset(name)
    }
    crate::more::family::preset_fields!(CamelRules);
    fn hidden_setup(&self) -> bool {
        self.rules.secret_tricks
    }
    fn check(rules: &CamelRules, file: &str) -> Result<(), MoreError> {
        if !(1..=7).contains(&rules.edition) {
            return Err(file_error(file, "rules.edition", format!("{} is not an edition; the editions are 1 to 7", rules.edition)));
        }
        if rules.secret_tricks && !rules.tricks() {
            return Err(file_error(file, "rules.secret_tricks", format!("edition {} has no trick face; secret trick layouts need edition 5 or later", rules.edition)));
        }
        if !CamelRules::WIDTHS.contains(&rules.files) {
            return Err(file_error(file, "rules.files", format!("{} files is not a camel board width; the widths are {:?}", rules.files, CamelRules::WIDTHS)));
        }
        Ok(())
    }
    /// The camel start has no set-up phase: [`Start::AfterSetup`] is [`Start::Setup`].
    fn game(self, start: Start<'_>) -> Result<CamelGame, MoreError> {
        let g = match start {
            Start::Fen(f) => CamelGame::from_fen(self, f)?,
            Start::Setup | Start::AfterSetup { .. } => CamelGame::new(self),
        };
        Ok(g.with_max_plies(u32::MAX))
    }
}

impl Playable for CamelGame {
    fn geometry(&self) -> &'static crate::more::Geometry {
        self.position().geo()
    }
    fn view_fen(&self, c: Color) -> String {
        CamelGame::view_fen(self, c)
    }
    fn in_setup(&self) -> bool {
        CamelGame::in_setup(self)
    }
    fn play_text(&mut self, text: &str) -> Result<(), MoreError> {
        self.play_str(text)
    }
    fn chinese(&self, a: Action) -> String {
        let p = self.position();
        match super::game::decode(a) {
            Some(super::CAction::Move { from, to, unit, promote }) => {
                let mut effect = if unit { "合".to_string() } else { String::new() };
                if let Some(k) = promote {
                    effect.push_str(&crate::more::notation::promotion_word(p.turn(), k));
                }
                crate::more::notation::move_record(p.board(), from, to, &effect)
            }
            Some(super::CAction::Rotate { cw }) => if cw { "转宫顺" } else { "转宫逆" }.to_string(),
            Some(super::CAction::Translate { .. }) => format!("移宫{}", self.action_string(a).trim_start_matches("shift")),
            Some(super::CAction::Flip { front_back }) => if front_back { "翻板前后" } else { "翻板左右" }.to_string(),
            None => self.action_string(a),
        }
    }
    fn full_fen(&self) -> String {
        self.fen()
    }
    fn result(&self) -> Option<(&'static str, &'static str)> {
        self.end().map(|e| (e.result(), e.reason()))
    }
    fn perft(&self, depth: u32) -> u64 {
        super::game::perft(self.position(), depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let p = self.position();
        let mut v = Vec::new();
        p.legal_actions(&mut v);
        v.into_iter()
            .map(|a| {
                let mut q = p.clone();
                q.play_unchecked(a);
                (super::fen::action_string(p, a), if depth <= 1 { 1 } else { super::game::perft(&q, depth - 1) })
            })
            .collect()
    }
}
