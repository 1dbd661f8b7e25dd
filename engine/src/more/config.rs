//! Rule tables of the RULES-more.md games as TOML, so that a researcher changes an [ASM]/[INF]
//! option without recompiling.
//!
//! A rule file names its starting point and overrides options of it:
//!
//! ```toml
//! name = "missile-broad"            # optional; default: the file path
//! description = "Broad base rule"   # optional; default: the base preset's
//! base = "missile"                  # a preset name, or: game = "missile" | "skill" | "camel"
//!
//! [rules]                           # keys: the rule struct's fields; missing keys keep the base
//! base_reading = "broad"
//! ```
//!
//! Keys are the fields of [`MissileRules`], [`SkillRules`] and [`CamelRules`]; enum values are
//! their variants in kebab case (`"two-ahead"`, `"any-two-of-three"`, `"ii"`);
//! `no_capture_plies = 0` means no such draw. Unknown keys and bad values are errors naming the
//! file and the key ([`MoreError::RulesFile`]). [`MoreVariant::to_toml`] writes the full table
//! in this form (`anqi variants --show`), and what it writes loads back to the same rules.
//!
//! Every flagged [ASM] option of RULES-more.md §1.10, §2.14 and §3.9 is a field here, and so
//! are camel xiangqi's board width (`files`, §2.14 #1), doc 002's river row on its board
//! (`river_row`, §2.3, §2.14 #12), secret trick layouts under each plate (`secret_tricks`,
//! §2.13; edition 5 or later, else the file is an error naming `rules.secret_tricks`) and
//! missile xiangqi's "face-down until first moved" reading of the hidden set-up (§3.8,
//! `face_down = true`; it needs a hidden `setup`, else the file is an error naming
//! `rules.face_down`). 梅花易數著法 (§3.8, §3.9 #16) is left out as the rules advise.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use super::MoreError;

/// Serde form of `no_capture_plies`: TOML has no null, so `0` stands for "never".
pub mod plies {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `None` as `0`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(v: &Option<u16>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(v.unwrap_or(0))
    }

    /// Reads `0` as `None`.
    ///
    /// # Errors
    /// Not an integer in 0..=65535.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u16>, D::Error> {
        let n = u16::deserialize(d)?;
        Ok((n != 0).then_some(n))
    }
}

pub use super::MoreVariant;
use super::family::{RuleFamily, WithFamily};
use super::FAMILIES;

/// The top-level keys a rule file may hold.
const TOP_KEYS: [&str; 6] = ["name", "description", "base", "game", "rules", "info"];

/// The name `s` with a static lifetime (each distinct name leaked once).
pub(crate) fn intern(s: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = NAMES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = set.get(s) {
        return n;
    }
    let n: &'static str = Box::leak(s.to_string().into_boxed_str());
    set.insert(n);
    n
}

pub(crate) fn file_error(file: &str, key: &str, problem: impl Into<String>) -> MoreError {
    MoreError::RulesFile { file: file.to_string(), key: key.to_string(), problem: problem.into() }
}

/// Merges `overrides` into the serialized `base` rules and reads the result back, naming the
/// first key that is unknown or has a bad value.
fn merge<T: serde::Serialize + serde::de::DeserializeOwned>(base: &T, overrides: &toml::Table, file: &str) -> Result<T, MoreError> {
    let table = match toml::Value::try_from(base) {
        Ok(toml::Value::Table(t)) => t,
        _ => return Err(file_error(file, "rules", "the base rules cannot be written as a table")),
    };
    let allowed: Vec<&str> = table.keys().map(String::as_str).collect();
    for key in overrides.keys() {
        if !table.contains_key(key) {
            return Err(file_error(file, &format!("rules.{key}"), format!("unknown key; the keys are {}", allowed.join(", "))));
        }
    }
    let mut merged = table.clone();
    for (key, value) in overrides {
        // One key at a time, so a bad value names its key.
        let mut one = table.clone();
        one.insert(key.clone(), value.clone());
        if let Err(e) = toml::Value::Table(one).try_into::<T>() {
            return Err(file_error(file, &format!("rules.{key}"), e.message().to_string()));
        }
        merged.insert(key.clone(), value.clone());
    }
    toml::Value::Table(merged).try_into::<T>().map_err(|e| file_error(file, "rules", e.message().to_string()))
}

