//! What the play page's server accepts from a request, checked before any game is built
//! (issue #39): the `Host` and `Origin` headers ([`host_allowed`], against DNS rebinding), the
//! `variant` field ([`resolve_variant`]: a preset name, or a rule file under the directory given
//! at server start, never any other path, and never a file's contents in an error) and a typed
//! bot spec ([`check_bot`]: no file it would read, a time per move within the server's cap).
//!
//! Every refusal is a [`GuardError`] naming the field; none depends on the game's hidden state
//! (no game exists yet when these run).

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};

/// The longest `variant`, `bot` or `action` text a request may carry, in bytes.
pub const MAX_FIELD: usize = 256;

/// A request field the server refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuardError {
    /// The `Host` or `Origin` header does not name the address the server listens on.
    #[error("header {header}: {problem}")]
    Header {
        /// `Host` or `Origin`.
        header: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A field of the request body is refused.
    #[error("{field}: {problem}")]
    Field {
        /// The JSON field (`variant`, `bot`, `seed`, `movetime_ms`, `action`).
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
}

fn field(field: &'static str, problem: impl Into<String>) -> GuardError {
    GuardError::Field { field, problem: problem.into() }
}

/// The `host:port` forms a browser on this machine writes for `local` (the loopback address the
/// server listens on): the address itself (`127.0.0.1:8080`, `[::1]:8080`) and `localhost:8080`.
pub fn allowed_hosts(local: SocketAddr) -> Vec<String> {
    let port = local.port();
    let ip = match local {
        SocketAddr::V4(a) => a.ip().to_string(),
        SocketAddr::V6(a) => format!("[{}]", a.ip()),
    };
    vec![format!("{ip}:{port}"), format!("localhost:{port}")]
}

/// Checks a request's `Host` header (required) and `Origin` header (when sent: browsers send it
/// with every POST and with cross-origin requests) against [`allowed_hosts`]: a page of another
/// site, even one whose name a DNS rebinding points at 127.0.0.1, writes its own name there and
/// is refused.
///
/// # Errors
/// [`GuardError::Header`] naming the header.
pub fn host_allowed(local: SocketAddr, host: Option<&str>, origin: Option<&str>) -> Result<(), GuardError> {
    let allowed = allowed_hosts(local);
    let ok = |h: &str| allowed.iter().any(|a| a.eq_ignore_ascii_case(h));
    let Some(host) = host else { return Err(GuardError::Header { header: "Host", problem: "missing".into() }) };
    if !ok(host) {
        return Err(GuardError::Header { header: "Host", problem: format!("{} is not this server (expected {})", clip(host), allowed.join(" or ")) });
    }
    if let Some(origin) = origin {
        let same = origin.strip_prefix("http://").is_some_and(ok);
        if !same {
            return Err(GuardError::Header { header: "Origin", problem: format!("{} is not this page (expected http://{})", clip(origin), allowed.join(" or http://")) });
        }
    }
    Ok(())
}

/// A header or field value as an error quotes it: at most 64 characters.
fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(64).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    format!("{t:?}")
}

/// The names the page may ask for: the RULES.md presets, the RULES-more.md presets, and their
/// `+open` twins.
pub fn preset_names() -> Vec<&'static str> {
    engine::variant::config::preset_names().chain(engine::more::presets::presets().into_iter().map(|(n, _)| n)).collect()
}

