//! The variant rule table: presets in `configs/variants/*.toml` (embedded in the binary), user
//! files that inherit a preset and override options, and a validator that rejects unknown keys and
//! contradictory settings naming the key. Every [R] of RULES.md is an option here.

use crate::attacks::Attacks;
use crate::piece::{Color, Role};
use crate::rules::{EndRules, Rules};
use std::collections::BTreeSet;
use toml::{Table, Value};

/// The preset files, embedded so the binary works from any directory.
pub const PRESETS: &[(&str, &str)] = &[
    ("xiangqi", include_str!("../../../configs/variants/xiangqi.toml")),
    ("surprise", include_str!("../../../configs/variants/surprise.toml")),
    ("surprise-negotiation", include_str!("../../../configs/variants/surprise-negotiation.toml")),
    ("fanqi-1", include_str!("../../../configs/variants/fanqi-1.toml")),
    ("fanqi-2", include_str!("../../../configs/variants/fanqi-2.toml")),
    ("fanqi-3", include_str!("../../../configs/variants/fanqi-3.toml")),
    ("fanqi-4", include_str!("../../../configs/variants/fanqi-4.toml")),
    ("fanqi-5", include_str!("../../../configs/variants/fanqi-5.toml")),
    ("fanqi-6", include_str!("../../../configs/variants/fanqi-6.toml")),
    ("fanqi-7", include_str!("../../../configs/variants/fanqi-7.toml")),
    ("fanqi-8", include_str!("../../../configs/variants/fanqi-8.toml")),
    ("fanqi-9", include_str!("../../../configs/variants/fanqi-9.toml")),
    ("fanqi-10", include_str!("../../../configs/variants/fanqi-10.toml")),
    ("jieqi", include_str!("../../../configs/variants/jieqi.toml")),
    ("king", include_str!("../../../configs/variants/king.toml")),
];

/// A problem with a variant file, naming the source and the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// Neither a preset name nor a readable file.
    #[error("unknown variant {0:?} (not a preset; as a file: {1})")]
    Unknown(String, String),
    /// The TOML does not parse.
    #[error("{source_name}: TOML syntax: {message}")]
    Syntax {
        /// File or preset.
        source_name: String,
        /// Parser message (with line and column).
        message: String,
    },
    /// A key that no rule table has.
    #[error("{source_name}: unknown key `{key}`")]
    UnknownKey {
        /// File or preset.
        source_name: String,
        /// The dotted key.
        key: String,
    },
    /// A key with a value of the wrong type or out of range.
    #[error("{source_name}: key `{key}`: {problem}")]
    BadValue {
        /// File or preset.
        source_name: String,
        /// The dotted key.
        key: String,
        /// What is wrong.
        problem: String,
    },
    /// Settings that contradict each other.
    #[error("{source_name}: key `{key}` contradicts the rest: {problem}")]
    Contradiction {
        /// File or preset.
        source_name: String,
        /// The dotted key.
        key: String,
        /// What is contradictory.
        problem: String,
    },
    /// `inherits` forms a cycle.
    #[error("{source_name}: `inherits` cycle through {0:?}", source_name = .1)]
    Cycle(String, String),
}

/// The game family: which rule section applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// RULES.md §X.
    Xiangqi,
    /// RULES.md §S.
    Surprise,
    /// RULES.md §F (and §F9 Jieqi).
    Fanqi,
    /// RULES.md §K.
    King,
}

/// Surprise options (RULES.md §S4-S11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurpriseRules {
    /// §S5 flip rights per side per game.
    pub flip_rights: u8,
    /// §S5 rights a chariot reveal costs.
    pub chariot_cost: u8,
    /// §S5 chariot reveals allowed per side per game.
    pub chariot_reveal_limit: u8,
    /// §S10 visible faces that may flip (subset of chariot, horse, cannon).
    pub flip_types: Vec<Role>,
    /// §S10 faces that may be revealed by a flip.
    pub reveal_types: Vec<Role>,
    /// §S6 [R]: only a capture of a type creates the right to reveal it.
    pub flip_right_by_history: bool,
    /// §S6a [R]: each disc may flip at most once.
    pub flip_once_per_disc: bool,
    /// §S8 [R]: a captured disc's hidden face is shown to both sides.
    pub captured_back_revealed: bool,
    /// §S11 negotiation play.
    pub negotiation: bool,
    /// §S11 [R] at most one demand per this many own moves.
    pub demand_interval: u32,
    /// §S11 scores for win, draw, loss.
    pub scores: [u32; 3],
}

