//! Environment variables in a UCI player's spec: `uci:${FAIRY_STOCKFISH} --flag` or
//! `uci:$FAIRY_STOCKFISH`, so that a committed tournament file need not know where an engine
//! lives on a machine. `$$` is a literal `$`; a `$` followed by neither `{`, `$` nor a name
//! character is kept as is.

/// A spec that cannot be expanded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// The variable is not set (or set to an empty string).
    #[error("environment variable {name} is not set (spec {spec:?} needs it)")]
    Unset {
        /// The variable.
        name: String,
        /// The spec that names it.
        spec: String,
    },
    /// The variable's value is not valid Unicode.
    #[error("environment variable {name} is not valid Unicode (spec {spec:?})")]
    NotUnicode {
        /// The variable.
        name: String,
        /// The spec that names it.
        spec: String,
    },
    /// `${` without a closing `}` or with an empty or malformed name.
    #[error("spec {spec:?}: malformed `${{…}}` at byte {at} (expected `${{NAME}}` with NAME of letters, digits and `_`)")]
    Malformed {
        /// The spec.
        spec: String,
        /// Byte offset of the `$`.
        at: usize,
    },
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `spec` with its `${NAME}` and `$NAME` replaced by the values `lookup` gives.
///
/// # Errors
/// An unset, empty or non-Unicode variable, or a malformed `${…}` ([`EnvError`]).
pub fn expand_with(spec: &str, lookup: impl Fn(&str) -> Option<std::ffi::OsString>) -> Result<String, EnvError> {
    let mut out = String::new();
    let mut rest = spec;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let at = spec.len() - rest.len() + i;
        let after = &rest[i + 1..];
        let (name, tail) = if let Some(braced) = after.strip_prefix('{') {
            let end = braced.find('}').ok_or_else(|| EnvError::Malformed { spec: spec.to_string(), at })?;
            let name = &braced[..end];
            if name.is_empty() || !name.chars().all(is_name_char) {
                return Err(EnvError::Malformed { spec: spec.to_string(), at });
            }
            (name, &braced[end + 1..])
        } else if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
            continue;
        } else {
            let len = after.find(|c: char| !is_name_char(c)).unwrap_or(after.len());
            if len == 0 {
                out.push('$');
                rest = after;
                continue;
            }
            (&after[..len], &after[len..])
        };
        let value = lookup(name).filter(|v| !v.is_empty()).ok_or_else(|| EnvError::Unset { name: name.to_string(), spec: spec.to_string() })?;
        let value = value.into_string().map_err(|_| EnvError::NotUnicode { name: name.to_string(), spec: spec.to_string() })?;
        out.push_str(&value);
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}

/// [`expand_with`] the process environment.
///
/// # Errors
/// As [`expand_with`].
pub fn expand(spec: &str) -> Result<String, EnvError> {
    expand_with(spec, |name| std::env::var_os(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env(name: &str) -> Option<OsString> {
        match name {
            "FAIRY_STOCKFISH" => Some("/opt/fsf/stockfish".into()),
            "EMPTY" => Some(OsString::new()),
            "N1" => Some("4".into()),
            _ => None,
        }
    }

    #[test]
    fn both_forms_expand() {
        assert_eq!(expand_with("uci:${FAIRY_STOCKFISH}", env), Ok("uci:/opt/fsf/stockfish".into()));
        assert_eq!(expand_with("uci:$FAIRY_STOCKFISH --hash $N1", env), Ok("uci:/opt/fsf/stockfish --hash 4".into()));
        assert_eq!(expand_with("uci:${FAIRY_STOCKFISH}x/${N1}", env), Ok("uci:/opt/fsf/stockfishx/4".into()));
    }

    #[test]
    fn text_without_variables_is_unchanged() {
        for s in ["uci:/bin/eng", "greedy", "uci:eng a$ b", "uci:$ x", "$", "cost$$", "uci:eng $-1"] {
            let want = s.replace("$$", "$");
            assert_eq!(expand_with(s, env), Ok(want), "{s}");
        }
    }

    #[test]
    fn unset_and_empty_variables_are_named() {
        let e = expand_with("uci:${FAIRY_STOCKFISH_X}", env).expect_err("unset");
        assert_eq!(e, EnvError::Unset { name: "FAIRY_STOCKFISH_X".into(), spec: "uci:${FAIRY_STOCKFISH_X}".into() });
        assert!(e.to_string().contains("environment variable FAIRY_STOCKFISH_X is not set"), "{e}");
        assert!(matches!(expand_with("uci:$EMPTY", env), Err(EnvError::Unset { name, .. }) if name == "EMPTY"));
    }

    #[test]
    fn malformed_braces_are_errors() {
        for (s, at) in [("uci:${FAIRY", 4), ("uci:${}", 4), ("a ${B C}", 2)] {
            assert_eq!(expand_with(s, env), Err(EnvError::Malformed { spec: s.into(), at }), "{s}");
        }
    }
}
