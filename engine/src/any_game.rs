//! One dispatch over every game the engine plays (issue #17 item 1): a RULES-more.md preset or
//! rule file (missile, skill-tile, camel xiangqi and their `+open` twins,
//! [`crate::more::presets::with_game_at`]) or a RULES.md variant preset or TOML file (xiangqi,
//! Surprise, Fan-qi, Jieqi, king chess and their open twins, as
//! [`VariantGameState`]). Either way the caller's body receives a game implementing
//! [`Playable`], so a command has one generic body instead of one branch per rule book.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::more::presets::{is_spec, with_game_at, WithGame};
use crate::more::MoreError;
use crate::variant::game_state::{GameOptions, Leaf, VariantGameState};
use crate::variant::given::Given;
use crate::variant::view::ViewError;
use crate::variant::{State, Variant, VariantError};

#[cfg(doc)]
use crate::more::presets::Playable;

/// Where a game built by [`with_any_game`] starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Start<'a> {
    /// The rules' start with the set-up phase as actions: missile placements, tile choices,
    /// secret layouts (RULES-more.md), Surprise layouts (RULES.md §S2) and Fan-qi owner's
    /// arrangements (§F3).
    Setup,
    /// After the set-up, as perft counts it (RULES.md §P4): Surprise layouts `RED,BLACK` by
    /// §S2 names (`C3,A`; default `A,A`), the open array of RULES-more.md §3.6 for every missile
    /// set-up, tiles T1-T8 for skill-tile xiangqi. Games without Surprise discs ignore `layouts`.
    AfterSetup {
        /// Surprise layouts `RED,BLACK`, e.g. `C3,A`.
        layouts: Option<&'a str>,
    },
    /// A full-state FEN (RULES.md §N, docs/notation.md §5); for a RULES.md variant also one
    /// player's view FEN (docs/notation.md §2, JieqiBox's Jieqi FEN), played from one
    /// determinization and marked with [`Playable::given_view`].
    Fen(&'a str),
}

impl<'a> Start<'a> {
    /// [`Start::Fen`] when a FEN is given, else `otherwise`.
    pub fn fen_or(fen: Option<&'a str>, otherwise: Start<'a>) -> Start<'a> {
        fen.map_or(otherwise, Start::Fen)
    }
}

/// Why [`with_any_game`] could not build a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnyGameError {
    /// `spec` is neither a RULES-more.md preset or rule file nor a loadable RULES.md variant.
    #[error("unknown game {spec:?}: no RULES-more.md preset or rule file, and as a RULES.md variant: {variant}")]
    Unknown {
        /// The name or path asked for.
        spec: String,
        /// Why the RULES.md loader refused it.
        variant: VariantError,
    },
    /// A RULES-more.md game refused the start (bad FEN, bad rule file).
    #[error(transparent)]
    More(#[from] MoreError),
    /// A RULES.md variant's FEN (full or view) that cannot be read.
    #[error("{spec}: FEN {fen:?}: {problem}")]
    Fen {
        /// The variant.
        spec: String,
        /// The FEN as given.
        fen: String,
        /// What is wrong, naming the field.
        problem: ViewError,
    },
    /// A RULES.md variant that the nets' observation encoding cannot lay out (its board is not
    /// the standard 9x10, [`crate::variant::encoding::encoding_for`]).
    #[error("{spec}: {problem}")]
    NoEncoding {
        /// The variant.
        spec: String,
        /// Why the encoding refuses it.
        problem: crate::variant::encoding::EncodingError,
    },
    /// A RULES-more.md game's FEN (docs/notation.md §5) that cannot be read.
    #[error("{spec}: FEN {fen:?}: {problem}")]
    MoreFen {
        /// The game (preset name or rule file).
        spec: String,
        /// The FEN as given.
        fen: String,
        /// What is wrong, naming the field.
        problem: String,
    },
    /// Surprise layouts that are malformed or not §S2 names.
    #[error("{spec}: layouts {layouts:?}: {problem}")]
    Layouts {
        /// The variant.
        spec: String,
        /// The layouts as given.
        layouts: String,
        /// What is wrong.
        problem: String,
    },
}

