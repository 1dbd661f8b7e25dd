//! What the `net:` bot ([`crate::netmore::GameNetBot`]) counts over its decisions: the loop
//! between the search and the net ([`NetCounters::search`]) and the figures after each decision
//! ([`NetCounters::decided`]); [`NetCounted`] gives the bot its accessors (`evaluations`,
//! `decisions`, `reused_decisions`, `reused_visits`, `root_visits`), which tests and the
//! reuse/throughput examples read.

use crate::search::{Search, SearchGame};
use models::net::Net;
use rand::Rng;

/// Running totals over a net bot's decisions (all counts, since the bot was built).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetCounters {
    /// Positions evaluated by the net.
    evals: u64,
    /// Decisions searched.
    decisions: u64,
    /// The sum of the decisions' root visits when the move was chosen.
    root_visits: u64,
    /// Decisions whose root was taken over from the previous decision's tree.
    reused: u64,
    /// The sum of the visits those roots kept from the previous tree.
    reused_visits: u64,
}

impl NetCounters {
    /// Runs `s` to its end (its simulation cap or deadline), answering each batch of its leaf
    /// requests with `net`'s priors and values, and counts the evaluated positions.
    ///
    /// # Panics
    /// As [`Net::evaluate`] when `s` asks with another encoding than the net's (the bots check
    /// the game before they search).
    pub fn search<S: SearchGame>(&mut self, net: &Net, s: &mut Search<S>, rng: &mut impl Rng) {
        while s.advance(rng) {
            self.evals += s.requests() as u64;
            let ev = net.evaluate(s.request_obs(), &s.request_slots());
            for i in 0..s.requests() {
                let priors = ev.priors(i).to_vec();
                s.deliver(i, &priors, ev.value(i), rng);
            }
        }
    }

    /// Counts one decision made by `s`: its root's visits and whether (and with how many visits)
    /// it took over the previous decision's tree.
    pub fn decided<S: SearchGame>(&mut self, s: &Search<S>) {
        self.decisions += 1;
        self.root_visits += u64::from(s.root_visits());
        self.reused += u64::from(s.is_reused());
        self.reused_visits += u64::from(s.reused_visits());
    }
}

/// A bot that keeps [`NetCounters`]: the accessors of its totals.
pub trait NetCounted {
    /// The bot's totals so far.
    fn counters(&self) -> &NetCounters;

    /// Positions evaluated by the net so far (over every decision).
    fn evaluations(&self) -> u64 {
        self.counters().evals
    }

    /// Decisions made so far.
    fn decisions(&self) -> u64 {
        self.counters().decisions
    }

    /// Decisions whose search took over the previous decision's tree
    /// ([`crate::search::Search::is_reused`]).
    fn reused_decisions(&self) -> u64 {
        self.counters().reused
    }

    /// The sum over the decisions so far of the visits their roots kept from the previous tree
    /// (included in [`NetCounted::root_visits`]).
    fn reused_visits(&self) -> u64 {
        self.counters().reused_visits
    }

    /// The sum over the decisions so far of the root's visits when the move was chosen (with
    /// tree reuse, visits kept from the previous decision included).
    fn root_visits(&self) -> u64 {
        self.counters().root_visits
    }
}
