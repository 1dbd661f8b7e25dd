//! The players of a tournament or study game ([`super::game::play`]), for any game `G` of the
//! contract ([`Playable`]): a bot or a UCI engine.
//!
//! - **Bots** ([`crate::bots::game_bot_for`], the one builder for every game: the RULES.md
//!   variants play the registry's bots by their own implementations where they have one,
//!   `engine::search::Scored::own_bot`, and their `net:` checkpoints by the farm's net bot).
//! - **UCI engines** speak the RULES.md variants only: a [`UciPlayer`] sits at a
//!   [`VariantGameState`] and is sent what its side may know ([`super::engine_view`]); for any
//!   other game it is refused ([`SeatError::Uci`]).
//!
//! Which of these a game gets is decided once, by the game's own hooks: [`Playable::as_variant`]
//! says whether it is the variants' game, and [`Playable::from_variant`] turns the bot or player
//! made for [`VariantGameState`] into one for `G` (a typed identity over a [`GameFamily`], no
//! `Any` downcast). What the variants are seated with stays here, above the engine (the `net:`
//! bots of the torch-linked process, the UCI engines' child processes); the engine only carries
//! the conversion.

use super::engine_view;
use super::uci_client::UciClient;
use engine::game::Action;
use engine::more::presets::{GameFamily, Playable};
use engine::search::game_bot::GameBot;
use engine::variant::game::Ply as RecordEntry;
use engine::variant::game_state::{decode, decode_chance, encode, VariantGameState};
use engine::variant::{notation, State};
use super::config::EngineRestart;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Duration;

/// Why a player cannot sit at a game.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// UCI engines do not play the RULES-more.md presets.
    #[error("player {player:?}: UCI engines cannot play {game:?} (a RULES-more.md preset, outside the UCI protocol); use a built-in bot")]
    Uci {
        /// The player's spec.
        player: String,
        /// The game (its spec).
        game: String,
    },
}

/// One ply of a game as the players are told it: the player action and the chance outcome that
/// followed it, if any.
pub type Ply = (Action, Option<Action>);

/// A player of games `G`.
pub trait Player<G> {
    /// The action of the side to move in `g`, whose plies since its start are `plies`.
    ///
    /// # Errors
    /// The player failed or answered an illegal move (a forfeit), with the reason.
    fn choose(&mut self, g: &G, plies: &[Ply]) -> Result<Action, String>;
}

/// A player whose engine failed before the game began (it exited or stayed silent during its
/// handshake, [`super::uci_client::EngineFailure`]): it forfeits at its first turn, the failure
/// its reason.
pub struct Forfeit(pub String);

impl<G> Player<G> for Forfeit {
    fn choose(&mut self, _g: &G, _plies: &[Ply]) -> Result<Action, String> {
        Err(self.0.clone())
    }
}

/// A bot as a player.
struct BotPlayer<G>(Box<dyn GameBot<G>>);

impl<G: Playable> Player<G> for BotPlayer<G> {
    fn choose(&mut self, g: &G, _plies: &[Ply]) -> Result<Action, String> {
        Ok(self.0.choose(g))
    }
}

/// `g` as a RULES.md variant's game, `None` for any other game ([`Playable::as_variant`]).
pub fn as_variant<G: Playable>(g: &G) -> Option<&VariantGameState> {
    g.as_variant()
}

/// The error of a game that says it is the variants' game ([`Playable::as_variant`]) but does
/// not convert a value made for it ([`Playable::from_variant`]): a game type's two hooks
/// disagree.
const HOOKS_DISAGREE: &str = "this game's as_variant and from_variant hooks disagree";

/// Seated players for a game, as a [`GameFamily`].
struct Players;
impl GameFamily for Players {
    type Of<G: Playable> = Box<dyn Player<G>>;
}

/// Seats the bot of `spec` at the game of `g` ([`crate::bots::game_bot_for`]).
///
/// # Errors
/// As [`crate::bots::game_bot_for`].
pub fn bot_player<G: Playable>(spec: &str, seed: u64, g: &G) -> Result<Box<dyn Player<G>>, String> {
    Ok(Box::new(BotPlayer(crate::bots::game_bot_for(spec, seed, g)?)))
}

/// How a UCI engine is started and asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSpec {
    /// Program.
    pub program: String,
    /// Arguments.
    pub args: Vec<String>,
    /// `setoption` pairs.
    pub options: BTreeMap<String, String>,
    /// The `go` command.
    pub go: String,
    /// Per-move timeout.
    pub timeout: Duration,
    /// The configured dialect (`None`: detected from the engine's `id name`).
    pub dialect: Option<super::dialect::Dialect>,
    /// Whether each game gets a fresh process ([`EngineRestart`]).
    pub restart: EngineRestart,
}

thread_local! {
    /// The engines kept between games under [`EngineRestart::Never`], by [`UciSpec`] and variant:
    /// each worker thread keeps its own (it plays one game at a time), and they quit when the
    /// tournament's worker threads end.
    static KEPT: RefCell<Vec<(String, Box<UciClient>)>> = const { RefCell::new(Vec::new()) };
}

/// A kept engine of `key` ready for a new game (`ucinewgame` answered), if one is there.
fn take_kept(key: &str) -> Option<Box<UciClient>> {
    let mut c = KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let i = k.iter().position(|(x, _)| x == key)?;
        Some(k.swap_remove(i).1)
    })?;
    // One that died since is dropped (killed) and replaced by a fresh one.
    c.new_game().ok().map(|_| c)
}

