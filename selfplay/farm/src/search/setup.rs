//! Set-up decisions (a secret Surprise layout §S2, an owner's-choice placement §F3, a RULES-more
//! game's set-up phase): every choice shows the same board, so a tree search cannot tell them
//! apart and a pure choice would be exploitable. The net player mixes instead: by given weights
//! where there are some ([`Search::set_setup_weights`]; for Surprise a solved layout mixture,
//! [`LayoutMixture`], the output of `anqi solve layouts`), else by the net's policy over the
//! set-up actions at the decision (one evaluation of the chooser's observation, no simulations).

use super::{Search, SearchGame};
use engine::game::PlayerId;
use engine::more::presets::Playable;
use engine::variant::game_state::{color_of, decode};
use engine::variant::state::LAYOUT_NAMES;
use engine::variant::Action;
use engine::Color;
use rand::Rng;
use std::path::Path;

/// Why a layout mixture could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MixtureError {
    /// The file could not be read.
    #[error("layout mixture {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A line or entry that is not `red|black mixture NAME:P …`.
    #[error("layout mixture: {0}")]
    Syntax(String),
}

/// A mixture over the ten Surprise layouts for each side (RULES.md §S2), in
/// [`LAYOUT_NAMES`] order, as solved by `anqi solve layouts` ([`engine::solve::layouts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutMixture {
    /// Red's probabilities (sum 1).
    pub red: [f64; 10],
    /// Black's probabilities (sum 1).
    pub black: [f64; 10],
}

impl LayoutMixture {
    /// Parses the `red mixture A:0.100 B:…` and `black mixture …` lines of `anqi solve layouts`
    /// (other lines are ignored; a layout not named has probability 0; each side is normalised).
    ///
    /// # Errors
    /// A side missing, an unknown layout name, a probability that is not a non-negative number,
    /// or a side whose probabilities sum to 0.
    pub fn parse(text: &str) -> Result<LayoutMixture, MixtureError> {
        let mut sides: [Option<[f64; 10]>; 2] = [None, None];
        for line in text.lines() {
            let line = line.trim();
            let (side, rest) = if let Some(r) = line.strip_prefix("red mixture") {
                (0, r)
            } else if let Some(r) = line.strip_prefix("black mixture") {
                (1, r)
            } else {
                continue;
            };
            let mut p = [0.0; 10];
            for entry in rest.split_whitespace() {
                let (name, x) = entry.split_once(':').ok_or_else(|| MixtureError::Syntax(format!("{entry:?} is not NAME:P")))?;
                let i = LAYOUT_NAMES
                    .iter()
                    .position(|n| *n == name)
                    .ok_or_else(|| MixtureError::Syntax(format!("unknown layout {name:?} (known: {})", LAYOUT_NAMES.join(" "))))?;
                p[i] = x.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).ok_or_else(|| MixtureError::Syntax(format!("{entry:?}: not a probability")))?;
            }
            let sum: f64 = p.iter().sum();
            if sum <= 0.0 {
                return Err(MixtureError::Syntax(format!("{line:?}: probabilities sum to 0")));
            }
            p.iter_mut().for_each(|x| *x /= sum);
            sides[side] = Some(p);
        }
        match sides {
            [Some(red), Some(black)] => Ok(LayoutMixture { red, black }),
            _ => Err(MixtureError::Syntax("needs a `red mixture …` and a `black mixture …` line (anqi solve layouts prints both)".into())),
        }
    }

    /// Reads [`LayoutMixture::parse`]'s format from a file (e.g. saved `anqi solve layouts` output).
    ///
    /// # Errors
    /// As [`LayoutMixture::parse`], or the file cannot be read.
    pub fn load(path: &Path) -> Result<LayoutMixture, MixtureError> {
        let text = std::fs::read_to_string(path).map_err(|source| MixtureError::Io { path: path.display().to_string(), source })?;
        LayoutMixture::parse(&text)
    }

    /// `player`'s probability of `action` (a layout), or `None` for any other action.
    pub fn weight(&self, player: Color, action: Action) -> Option<f64> {
        let Action::Layout { index } = action else { return None };
        let p = match player {
            Color::Red => &self.red,
            Color::Black => &self.black,
        };
        p.get(usize::from(index)).copied()
    }
}

impl LayoutMixture {
    /// The weights of `actions` (`player`'s legal actions in `g`) when they are Surprise layouts
    /// of a RULES.md variant ([`Playable::as_variant`]); `None` for any other decision or game,
    /// and when the mixture gives every one of them probability 0.
    pub fn weights<G: Playable>(&self, g: &G, player: PlayerId, actions: &[engine::game::Action]) -> Option<Vec<f64>> {
        g.as_variant()?;
        let w: Option<Vec<f64>> = actions.iter().map(|&a| self.weight(color_of(player), decode(a)?)).collect();
        w.filter(|w| w.iter().sum::<f64>() > 0.0)
    }
}

/// Whether `g`'s player to act faces a set-up decision: the game's set-up phase
/// ([`Playable::in_setup`]) or a decision its bots treat as one (`Scored::is_setup_decision`:
/// the variants' secret layouts and owner's-choice placements).
pub fn is_setup<G: Playable>(g: &G) -> bool {
    g.in_setup() || g.is_setup_decision()
}

/// Draws an index by `weights` (non-negative; uniform when they sum to 0 or to no finite number;
/// [`super::draw_scaled`]).
fn draw(weights: &[f64], rng: &mut impl Rng) -> usize {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return rng.random_range(0..weights.len());
    }
    super::draw_scaled(weights, total, rng)
}

impl<S: SearchGame> Search<S> {
    /// Draws a set-up decision from `weights` (over the root actions, in their order; see
    /// [`LayoutMixture::weights`]): [`Search::advance`] then asks nothing of the net and
    /// [`Search::choose`] draws from them. Ignored at other decisions.
    pub fn set_setup_weights(&mut self, weights: Option<Vec<f64>>) {
        self.setup_weights = weights.filter(|w| w.len() == self.root_actions.len());
    }

    /// Whether this is a set-up decision (then the search runs no simulations: see the module docs).
    pub fn is_setup(&self) -> bool {
        self.setup
    }

    /// The set-up choice: drawn from the layout mixture if one applies, else from the net's
    /// priors at the root (after its evaluation), else uniformly.
    pub(super) fn choose_setup(&self, rng: &mut impl Rng) -> S::Action {
        if let Some(w) = &self.setup_weights {
            return self.root_actions[draw(w, rng)];
        }
        let edges = &self.nodes[0].edges;
        if edges.len() == self.root_actions.len() && !edges.is_empty() {
            let w: Vec<f64> = edges.iter().map(|e| f64::from(e.prior.max(0.0))).collect();
            return edges[draw(&w, rng)].action;
        }
        self.root_actions[rng.random_range(0..self.root_actions.len())]
    }
}
