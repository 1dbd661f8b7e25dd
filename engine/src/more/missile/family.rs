//! Missile xiangqi in the registry of the RULES-more.md games ([`crate::more::family`]): its
//! presets and rule-file checks, its start, and what the CLI plays it by ([`Playable`]).

use super::{fen, MissileGame, MissilePosition, MissilePreset, MissileRules, SetupMethod};
use crate::any_game::Start;
use crate::game::{Action, Game};
use crate::more::config::file_error;
use crate::more::family::RuleFamily;
use crate::more::presets::Playable;
use crate::more::MoreError;
use crate::piece::Color;

impl RuleFamily for MissilePreset {
    const NAME: &'static str = "missile";
    const DEFAULT_PRESET: &'static str = "missile";
    const PRESETS: &'static [&'static str] = &super::rules::PRESETS;
    type Rules = MissileRules;
    type Game = MissileGame;

    fn preset(name: &str) -> Result<MissilePreset, MoreError> {
        MissileRules::preset(name)
    }
    crate::more::family::preset_fields!(MissileRules);
    fn hidden_setup(&self) -> bool {
        self.rules.setup != SetupMethod::Open
    }
    fn check(rules: &MissileRules, file: &str) -> Result<(), MoreError> {
        if rules.face_down && rules.setup == SetupMethod::Open {
            return Err(file_error(
                file,
                "rules.face_down",
                "face-down pieces (RULES-more.md §3.8 alternative reading) need a hidden set-up: set `setup` to \"hidden-five-soldiers\" or \"hidden-centre-soldier\" (or base the file on missile-hidden-5 / missile-hidden-centre)",
            ));
        }
        Ok(())
    }
    /// [`Start::AfterSetup`]: the open array of RULES-more.md §3.6 whatever the set-up method.
    fn game(self, start: Start<'_>) -> Result<MissileGame, MoreError> {
        let g = match start {
            Start::Fen(f) => MissileGame::from_fen(self, f)?,
            Start::Setup => MissileGame::new(self),
            Start::AfterSetup { .. } => {
                let open = MissileRules { setup: SetupMethod::Open, ..self.rules };
                MissileGame::from_fen(self, &fen::write(&MissilePosition::start(open)))?
            }
        };
        Ok(g.with_max_plies(u32::MAX))
    }
}

impl Playable for MissileGame {
    fn geometry(&self) -> &'static crate::more::Geometry {
        self.position().geo()
    }
    fn view_fen(&self, c: Color) -> String {
        MissileGame::view_fen(self, c)
    }
    fn in_setup(&self) -> bool {
        MissileGame::in_setup(self)
    }
    fn play_text(&mut self, text: &str) -> Result<(), MoreError> {
        self.play_str(text)
    }
    fn chinese(&self, a: Action) -> String {
        let p = self.position();
        match super::game::decode(a) {
            Some(m) if !self.in_setup() => {
                let effect = match p.effect(m) {
                    Some(super::Effect::Mutual) => "炸",
                    Some(super::Effect::SelfDestruct) => "自毁",
                    _ => "",
                };
                crate::more::notation::move_record(p.board(), m.from, m.to, effect)
            }
            _ => self.action_string(a),
        }
    }
    fn full_fen(&self) -> String {
        self.fen()
    }
    fn result(&self) -> Option<(&'static str, &'static str)> {
        self.end().map(|e| (e.result(), e.reason()))
    }
    fn perft(&self, depth: u32) -> u64 {
        if self.face_down_play() {
            return super::perft::perft_seen(self.position(), self.face_down_mask(), depth);
        }
        super::perft::perft(self.position(), depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let p = self.position();
        let rows = if self.face_down_play() { super::perft::divide_seen(p, self.face_down_mask(), depth) } else { super::perft::divide(p, depth) };
        rows.0.into_iter().map(|(m, n)| (super::fen::move_string(p, m), n)).collect()
    }
}