impl Default for SurpriseRules {
    fn default() -> Self {
        SurpriseRules {
            flip_rights: 3,
            chariot_cost: 2,
            chariot_reveal_limit: 1,
            flip_types: vec![Role::Chariot, Role::Horse, Role::Cannon],
            reveal_types: vec![Role::Chariot, Role::Horse, Role::Cannon],
            flip_right_by_history: false,
            flip_once_per_disc: false,
            captured_back_revealed: true,
            negotiation: false,
            demand_interval: 10,
            scores: [3, 1, 0],
        }
    }
}

/// §F5 turning back face-down.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TurnDown {
    /// Never (Jieqi).
    Off,
    /// Any face-up piece but the general, onto any own start point but the general's.
    All,
    /// Only participating pieces, onto start points of participating types.
    Participating,
}

/// §F6 who learns a captured face-down piece's identity.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CaptureKnowledge {
    /// Random modes: the capturer only; owner's-choice modes: both.
    Default,
    /// Both sides.
    Both,
    /// Nobody.
    Nobody,
}

/// How face-down pieces are placed at the start (RULES.md §F3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Mode 1: nothing face-down.
    None,
    /// Mode 2: on their own start points.
    Fixed,
    /// Modes 3, 5, 7, 9: the owner's secret arrangement.
    Owner,
    /// Modes 4, 6, 8, 10, Jieqi: random, unknown to both.
    Random,
}

/// Fan-qi options (RULES.md §F).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FanqiRules {
    /// §F3 mode 1..=10.
    pub mode: u8,
    /// §F4 [R] option `seed_class_one`.
    pub seed_class_one: bool,
    /// §F4 [R] face-down advisors and elephants always bound to their standard regions.
    pub facedown_standard_region: bool,
    /// §F5 [R].
    pub turn_down: TurnDown,
    /// §F5 [R] only after non-capturing moves.
    pub turn_down_quiet_only: bool,
    /// §F5 [R] not by a piece that was face-down when the move began.
    pub turn_down_not_just_revealed: bool,
    /// §F6 [R].
    pub capture_knowledge: CaptureKnowledge,
}

impl FanqiRules {
    /// Types that start face-down in this mode (§F3).
    pub fn facedown_types(&self) -> Vec<Role> {
        use Role::*;
        match self.mode {
            1 => vec![],
            2..=4 => vec![Chariot, Horse, Cannon, Soldier],
            5 | 6 => vec![Elephant, Chariot, Horse, Cannon, Soldier],
            7 | 8 => vec![Advisor, Chariot, Horse, Cannon, Soldier],
            _ => vec![Advisor, Elephant, Chariot, Horse, Cannon, Soldier],
        }
    }

    /// Participating types (§F4).
    pub fn participating(&self) -> Vec<Role> {
        use Role::*;
        if self.mode == 1 || (self.seed_class_one && self.mode == 2) {
            vec![Chariot, Horse, Cannon]
        } else {
            self.facedown_types()
        }
    }

    /// Placement of the face-down pieces (§F3).
    pub fn placement(&self) -> Placement {
        match self.mode {
            1 => Placement::None,
            2 => Placement::Fixed,
            3 | 5 | 7 | 9 => Placement::Owner,
            _ => Placement::Random,
        }
    }
}

/// King chess options (RULES.md §K).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingRules {
    /// §K7 [R] length of a grinding run that loses (0 = off).
    pub grind_limit: u8,
}

