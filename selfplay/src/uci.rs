//! A UCI engine speaking Pikafish's dialect for xiangqi (`anqi uci`), with the alpha-beta searcher
//! of [`engine::search::alphabeta`] (and, in the hidden variants, the view search of
//! [`crate::uci_hidden`]).
//!
//! Commands:
//! - `uci` → `id name anqi <version>`, `id author …`, the options, `uciok`;
//! - `isready` → `readyok` (answered at once, also while searching);
//! - `ucinewgame` clears the transposition table and sets the variant's start position;
//! - `setoption name <id> [value <x>]` for `Hash` (MiB, at most [`max_hash_mb`]: an eighth of the
//!   machine's memory; a size that cannot be allocated is refused with an `info string` and the
//!   table kept), `Threads` (accepted; the search uses one thread), `Clear Hash` and
//!   `UCI_Variant` (`auto`, the default; `xiangqi`, `jieqi`, and every other preset of
//!   `anqi variants`); changing the variant sets its start position;
//! - `position startpos|fen <FEN> [moves m1 m2 …]`: moves in ICCS (`h2e2`). A FEN that does not
//!   parse leaves the position unchanged; an illegal or malformed move keeps the moves before it
//!   (for `d`). Both print `info string error: …` and make the position *refused*: until a
//!   position is accepted, `go` answers `info string error: go: not searching, the last position
//!   was refused (…)` and `bestmove (none)`, never a move of another position (issue 40);
//! - `go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
//!   [movestogo N] [mate N] [infinite] [ponder] [searchmoves m1 m2 …]`: the search runs on its
//!   own thread, printing `info depth D seldepth S score cp X|mate N wdl W D L nodes N nps N time
//!   MS pv …` after each completed depth (also when only one move is legal) and then `bestmove
//!   <move> [ponder <move>]` (the ponder move is the PV's second), or `bestmove (none)` (after
//!   `info depth 0 score mate 0`) when there is no legal move. `wdl`: per mille, from a logistic
//!   measured on committed games ([`wdl`], experiments/wdl/README.md). After `go infinite` (or
//!   `go ponder`) `bestmove` waits for `stop` (or `ponderhit`). A malformed `go` (an unknown word,
//!   a negative depth, nodes or movetime; a negative clock reads as 0) prints an error and
//!   `bestmove (none)` without searching;
//! - `setoption name HiddenSearch value alphabeta|expectimax`: the search of the hidden variants
//!   ([`HiddenSearch`]; `alphabeta` by default since issue 36);
//! - `setoption name EvalFile value auto|none|zoo:NAME|PATH`: the alpha-beta's learned evaluation
//!   ([`engine::nnue`], issue 36). `auto` (the default): the published network of the variant's
//!   family, built into the binary (xiangqi, Jieqi; the hand-written evaluation elsewhere);
//!   `none` (or `<empty>`): the hand-written one. A file that cannot be read is refused with an
//!   `info string error` naming it and the evaluation is kept;
//! - `stop`, `ponderhit`, `quit`; `d` prints the position's FEN as an `info string`.
//!
//! Anything else prints `info string error: …`; the engine keeps running. At the end of input a
//! running search is allowed to finish (an infinite one is stopped) so that its `bestmove` is
//! printed. Every output line is flushed at once.
//!
//! **Jieqi** and the other hidden-information variants: the position is a full state of
//! RULES.md §N (`X`/`x` face-down pieces and the pool of undetermined types, Pikafish's Jieqi
//! FEN; `startpos` is the variant's start), a view FEN of the side to move (`view=w|b`,
//! docs/notation.md §2) or one of JieqiBox's Jieqi FENs (six-field `board side pool captured
//! halfmove fullmove`, its old format `board pool side - - halfmove fullmove`, an empty pool
//! field as two spaces: [`engine::variant::given`]). With `UCI_Variant auto` (the default) a FEN
//! that is Jieqi by its own fields ([`given::looks_like_jieqi`]: a face-down piece, a pool or
//! captured field with pieces, JieqiBox's old format or empty pool field) switches the variant to
//! Jieqi, with an `info string`; a FEN with none of these (all pieces face-up, empty pool, nothing
//! captured face-down: as much xiangqi as Jieqi) is read in the variant being played, so it stays
//! Jieqi once a Jieqi FEN was read, until `UCI_Variant` is set. A named `UCI_Variant` (or
//! `--variant`) is kept whatever the FEN; a Jieqi FEN under `xiangqi` is refused with a hint. A
//! move that turns up a face-down piece, or captures one, carries the revealed types as in
//! Pikafish's Jieqi UCI (RULES.md §F8): a fifth character for the moved piece (or the captured
//! one), a sixth when both (`b0c2R`, `h2h9Nr`; case is not significant). The search plays the
//! hidden game from the side to move's view and never reads the hidden part of a full-state FEN:
//! by default (`HiddenSearch alphabeta`, issue 36) the alpha-beta on the core position, which is
//! public (face-down pieces move as their point's type, discs by their visible face), with the
//! view's values of face-down pieces ([`engine::search::alphabeta::HiddenValues`]) and the
//! game's record; its PV runs on through reveals as if the revealed pieces kept their point's
//! type, and it does not flip Surprise discs. `HiddenSearch expectimax` is the search before it
//! ([`crate::uci_hidden`]): determinizations of what it cannot see, reveals as chance nodes
//! weighted by the pool, Surprise flips and face-down moves searched, the PV up to the first
//! reveal.

