//! `noisy[:p=X,search=SPEC]`: a bot of graded strength between `random` and another bot, for
//! anchoring Elo ladders between their ratings and for varied games. At each decision it plays,
//! with probability `p` (default 0.1), a uniformly random legal action, and otherwise the choice
//! of the bot `SPEC` (default `greedy`; `search=` takes the rest of the spec, as in `pimc`, so
//! `noisy:p=0.3,search=pimc:k=8,depth=2` nests without quoting). `p = 0` is `SPEC` itself and
//! `p = 1` is `random`; in between, its Elo falls as `p` grows (an ε-greedy opponent). Every game
//! of the contract plays it; the inner bot is built by the one registry for the game in hand
//! ([`crate::search::from_spec`]), so in the RULES.md variants `SPEC` means the variants' own bot.
//!
//! It was added as the registry's check that a new bot costs one file and one line (issue #38):
//! this file and its `bots!` line in `search/mod.rs`.
//!
//! Information: the random action is drawn from `g.legal_actions()`, which is public (a function
//! of the mover's view, RULES.md §F7), with the bot's own generator; the rest is the inner bot's,
//! which is an oracle only when its name says so.

use crate::game::Action;
use crate::search::registry::BotSpec;
use crate::search::{parse_params, param_f64_in, GameBot, Scored};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Mixed into the seed of the inner bot, so that its stream differs from the coin's.
pub const INNER_SEED_MIX: u64 = 0x6e6f_6973_7942_6f74;

/// With probability `p` a uniformly random legal action, else the inner bot's choice.
pub struct NoisyBot<G: Scored> {
    p: f64,
    inner: Box<dyn GameBot<G>>,
    rng: Pcg64Mcg,
}

impl<G: Scored> NoisyBot<G> {
    /// A bot that plays a random legal action with probability `p` (in `[0, 1]`) and `inner`'s
    /// choice otherwise, its coin and random actions drawn from `seed`.
    pub fn new(p: f64, inner: Box<dyn GameBot<G>>, seed: u64) -> NoisyBot<G> {
        NoisyBot { p, inner, rng: Pcg64Mcg::seed_from_u64(seed) }
    }
}

impl<G: Scored> GameBot<G> for NoisyBot<G> {
    fn name(&self) -> String {
        format!("noisy:p={},search={}", self.p, self.inner.name())
    }

    fn choose(&mut self, g: &G) -> Action {
        if self.p > 0.0 && self.rng.random::<f64>() < self.p {
            let legal = g.legal_actions();
            return legal[self.rng.random_range(0..legal.len())];
        }
        self.inner.choose(g)
    }

    fn check_game(&self, g: &G) -> Result<(), String> {
        self.inner.check_game(g)
    }
}