/// Which hidden-identity mechanism a variant's pieces carry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// Every piece is what it shows (RULES.md §X, §K1).
    None,
    /// §S1-S2: each side's six chariots, horses and cannons are discs with a hidden back face.
    BackFaces,
    /// §F1-F2: pieces may stand face-down and move as their start point's type, placed so at the
    /// start (§F3) or turned down later (§F5).
    FaceDown,
}

/// The set-up phase a new game begins with (RULES.md §P4 set-up actions).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SetupKind {
    /// None: play starts at once (§X1, §K1, Fan-qi fixed and random modes §F3).
    None,
    /// §S2: each side secretly chooses a layout of its discs' back faces.
    Layouts,
    /// §F3 owner's-choice modes (3, 5, 7, 9): each side secretly fills its face-down points.
    Placement,
}

/// How perft counts the last ply without playing it (RULES.md §P1-P5), chosen once per variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BulkCount {
    /// Every core move is one action (§P5): the position core's count.
    Core,
    /// The core's count plus the §S4-S7 flips.
    CoreAndFlips,
    /// Moves with face-down pieces, turn-downs (§F2, §F5) and chance weights (§P2).
    FaceDown,
    /// King-chess moves, swaps and marker transfers (§K2-K4).
    KingPieces,
    /// No bulk count: each action is generated and weighed.
    ByActions,
}

/// What the rules do, decided once when the variant is built (issue #17 item 4): per-node code
/// asks these instead of matching the [`Family`], which stays the user-facing name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The hidden-identity mechanism: §S1-S2 back faces, §F1-F2 face-down pieces, or none.
    pub hidden: Hidden,
    /// §S4-S7: a side may flip one of its discs instead of moving.
    pub flips: bool,
    /// §S6 [R] `flip_right_by_history`: the captures of each side's discs are counted by type.
    pub lost_types: bool,
    /// §S11 negotiation play: a side may demand, the other answers.
    pub demands: bool,
    /// The set-up phase of a new game (§S2, §F3).
    pub setup: SetupKind,
    /// §K1-K6: king-piece markers, swaps, marker transfers and checks that a king piece cannot
    /// give.
    pub king_pieces: bool,
    /// §P2: face-down identities are drawn by chance (Fan-qi 4, 6, 8, 10 and Jieqi; never in an
    /// open twin, whose deal is made and shown at the start, docs/open-twins.md §O3).
    pub chance_reveals: bool,
    /// RULES.md "Information classes": the rules hide something from a player (§S2 layouts,
    /// §F3 owner's-choice arrangements and random deals). Open twins answer for the game they
    /// are the twin of.
    pub hidden_information: bool,
    /// The action tree is exactly the position core's move tree (§X only: nothing hidden, no
    /// flips, markers or demands), so perft may use the core's make/unmake.
    pub core_only: bool,
    /// How perft counts the last ply in bulk.
    pub bulk: BulkCount,
}

impl Caps {
    /// The capabilities of `family` under its options; the one place a [`Family`] is matched
    /// for what the rules do.
    fn new(family: Family, surprise: &SurpriseRules, fanqi: &FanqiRules, rules: &Rules, open: bool) -> Caps {
        let placement = fanqi.placement();
        let (hidden, king_pieces) = match family {
            Family::Xiangqi => (Hidden::None, false),
            Family::Surprise => (Hidden::BackFaces, false),
            Family::Fanqi => (Hidden::FaceDown, false),
            Family::King => (Hidden::None, true),
        };
        let discs = hidden == Hidden::BackFaces;
        let face_down = hidden == Hidden::FaceDown;
        let demands = discs && surprise.negotiation;
        let setup = match hidden {
            Hidden::BackFaces => SetupKind::Layouts,
            Hidden::FaceDown if placement == Placement::Owner => SetupKind::Placement,
            _ => SetupKind::None,
        };
        let bulk = match hidden {
            Hidden::BackFaces => BulkCount::CoreAndFlips,
            Hidden::FaceDown => BulkCount::FaceDown,
            // A king piece whose minor pieces may attack the general is not counted in bulk.
            Hidden::None if king_pieces && rules.minor_attacks_general => BulkCount::ByActions,
            Hidden::None if king_pieces => BulkCount::KingPieces,
            Hidden::None => BulkCount::Core,
        };
        Caps {
            hidden,
            flips: discs,
            lost_types: discs && surprise.flip_right_by_history,
            demands,
            setup,
            king_pieces,
            chance_reveals: face_down && placement == Placement::Random && !open,
            hidden_information: discs || (face_down && matches!(placement, Placement::Owner | Placement::Random)),
            core_only: hidden == Hidden::None && !king_pieces && !demands,
            bulk,
        }
    }

