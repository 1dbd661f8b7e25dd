//! Open twins of the hidden-information variants (docs/open-twins.md): the same rules and the
//! same deal, with everything public from the start, so that a deal can be played twice —
//! hidden and open — and only information differs.
//!
//! - [`Deal`]: the identity of every undetermined face-down piece of a start state, by square
//!   (random modes, §F3); it resolves the hidden game's reveals (§P2) the way the physical
//!   shuffle would, and it is what an open twin shows at the start.
//! - [`open_state`]: the open twin's state of a hidden state and its deal.
//! - [`pair`]: a hidden state and its open twin from one deal ([`Pair`]).
//!
//! The open twin's variant is [`Variant::open_twin`] (or `Variant::load("NAME+open")`).

use super::config::Variant;
use super::state::{Action, ChanceOutcome, State, StateError};
use crate::geometry::Square;
use crate::piece::{Color, Role};
use rand::seq::SliceRandom;
use rand::Rng;

/// Dealt identities of face-down pieces, by square index (random modes, RULES.md §F3; empty
/// elsewhere). A face-down piece never moves while its identity is undetermined (it turns up
/// when it moves, §F2, and a piece turned face-down again has a public identity, §F5), so the
/// square of an undetermined piece is its start point and names it for the whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    role: [Option<Role>; 128],
}

impl Default for Deal {
    fn default() -> Self {
        Deal::none()
    }
}

impl Deal {
    /// The empty deal (nothing undetermined: Surprise, owner's-choice modes, open twins).
    pub fn none() -> Deal {
        Deal { role: [None; 128] }
    }

    /// Deals `start`'s undetermined pool: for each side, its pool's types shuffled with `rng`
    /// over its undetermined face-down points in ascending square order. Dealing the whole pool
    /// in advance and revealing on demand draws each reveal uniformly from the pool, as the
    /// rules' chance does (§P2).
    pub fn draw(start: &State, rng: &mut impl Rng) -> Deal {
        let mut deal = Deal::none();
        for c in Color::ALL {
            let pool = start.pool(c);
            let mut types: Vec<Role> = Role::ALL.into_iter().flat_map(|r| std::iter::repeat_n(r, pool[r.index()] as usize)).collect();
            types.shuffle(rng);
            let squares: Vec<Square> = start
                .face_down()
                .into_iter()
                .filter(|&sq| start.identity(sq).is_none() && start.position().piece_at(sq).map(|p| p.color) == Some(c))
                .collect();
            for (sq, r) in squares.into_iter().zip(types) {
                deal.role[sq.index()] = Some(r);
            }
        }
        deal
    }

    /// A deal from explicit identities by square.
    pub fn from_roles(roles: impl IntoIterator<Item = (Square, Role)>) -> Deal {
        let mut deal = Deal::none();
        for (sq, r) in roles {
            deal.role[sq.index()] = Some(r);
        }
        deal
    }

    /// The dealt identity of the face-down piece on `sq`, if any.
    pub fn role(&self, sq: Square) -> Option<Role> {
        self.role[sq.index()]
    }

    /// Whether nothing is dealt.
    pub fn is_empty(&self) -> bool {
        self.role.iter().all(Option::is_none)
    }

    /// The outcome of the chance node left by `a` (played from the state before it) that the
    /// deal dictates: the dealt type of the moved piece's origin and of the captured piece's
    /// point, among `outs` (the node's outcomes); `None` when no outcome fits (the deal and the
    /// state disagree, or `a` is not a move).
    pub fn outcome(&self, a: Action, outs: &[(ChanceOutcome, f64)]) -> Option<ChanceOutcome> {
        let Action::Move { from, to, .. } = a else { return None };
        let (want_m, want_c) = (self.role[from.index()], self.role[to.index()]);
        let fits = |o: &ChanceOutcome| (o.mover.is_none() || o.mover == want_m) && (o.captured.is_none() || o.captured == want_c);
        outs.iter().find(|(o, _)| fits(o)).map(|(o, _)| *o)
    }

    /// [`Deal::outcome`], else a draw from `outs` by their probabilities with `rng` (never
    /// needed when the deal was drawn from the game's start).
    pub fn resolve(&self, a: Action, outs: &[(ChanceOutcome, f64)], rng: &mut impl Rng) -> ChanceOutcome {
        self.outcome(a, outs).unwrap_or_else(|| super::game::draw_outcome(outs, rng))
    }
}

/// A deal played twice: the hidden game's state, its open twin's state, and the deal that
/// resolves the hidden game's reveals (empty where the hidden state already fixes everything).
#[derive(Clone)]
pub struct Pair {
    /// The hidden game (its variant hides what its rules hide).
    pub hidden: State,
    /// The open twin: the same physical position and deal, everything public.
    pub open: State,
    /// Resolves the hidden game's chance nodes ([`Deal::resolve`]) to the open twin's identities.
    pub deal: Deal,
}

/// The open twin's state of `hidden` under the deal `deal` (docs/open-twins.md §O3): the same
/// full state under `open` (which must be `hidden`'s variant's open twin), with every
/// undetermined face-down identity set from the deal and public; everything else (Surprise
/// backs, owner's arrangements, rights, counters, captured pieces) is carried over and shown.
///
/// # Errors
/// [`StateError::Inconsistent`] when `open` is not the open twin of `hidden`'s variant, or
/// the deal does not give every undetermined face-down piece a type its owner's pool holds.
pub fn open_state(open: &'static Variant, hidden: &State, deal: &Deal) -> Result<State, StateError> {
    let h = hidden.variant();
    if !open.open {
        return Err(StateError::Inconsistent(format!("{} is not an open twin ([info] open = true; docs/open-twins.md §O1)", open.name)));
    }
    if !same_rules(h, open) {
        return Err(StateError::Inconsistent(format!("{} is not the open twin of {}: their rule tables differ beyond [info] open", open.name, h.name)));
    }
    let mut s = hidden.clone();
    s.rebind(open);
    for c in Color::ALL {
        let mut pool = hidden.pool(c);
        for sq in hidden.face_down() & hidden.position().by_color(c) {
            match hidden.identity(sq) {
                Some(r) => s.restore_identity(sq, r),
                None => {
                    let r = deal.role(sq).ok_or_else(|| StateError::Inconsistent(format!("the deal gives no identity to {c}'s face-down piece on {sq}")))?;
                    let n = &mut pool[r.index()];
                    if *n == 0 {
                        return Err(StateError::Inconsistent(format!("the deal makes {c}'s piece on {sq} a {r}, but {c}'s pool has no {r} left")));
                    }
                    *n -= 1;
                    s.restore_identity(sq, r);
                }
            }
            s.mark_identity_public(sq);
        }
        s.set_pool_public(c, pool);
    }
    Ok(s)
}

/// Whether `a` and `b` have the same rule table apart from `[info]`, the name and the
/// description.
fn same_rules(a: &Variant, b: &Variant) -> bool {
    let strip = |v: &Variant| {
        let mut t = v.table.clone();
        for k in ["info", "name", "description", "inherits"] {
            t.remove(k);
        }
        t
    };
    strip(a) == strip(b)
}

/// The pair of a hidden start state and its deal (docs/open-twins.md §O4): the hidden state as
/// given, its open twin by [`open_state`] under `open`.
///
/// # Errors
/// As [`open_state`].
pub fn pair(open: &'static Variant, hidden: State, deal: Deal) -> Result<Pair, StateError> {
    let open_s = open_state(open, &hidden, &deal)?;
    Ok(Pair { hidden, open: open_s, deal })
}