/// The registry's builder of `noisy[:p=X,search=SPEC]` (module docs) for game `G`, seeded
/// `seed` (the inner bot `seed ^` [`INNER_SEED_MIX`]).
///
/// # Errors
/// An unknown parameter, `p` outside `[0, 1]`, a `noisy` inner bot, or the inner spec's own
/// error, as text.
pub fn build<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    let mut p = 0.1;
    let mut inner = "greedy".to_string();
    for (k, v) in parse_params(&spec.params)? {
        match k.as_str() {
            "p" => p = param_f64_in("noisy", &k, &v, 0.0, 1.0)?,
            "search" => inner = v,
            _ => return Err(format!("noisy: unknown parameter {k:?} (known: p, search)")),
        }
    }
    if BotSpec::parse(&inner)?.name == "noisy" {
        return Err("noisy: search=noisy nests noise in noise; give the noise once".into());
    }
    let inner = crate::search::from_spec::<G>(&inner, seed ^ INNER_SEED_MIX).map_err(|e| format!("noisy: search={inner}: {e}"))?;
    Ok(Box::new(NoisyBot::new(p, inner, seed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::more::missile::{MissileGame, MissileRules};
    use crate::variant::game_state::VariantGameState;
    use crate::variant::{State, View};

    fn jieqi() -> VariantGameState {
        let v = crate::any_game::load_variant("jieqi").expect("jieqi");
        VariantGameState::new(State::start(v, None).expect("start"))
    }

    fn missile() -> MissileGame {
        MissileGame::new(MissileRules::preset("missile").expect("missile"))
    }

    /// `p=0` chooses as its inner bot (seeded `seed ^ INNER_SEED_MIX`), decision for decision,
    /// in a RULES.md variant and a RULES-more game.
    fn p0_is_the_inner_bot<G: Scored>(g: &G, inner: &str) {
        let mut noisy = crate::search::from_spec::<G>(&format!("noisy:p=0,search={inner}"), 5).expect("noisy");
        let mut plain = crate::search::from_spec::<G>(inner, 5 ^ INNER_SEED_MIX).expect("inner");
        for _ in 0..4 {
            assert_eq!(noisy.choose(g), plain.choose(g), "p=0 is {inner}");
        }
    }

    #[test]
    fn noisy_p0_is_the_inner_bot_and_p1_is_random() {
        p0_is_the_inner_bot(&jieqi(), "greedy");
        p0_is_the_inner_bot(&jieqi(), "pimc:k=2,ties=random,search=expectimax:depth=1");
        p0_is_the_inner_bot(&missile(), "alphabeta:depth=1");
        let g = missile();
        let legal = g.legal_actions();
        let mut bot = crate::search::from_spec::<MissileGame>("noisy:p=1,search=alphabeta:depth=1", 3).expect("noisy");
        let picks: std::collections::HashSet<Action> = (0..40).map(|_| bot.choose(&g)).collect();
        assert!(picks.iter().all(|a| legal.contains(a)), "only legal actions");
        assert!(picks.len() > 5, "p=1 spreads over the legal actions: {}", picks.len());
    }

    #[test]
    fn noisy_leaves_the_inner_bot_at_the_rate_p() {
        // The inner alpha-beta is deterministic at one state, so a decision that differs from it
        // was a random one that did not happen to agree: expected share p (1 - 1/legal).
        let g = missile();
        let inner = crate::search::from_spec::<MissileGame>("alphabeta:depth=1", 1).expect("inner").choose(&g);
        let legal = g.legal_actions().len() as f64;
        let mut noisy = crate::search::from_spec::<MissileGame>("noisy:p=0.25,search=alphabeta:depth=1", 9).expect("noisy");
        let n = 400;
        let left = (0..n).filter(|_| noisy.choose(&g) != inner).count();
        let expected = n as f64 * 0.25 * (1.0 - 1.0 / legal);
        assert!((left as f64 - expected).abs() < 4.0 * (expected * 0.75).sqrt() + 1.0, "{left} of {n} left the inner bot; expected about {expected:.0}");
    }

    #[test]
    fn noisy_names_and_refuses_its_parameters() {
        let b = crate::search::from_spec::<MissileGame>("noisy", 1).expect("defaults");
        assert_eq!(b.name(), "noisy:p=0.1,search=greedy");
        let b = crate::search::from_spec::<VariantGameState>("noisy:p=0.5,search=pimc:k=2,depth=1", 1).expect("nested");
        assert!(b.name().starts_with("noisy:p=0.5,search=pimc:k=2"), "{}", b.name());
        for (bad, names) in [("noisy:p=2", "p"), ("noisy:p=x", "p"), ("noisy:q=1", "\"q\""), ("noisy:search=minimax", "minimax"), ("noisy:search=noisy:p=0.2", "nests"), ("noisy:search=net:zoo=jieqi", "libtorch")] {
            let e = crate::search::from_spec::<VariantGameState>(bad, 1).err().unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(e.contains(names), "{bad}: {e}");
        }
    }

    /// Two states of one information set (Black's hidden identities redrawn from Red's view):
    /// with an honest inner bot, the same choices.
    #[test]
    fn noisy_chooses_alike_in_one_information_set() {
        let g = jieqi();
        let view = View::new(g.state(), g.state().turn());
        for k in 0..3 {
            let twin = VariantGameState::new(view.sample(&mut Pcg64Mcg::seed_from_u64(k)));
            for spec in ["noisy:p=0.5", "noisy:p=0.3,search=pimc:k=2,search=expectimax:depth=1"] {
                let mut a = crate::search::from_spec::<VariantGameState>(spec, 7).expect("spec");
                let mut b = crate::search::from_spec::<VariantGameState>(spec, 7).expect("spec");
                for _ in 0..3 {
                    assert_eq!(a.choose(&g), b.choose(&twin), "{spec}");
                }
            }
        }
    }
}
