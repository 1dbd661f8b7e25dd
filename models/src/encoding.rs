//! The variant encoding (observation planes and fixed action index, `docs/encoding.md`), which
//! lives in the engine since nets are one consumer of the game contract among others: this
//! module re-exports [`engine::variant::encoding`] so that `models::encoding::*` keeps naming it.

pub use engine::variant::encoding::*;