/// Starts the engine of `uci` for the game of `g`, whose spec is `game` (for errors).
///
/// # Errors
/// [`SeatError::Uci`] for a game other than a RULES.md variant; the engine fails to start; an
/// engine whose dialect cannot be given the variant's positions without what its side may not
/// know (a secret set-up to a non-anqi engine, [`engine_view::check_variant_dialect`]).
pub fn uci_player<G: Playable>(uci: &UciSpec, g: &G, game: &str) -> anyhow::Result<Box<dyn Player<G>>> {
    let Some(v) = as_variant(g) else {
        return Err(SeatError::Uci { player: format!("uci:{}", uci.program), game: game.to_string() }.into());
    };
    let variant = v.state().variant();
    let keep = (uci.restart == EngineRestart::Never).then(|| format!("{uci:?}|{}", variant.name));
    let client = match keep.as_deref().and_then(take_kept) {
        Some(c) => c,
        None => {
            let mut client = UciClient::start(&uci.program, &uci.args, &uci.options, &variant.name, uci.dialect)?;
            engine_view::check_variant_dialect(client.dialect(), variant).map_err(|e| anyhow::anyhow!("UCI engine {:?}: {e}", uci.program))?;
            client.new_game()?;
            Box::new(client)
        }
    };
    let start = v.state().clone();
    let p: Box<dyn Player<VariantGameState>> =
        Box::new(UciPlayer { client: Some(client), keep, go: uci.go.clone(), timeout: uci.timeout, game: VariantGameState::unbounded(start.clone()), told: Vec::new(), start });
    G::from_variant::<Players>(p).ok_or_else(|| anyhow::anyhow!(HOOKS_DISAGREE))
}

/// A UCI engine at a variant's game: it keeps the game's start, the game as it was told it and
/// the record entries with their texts, which [`engine_view::position_for`] turns into what the
/// engine's side may know.
pub struct UciPlayer {
    /// The engine (taken back to [`KEPT`] when the game ends under [`EngineRestart::Never`]).
    client: Option<Box<UciClient>>,
    /// Its key in [`KEPT`] under [`EngineRestart::Never`].
    keep: Option<String>,
    go: String,
    timeout: Duration,
    /// The start state, which the engine is sent (each in its dialect's FEN).
    start: State,
    /// The game so far, as the plies it was told.
    game: VariantGameState,
    /// The record entries of those plies (texts with reveal letters).
    told: Vec<RecordEntry>,
}

impl Player<VariantGameState> for UciPlayer {
    fn choose(&mut self, g: &VariantGameState, plies: &[Ply]) -> Result<Action, String> {
        for &(a, chance) in plies.iter().skip(self.told.len()) {
            let va = decode(a).ok_or_else(|| format!("ply {a} is no variant action"))?;
            let outcome = chance.and_then(decode_chance);
            self.told.push(self.game.play_recorded(va, |outs| outcome.unwrap_or_else(|| outs[0].0)));
        }
        let s = g.state();
        let client = self.client.as_mut().ok_or("the UCI engine is gone")?;
        // Only what this side may know (engine_view): a view FEN under a secret set-up,
        // capture letters it did not see dropped.
        let pos = engine_view::position_for(client.dialect(), &self.start, &self.game, &self.told, s.turn())?;
        let m = client.best_move_at(&pos, &self.go, self.timeout).map_err(|e| format!("{e:#}"))?;
        let m = m.ok_or_else(|| "engine returned no move in a position with legal moves".to_string())?;
        notation::parse_action(s, &m).map(encode).map_err(|e| format!("engine move {m:?}: {e}"))
    }
}

impl Drop for UciPlayer {
    /// Under [`EngineRestart::Never`] the engine goes back to [`KEPT`] for the worker's next
    /// game; otherwise it is dropped, which sends `quit` and ends the process.
    fn drop(&mut self) {
        if let (Some(key), Some(c)) = (self.keep.take(), self.client.take()) {
            KEPT.with(|k| k.borrow_mut().push((key, c)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::any_game::{with_any_game, Start};
    use engine::more::presets::WithGame;

    /// Seats a bot and a UCI engine at the game of `spec`: `(is the variants' game, the bot's
    /// name, whether a UCI engine was refused as the wrong game)`.
    struct Seat;
    impl WithGame for Seat {
        type Output = (bool, String, bool);
        fn run<G: Playable>(self, g: G) -> (bool, String, bool) {
            let bot = crate::bots::game_bot_for("greedy", 1, &g).expect("greedy plays every game");
            let uci = UciSpec {
                program: "/nonexistent/engine".into(),
                args: vec![],
                options: BTreeMap::new(),
                go: "go depth 1".into(),
                timeout: Duration::from_secs(1),
                dialect: None,
                restart: EngineRestart::Game,
            };
            let refused = match uci_player(&uci, &g, "game") {
                Err(e) => e.downcast_ref::<SeatError>().is_some(),
                Ok(_) => false,
            };
            (as_variant(&g).is_some(), bot.name(), refused)
        }
    }

    #[test]
    fn the_games_hooks_seat_the_variants_own_players_and_refuse_uci_elsewhere() {
        // The variants' game: its own bot (the one builder and from_variant), and a UCI
        // engine is not refused as the wrong game (it fails to start instead).
        let (variant, _, refused) = with_any_game("jieqi", Start::Setup, Seat).expect("jieqi");
        assert!(variant && !refused);
        // Any other game: the generic bot, and a UCI engine refused by kind.
        let (variant, _, refused) = with_any_game("missile-hidden-5", Start::Setup, Seat).expect("missile");
        assert!(!variant && refused);
    }
}