impl MoreVariant {
    /// The built-in preset `name`.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<MoreVariant, MoreError> {
        match FAMILIES.iter().find(|f| f.presets.contains(&name)) {
            Some(f) => (f.preset)(name),
            None => Err(MoreError::UnknownPreset(name.to_string())),
        }
    }

    /// The variant `spec` names: a built-in preset, or a rule file (loaded once per process).
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`] when `spec` is neither; a file's read or rule errors.
    pub fn resolve(spec: &str) -> Result<MoreVariant, MoreError> {
        if let Ok(v) = MoreVariant::preset(spec) {
            return Ok(v);
        }
        static CACHE: OnceLock<Mutex<HashMap<String, MoreVariant>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(spec) {
            return Ok(*v);
        }
        if !std::path::Path::new(spec).is_file() {
            return Err(MoreError::UnknownPreset(spec.to_string()));
        }
        let text = std::fs::read_to_string(spec).map_err(|e| file_error(spec, "-", e.to_string()))?;
        let v = MoreVariant::from_toml(&text, spec)?;
        cache.lock().unwrap_or_else(|e| e.into_inner()).insert(spec.to_string(), v);
        Ok(v)
    }

    /// Whether `spec` is a preset of these games or a file that names one as its `base` or
    /// `game` (such a file is these games' even when the rest of it is wrong, so that its
    /// errors are reported as rule-file errors).
    pub fn recognises(spec: &str) -> bool {
        if MoreVariant::preset(spec).is_ok() {
            return true;
        }
        let Ok(text) = std::fs::read_to_string(spec) else { return false };
        let Ok(table) = text.parse::<toml::Table>() else { return false };
        let named = |k: &str| table.get(k).and_then(toml::Value::as_str).map(str::to_string);
        named("base").is_some_and(|b| MoreVariant::preset(&b).is_ok()) || named("game").is_some_and(|g| FAMILIES.iter().any(|f| f.name == g))
    }

    /// Reads a rule file's text; `file` names it in errors and is the default name.
    ///
    /// # Errors
    /// [`MoreError::RulesFile`]: bad TOML, an unknown key, a bad value, no or an unknown base.
    pub fn from_toml(text: &str, file: &str) -> Result<MoreVariant, MoreError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| file_error(file, "-", e.message().to_string()))?;
        for key in table.keys() {
            if !TOP_KEYS.contains(&key.as_str()) {
                return Err(file_error(file, key, format!("unknown key; the keys are {}", TOP_KEYS.join(", "))));
            }
        }
        let string = |k: &str| -> Result<Option<&str>, MoreError> {
            match table.get(k) {
                None => Ok(None),
                Some(v) => v.as_str().map(Some).ok_or_else(|| file_error(file, k, "expected a string")),
            }
        };
        let family_names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        let base_name = match (string("base")?, string("game")?) {
            (Some(b), _) => b.to_string(),
            (None, Some(g)) => match FAMILIES.iter().find(|f| f.name == g) {
                Some(f) => f.default_preset.to_string(),
                None => return Err(file_error(file, "game", format!("{g:?} is not one of {}", family_names.join(", ")))),
            },
            (None, None) => return Err(file_error(file, "base", "a rule file needs `base = PRESET` or `game = FAMILY`")),
        };
        let base = MoreVariant::preset(&base_name).map_err(|_| file_error(file, "base", format!("{base_name:?} is not a preset of {}", family_names.join(", "))))?;
        if let (Some(g), true) = (string("game")?, table.contains_key("base")) {
            if g != base.family() {
                return Err(file_error(file, "game", format!("{g:?} but base {base_name:?} is a {} preset", base.family())));
            }
        }
        // `[info] open` (docs/open-twins.md §O6) selects the open twin, read by
        // `super::open::split`; here only its form is checked.
        match table.get("info") {
            None => {}
            Some(toml::Value::Table(t)) => {
                for (k, v) in t {
                    if k != "open" {
                        return Err(file_error(file, &format!("info.{k}"), "unknown key; the keys are open"));
                    }
                    if !v.is_bool() {
                        return Err(file_error(file, "info.open", "must be true or false"));
                    }
                }
            }
            Some(_) => return Err(file_error(file, "info", "expected a table")),
        }
        let empty = toml::Table::new();
        let overrides = match table.get("rules") {
            None => &empty,
            Some(toml::Value::Table(t)) => t,
            Some(_) => return Err(file_error(file, "rules", "expected a table")),
        };
        let name = intern(string("name")?.unwrap_or(file));
        let description = match string("description")? {
            Some(d) => intern(d),
            None => base.description(),
        };
        base.visit(Merge { name, description, overrides, file })
    }

    /// The full rule table as a rule file ([`MoreVariant::from_toml`] reads it back).
    pub fn to_toml(&self) -> String {
        struct Table;
        impl WithFamily for Table {
            type Output = Result<String, toml::ser::Error>;
            fn run<P: RuleFamily>(self, p: P) -> Self::Output {
                toml::to_string(p.rules())
            }
        }
        let rules = self.visit(Table).unwrap_or_else(|e| format!("# cannot write the rules: {e}\n"));
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        // The comment line repeats name and description for the reader: a control character
        // (a line break, a carriage return) would end the comment or make the file invalid TOML,
        // so each is written as a space there; the quoted values keep them exactly.
        let plain = |s: &str| s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>();
        format!(
            "# {}: {}\nname = {}\ngame = {}\ndescription = {}\n\n[rules]\n{rules}",
            plain(self.name()),
            plain(self.description()),
            q(self.name()),
            q(self.family()),
            q(self.description())
        )
    }

    /// The name (preset name, or the file's `name`).
    pub fn name(&self) -> &'static str {
        self.info().name
    }

    /// One line.
    pub fn description(&self) -> &'static str {
        self.info().description
    }

    /// The family ([`RuleFamily::NAME`]: `skill`, `camel`, `missile`).
    pub fn family(&self) -> &'static str {
        self.info().family
    }

    /// Whether a player's set-up is hidden from the other (a secret tile choice, a hidden
    /// missile set-up, secret camel trick layouts).
    pub fn hidden_setup(&self) -> bool {
        self.info().hidden_setup
    }
}

/// A rule file's `[rules]` overrides merged into its base preset's rules, checked by the
/// family ([`RuleFamily::check`]).
struct Merge<'a> {
    name: &'static str,
    description: &'static str,
    overrides: &'a toml::Table,
    file: &'a str,
}

impl WithFamily for Merge<'_> {
    type Output = Result<MoreVariant, MoreError>;
    fn run<P: RuleFamily>(self, base: P) -> Self::Output {
        let rules: P::Rules = merge(base.rules(), self.overrides, self.file)?;
        P::check(&rules, self.file)?;
        Ok(P::with_rules(self.name, self.description, rules).into())
    }
}
