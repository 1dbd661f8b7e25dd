//! Open twins of the RULES-more.md hidden presets (docs/open-twins.md §O6): `NAME+open`, or a
//! rule file with `[info] open = true`, plays NAME's game — the same set-up phase, legal
//! moves and rules (missile xiangqi's hidden-check legality of §3.8 included) — with
//! everything shown to both players: [`Open`] wraps the game and replaces only what a player
//! is told (its view FEN, information-set key and determinizations). Its observation tensor
//! ([`crate::observe::Observe`], in [`super::observe`]) is the base game's encoding written with
//! nothing hidden.

use super::observe::ObserveAll;
use crate::search::Scored;
use super::presets::Playable;
use super::{MoreError, MoreVariant};
use crate::game::{Action, Game, GameInfo, Information, PlayerId, Turn};
use crate::more::history::mix;
use crate::piece::Color;
use rand::Rng;

/// The suffix naming an open twin (as for the RULES.md variants).
pub const SUFFIX: &str = "+open";

/// A game of a RULES-more.md preset with every hidden part public (module docs).
#[derive(Clone, Debug)]
pub struct Open<G> {
    inner: G,
    name: &'static str,
}

impl<G: Playable + ObserveAll> Open<G> {
    /// The open twin of `inner`, named `name` (e.g. `skill-secret+open`).
    pub fn new(inner: G, name: &'static str) -> Open<G> {
        Open { inner, name }
    }

    /// The wrapped game (its hidden views are what the twin does not use).
    pub fn inner(&self) -> &G {
        &self.inner
    }
}

/// FNV-1a of a string, stable across builds.
fn text_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

impl<G: Playable + ObserveAll> Game for Open<G> {
    fn info(&self) -> GameInfo {
        GameInfo { name: self.name, information: Information::Perfect, ..self.inner.info() }
    }
    fn turn(&self) -> Turn {
        self.inner.turn()
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.inner.legal_actions_into(out);
    }
    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        self.inner.chance_outcomes_into(out);
    }
    fn apply(&mut self, action: Action) {
        self.inner.apply(action);
    }
    fn returns(&self, player: PlayerId) -> f64 {
        self.inner.returns(player)
    }
    /// Both players' keys of the hidden game (together: everything either has seen, with
    /// perfect recall) and the full FEN: the same for both seats.
    fn infoset_key(&self, _player: PlayerId) -> u64 {
        let both = mix(self.inner.infoset_key(PlayerId::FIRST), self.inner.infoset_key(PlayerId::SECOND));
        mix(both, text_hash(&self.inner.full_fen()))
    }
    fn infoset_string(&self, player: PlayerId) -> String {
        format!("{} #{:016x}", self.inner.full_fen(), self.infoset_key(player))
    }
    /// The only state consistent with what a player knows is the state itself.
    fn sample_determinization<R: Rng + ?Sized>(&self, _player: PlayerId, _rng: &mut R) -> Self {
        self.clone()
    }
    fn action_string(&self, action: Action) -> String {
        self.inner.action_string(action)
    }
}

impl<G: Playable + ObserveAll> Scored for Open<G> {
    fn eval_cp(&self, player: PlayerId) -> i32 {
        self.inner.eval_cp(player)
    }
    fn gain_cp(&self, action: Action) -> i32 {
        self.inner.gain_cp(action)
    }
    fn in_check(&self) -> bool {
        self.inner.in_check()
    }
}

impl<G: Playable + ObserveAll> Playable for Open<G> {
    fn full_fen(&self) -> String {
        self.inner.full_fen()
    }
    fn result(&self) -> Option<(&'static str, &'static str)> {
        self.inner.result()
    }
    fn perft(&self, depth: u32) -> u64 {
        self.inner.perft(depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.inner.divide(depth)
    }
    fn chinese(&self, a: Action) -> String {
        self.inner.chinese(a)
    }
    fn play_text(&mut self, text: &str) -> Result<(), MoreError> {
        self.inner.play_text(text)
    }
    fn play_record(&mut self, text: &str, rng: &mut dyn rand::RngCore) -> Result<(), MoreError> {
        self.inner.play_record(text, rng)
    }
    fn chance_multiplicity(&self, a: Action) -> u64 {
        self.inner.chance_multiplicity(a)
    }
    fn in_setup(&self) -> bool {
        self.inner.in_setup()
    }
    /// The full FEN: a player of an open twin sees everything.
    fn view_fen(&self, _c: Color) -> String {
        self.inner.full_fen()
    }
    fn geometry(&self) -> &'static super::Geometry {
        self.inner.geometry()
    }
    /// The full state's marks: a player of an open twin sees every tile.
    fn board_marks(&self, _viewer: Option<Color>) -> super::presets::BoardMarks {
        self.inner.board_marks(None)
    }
}

/// Splits `spec` into the hidden game's spec and whether the open twin is asked for: by the
/// `+open` suffix, or by `[info] open = true` in a rule file. `None` when `spec` is no
/// RULES-more.md spec.
///
/// # Errors
/// [`MoreError::RulesFile`] naming `info.open` when the game hides nothing (so it has no open
/// twin) or the key's value is not a boolean.
pub fn split(spec: &str) -> Result<Option<(String, bool)>, MoreError> {
    let (base, suffixed) = match spec.strip_suffix(SUFFIX) {
        Some(b) => (b, true),
        None => (spec, false),
    };
    if !MoreVariant::recognises(base) {
        return Ok(None);
    }
    let open = suffixed || info_open(base)?;
    if open && !MoreVariant::resolve(base)?.hidden_setup() {
        return Err(MoreError::RulesFile {
            file: base.to_string(),
            key: "info.open".into(),
            problem: format!("{base} hides nothing, so it has no open twin (docs/open-twins.md §O1)"),
        });
    }
    Ok(Some((base.to_string(), open)))
}

/// `[info] open` of a rule file (`false` for a preset or a file without it).
///
/// # Errors
/// [`MoreError::RulesFile`] when the value is not a boolean.
pub fn info_open(spec: &str) -> Result<bool, MoreError> {
    let Ok(text) = std::fs::read_to_string(spec) else { return Ok(false) };
    let Ok(table) = text.parse::<toml::Table>() else { return Ok(false) };
    match table.get("info").and_then(|i| i.get("open")) {
        None => Ok(false),
        Some(toml::Value::Boolean(b)) => Ok(*b),
        Some(_) => Err(MoreError::RulesFile { file: spec.into(), key: "info.open".into(), problem: "must be true or false".into() }),
    }
}

/// The presets of these games with a hidden set-up, each as `NAME+open` with a description.
pub fn twin_names() -> Vec<(String, String)> {
    super::presets::presets()
        .into_iter()
        .filter(|(n, _)| MoreVariant::preset(n).is_ok_and(|v| v.hidden_setup()))
        .map(|(n, d)| (format!("{n}{SUFFIX}"), format!("open twin of {n}: everything public from the start (docs/open-twins.md); {d}")))
        .collect()
}