/// The RULES.md variant `spec` (a preset name or TOML path), loaded once per process: a loaded
/// variant lives as long as the games that point at it.
///
/// # Errors
/// [`VariantError`] from [`Variant::load`].
pub fn load_variant(spec: &str) -> Result<&'static Variant, VariantError> {
    static LOADED: Mutex<Option<HashMap<String, &'static Variant>>> = Mutex::new(None);
    let mut guard = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    if let Some(v) = map.get(spec) {
        return Ok(v);
    }
    let v: &'static Variant = Box::leak(Box::new(Variant::load(spec)?));
    map.insert(spec.to_string(), v);
    Ok(v)
}

/// Which twin of a RULES.md variant (docs/open-twins.md §O1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Twin {
    /// The hidden game ([`Variant::hidden_twin`]).
    Hidden,
    /// Its open twin ([`Variant::open_twin`]).
    Open,
}

/// The `twin` of `v`, built once per process for each resolved rule table (keyed by
/// [`Variant::to_toml`]): tournaments and studies ask for both twins at every deal, and each
/// build would otherwise leave a variant (and its position rules) behind for the rest of the
/// process.
///
/// # Errors
/// [`VariantError`] from [`Variant::open_twin`] (a variant that hides nothing) or
/// [`Variant::hidden_twin`].
pub fn twin_of(v: &Variant, twin: Twin) -> Result<&'static Variant, VariantError> {
    static TWINS: Mutex<Option<HashMap<(String, Twin), &'static Variant>>> = Mutex::new(None);
    let key = (v.to_toml(), twin);
    if let Some(t) = TWINS.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new).get(&key) {
        return Ok(t);
    }
    let built = match twin {
        Twin::Hidden => v.hidden_twin()?,
        Twin::Open => v.open_twin()?,
    };
    let mut guard = TWINS.lock().unwrap_or_else(|e| e.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    Ok(*map.entry(key).or_insert_with(|| Box::leak(Box::new(built))))
}

/// A game by name or rule file, resolved in one place ([`AnyGame::resolve`]): which rule book
/// plays it, before any game is built. Every command, the trainer and the tournaments read
/// `--variant`/`variant =` through it ([`with_any_game`]).
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A RULES.md variant (preset or TOML file; open twins included), loaded once per process
    /// ([`load_variant`]).
    Variant(&'static Variant),
    /// A RULES-more.md preset or rule file, `+open` twins included, by its spec
    /// ([`with_game_at`] builds it).
    More(String),
}

impl From<&'static Variant> for AnyGame {
    fn from(v: &'static Variant) -> AnyGame {
        AnyGame::Variant(v)
    }
}

impl AnyGame {
    /// The game `spec` names: a RULES-more.md preset or rule file ([`is_spec`]), else a RULES.md
    /// preset or variant TOML file.
    ///
    /// # Errors
    /// [`AnyGameError::Unknown`] naming `spec` when neither rule book knows it (the RULES.md
    /// loader's reason, which names a bad key or file).
    pub fn resolve(spec: &str) -> Result<AnyGame, AnyGameError> {
        if is_spec(spec) {
            return Ok(AnyGame::More(spec.to_string()));
        }
        load_variant(spec).map(AnyGame::Variant).map_err(|variant| AnyGameError::Unknown { spec: spec.to_string(), variant })
    }

    /// The name recorded in checkpoints and shards: the variant's name, or the RULES-more.md
    /// spec as given.
    pub fn name(&self) -> &str {
        match self {
            AnyGame::Variant(v) => &v.name,
            AnyGame::More(n) => n,
        }
    }