use engine::repetition::RecordPly;
use engine::variant::game_state::public_hash;
use engine::variant::given::{self, Given};
use engine::search::alphabeta::{self, Limits, Score, SearchInfo, Searcher, DEFAULT_HASH_MB};
use engine::variant::{fen as vfen, notation as vnot, Action, Hidden, State, Variant};
use engine::{Color, Move, Role};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Milliseconds kept back from every clock-based allocation (I/O and thread start-up).
const MOVE_OVERHEAD_MS: u64 = 30;
/// Largest `Hash` value offered on any machine, MiB ([`max_hash_mb`] caps it by memory).
const HASH_CEILING_MB: usize = 65_536;
/// The `UCI_Variant` value that reads the variant from the position (issue 40): xiangqi, and
/// Jieqi from the first FEN that says so ([`engine::variant::given::looks_like_jieqi`]).
pub const AUTO_VARIANT: &str = "auto";

/// The largest `Hash` this machine offers, MiB: an eighth of the physical memory (or of a
/// cgroup's memory limit when lower), at most 65,536 and at least 16. Larger values are clamped
/// to it. (Half the memory was offered until 2026-12-05: filling a 12 GB table took 52 s of page
/// faults on this project's 24 GB machine, so `setoption Hash` at the maximum barely answered
/// within a minute; an eighth takes a quarter of that and still holds minutes of search.)
pub fn max_hash_mb() -> usize {
    let kib_total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().find_map(|l| l.strip_prefix("MemTotal:").and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())));
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok().and_then(|v| v.trim().parse::<u64>().ok()).map(|b| b / 1024);
    let kib = match (kib_total, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    match kib {
        Some(k) => ((k / 1024 / 8) as usize).clamp(16, HASH_CEILING_MB),
        None => HASH_CEILING_MB,
    }
}

/// Options the engine starts with (the `anqi uci` flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// Variant preset at start (`UCI_Variant` default): a preset name or TOML file, or
    /// [`AUTO_VARIANT`] (xiangqi until a Jieqi FEN arrives).
    pub variant: String,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The learned evaluation at start (`EvalFile` default): `auto` (the published network of the
    /// variant's family where there is one, [`engine::nnue::default_for`]), `none` (the
    /// hand-written evaluation), `zoo:NAME` or a path. `None` is `auto`.
    pub eval: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config { variant: AUTO_VARIANT.into(), hash_mb: DEFAULT_HASH_MB, eval: None }
    }
}

/// Output shared by the reader and the search thread; each line is written whole and flushed.
struct Out<W: Write> {
    w: Mutex<W>,
}

impl<W: Write> Out<W> {
    fn line(&self, text: &str) {
        let mut w = match self.w.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        // A closed output cannot be reported anywhere; the engine goes on reading.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// A search running on its own thread.
struct Job {
    stop: Arc<AtomicBool>,
    infinite: bool,
    handle: JoinHandle<Searcher>,
}

/// The UCI engine: the current position and options, and the search thread when one runs.
pub struct Engine<W: Write + Send + 'static> {
    out: Arc<Out<W>>,
    variants: HashMap<String, &'static Variant>,
    variant: &'static Variant,
    state: State,
    /// Hashes of the core positions before `state`, oldest first (repetitions, RULES.md §X6).
    /// The record for the repetition rules: the start position, then one entry per move.
    history: Vec<RecordPly>,
    /// The start position of the record, once a position was set.
    start: Option<RecordPly>,
    searcher: Option<Searcher>,
    job: Option<Job>,
    hash_mb: usize,
    /// Largest `Hash` offered ([`max_hash_mb`]).
    max_hash_mb: usize,
    /// `UCI_Variant auto`: a Jieqi FEN switches the variant to Jieqi (issue 40).
    auto: bool,
    /// Why the last `position` was refused; `go` then answers `bestmove (none)` (issue 40).
    refused: Option<String>,
    /// Said once in answer to `uci` (a `--hash` that could not be had).
    note: Option<String>,
    /// `HiddenSearch`: the search of the hidden-information variants.
    hidden_search: HiddenSearch,
    /// `EvalFile`: the learned evaluation of the alpha-beta ([`engine::nnue`]).
    eval: EvalSetting,
}

/// The `EvalFile` setting.
#[derive(Clone, Debug)]
enum EvalSetting {
    /// `auto`: the published network of the current variant's family, where there is one.
    Auto,
    /// `none`: the hand-written evaluation.
    Off,
    /// A network by name or path.
    Net(engine::nnue::EvalNet),
}

impl EvalSetting {
    /// Parses an `EvalFile` value (`auto`, `none`, `<empty>`, `zoo:NAME`, a path).
    fn parse(v: &str) -> Result<EvalSetting, engine::nnue::NnueError> {
        let v = v.trim();
        if v.eq_ignore_ascii_case("auto") {
            Ok(EvalSetting::Auto)
        } else if v.is_empty() || v == "<empty>" || v.eq_ignore_ascii_case("none") {
            Ok(EvalSetting::Off)
        } else {
            engine::nnue::load(v).map(EvalSetting::Net)
        }
    }

    /// What the option shows.
    fn text(&self) -> &str {
        match self {
            EvalSetting::Auto => "auto",
            EvalSetting::Off => "none",
            EvalSetting::Net(e) => &e.spec,
        }
    }

