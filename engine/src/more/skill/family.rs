//! Skill-tile xiangqi in the registry of the RULES-more.md games ([`crate::more::family`]): its
//! presets, its start, and what the CLI plays it by ([`Playable`]).

use super::{SkillGame, SkillPreset, SkillRules};
use crate::any_game::Start;
use crate::game::{Action, Game};
use crate::more::family::RuleFamily;
use crate::more::presets::{BoardMarks, Playable};
use crate::more::MoreError;
use crate::piece::Color;

impl RuleFamily for SkillPreset {
    const NAME: &'static str = "skill";
    const DEFAULT_PRESET: &'static str = "skill";
    const PRESETS: &'static [&'static str] = &super::rules::PRESETS;
    type Rules = SkillRules;
    type Game = SkillGame;

    fn preset(name: &str) -> Result<SkillPreset, MoreError> {
        SkillRules::preset(name)
    }
    crate::more::family::preset_fields!(SkillRules);
    fn hidden_setup(&self) -> bool {
        self.rules.secret_setup
    }
    /// [`Start::AfterSetup`]: tiles T1-T8 in recess order (RULES.md §P4).
    fn game(self, start: Start<'_>) -> Result<SkillGame, MoreError> {
        let g = match start {
            Start::Fen(f) => SkillGame::from_fen(self, f)?,
            Start::Setup => SkillGame::new(self),
            Start::AfterSetup { .. } => SkillGame::with_tiles(self, super::game::DEFAULT_TILES),
        };
        Ok(g.with_max_plies(u32::MAX))
    }
}

impl Playable for SkillGame {
    fn geometry(&self) -> &'static crate::more::Geometry {
        self.position().geo()
    }
    fn view_fen(&self, c: Color) -> String {
        SkillGame::view_fen(self, c)
    }
    fn board_marks(&self, viewer: Option<Color>) -> BoardMarks {
        SkillGame::tile_marks(self, viewer)
    }
    fn in_setup(&self) -> bool {
        SkillGame::in_setup(self)
    }
    fn play_text(&mut self, text: &str) -> Result<(), MoreError> {
        self.play_str(text)
    }
    fn chinese(&self, a: Action) -> String {
        let p = self.position();
        let s = self.action_string(a);
        if let Some(sq) = s.strip_prefix('-') {
            let name = p.geo().parse(sq).ok().and_then(|q| p.board().get(q)).map(crate::more::notation::piece_char).unwrap_or('?');
            return format!("提{name}{sq}");
        }
        match super::game::decode(a) {
            Some(m) if !self.in_setup() => {
                let mut effect = if m.exchange { "兑".to_string() } else { String::new() };
                if let Some(k) = m.promote {
                    effect.push_str(&crate::more::notation::promotion_word(p.turn(), k));
                }
                crate::more::notation::move_record(p.board(), m.from, m.to, &effect)
            }
            _ => s,
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
        // One row per first action (a move, or a first removal with everything after it).
        let p = self.position();
        let mut rows = Vec::new();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        for m in moves {
            let mut q = p.clone();
            q.play_unchecked(m);
            rows.push((super::fen::move_string(p, m), if depth <= 1 { 1 } else { super::game::perft(&q, depth - 1) }));
        }
        for s in p.removable() {
            let mut q = p.clone();
            q.remove(s);
            let mut n = 0;
            super::game::turns(&q, Some(s), &mut |r| n += if depth <= 1 { 1 } else { super::game::perft(r, depth - 1) });
            rows.push((format!("-{}", p.geo().name(s)), n));
        }
        rows
    }
}