    /// The RULES.md variant, when the game is one.
    pub fn variant(&self) -> Option<&'static Variant> {
        match self {
            AnyGame::Variant(v) => Some(*v),
            AnyGame::More(_) => None,
        }
    }

    /// The observation encoding of this game's nets ([`crate::observe::Observe::encoding`] of
    /// its start): for a RULES.md variant [`crate::variant::encoding::encoding_for`], which
    /// refuses a variant the encoding cannot lay out.
    ///
    /// # Errors
    /// [`AnyGameError::NoEncoding`] for such a variant; the game's own error at its start.
    pub fn encoding(&self) -> Result<crate::observe::Encoding, AnyGameError> {
        if let AnyGame::Variant(v) = self {
            return crate::variant::encoding::encoding_for(v).map_err(|problem| AnyGameError::NoEncoding { spec: v.name.clone(), problem });
        }
        struct Enc;
        impl WithGame for Enc {
            type Output = crate::observe::Encoding;
            fn run<G: crate::more::presets::Playable>(self, g: G) -> Self::Output {
                g.encoding()
            }
        }
        self.with_game(Start::Setup, Enc)
    }

    /// Builds the game at `start`, without a ply horizon, and runs `body` on it: a RULES-more.md
    /// game through [`with_game_at`], a RULES.md variant as a [`VariantGameState`].
    ///
    /// # Errors
    /// The FEN's, the rule file's or the layouts' error.
    pub fn with_game<W: WithGame>(&self, start: Start<'_>, body: W) -> Result<W::Output, AnyGameError> {
        let v = match self {
            AnyGame::More(spec) => {
                let fen = match start {
                    Start::Fen(f) => Some(f),
                    _ => None,
                };
                // A FEN's error names the game and the FEN, as a variant's does.
                return with_game_at(spec, start, body).map_err(|e| match (e, fen) {
                    (MoreError::Fen(problem), Some(f)) => AnyGameError::MoreFen { spec: spec.clone(), fen: f.to_string(), problem },
                    (e, _) => e.into(),
                });
            }
            AnyGame::Variant(v) => *v,
        };
        let spec = v.name.as_str();
        let opts = GameOptions { max_plies: u32::MAX, leaf: Leaf::Draw };
        let g = match start {
            Start::Setup => VariantGameState::with_options(State::new_game(v), opts),
            Start::AfterSetup { layouts } => {
                let bad = |problem: String| AnyGameError::Layouts { spec: spec.to_string(), layouts: layouts.unwrap_or_default().to_string(), problem };
                let pair = match layouts {
                    Some(l) => Some(l.split_once(',').map(|(r, b)| (r.trim(), b.trim())).ok_or_else(|| bad("expected RED,BLACK like C3,A".into()))?),
                    None => None,
                };
                VariantGameState::with_options(State::start(v, pair).map_err(|e| bad(e.to_string()))?, opts)
            }
            Start::Fen(f) => {
                let given = Given::parse(v, f).map_err(|problem| AnyGameError::Fen { spec: spec.to_string(), fen: f.to_string(), problem })?;
                let g = VariantGameState::with_options(given.state(), opts);
                match given.viewer() {
                    Some(c) => g.given_as_view(c),
                    None => g,
                }
            }
        };
        Ok(body.run(g))
    }
}

/// Builds the game `spec` names at `start`, without a ply horizon, and runs `body` on it
/// ([`AnyGame::resolve`], then [`AnyGame::with_game`]).
///
/// # Errors
/// [`AnyGameError::Unknown`] naming `spec` when neither rule book knows it; the FEN's, the rule
/// file's or the layouts' error otherwise.
pub fn with_any_game<W: WithGame>(spec: &str, start: Start<'_>, body: W) -> Result<W::Output, AnyGameError> {
    AnyGame::resolve(spec)?.with_game(start, body)
}