    /// The network a search of `variant` uses.
    fn for_variant(&self, variant: &str) -> Option<engine::nnue::EvalNet> {
        match self {
            EvalSetting::Auto => engine::nnue::default_for(variant),
            EvalSetting::Off => None,
            EvalSetting::Net(e) => Some(e.clone()),
        }
    }
}

/// The search `anqi uci` runs in the hidden-information variants (option `HiddenSearch`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HiddenSearch {
    /// `alphabeta` (the default, issue 36): the alpha-beta on the core position with the side
    /// to move's view's values of face-down pieces (the `pimc` bot's search of the RULES.md
    /// variants; [`engine::search::alphabeta::HiddenValues`]). It never flips a Surprise disc.
    AlphaBeta,
    /// `expectimax`: [`crate::uci_hidden::search`], the expectimax over six determinizations
    /// (the search before issue 36; reveals as chance nodes, flips searched).
    Expectimax,
}

/// The variant names offered by `UCI_Variant`: `auto`, `xiangqi`, `jieqi`, then the other presets.
pub fn variant_names() -> Vec<&'static str> {
    let mut names = vec![AUTO_VARIANT, "xiangqi", "jieqi"];
    names.extend(engine::variant::config::preset_names().filter(|n| *n != "xiangqi" && *n != "jieqi"));
    names
}

/// Reads commands from `input` line by line and answers on `output` until `quit` or the end of
/// input.
///
/// # Errors
/// The configured variant cannot be loaded, or reading `input` fails.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W, config: &Config) -> anyhow::Result<()> {
    let mut engine = Engine::new(output, config)?;
    for line in input.lines() {
        let line = line?;
        if !engine.command(&line) {
            return Ok(());
        }
    }
    engine.finish();
    Ok(())
}