    /// Whether pieces may stand face-down (§F1-F2).
    pub fn face_down(&self) -> bool {
        self.hidden == Hidden::FaceDown
    }

    /// Whether pieces are discs with a hidden back face (§S1-S2).
    pub fn discs(&self) -> bool {
        self.hidden == Hidden::BackFaces
    }
}

/// A resolved variant: the full rule table and the position rules derived from it once.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Preset or file name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Which rule section applies: the user-facing name (config, FEN, display). What the rules
    /// do is asked of [`Variant::caps`].
    pub family: Family,
    /// What the rules do, derived once from the family and its options.
    pub caps: Caps,
    /// §X6 end rules.
    pub end: EndRules,
    /// §S options (meaningful for `Family::Surprise`).
    pub surprise: SurpriseRules,
    /// §F options (meaningful for `Family::Fanqi`).
    pub fanqi: FanqiRules,
    /// §K options (meaningful for `Family::King`).
    pub king: KingRules,
    /// Position rules (regions, attack tables, end rules), built once.
    pub rules: &'static Rules,
    /// The merged TOML table it was resolved from.
    pub table: Table,
    /// Derived once: `start_role[color][square]`, the standard type of each start point (§X1).
    pub start_role: [[Option<Role>; 128]; 2],
    /// Derived once: whether each type participates (§F4), by [`Role::index`].
    pub participates: [bool; Role::COUNT],
    /// `[info] open` (docs/open-twins.md §O1): the open twin, where everything hidden is public
    /// from the start (backs, identities, the deal) and the rules are unchanged.
    pub open: bool,
}

const TOP_KEYS: &[&str] = &["name", "inherits", "family", "description", "end", "surprise", "fanqi", "king", "info"];
const INFO_KEYS: &[&str] = &["open"];

/// The suffix that names a variant's open twin (`jieqi+open`, `my-rules.toml+open`;
/// docs/open-twins.md §O1).
pub const OPEN_SUFFIX: &str = "+open";
const END_KEYS: &[&str] = &["repetition", "perpetual_check_loses", "chase", "no_capture_plies", "rule60_check_cap", "no_attacker_draw"];
const SURPRISE_KEYS: &[&str] = &[
    "flip_rights",
    "chariot_cost",
    "chariot_reveal_limit",
    "flip_types",
    "reveal_types",
    "flip_right_by_history",
    "flip_once_per_disc",
    "captured_back_revealed",
    "negotiation",
    "demand_interval",
    "score_win",
    "score_draw",
    "score_loss",
];
const FANQI_KEYS: &[&str] = &[
    "mode",
    "seed_class_one",
    "facedown_standard_region",
    "turn_down",
    "turn_down_quiet_only",
    "turn_down_not_just_revealed",
    "capture_knowledge",
];
const KING_KEYS: &[&str] = &["grind_limit"];

/// Names of the presets, in listing order.
pub fn preset_names() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|(n, _)| *n)
}

fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

