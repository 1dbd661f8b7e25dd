//! Experiments that answer the project's research questions; each writes a report with its
//! numbers, uncertainty and the command that made it, under `experiments/<name>/`.
//!
//! - [`draw_rates`]: does hidden information lower draw rates? (`anqi experiment draw-rates`)
//! - [`learning_curve`]: a training run's checkpoints on the strength ladder
//!   (`anqi experiment learning-curve`)
//! - [`plot`]: charts (PNG and SVG) with `plotters`.

pub mod draw_rates;
pub mod learning_curve;
pub mod plot;
