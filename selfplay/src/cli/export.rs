//! `anqi export --checkpoint PATH --out DIR` (or `--zoo NAME` for a published net): a
//! checkpoint as `model.safetensors` +
//! `model.json`, plus a TorchScript module `model.pt` that Python's `torch.jit.load` runs, checked
//! against this binary's outputs. The body is `farm::commands::export` (it needs libtorch, so the
//! `anqi-torch` helper runs it).

/// `anqi export`'s arguments: the options the library's command takes, parsed once by clap.
pub use farm::commands::export::Options as Args;