impl<W: Write + Send + 'static> Engine<W> {
    /// An engine writing to `output`.
    ///
    /// # Errors
    /// The configured variant (a preset name or TOML file) cannot be loaded, or is a
    /// RULES-more.md game (refused, naming it).
    pub fn new(output: W, config: &Config) -> anyhow::Result<Engine<W>> {
        let auto = config.variant.eq_ignore_ascii_case(AUTO_VARIANT);
        if engine::more::presets::is_spec(&config.variant) {
            anyhow::bail!(
                "--variant {}: a RULES-more.md game; the UCI engine plays the RULES.md variants (xiangqi, Surprise, Fan-qi, Jieqi, King chess and their rule files); `anqi play`, `serve` and tournaments play this one",
                config.variant
            );
        }
        // Loaded once per process (engine::any_game::load_variant interns it), so that engines
        // made one after another (tests, the fuzz harness) do not each leak a copy.
        let variant: &'static Variant = engine::any_game::load_variant(if auto { "xiangqi" } else { &config.variant })?;
        let state = State::start(variant, None)?;
        let mut variants = HashMap::new();
        variants.insert(variant.name.to_ascii_lowercase(), variant);
        let max_hash_mb = max_hash_mb();
        let eval = match &config.eval {
            Some(spec) => EvalSetting::parse(spec).map_err(|e| anyhow::anyhow!("--eval {spec}: {e}"))?,
            None => EvalSetting::Auto,
        };
        let mut hash_mb = config.hash_mb.clamp(1, max_hash_mb);
        let mut note = (config.hash_mb > max_hash_mb)
            .then(|| format!("Hash {} MiB is above the {max_hash_mb} MiB this machine allows; using {max_hash_mb}", config.hash_mb));
        let mut searcher = Searcher::new(1);
        if let Err(e) = searcher.try_resize(hash_mb) {
            note = Some(format!("error: Hash {hash_mb} MiB could not be allocated ({e}); using {DEFAULT_HASH_MB} MiB"));
            hash_mb = DEFAULT_HASH_MB;
            searcher.resize(hash_mb);
        }
        Ok(Engine {
            out: Arc::new(Out { w: Mutex::new(output) }),
            variants,
            variant,
            state,
            history: Vec::new(),
            start: None,
            searcher: Some(searcher),
            job: None,
            hash_mb,
            max_hash_mb,
            auto,
            refused: None,
            note,
            hidden_search: HiddenSearch::AlphaBeta,
            eval,
        })
    }

    fn send(&self, text: &str) {
        self.out.line(text);
    }

    fn error(&self, text: &str) {
        self.send(&format!("info string error: {text}"));
    }

    /// Handles one command line; `false` after `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { return true };
        match cmd {
            "uci" => self.uci(),
            "isready" => self.send("readyok"),
            "ucinewgame" => {
                self.end_job(true);
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.reset_position();
            }
            "setoption" => self.setoption(&tokens[1..]),
            "position" => self.position(&tokens[1..], raw_fen(line)),
            "go" => self.go(&tokens[1..]),
            "stop" | "ponderhit" => self.end_job(true),
            "quit" => {
                self.end_job(true);
                return false;
            }
            "d" => self.send(&format!("info string fen {}", vfen::write(&self.state))),
            other => self.error(&format!("unknown command {other:?} (known: uci, isready, ucinewgame, setoption, position, go, stop, ponderhit, quit, d)")),
        }
        true
    }

    /// End of input: lets a bounded search finish (stops an infinite one) so `bestmove` appears.
    pub fn finish(&mut self) {
        self.end_job(false);
    }

    fn uci(&mut self) {
        self.send(&format!("id name anqi {}", env!("CARGO_PKG_VERSION")));
        self.send("id author the anqi developers");
        if let Some(n) = self.note.take() {
            self.send(&format!("info string {n}"));
        }
        self.send("");
        self.send(&format!("option name Hash type spin default {} min 1 max {}", self.hash_mb, self.max_hash_mb));
        self.send("option name Threads type spin default 1 min 1 max 1024");
        self.send("option name Clear Hash type button");
        let vars: Vec<String> = variant_names().iter().map(|n| format!("var {n}")).collect();
        let default = if self.auto { AUTO_VARIANT } else { self.variant.name.as_str() };
        self.send(&format!("option name UCI_Variant type combo default {default} {}", vars.join(" ")));
        self.send("option name HiddenSearch type combo default alphabeta var alphabeta var expectimax");
        self.send(&format!("option name EvalFile type string default {}", self.eval.text()));
        self.send("uciok");
    }

    /// Waits for the running search, if any; `stop` raises its stop flag first. An infinite
    /// search is always stopped.
    fn end_job(&mut self, stop: bool) {
        let Some(job) = self.job.take() else { return };
        if stop || job.infinite {
            job.stop.store(true, Ordering::Relaxed);
        }
        match job.handle.join() {
            Ok(s) => self.searcher = Some(s),
            Err(_) => {
                self.error("the search thread failed; the hash table was reset");
                self.searcher = Some(Searcher::new(self.hash_mb));
            }
        }
    }

    fn reset_position(&mut self) {
        match State::start(self.variant, None) {
            Ok(s) => {
                self.state = s;
                self.refused = None;
            }
            Err(e) => {
                let e = format!("start position of {}: {e}", self.variant.name);
                self.error(&e);
                self.refused = Some(e);
            }
        }
        self.history.clear();
        self.start = None;
    }

    /// The loaded preset `key` (`xiangqi`, `jieqi`, …), loading it once.
    fn preset(&mut self, key: &str) -> Option<&'static Variant> {
        if let Some(v) = self.variants.get(key) {
            return Some(*v);
        }
        if !engine::variant::config::preset_names().any(|n| n == key) {
            return None; // a preset name only, never a file
        }
        let v: &'static Variant = engine::any_game::load_variant(key).ok()?;
        self.variants.insert(key.to_string(), v);
        Some(v)
    }

    fn setoption(&mut self, t: &[&str]) {
        // setoption name <words…> [value <words…>]
        if t.first().map(|w| w.eq_ignore_ascii_case("name")) != Some(true) {
            self.error("setoption: expected 'setoption name <id> [value <x>]'");
            return;
        }
        let vpos = t.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let name = t[1..vpos.unwrap_or(t.len())].join(" ");
        let value = vpos.map(|i| t[i + 1..].join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if mb >= 1 => {
                    self.end_job(true);
                    let max = self.max_hash_mb;
                    if mb > max {
                        self.send(&format!("info string Hash {mb} MiB is above the {max} MiB this machine allows; using {max}"));
                    }
                    let want = mb.min(max);
                    let result = self.searcher.get_or_insert_with(|| Searcher::new(1)).try_resize(want);
                    match result {
                        Ok(()) => self.hash_mb = want,
                        Err(e) => self.error(&format!("setoption Hash: {want} MiB could not be allocated ({e}); the table stays {} MiB", self.hash_mb)),
                    }
                }
                _ => self.error(&format!("setoption Hash: {value:?} is not a size in MiB (1..{})", self.max_hash_mb)),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if n >= 1 => {
                    if n > 1 {
                        self.send(&format!("info string Threads {n} accepted; anqi searches with 1 thread"));
                    }
                }
                _ => self.error(&format!("setoption Threads: {value:?} is not a positive number")),
            },
            "hiddensearch" => match value.trim().to_ascii_lowercase().as_str() {
                "alphabeta" => self.hidden_search = HiddenSearch::AlphaBeta,
                "expectimax" => self.hidden_search = HiddenSearch::Expectimax,
                _ => self.error(&format!("setoption HiddenSearch: {value:?} is neither alphabeta nor expectimax")),
            },
            "evalfile" => match EvalSetting::parse(&value) {
                Ok(e) => {
                    if let EvalSetting::Net(n) = &e {
                        self.send(&format!("info string EvalFile {}: network {} ({})", n.spec, n.net.short_hash(), n.net.meta().variant));
                    }
                    self.eval = e;
                }
                Err(e) => self.error(&format!("setoption EvalFile: {e}; the evaluation stays {}", self.eval.text())),
            },
            "clear hash" => {
                self.end_job(true);
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            "uci_variant" => {
                let key = value.trim().to_ascii_lowercase();
                if !variant_names().contains(&key.as_str()) {
                    self.error(&format!("setoption UCI_Variant: unknown variant {value:?} (known: {})", variant_names().join(", ")));
                    return;
                }
                let auto = key == AUTO_VARIANT;
                let Some(v) = self.preset(if auto { "xiangqi" } else { &key }) else {
                    self.error(&format!("setoption UCI_Variant: preset {key:?} could not be loaded"));
                    return;
                };
                self.end_job(true);
                self.auto = auto;
                self.variant = v;
                self.reset_position();
            }
            _ => self.error(&format!("no such option {name:?} (known: Hash, Threads, Clear Hash, UCI_Variant)")),
        }
    }

    /// `position startpos|fen <FEN> [moves …]`; `raw` is the FEN as received (JieqiBox writes
    /// an empty pool field as two spaces). With `UCI_Variant auto` a Jieqi FEN switches the variant
    /// to Jieqi. A refused position (a FEN that does not parse, a bad move) is remembered: `go`
    /// then answers `bestmove (none)` rather than search another position (issue 40).
    fn position(&mut self, t: &[&str], raw: Option<&str>) {
        let moves_at = t.iter().position(|w| *w == "moves");
        let spec = &t[..moves_at.unwrap_or(t.len())];
        let joined = spec.get(1..).map(|w| w.join(" ")).unwrap_or_default();
        let fen_text = raw.unwrap_or(&joined);
        let mut variant = self.variant;
        let jieqi_fen = spec.first() == Some(&"fen") && given::looks_like_jieqi(fen_text);
        if jieqi_fen && self.auto && !variant.caps.face_down() {
            match self.preset("jieqi") {
                Some(v) => variant = v,
                None => self.error("position: the jieqi preset could not be loaded"),
            }
        }
        let start = match spec.first().copied() {
            Some("startpos") if spec.len() == 1 => State::start(variant, None).map_err(|e| e.to_string()),
            Some("startpos") => Err(format!("unexpected {:?} after 'startpos'", spec[1..].join(" "))),
            // A full-state FEN, a view FEN (`view=w|b`) or one of JieqiBox's Jieqi FENs: a view
            // is searched through one of its determinizations (engine::variant::given).
            Some("fen") if spec.len() > 1 => Given::parse(variant, fen_text).map(|g| g.state()).map_err(|e| {
                if jieqi_fen && !variant.caps.face_down() {
                    format!("{e} (this is a Jieqi FEN, and UCI_Variant is {}: set it to auto or jieqi)", variant.name)
                } else {
                    e.to_string()
                }
            }),
            Some("fen") => Err("'position fen' needs a FEN".into()),
            _ => Err("expected 'position startpos|fen <FEN> [moves …]'".into()),
        };
        let mut state = match start {
            Ok(s) => s,
            Err(e) => {
                let e = format!("position: {e}");
                self.error(&format!("{e}; position unchanged, and 'go' answers bestmove (none) until a position is accepted"));
                self.refused = Some(e);
                return;
            }
        };
        if !std::ptr::eq(variant, self.variant) {
            self.send(&format!("info string UCI_Variant auto: playing {} (read from the FEN)", variant.name));
            self.variant = variant;
        }
        self.refused = None;
        // The record hashes what both sides see (public_hash, as VariantGameState's record): the
        // hidden-game search compares it with its own positions; the xiangqi search re-hashes
        // its reversible tail for the core (repetition::core_tail).
        let start_hash = public_hash(&state);
        let start_mover = state.position().turn().opponent();
        let mut history = Vec::new();
        if let Some(i) = moves_at {
            for (k, text) in t[i + 1..].iter().enumerate() {
                let before = state.position().clone();
                if let Err(e) = apply_move(&mut state, text) {
                    let e = format!("position: move {} ({text}): {e}", k + 1);
                    self.error(&format!("{e}; kept the {k} move(s) before it, and 'go' answers bestmove (none) until a position is accepted"));
                    self.refused = Some(e);
                    break;
                }
                let pos = state.position();
                let quiet = engine::repetition::quiet_between(&before, pos);
                history.push(RecordPly { hash: public_hash(&state), mover: before.turn(), gave_check: pos.in_check(), board: true, quiet });
            }
        }
        self.start = Some(RecordPly::occurrence(start_hash, start_mover));
        self.state = state;
        self.history = history;
    }

    fn go(&mut self, t: &[&str]) {
        // Every `go` is answered by one `bestmove`; when there is nothing to search it is
        // `bestmove (none)` after an `info string` naming why (a GUI waiting for it goes on).
        self.end_job(true);
        if let Some(e) = &self.refused {
            self.error(&format!("go: not searching, the last position was refused ({e})"));
            self.send("bestmove (none)");
            return;
        }
        let go = match parse_go(t, &self.state) {
            Ok(g) => g,
            Err(e) => {
                self.error(&format!("go: {e}; not searching"));
                self.send("bestmove (none)");
                return;
            }
        };
        let state = self.state.clone();
        let hidden_game = state.variant().caps.hidden != Hidden::None;
        if hidden_game && self.hidden_search == HiddenSearch::Expectimax {
            self.go_hidden(go, state);
            return;
        }
        // In a hidden variant the core position, the legal moves and the view's values of the
        // face-down pieces are functions of the side to move's view: the search reads nothing else.
        let hidden = if hidden_game && state.face_down().any() { alphabeta::HiddenValues::from_known(engine::variant::View::new(&state, state.turn()).known()) } else { None };
        let mut roots = alphabeta::oracle_root_moves(&state);
        if !go.searchmoves.is_empty() {
            roots.retain(|m| go.searchmoves.contains(m));
        }
        if roots.is_empty() {
            // No move to search: the game is over here, or (hidden variants) only flips and
            // negotiation are legal, which this engine does not search.
            let acts = state.legal_actions();
            let answer = acts.iter().copied().find(|a| matches!(a, Action::Answer(engine::variant::state::Answer::Refuse)));
            match answer.or_else(|| acts.first().copied()) {
                Some(a) if go.searchmoves.is_empty() => {
                    self.send(&format!("bestmove {}", vnot::action_string(&state, a)));
                }
                _ => {
                    self.send("info depth 0 score mate 0");
                    self.send("bestmove (none)");
                }
            }
            return;
        }
        let (soft_time_ms, time_ms) = go.time_limits(state.position().turn());
        let limits = Limits { depth: go.depth, nodes: go.nodes, searchmoves: roots, time_ms, soft_time_ms, eval: self.eval.for_variant(&state.variant().name), ..Limits::default() };
        let infinite = go.infinite || go.ponder;
        let stop = Arc::new(AtomicBool::new(false));
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(self.hash_mb));
        searcher.set_stop_flag(stop.clone());
        let out = self.out.clone();
        let record: Vec<RecordPly> = self.start.iter().chain(&self.history).copied().collect();
        let history = engine::repetition::core_tail(state.position(), &record);
        let job_stop = stop.clone();
        let handle = std::thread::spawn(move || {
            let pos = state.position().clone();
            let r = searcher.search_hidden(&pos, &history, hidden, &limits, &mut |i| out.line(&info_line(i)));
            if infinite {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let best = r.best.map(|m| move_text(&state, m));
            match best {
                Some(b) => {
                    let ponder = r.pv.get(1).filter(|_| r.pv.first() == r.best.as_ref()).map(|m| m.iccs());
                    match ponder {
                        Some(p) => out.line(&format!("bestmove {b} ponder {p}")),
                        _ => out.line(&format!("bestmove {b}")),
                    }
                }
                None => out.line("bestmove (none)"),
            }
            searcher
        });
        self.job = Some(Job { stop: job_stop, infinite, handle });
    }

    /// `go` in a hidden-information variant: [`crate::uci_hidden::search`] from the side to
    /// move's view, on its own thread like the xiangqi search.
    fn go_hidden(&mut self, go: Go, state: State) {
        let (soft_time_ms, time_ms) = go.time_limits(state.position().turn());
        let mut limits = crate::uci_hidden::HiddenLimits { depth: go.depth, nodes: go.nodes, time_ms, soft_time_ms, ..Default::default() };
        if !go.searchmoves.is_empty() {
            limits.searchmoves = state.legal_actions().into_iter().filter(|a| matches!(a, Action::Move { from, to, .. } if go.searchmoves.iter().any(|m| m.from == *from && m.to == *to))).collect();
        }
        let infinite = go.infinite || go.ponder;
        let stop = Arc::new(AtomicBool::new(false));
        let searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(self.hash_mb));
        let out = self.out.clone();
        let record: Vec<RecordPly> = self.start.iter().chain(&self.history).copied().collect();
        let job_stop = stop.clone();
        let handle = std::thread::spawn(move || {
            let best = crate::uci_hidden::search(&state, &record, &limits, &stop, &mut |l| out.line(l));
            if infinite {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            match best {
                Some(r) => match r.pv.get(1) {
                    Some(p) => out.line(&format!("bestmove {} ponder {p}", vnot::action_string(&state, r.best))),
                    None => out.line(&format!("bestmove {}", vnot::action_string(&state, r.best))),
                },
                None => {
                    out.line("info depth 0 score mate 0");
                    out.line("bestmove (none)");
                }
            }
            searcher
        });
        self.job = Some(Job { stop: job_stop, infinite, handle });
    }
}