fn merge(base: &mut Table, over: Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(Value::Table(b)), Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn load_table(spec: &str, chain: &mut Vec<String>) -> Result<(Table, String), VariantError> {
    if let Some(base) = spec.strip_suffix(OPEN_SUFFIX) {
        // docs/open-twins.md §O1: `NAME+open` is NAME with `[info] open = true`.
        let (mut table, source_name) = load_table(base, chain)?;
        let name = table.get("name").and_then(Value::as_str).unwrap_or(base).to_string();
        table.insert("name".into(), Value::String(format!("{name}{OPEN_SUFFIX}")));
        let description = table.get("description").and_then(Value::as_str).unwrap_or_default().to_string();
        table.insert("description".into(), Value::String(format!("open twin of {name}: everything public from the start (docs/open-twins.md); {description}")));
        set_open(&mut table, true);
        return Ok((table, format!("{source_name}{OPEN_SUFFIX}")));
    }
    let (text, source_name) = match preset_text(spec) {
        Some(t) => (t.to_string(), format!("preset {spec}")),
        None => match std::fs::read_to_string(spec) {
            Ok(t) => (t, spec.to_string()),
            Err(e) => return Err(VariantError::Unknown(spec.to_string(), e.to_string())),
        },
    };
    if chain.contains(&source_name) {
        return Err(VariantError::Cycle(spec.to_string(), chain.join(" -> ")));
    }
    chain.push(source_name.clone());
    let table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| VariantError::Syntax { source_name: source_name.clone(), message: e.to_string() })?;
    check_keys(&table, &source_name)?;
    let merged = match table.get("inherits") {
        Some(Value::String(parent)) => {
            let (mut base, _) = load_table(parent, chain)?;
            base.remove("name");
            base.remove("description");
            merge(&mut base, table);
            base
        }
        Some(_) => {
            return Err(VariantError::BadValue {
                source_name,
                key: "inherits".into(),
                problem: "must be a preset name or file path".into(),
            })
        }
        None => table,
    };
    Ok((merged, source_name))
}

/// Sets `[info] open` in a merged table.
fn set_open(table: &mut Table, open: bool) {
    let mut info = Table::new();
    info.insert("open".into(), Value::Boolean(open));
    merge(table, Table::from_iter([("info".to_string(), Value::Table(info))]));
}

/// Presets with hidden information, each of which has an open twin `NAME+open`
/// (docs/open-twins.md §O1), in listing order.
pub fn open_twin_names() -> Vec<String> {
    preset_names().filter(|n| Variant::load(n).is_ok_and(|v| v.has_hidden_information())).map(|n| format!("{n}{OPEN_SUFFIX}")).collect()
}

fn check_keys(t: &Table, src: &str) -> Result<(), VariantError> {
    let unknown = |key: String| VariantError::UnknownKey { source_name: src.to_string(), key };
    for (k, v) in t {
        if !TOP_KEYS.contains(&k.as_str()) {
            return Err(unknown(k.clone()));
        }
        let allowed = match k.as_str() {
            "end" => END_KEYS,
            "surprise" => SURPRISE_KEYS,
            "fanqi" => FANQI_KEYS,
            "king" => KING_KEYS,
            "info" => INFO_KEYS,
            _ => continue,
        };
        let Value::Table(sub) = v else {
            return Err(VariantError::BadValue { source_name: src.into(), key: k.clone(), problem: "must be a table".into() });
        };
        for sk in sub.keys() {
            if !allowed.contains(&sk.as_str()) {
                return Err(unknown(format!("{k}.{sk}")));
            }
        }
    }
    Ok(())
}

struct Reader<'a> {
    t: &'a Table,
    src: &'a str,
}

