//! Choosing a network by name: `zoo:NAME` (a published net in the zoo directory) or a file path,
//! as bot specs (`alphabeta:eval=zoo:xiangqi`) and UCI (`setoption name EvalFile`) name them.
//! Loaded networks are shared ([`Arc`]) and cached by path for the process's life.

use super::{Network, NnueError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Environment variable naming the zoo directory (as for the policy nets of `models::zoo`).
pub const ZOO_ENV: &str = "ANQI_ZOO";
/// The zoo directory relative to the repository root.
pub const ZOO_REPO_DIR: &str = "models/zoo";

/// A chosen evaluation network with the text that chose it.
#[derive(Clone)]
pub struct EvalNet {
    /// The text that chose it (`zoo:xiangqi`, a path): what specs print back.
    pub spec: String,
    /// The network.
    pub net: Arc<Network>,
}

/// Two choices are equal when they name the network alike and it is the same network (hash).
impl PartialEq for EvalNet {
    fn eq(&self, other: &EvalNet) -> bool {
        self.spec == other.spec && self.net.hash() == other.net.hash()
    }
}

impl std::fmt::Debug for EvalNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EvalNet({} #{})", self.spec, self.net.short_hash())
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({} {:016x})", self.meta.variant, self.hash)
    }
}

/// The zoo directory: `$ANQI_ZOO` if set; else `models/zoo` under the working directory if it
/// is one (running from the repository root); else the `models/zoo` of the source tree this
/// binary was built from, if it is still there; else `models/zoo`.
pub fn zoo_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(ZOO_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let here = PathBuf::from(ZOO_REPO_DIR);
    if here.is_dir() {
        return here;
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(ZOO_REPO_DIR);
    if built.is_dir() {
        return built;
    }
    here
}

/// The file a choice names: `zoo:NAME` is `eval-NAME.nnue` in [`zoo_dir`]; anything else is a
/// path.
///
/// # Errors
/// [`NnueError::NotInZoo`] for a `zoo:` name with no such file, or a name that is not 1-64
/// letters, digits, `.`, `_`, `-`.
pub fn resolve(spec: &str) -> Result<PathBuf, NnueError> {
    let Some(name) = spec.strip_prefix("zoo:") else { return Ok(PathBuf::from(spec)) };
    let dir = zoo_dir();
    let ok = !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) && !name.starts_with('.');
    let path = dir.join(format!("eval-{name}.nnue"));
    if !ok || !path.is_file() {
        return Err(NnueError::NotInZoo { name: name.to_owned(), dir });
    }
    Ok(path)
}

/// The published networks that measured stronger than the hand-written evaluation, built into
/// the binary (`models/zoo/eval-NAME.nnue` when it was built), so that `zoo:xiangqi`,
/// `zoo:jieqi` and `zoo:surprise` work wherever the binary runs. (`eval-fanqi-9.nnue` is in the
/// zoo only: it measured no better than the hand-written evaluation, models/zoo/README.md.)
const EMBEDDED: &[(&str, &[u8])] = &[
    ("xiangqi", include_bytes!("../../../models/zoo/eval-xiangqi.nnue")),
    ("jieqi", include_bytes!("../../../models/zoo/eval-jieqi.nnue")),
    ("surprise", include_bytes!("../../../models/zoo/eval-surprise.nnue")),
];

/// The published network `name` built into the binary, if there is one (see [`EMBEDDED`]).
pub fn embedded(name: &str) -> Option<EvalNet> {
    static NETS: OnceLock<Vec<(&'static str, Arc<Network>)>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|(n, bytes)| Network::from_bytes(bytes, Path::new(&format!("(built in) eval-{n}.nnue"))).ok().map(|net| (*n, Arc::new(net))))
            .collect()
    });
    nets.iter().find(|(n, _)| *n == name).map(|(n, net)| EvalNet { spec: format!("zoo:{n}"), net: net.clone() })
}

/// The learned evaluation `anqi uci` and the bots use by default in the variant named
/// `variant` (a preset name): the published network of its family (`xiangqi`, `jieqi`), built
/// in; `None` elsewhere (the hand-written evaluation). The Surprise network is published and
/// built in but not yet a default: the Surprise ladder's and the draw-rate study's entries name
/// the default bots, and their recorded games would change meaning until they are replayed. An open twin
/// (`jieqi+open`, docs/open-twins.md) takes its hidden game's network, so that the draw-rate
/// study's twins are played by the same bot.
pub fn default_for(variant: &str) -> Option<EvalNet> {
    let family = variant.strip_suffix(crate::variant::config::OPEN_SUFFIX).unwrap_or(variant);
    match family {
        "xiangqi" | "jieqi" => embedded(family),
        _ => None,
    }
}

/// Loads the network `spec` names ([`resolve`]), from the cache when this process has read it;
/// `zoo:NAME` with no such file in the zoo directory is the built-in network of that name
/// ([`embedded`]) when there is one.
///
/// # Errors
/// [`resolve`]'s and [`Network::load`]'s.
pub fn load(spec: &str) -> Result<EvalNet, NnueError> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Network>>>> = OnceLock::new();
    let path = match resolve(spec) {
        Err(NnueError::NotInZoo { name, dir }) => return embedded(&name).ok_or(NnueError::NotInZoo { name, dir }),
        other => other?,
    };
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(net) = cache.lock().ok().and_then(|c| c.get(&path).cloned()) {
        return Ok(EvalNet { spec: spec.to_owned(), net });
    }
    let net = Arc::new(Network::load(&path)?);
    if let Ok(mut c) = cache.lock() {
        c.insert(path, net.clone());
    }
    Ok(EvalNet { spec: spec.to_owned(), net })
}