/// The FEN of a `position fen <FEN> [moves …]` line as received, spaces kept (JieqiBox writes an
/// empty pool field as two spaces); `None` for another line.
pub fn raw_fen(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("position")?.trim_start().strip_prefix("fen")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let end = rest.find(" moves ").or_else(|| rest.strip_suffix(" moves").map(str::len)).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// The UCI text of core move `m` in `state`: ICCS, with the variant's suffixes when the plain
/// move is not an action there.
fn move_text(state: &State, m: Move) -> String {
    match alphabeta::action_for_move(state, m) {
        Some(a) => vnot::action_string(state, a),
        None => m.iccs(),
    }
}

/// A win-draw-loss model of a search's score (UCI `wdl`, per mille, the side to move's view):
/// `win = 1 / (1 + exp((a - x) / b))`, `loss = 1 / (1 + exp((a + x) / b))`, the draw the rest,
/// for a score of `x` centipawns (the two-parameter logistic of Stockfish's WDL model).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Centipawns at which a win is as likely as not.
    pub a: f64,
    /// Spread in centipawns.
    pub b: f64,
}

/// [`WdlModel`] of the xiangqi alpha-beta search's scores, measured by `scripts/fit-wdl`
/// (experiments/wdl/README.md): 556 positions, one from each committed xiangqi ladder game, scored
/// by `anqi uci` (`go depth 4`) and fitted by maximum likelihood to the games' results.
pub const WDL_XIANGQI: WdlModel = WdlModel { a: 190.0, b: 387.0 };
/// [`WdlModel`] of the hidden-game search's scores (Jieqi, and the other hidden variants for want
/// of their own measurement), measured as [`WDL_XIANGQI`]: 1,350 positions of committed Jieqi
/// ladder games scored with `go nodes 3000`.
pub const WDL_JIEQI: WdlModel = WdlModel { a: 118.0, b: 552.5 };