/// The resolved rule table of game `spec` as a rule file that loads back to the same rules
/// (for `anqi variants --show`): a RULES-more.md preset's typed table
/// ([`crate::more::presets::describe`]) or a RULES.md variant's, inheritance applied
/// ([`Variant::to_toml`]).
///
/// # Errors
/// [`AnyGameError::Unknown`] naming `spec` when neither rule book knows it; a rule file's error.
pub fn describe(spec: &str) -> Result<String, AnyGameError> {
    match AnyGame::resolve(spec)? {
        AnyGame::More(spec) => Ok(crate::more::presets::describe(&spec)?),
        AnyGame::Variant(v) => Ok(v.to_toml()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::more::presets::{with_game, Playable};

    #[test]
    fn twins_are_built_once_per_rule_table() {
        let surprise = load_variant("surprise").expect("surprise");
        let open = twin_of(surprise, Twin::Open).expect("open twin");
        assert!(open.open && open.name.ends_with("+open"), "{}", open.name);
        // Asked again (as every deal of a study asks), the same variant, not a new one.
        assert!(std::ptr::eq(open, twin_of(surprise, Twin::Open).expect("open twin")));
        let hidden = twin_of(open, Twin::Hidden).expect("hidden twin");
        assert_eq!(hidden.name, surprise.name);
        // Keyed by the rule table, not the address: a copy of a variant finds its twin.
        let own = twin_of(surprise, Twin::Hidden).expect("hidden twin");
        assert!(std::ptr::eq(own, twin_of(&surprise.clone(), Twin::Hidden).expect("hidden twin")));
        assert!(twin_of(load_variant("xiangqi").expect("xiangqi"), Twin::Open).is_err(), "xiangqi hides nothing");
    }

    /// What the tests look at: the game's name, FEN, legal actions and perft to depth 2.
    struct Probe;
    impl WithGame for Probe {
        type Output = (String, String, Vec<String>, u64);
        fn run<G: Playable>(self, g: G) -> Self::Output {
            let acts = g.legal_actions().into_iter().map(|a| g.action_string(a)).collect();
            (g.info().name.to_string(), g.full_fen(), acts, g.perft(2))
        }
    }

    #[test]
    fn a_variant_goes_through_the_body() {
        let (name, fen, acts, perft2) = with_any_game("xiangqi", Start::AfterSetup { layouts: None }, Probe).expect("xiangqi");
        assert_eq!(name, "xiangqi");
        assert_eq!(fen, crate::notation::fen::START);
        assert_eq!(acts.len(), 44); // RULES.md §P: perft(1) of the start
        assert!(acts.iter().any(|a| a == "h2e2"), "{acts:?}");
        assert_eq!(perft2, 1920);
    }

    #[test]
    fn a_preset_goes_through_the_same_body() {
        let got = with_any_game("camel-1", Start::Setup, Probe).expect("camel-1");
        let direct = with_game("camel-1", None, Probe).expect("camel-1");
        assert_eq!(got, direct);
        assert_eq!(got.0, "camel-1");
        assert!(!got.2.is_empty());
    }

    #[test]
    fn a_view_fen_marks_its_viewer() {
        struct Viewer;
        impl WithGame for Viewer {
            type Output = (Option<crate::piece::Color>, String);
            fn run<G: Playable>(self, g: G) -> Self::Output {
                (g.given_view(), g.view_fen(crate::piece::Color::Black))
            }
        }
        let view = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/P8/1XXXKXXXX b A2B2N2R2C2P4a2b2n2r2c2p5 1 1 view=b";
        let (viewer, seen) = with_any_game("jieqi", Start::Fen(view), Viewer).expect("jieqi view");
        assert_eq!(viewer, Some(crate::piece::Color::Black));
        assert_eq!(seen, view);
        let (viewer, _) = with_any_game("jieqi", Start::AfterSetup { layouts: None }, Viewer).expect("jieqi");
        assert_eq!(viewer, None);
    }

    #[test]
    fn both_rule_books_describe_their_tables() {
        assert!(describe("camel-1").expect("camel-1").contains("camel"));
        let t = describe("xiangqi").expect("xiangqi");
        assert_eq!(t, Variant::load("xiangqi").expect("xiangqi").to_toml());
        assert!(matches!(describe("no-such-game"), Err(AnyGameError::Unknown { spec, .. }) if spec == "no-such-game"));
    }

    #[test]
    fn an_unknown_name_is_named() {
        let e = with_any_game("no-such-game", Start::Setup, Probe).expect_err("unknown");
        assert!(matches!(&e, AnyGameError::Unknown { spec, .. } if spec == "no-such-game"), "{e:?}");
        assert!(e.to_string().contains("\"no-such-game\""), "{e}");
    }

    #[test]
    fn layouts_are_checked_where_surprise_has_them() {
        assert!(with_any_game("surprise", Start::AfterSetup { layouts: Some("C3,A") }, Probe).is_ok());
        let e = with_any_game("surprise", Start::AfterSetup { layouts: Some("C3") }, Probe).expect_err("one layout");
        assert!(matches!(e, AnyGameError::Layouts { .. }), "{e:?}");
        // Games without discs ignore layouts, in both rule books.
        for spec in ["missile", "xiangqi"] {
            let with = with_any_game(spec, Start::AfterSetup { layouts: Some("C3,A") }, Probe).expect(spec);
            assert_eq!(with, with_any_game(spec, Start::AfterSetup { layouts: None }, Probe).expect(spec));
        }
    }
}
