//! `anqi doctor`: versions, CUDA availability and thread counts. The body is
//! `farm::commands::doctor` (it asks libtorch, so the `anqi-torch` helper runs it).

/// `anqi doctor`'s arguments: the options the library's command takes, parsed once by clap.
pub use farm::commands::doctor::Options as Args;
