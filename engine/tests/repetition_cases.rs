//! The public regression battery of the repetition rules (RULES.md §X6): every case of
//! `tests/data/repetition_cases.toml` (Fairy-Stockfish's `test_is_optional_game_end` xiangqi
//! cases, Pikafish's rule60 cases, Fairy-Stockfish issues) is replayed through the game-end code
//! of [`VariantGameState`] and must end exactly as its source rules: the same result and reason after
//! the last move, and no earlier end.

use engine::variant::game_state::VariantGameState;
use engine::variant::{fen as vfen, notation, Variant};
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    source: String,
    fen: String,
    moves: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (not over).
    result: String,
    /// The reason's name as [`engine::outcome::EndReason::name`] writes it, "" when not over.
    #[serde(default)]
    reason: String,
    #[serde(default)]
    variant: Option<String>,
    /// When the source's move list runs past the end: the move after which the game ends (the
    /// moves after it are refused; the ruling is the one at that move).
    #[serde(default)]
    ends_first_after_move: Option<usize>,
}

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::preset(name).unwrap_or_else(|| panic!("preset {name}"))))
}

/// Plays a case; returns (result, reason) after its moves, or an error naming the move at which
/// the game ended early or a move was rejected.
fn replay(c: &Case) -> Result<(String, String), String> {
    let v = variant(c.variant.as_deref().unwrap_or("xiangqi"));
    let state = vfen::parse(v, &c.fen).map_err(|e| format!("FEN: {e}"))?;
    let mut game = VariantGameState::unbounded(state);
    let mut moves: Vec<&str> = c.moves.split_whitespace().collect();
    if let Some(k) = c.ends_first_after_move {
        moves.truncate(k);
    }
    for (i, text) in moves.iter().enumerate() {
        if let Some(e) = game.outcome() {
            return Err(format!("ended before move {} ({text}): {} ({})", i + 1, e.result(), e.reason()));
        }
        let (a, named) = notation::parse_record(game.state(), text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        game.play(a, |outs| named.unwrap_or(outs[0].0));
    }
    Ok(match game.outcome() {
        Some(e) => (e.result().to_string(), e.reason().to_string()),
        None => ("*".to_string(), String::new()),
    })
}

#[test]
fn x6_public_repetition_cases_agree_with_their_sources() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/repetition_cases.toml")).expect("data file");
    let file: File = toml::from_str(&text).expect("cases parse");
    let mut bad = Vec::new();
    for c in &file.case {
        match replay(c) {
            Ok((result, reason)) if result == c.result && (c.result == "*" || reason == c.reason) => {}
            Ok((result, reason)) => bad.push(format!("{} [{}]: anqi {result} ({reason}), source {} ({})", c.name, c.source, c.result, c.reason)),
            Err(e) => bad.push(format!("{} [{}]: {e}", c.name, c.source)),
        }
    }
    let total = file.case.len();
    eprintln!("repetition cases: {} of {total} agree", total - bad.len());
    assert!(bad.is_empty(), "{} of {total} cases disagree:\n{}", bad.len(), bad.join("\n"));
    assert!(total >= 35, "the battery holds {total} cases");
}

/// Prints, for the cases named in `ANQI_CASE` (comma separated), the chase set and check flag of
/// every move next to Fairy-Stockfish's (a debugging aid; passes otherwise).
#[test]
fn x6_debug_chase_sets_of_named_cases() {
    let Ok(names) = std::env::var("ANQI_CASE") else { return };
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/repetition_cases.toml")).expect("data file");
    let file: toml::Value = toml::from_str(&text).expect("cases parse");
    for c in file["case"].as_array().expect("cases") {
        let name = c["name"].as_str().unwrap_or_default();
        if !names.split(',').any(|n| n == name) {
            continue;
        }
        let mut pos = engine::notation::fen::parse(c["fen"].as_str().expect("fen")).expect("fen parses");
        let fsf: Vec<String> = c.get("fsf_chased").and_then(|v| v.as_array()).map(|a| a.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect()).unwrap_or_default();
        eprintln!("{name}: {}", c["fen"].as_str().unwrap_or_default());
        for (i, text) in c["moves"].as_str().unwrap_or_default().split_whitespace().enumerate() {
            let m = engine::notation::iccs::parse_move(&pos, text).expect("move");
            let before = pos.clone();
            pos.play(m);
            let set = engine::repetition::chased(&before, m, &pos);
            let sq: Vec<String> = set.into_iter().map(|s| s.to_string()).collect();
            eprintln!("  {:>2} {text} check={} anqi=[{}] fsf=[{}]", i + 1, pos.in_check() as u8, sq.join(" "), fsf.get(i).cloned().unwrap_or_default());
        }
    }
}

/// Fairy-Stockfish issue 938 items 1-3: single moves whose chased pieces the reporter gives by the
/// AXF rules (`chased_expected`): a capture made unanswerable (the general would be attacked after
/// retaking), a pinned horse that does not chase (it chases only its pinner), and a chariot whose
/// file a capture unblocked. anqi's chase sets equal the reporter's, where Fairy-Stockfish's differ.
#[test]
fn x6_chased_pieces_of_single_moves_follow_the_axf_reading() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/repetition_cases.toml")).expect("data file");
    let file: toml::Value = toml::from_str(&text).expect("cases parse");
    let mut seen = 0;
    for c in file["case"].as_array().expect("cases") {
        let Some(expected) = c.get("chased_expected").and_then(|v| v.as_array()) else { continue };
        let mut want: Vec<String> = expected.iter().map(|x| x.as_str().expect("square").to_string()).collect();
        want.sort();
        let mut pos = engine::notation::fen::parse(c["fen"].as_str().expect("fen")).expect("fen parses");
        let text = c["moves"].as_str().expect("moves");
        let m = engine::notation::iccs::parse_move(&pos, text).expect("move");
        let before = pos.clone();
        pos.play(m);
        let mut got: Vec<String> = engine::repetition::chased(&before, m, &pos).into_iter().map(|s| s.to_string()).collect();
        got.sort();
        assert_eq!(got, want, "{}", c["name"]);
        seen += 1;
    }
    assert_eq!(seen, 3);
}