/// The variant spec the session loads for the request's `variant`: a preset name (or a preset's
/// `+open` twin) as is; otherwise a rule file's name relative to `rules` (the directory given at
/// server start with `--rules`), as its canonical path, which must lie under that directory and
/// be a `.toml` file. Nothing else is opened: no absolute path, no `..`, no other directory.
///
/// # Errors
/// [`GuardError::Field`] for `variant`, naming the request's text but never a file's contents.
pub fn resolve_variant(name: &str, rules: Option<&Path>) -> Result<String, GuardError> {
    if name.len() > MAX_FIELD {
        return Err(field("variant", format!("longer than {MAX_FIELD} bytes")));
    }
    let presets = preset_names();
    let base = name.strip_suffix(engine::more::open::SUFFIX).unwrap_or(name);
    if presets.contains(&base) {
        return Ok(name.to_string());
    }
    let Some(dir) = rules else {
        return Err(field("variant", format!("{} is not a preset (rule files are served only from a directory given with `anqi serve --rules DIR`)", clip(name))));
    };
    let (file, twin) = match name.strip_suffix(engine::more::open::SUFFIX) {
        Some(f) => (f, engine::more::open::SUFFIX),
        None => (name, ""),
    };
    let rel = Path::new(file);
    let plain = !file.is_empty() && rel.components().all(|c| matches!(c, Component::Normal(_))) && rel.extension().is_some_and(|e| e == "toml");
    if !plain {
        return Err(field("variant", format!("{} is not a preset, nor a .toml file named relative to the rules directory (no absolute path, no ..)", clip(name))));
    }
    let missing = || field("variant", format!("{} is not a preset, nor a rule file in the rules directory", clip(name)));
    let dir = dir.canonicalize().map_err(|_| missing())?;
    let path: PathBuf = dir.join(rel).canonicalize().map_err(|_| missing())?;
    if !path.starts_with(&dir) || !path.is_file() {
        return Err(missing());
    }
    path.to_str().map(|p| format!("{p}{twin}")).ok_or_else(missing)
}

/// The top-level `ms=` of a bot spec (`pimc:k=8,ms=500,search=...` gives 500; a nested
/// `search=` spec's own limit is not read: the outer `ms` bounds it).
fn spec_ms(spec: &str) -> Result<Option<u64>, GuardError> {
    let params = spec.split_once(':').map_or("", |(_, p)| p);
    let pairs = engine::search::parse_params(params).map_err(|e| field("bot", e))?;
    let mut ms = None;
    for (k, v) in pairs {
        if k == "ms" {
            ms = Some(v.parse::<u64>().map_err(|_| field("bot", format!("ms={}: not a whole number of milliseconds", clip(&v))))?);
        }
    }
    Ok(ms)
}