impl Reader<'_> {
    fn get(&self, sec: &str, key: &str) -> Option<&Value> {
        match self.t.get(sec) {
            Some(Value::Table(s)) => s.get(key),
            _ => None,
        }
    }
    fn bad(&self, sec: &str, key: &str, problem: impl Into<String>) -> VariantError {
        VariantError::BadValue { source_name: self.src.into(), key: format!("{sec}.{key}"), problem: problem.into() }
    }
    fn bool(&self, sec: &str, key: &str, default: bool) -> Result<bool, VariantError> {
        match self.get(sec, key) {
            None => Ok(default),
            Some(Value::Boolean(b)) => Ok(*b),
            Some(Value::String(t)) if t == "on" || t == "off" => Ok(t == "on"),
            Some(_) => Err(self.bad(sec, key, "must be true or false (or \"on\" / \"off\")")),
        }
    }
    fn int(&self, sec: &str, key: &str, default: i64, lo: i64, hi: i64) -> Result<i64, VariantError> {
        match self.get(sec, key) {
            None => Ok(default),
            Some(Value::Integer(i)) if (lo..=hi).contains(i) => Ok(*i),
            Some(_) => Err(self.bad(sec, key, format!("must be an integer from {lo} to {hi}"))),
        }
    }
    fn string(&self, sec: &str, key: &str, default: &str, allowed: &[&str]) -> Result<String, VariantError> {
        match self.get(sec, key) {
            None => Ok(default.into()),
            Some(Value::String(s)) if allowed.contains(&s.as_str()) => Ok(s.clone()),
            Some(_) => Err(self.bad(sec, key, format!("must be one of {allowed:?}"))),
        }
    }
    fn roles(&self, sec: &str, key: &str, default: &[Role]) -> Result<Vec<Role>, VariantError> {
        match self.get(sec, key) {
            None => Ok(default.to_vec()),
            Some(Value::Array(a)) => {
                let mut out = Vec::new();
                for v in a {
                    match v.as_str().and_then(|s| if s.len() == 1 { s.chars().next() } else { None }).and_then(Role::from_char) {
                        Some(r @ (Role::Chariot | Role::Horse | Role::Cannon)) => out.push(r),
                        _ => return Err(self.bad(sec, key, "entries must be \"R\", \"N\" or \"C\"")),
                    }
                }
                Ok(out)
            }
            Some(_) => Err(self.bad(sec, key, "must be a list like [\"R\", \"N\", \"C\"]")),
        }
    }
}

impl Variant {
    /// Resolves a preset name or a TOML file path (which may `inherits` a preset or another file).
    ///
    /// # Errors
    /// [`VariantError`] naming the file and key: unknown names, syntax, unknown keys, bad values,
    /// contradictions, inheritance cycles.
    pub fn load(spec: &str) -> Result<Variant, VariantError> {
        let (table, src) = load_table(spec, &mut Vec::new())?;
        Variant::from_table(table, &src)
    }

    /// A preset by name; panics only if the embedded presets are broken (tested).
    pub fn preset(name: &str) -> Option<Variant> {
        preset_text(name)?;
        Variant::load(name).ok()
    }