/// Win, draw and loss per mille of `score` under `model` (a mate: all win or all loss).
pub fn wdl(model: WdlModel, score: &Score) -> (u32, u32, u32) {
    match *score {
        Score::Mate(m) if m > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(c) => {
            let x = f64::from(c);
            let win = 1.0 / (1.0 + ((model.a - x) / model.b).exp());
            let loss = 1.0 / (1.0 + ((model.a + x) / model.b).exp());
            let w = (win * 1000.0).round().clamp(0.0, 1000.0) as u32;
            let l = ((loss * 1000.0).round() as u32).min(1000 - w);
            (w, 1000 - w - l, l)
        }
    }
}

/// `info depth … pv …` for one completed iteration.
pub fn info_line(i: &SearchInfo) -> String {
    let pv: Vec<String> = i.pv.iter().map(|m| m.iccs()).collect();
    let score = match i.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let (w, d, l) = wdl(WDL_XIANGQI, &i.score);
    format!(
        "info depth {} seldepth {} score {} wdl {w} {d} {l} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        score,
        i.nodes,
        i.nps,
        i.time_ms,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// Soft and hard time budgets in ms for `time` left, increment `inc` and `movestogo` moves.
pub fn allocate(time: u64, inc: u64, movestogo: Option<u64>) -> (u64, u64) {
    let mtg = movestogo.unwrap_or(30).clamp(1, 50);
    let avail = time.saturating_sub(MOVE_OVERHEAD_MS);
    let base = avail / mtg + inc * 3 / 4;
    let hard = (base * 3).min(avail * 8 / 10).max(1);
    let soft = base.min(hard).max(1);
    (soft, hard)
}

/// A parsed `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth N` (plies).
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `wtime MS` (Red's clock).
    pub wtime: Option<u64>,
    /// `btime MS` (Black's clock).
    pub btime: Option<u64>,
    /// `winc MS`.
    pub winc: Option<u64>,
    /// `binc MS`.
    pub binc: Option<u64>,
    /// `movestogo N`.
    pub movestogo: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: like `infinite` until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves m1 m2 …`.
    pub searchmoves: Vec<Move>,
}

impl Go {
    /// The (soft, hard) time budgets in ms of the side `us`: `movetime` less a share of the move
    /// overhead as the hard one, and the clock's allocation ([`allocate`]) when a clock is given.
    pub fn time_limits(&self, us: Color) -> (Option<u64>, Option<u64>) {
        let mut hard = self.movetime.map(|mt| mt.saturating_sub(MOVE_OVERHEAD_MS / 3).max(1));
        let mut soft = None;
        let (time, inc) = match us {
            Color::Red => (self.wtime, self.winc.unwrap_or(0)),
            Color::Black => (self.btime, self.binc.unwrap_or(0)),
        };
        if let Some(time) = time {
            let (s, h) = allocate(time, inc, self.movestogo);
            soft = Some(s);
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        (soft, hard)
    }
}

/// Parses the words after `go`. Plain `go` (no limit) searches until `stop`.
///
/// # Errors
/// The malformed word, as text.
pub fn parse_go(t: &[&str], state: &State) -> Result<Go, String> {
    let mut g = Go::default();
    let mut i = 0;
    let num = |i: usize, key: &str| -> Result<u64, String> {
        let v = t.get(i + 1).ok_or_else(|| format!("'{key}' needs a number"))?;
        match v.parse::<i64>() {
            Ok(n) if n >= 0 => Ok(n as u64),
            // Some GUIs send a negative clock when time is up: read it as 0.
            Ok(_) if matches!(key, "wtime" | "btime") => Ok(0),
            Ok(n) => Err(format!("{key} {n} is negative")),
            Err(_) => Err(format!("{key} {v:?} is not a number")),
        }
    };
    while i < t.len() {
        let key = t[i];
        match key {
            "depth" => g.depth = Some((num(i, key)?.clamp(1, alphabeta::MAX_DEPTH as u64)) as u32),
            "nodes" => g.nodes = Some(num(i, key)?.max(1)),
            "movetime" => g.movetime = Some(num(i, key)?),
            "wtime" => g.wtime = Some(num(i, key)?),
            "btime" => g.btime = Some(num(i, key)?),
            "winc" => g.winc = Some(num(i, key)?),
            "binc" => g.binc = Some(num(i, key)?),
            "movestogo" => g.movestogo = Some(num(i, key)?.max(1)),
            "mate" => g.depth = Some((num(i, key)?.clamp(1, 49) * 2) as u32),
            "infinite" => {
                g.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                g.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < t.len() && !GO_KEYS.contains(&t[i]) {
                    let m = engine::notation::iccs::parse_squares(t[i].get(..4).unwrap_or(t[i]))
                        .map(|(a, b)| Move::new(a, b))
                        .map_err(|e| format!("searchmoves: {e}"))?;
                    if !state.position().is_legal(m) {
                        return Err(format!("searchmoves: {} is not legal here", t[i]));
                    }
                    g.searchmoves.push(m);
                    i += 1;
                }
                continue;
            }
            other => return Err(format!("unknown parameter {other:?}")),
        }
        i += 2;
    }
    if g.depth.is_none() && g.nodes.is_none() && g.movetime.is_none() && g.wtime.is_none() && g.btime.is_none() {
        g.infinite = true;
    }
    Ok(g)
}

const GO_KEYS: &[&str] =
    &["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate", "infinite", "ponder", "searchmoves"];

/// Applies one UCI move to `state`: ICCS, with the revealed types of RULES.md §F8 when the move
/// turns up or captures an undetermined face-down piece (`~` and `^` suffixes as in records).
///
/// # Errors
/// Malformed or illegal text, or a reveal that is missing or impossible, as text.
pub fn apply_move(state: &mut State, text: &str) -> Result<(), String> {
    if state.variant().caps.core_only && text.len() != 4 {
        return Err("expected an ICCS move like h2e2".into());
    }
    let a = vnot::parse_action(state, text).map_err(|e| e.to_string())?;
    let letters: Vec<char> = text.chars().filter(|c| *c != '~' && *c != '^').skip(4).collect();
    let mut next = state.clone();
    next.apply(a);
    if next.is_chance() {
        let outs = next.chance_outcomes();
        let Some(&(shape, _)) = outs.first() else {
            return Err("no chance outcome (inconsistent pool)".into());
        };
        let needed = usize::from(shape.mover.is_some()) + usize::from(shape.captured.is_some());
        if letters.len() < needed {
            let what = match (shape.mover.is_some(), shape.captured.is_some()) {
                (true, true) => "the moved and the captured face-down piece (two letters)",
                (true, false) => "the moved face-down piece",
                _ => "the captured face-down piece",
            };
            return Err(format!("this move reveals {what}: append the type letter(s) (RULES.md §F8, e.g. {}R)", &text[..text.len().min(4)]));
        }
        let role = |c: char| Role::from_char(c.to_ascii_uppercase()).ok_or_else(|| format!("{c:?} is not a piece letter"));
        let mut k = 0;
        let mover = if shape.mover.is_some() {
            k += 1;
            Some(role(letters[0])?)
        } else {
            None
        };
        let captured = if shape.captured.is_some() { Some(role(letters[k])?) } else { None };
        let o = outs
            .iter()
            .map(|(o, _)| *o)
            .find(|o| o.mover == mover && o.captured == captured)
            .ok_or_else(|| "the revealed type is not among the undetermined pieces (pool)".to_string())?;
        next.apply_chance(o);
    }
    *state = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing (`uci_lines`, one hour: the harness makes an engine per input, and each
    /// leaked its own copy of the variant until libFuzzer's 4 GiB limit): engines made one after
    /// another, and their `UCI_Variant` switches, share one loaded variant per preset.
    #[test]
    fn engines_made_one_after_another_share_their_loaded_variants() {
        let a = Engine::new(std::io::sink(), &Config::default()).expect("engine");
        let mut b = Engine::new(std::io::sink(), &Config::default()).expect("engine");
        assert!(std::ptr::eq(a.variant, b.variant));
        let j1 = b.preset("jieqi").expect("jieqi");
        let mut c = Engine::new(std::io::sink(), &Config::default()).expect("engine");
        assert!(std::ptr::eq(j1, c.preset("jieqi").expect("jieqi")));
        // A name that is no preset (a file path, say) is not loaded by a variant switch.
        assert!(c.preset("/etc/passwd").is_none());
    }

    fn session(input: &str, config: &Config) -> String {
        #[derive(Clone)]
        struct Buf(Arc<Mutex<Vec<u8>>>);
        impl Write for Buf {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Buf(Arc::new(Mutex::new(Vec::new())));
        run(input.as_bytes(), buf.clone(), config).expect("session");
        let bytes = buf.0.lock().expect("lock").clone();
        String::from_utf8(bytes).expect("utf8")
    }

    #[test]
    fn contract_session() {
        let out = session("uci\nisready\nposition startpos moves h2e2\ngo depth 2\n", &Config::default());
        assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("bestmove");
        let pos = engine::notation::fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1").expect("fen");
        let m = engine::notation::iccs::parse_move(&pos, &best[..4]).expect("legal bestmove");
        assert!(pos.is_legal(m));
    }

    #[test]
    fn errors_keep_the_engine_running() {
        let out = session("position fen garbage\ngo depth x\nfoo\nposition startpos moves h2e2 h2e2\nisready\n", &Config::default());
        assert_eq!(out.matches("info string error:").count(), 4, "{out}");
        assert!(out.contains("readyok"));
        // The refused position's `go` is answered without a search.
        assert_eq!(out.lines().filter(|l| l.starts_with("bestmove")).collect::<Vec<_>>(), ["bestmove (none)"], "{out}");
    }

    #[test]
    fn jieqi_moves_need_reveals() {
        let cfg = Config { variant: "jieqi".into(), ..Config::default() };
        let mut e = Engine::new(Vec::new(), &cfg).expect("engine");
        e.command("position startpos moves h2e2C");
        assert_eq!(e.history.len(), 1);
        assert_eq!(e.state.position().turn(), Color::Black);
        e.command("position startpos moves h2e2");
        assert_eq!(e.history.len(), 0, "missing reveal rejected");
        e.command("position startpos moves b0c2R h9g7n");
        assert_eq!(e.history.len(), 2);
    }

    #[test]
    fn raw_fen_keeps_empty_fields() {
        assert_eq!(raw_fen("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w  r1 0 40 moves e1e2"), Some("3k5/9/9/9/9/9/9/9/4R4/4K4 w  r1 0 40"));
        assert_eq!(raw_fen("position fen a  b"), Some("a  b"));
        assert_eq!(raw_fen("position startpos moves h2e2"), None);
        assert_eq!(raw_fen("position fenx"), None);
    }

    #[test]
    fn wdl_is_per_mille_and_monotone() {
        let mut last = (0, 0, 1000);
        for cp in (-2000..=2000).step_by(50) {
            let (w, d, l) = wdl(WDL_JIEQI, &Score::Cp(cp));
            assert_eq!(w + d + l, 1000);
            assert!(w >= last.0 && l <= last.2, "{cp}");
            last = (w, d, l);
        }
        assert_eq!(wdl(WDL_XIANGQI, &Score::Cp(0)).0, wdl(WDL_XIANGQI, &Score::Cp(0)).2, "symmetric at 0");
        assert_eq!(wdl(WDL_XIANGQI, &Score::Mate(-3)), (0, 0, 1000));
    }

    #[test]
    fn allocation_stays_within_the_clock() {
        for (t, inc, mtg) in [(1000u64, 0u64, None), (60_000, 1000, Some(1)), (10, 0, None), (300_000, 0, Some(40))] {
            let (soft, hard) = allocate(t, inc, mtg);
            assert!(soft <= hard && hard <= t.max(1), "{t} {inc} {mtg:?}: {soft} {hard}");
        }
    }
}