/// Checks the request's bot spec and gives the time per move the session folds into it
/// (`ms=`): a spec the server offers (`--bots`) is taken as written; a typed one may not name a
/// file (`.toml` bot files, `checkpoint=`, `layouts=`) nor an engine to start (`uci:`), and may
/// not ask for more than `cap_ms` per move. Every bot that takes `ms` gets one (the page's
/// `movetime_ms`, else the cap), so no spec (`pimc:k=999999999999`, `alphabeta:depth=4294967295`)
/// searches longer than `cap_ms` a move.
///
/// Returns the milliseconds to fold in (`None` when the spec gives its own `ms`).
///
/// # Errors
/// [`GuardError::Field`] for `bot` or `movetime_ms`.
pub fn check_bot(spec: &str, offered: &[String], movetime_ms: Option<u64>, cap_ms: u64) -> Result<Option<u64>, GuardError> {
    if spec.len() > MAX_FIELD {
        return Err(field("bot", format!("longer than {MAX_FIELD} bytes")));
    }
    if let Some(m) = movetime_ms.filter(|&m| m > cap_ms) {
        return Err(field("movetime_ms", format!("{m} is above this server's cap of {cap_ms} ms per move (anqi serve --max-ms)")));
    }
    let spec = spec.trim();
    if !offered.iter().any(|o| o == spec) {
        let lower = spec.to_ascii_lowercase();
        if lower.starts_with("uci:") || lower.starts_with("net:") || lower.ends_with(".toml") || lower.contains("checkpoint=") || lower.contains("layouts=") {
            return Err(field("bot", format!("{}: a typed spec may not start an engine or name a file (offer it with `anqi serve --bots`)", clip(spec))));
        }
    }
    match spec_ms(spec)? {
        Some(m) if m > cap_ms => Err(field("bot", format!("ms={m} is above this server's cap of {cap_ms} ms per move (anqi serve --max-ms)"))),
        Some(_) => Ok(None),
        None => Ok(Some(movetime_ms.filter(|&m| m > 0).unwrap_or(cap_ms))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> SocketAddr {
        "127.0.0.1:8080".parse().expect("addr")
    }

    #[test]
    fn only_this_servers_host_and_origin_pass() {
        assert!(host_allowed(local(), Some("127.0.0.1:8080"), None).is_ok());
        assert!(host_allowed(local(), Some("LOCALHOST:8080"), Some("http://localhost:8080")).is_ok());
        for (host, origin) in [(None, None), (Some("evil.example:8080"), None), (Some("127.0.0.1:9999"), None), (Some("127.0.0.1:8080"), Some("http://evil.example:8080")), (Some("127.0.0.1:8080"), Some("null"))] {
            let e = host_allowed(local(), host, origin).unwrap_err();
            assert!(matches!(e, GuardError::Header { .. }), "{host:?} {origin:?}: {e}");
        }
        let v6: SocketAddr = "[::1]:80".parse().expect("addr");
        assert!(host_allowed(v6, Some("[::1]:80"), Some("http://[::1]:80")).is_ok());
    }

    #[test]
    fn variants_are_presets_or_files_under_the_rules_directory() {
        assert_eq!(resolve_variant("jieqi", None).as_deref(), Ok("jieqi"));
        assert_eq!(resolve_variant("jieqi+open", None).as_deref(), Ok("jieqi+open"));
        assert_eq!(resolve_variant("missile-hidden-5", None).as_deref(), Ok("missile-hidden-5"));
        let dir = tempfile::tempdir().expect("tmp");
        std::fs::write(dir.path().join("mine.toml"), "base = \"jieqi\"\n").expect("write");
        std::fs::write(dir.path().join("notes.txt"), "secret").expect("write");
        let got = resolve_variant("mine.toml", Some(dir.path())).expect("a rule file under the directory");
        assert!(got.ends_with("mine.toml"), "{got}");
        assert!(resolve_variant("mine.toml+open", Some(dir.path())).expect("its open twin").ends_with("mine.toml+open"));
        for bad in ["/etc/passwd", "../../../../etc/passwd", "notes.txt", "missing.toml", "sub/../mine.toml", ""] {
            let e = resolve_variant(bad, Some(dir.path())).unwrap_err().to_string();
            assert!(e.starts_with("variant: "), "{bad}: {e}");
            assert!(!e.contains("secret") && !e.contains("root:"), "{bad}: {e}");
        }
        assert!(resolve_variant("mine.toml", None).is_err(), "no rules directory: presets only");
    }

    #[test]
    fn typed_bots_cannot_read_files_or_outrun_the_cap() {
        let offered = vec!["greedy".to_string()];
        assert_eq!(check_bot("greedy", &offered, None, 5000), Ok(Some(5000)));
        assert_eq!(check_bot("pimc:k=999999999999", &offered, Some(200), 5000), Ok(Some(200)));
        assert_eq!(check_bot("alphabeta:depth=3,ms=100", &offered, None, 5000), Ok(None));
        assert!(check_bot("alphabeta:ms=99999", &offered, None, 5000).unwrap_err().to_string().contains("cap"));
        assert!(check_bot("greedy", &offered, Some(99999), 5000).unwrap_err().to_string().starts_with("movetime_ms"));
        for bad in ["/etc/passwd.toml", "uci:/bin/sh", "net:checkpoint=/etc/passwd", "pimc:layouts=/etc/passwd"] {
            assert!(check_bot(bad, &offered, None, 5000).unwrap_err().to_string().starts_with("bot: "), "{bad}");
        }
    }
}
