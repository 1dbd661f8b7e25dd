//! Small reference games implementing [`crate::game::Game`], with known solutions, on which the
//! solvers in [`crate::solve`] are proven before they touch xiangqi.
//!
//! * [`kuhn::Kuhn`]: Kuhn poker (Kuhn 1950); first-player game value -1/18.
//! * [`leduc::Leduc`]: Leduc hold'em (Southey et al. 2005), with OpenSpiel's `leduc_poker` rules.
//!
//! Both implement [`crate::observe::Observe`] with a small one-row encoding of their own
//! ([`kuhn::encoding`], [`leduc::encoding`]), so nets can be tried on them.

pub mod kuhn;
pub mod leduc;

pub use kuhn::Kuhn;
pub use leduc::Leduc;