    fn from_table(table: Table, src: &str) -> Result<Variant, VariantError> {
        let r = Reader { t: &table, src };
        let top = |k: &str| table.get(k).and_then(Value::as_str).map(str::to_string);
        let name = top("name").unwrap_or_else(|| src.to_string());
        let description = top("description").unwrap_or_default();
        let family = match top("family").as_deref() {
            Some("xiangqi") | None => Family::Xiangqi,
            Some("surprise") => Family::Surprise,
            Some("fanqi") => Family::Fanqi,
            Some("king") => Family::King,
            Some(other) => {
                return Err(VariantError::BadValue {
                    source_name: src.into(),
                    key: "family".into(),
                    problem: format!("{other:?} is not one of xiangqi, surprise, fanqi, king"),
                })
            }
        };
        for (sec, fam) in [("surprise", Family::Surprise), ("fanqi", Family::Fanqi), ("king", Family::King)] {
            if table.contains_key(sec) && family != fam {
                return Err(VariantError::Contradiction {
                    source_name: src.into(),
                    key: sec.into(),
                    problem: format!("section [{sec}] does not apply to family {family:?}"),
                });
            }
        }
        let rule60 = r.int("end", "no_capture_plies", 120, 0, 100_000)?;
        let end = EndRules {
            repetition: r.bool("end", "repetition", true)?,
            perpetual_check_loses: r.bool("end", "perpetual_check_loses", true)?,
            // §K7 names King chess's repetition endings (draw, perpetual check loses) and its
            // king pieces neither capture nor are captured by the core's moves: no chase there.
            chase: r.bool("end", "chase", family != Family::King)?,
            no_capture_plies: if rule60 == 0 { None } else { Some(rule60 as u32) },
            rule60_check_cap: r.bool("end", "rule60_check_cap", true)?,
            no_attacker_draw: r.bool("end", "no_attacker_draw", true)?,
        };
        if end.perpetual_check_loses && !end.repetition && r.get("end", "perpetual_check_loses").is_some() {
            return Err(VariantError::Contradiction {
                source_name: src.into(),
                key: "end.perpetual_check_loses".into(),
                problem: "perpetual check is judged at a repetition, but end.repetition is false".into(),
            });
        }
        let d = SurpriseRules::default();
        let surprise = SurpriseRules {
            flip_rights: r.int("surprise", "flip_rights", d.flip_rights as i64, 0, 100)? as u8,
            chariot_cost: r.int("surprise", "chariot_cost", d.chariot_cost as i64, 1, 100)? as u8,
            chariot_reveal_limit: r.int("surprise", "chariot_reveal_limit", 1, 0, 100)? as u8,
            flip_types: r.roles("surprise", "flip_types", &d.flip_types)?,
            reveal_types: r.roles("surprise", "reveal_types", &d.reveal_types)?,
            flip_right_by_history: r.bool("surprise", "flip_right_by_history", false)?,
            flip_once_per_disc: r.bool("surprise", "flip_once_per_disc", false)?,
            captured_back_revealed: r.bool("surprise", "captured_back_revealed", true)?,
            negotiation: r.bool("surprise", "negotiation", false)?,
            demand_interval: r.int("surprise", "demand_interval", 10, 1, 10_000)? as u32,
            scores: [
                r.int("surprise", "score_win", 3, 0, 1000)? as u32,
                r.int("surprise", "score_draw", 1, 0, 1000)? as u32,
                r.int("surprise", "score_loss", 0, 0, 1000)? as u32,
            ],
        };
        if !(surprise.scores[0] >= surprise.scores[1] && surprise.scores[1] >= surprise.scores[2]) {
            return Err(VariantError::Contradiction {
                source_name: src.into(),
                key: "surprise.score_draw".into(),
                problem: "scores must satisfy win >= draw >= loss".into(),
            });
        }
        let uniq: BTreeSet<Role> = surprise.flip_types.iter().copied().collect();
        if uniq.len() != surprise.flip_types.len() {
            return Err(r.bad("surprise", "flip_types", "lists a type twice"));
        }
        let td = r.string("fanqi", "turn_down", "all", &["all", "participating", "off"])?;
        let ck = r.string("fanqi", "capture_knowledge", "default", &["default", "both", "nobody"])?;
        let fanqi = FanqiRules {
            mode: r.int("fanqi", "mode", 1, 1, 10)? as u8,
            seed_class_one: r.bool("fanqi", "seed_class_one", false)?,
            facedown_standard_region: r.bool("fanqi", "facedown_standard_region", false)?,
            turn_down: match td.as_str() {
                "off" => TurnDown::Off,
                "participating" => TurnDown::Participating,
                _ => TurnDown::All,
            },
            turn_down_quiet_only: r.bool("fanqi", "turn_down_quiet_only", false)?,
            turn_down_not_just_revealed: r.bool("fanqi", "turn_down_not_just_revealed", false)?,
            capture_knowledge: match ck.as_str() {
                "both" => CaptureKnowledge::Both,
                "nobody" => CaptureKnowledge::Nobody,
                _ => CaptureKnowledge::Default,
            },
        };
        if family == Family::Fanqi && fanqi.mode == 1 && fanqi.turn_down == TurnDown::Off && r.get("fanqi", "turn_down").is_some() {
            // Mode 1 without §F5 is standard xiangqi: allowed, but say nothing; not a contradiction.
        }
        let king = KingRules { grind_limit: r.int("king", "grind_limit", 6, 0, 255)? as u8 };
        let rules: &'static Rules = Box::leak(Box::new(build_rules(family, &fanqi, end.clone())));
        let mut start_role = [[None; 128]; 2];
        for c in Color::ALL {
            for role in Role::ALL {
                for sq in rules.start_points(c, role) {
                    start_role[c.index()][sq.index()] = Some(role);
                }
            }
        }
        let mut participates = [false; Role::COUNT];
        for r in fanqi.participating() {
            participates[r.index()] = true;
        }
        let open = r.bool("info", "open", false)?;
        let caps = Caps::new(family, &surprise, &fanqi, rules, open);
        let mut v = Variant { name, description, family, caps, end, surprise, fanqi, king, rules, table, start_role, participates, open: false };
        if open && !v.has_hidden_information() {
            return Err(VariantError::Contradiction {
                source_name: src.into(),
                key: "info.open".into(),
                problem: format!("{} hides nothing, so it has no open twin (docs/open-twins.md §O1)", v.name),
            });
        }
        v.open = open;
        Ok(v)
    }

