//! `anqi selfplay --config … --out DIR --worker K`: a stateless self-play worker writing shards
//! for a trainer (`selfplay.source = "external"`, or alongside an in-process trainer, which is
//! worker 0). The body is `farm::commands::selfplay` (it needs libtorch, so the `anqi-torch`
//! helper runs it).

/// `anqi selfplay`'s arguments: the options the library's command takes, parsed once by clap.
pub use farm::commands::selfplay::Options as Args;
