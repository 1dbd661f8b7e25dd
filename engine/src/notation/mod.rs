//! Text forms: FEN (RULES.md §N1), ICCS/UCI coordinates, WXF and Chinese move records.

pub mod fen;
pub mod iccs;
pub mod chinese;
pub mod wxf;