    /// Whether the rules hide anything from a player (RULES.md "Information classes"):
    /// Surprise layouts (§S2), Fan-qi owner's-choice arrangements and random deals (§F3).
    /// Open twins (docs/open-twins.md) answer for the game they are the twin of.
    pub fn has_hidden_information(&self) -> bool {
        self.caps.hidden_information
    }

    /// The open twin of this variant (docs/open-twins.md §O1): the same rule table with
    /// `[info] open = true`, named `NAME+open`. An open twin is its own twin.
    ///
    /// # Errors
    /// [`VariantError::Contradiction`] on `info.open` when the variant hides nothing.
    pub fn open_twin(&self) -> Result<Variant, VariantError> {
        if self.open {
            return Ok(self.clone());
        }
        let mut t = self.table.clone();
        set_open(&mut t, true);
        t.insert("name".into(), Value::String(format!("{}{OPEN_SUFFIX}", self.name)));
        let src = format!("{}{OPEN_SUFFIX}", self.name);
        Variant::from_table(t, &src)
    }

    /// The hidden game an open twin is the twin of (docs/open-twins.md §O1): the same rule
    /// table with `[info] open = false`, the `+open` suffix dropped from the name. A hidden
    /// variant is returned as it is.
    ///
    /// # Errors
    /// Only if the table no longer resolves (never for a table that resolved once).
    pub fn hidden_twin(&self) -> Result<Variant, VariantError> {
        if !self.open {
            return Ok(self.clone());
        }
        let mut t = self.table.clone();
        set_open(&mut t, false);
        let name = self.name.strip_suffix(OPEN_SUFFIX).unwrap_or(&self.name).to_string();
        t.insert("name".into(), Value::String(name.clone()));
        Variant::from_table(t, &name)
    }

    /// The resolved table as TOML text (what `anqi variants --show` prints).
    pub fn to_toml(&self) -> String {
        let mut t = self.table.clone();
        t.remove("inherits");
        t.insert("name".into(), Value::String(self.name.clone()));
        toml::to_string(&t).unwrap_or_default()
    }

    /// Whether face-down identities are drawn by chance (§P2: Fan-qi 4, 6, 8, 10 and Jieqi).
    /// Never in an open twin: its deal is made and shown at the start (docs/open-twins.md §O3).
    pub fn random_reveals(&self) -> bool {
        self.caps.chance_reveals
    }
}

/// Position rules for a family: Fan-qi participating advisors and elephants use the whole board
/// (§F4); everything else is standard.
fn build_rules(family: Family, fanqi: &FanqiRules, end: EndRules) -> Rules {
    let mut rules = Rules::standard_with(end);
    if family == Family::Fanqi {
        let attacks: &'static Attacks = Attacks::standard();
        let board = attacks.geometry.board;
        let part = fanqi.participating();
        rules.limit_counts = false;
        for c in Color::ALL {
            for role in [Role::Advisor, Role::Elephant] {
                if part.contains(&role) {
                    rules.region[c.index()][role.index()] = board;
                    rules.minor_attacks_general = true;
                }
            }
            // A revealed piece of any type may stand anywhere its region allows (its start point
            // was any face-down point), so placements are checked against regions only.
            rules.reachable[c.index()] = rules.region[c.index()];
        }
    }
    rules
}
