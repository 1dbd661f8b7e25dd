//! Generic perft driver over `tests/data/*.perft` (RULES.md §P1): each `fen` line is followed by
//! `perft <depth> <nodes>` lines (always run) and `deep <depth> <nodes>` lines (run when
//! `ANQI_DEEP_PERFT=1`).

use engine::notation::fen;
use engine::perft::{perft, perft_copy};

fn cases(text: &str, deep: bool) -> Vec<(String, u32, u64)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(f) = line.strip_prefix("fen ") {
            cur = f.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ").or_else(|| if deep { line.strip_prefix("deep ") } else { None }) {
            let mut it = rest.split_whitespace();
            let d: u32 = it.next().and_then(|s| s.parse().ok()).expect("depth");
            let n: u64 = it.next().and_then(|s| s.parse().ok()).expect("nodes");
            out.push((cur.clone(), d, n));
        }
    }
    out
}

#[test]
fn xiangqi_perft_published_counts() {
    let deep = std::env::var("ANQI_DEEP_PERFT").is_ok_and(|v| v == "1");
    let text = include_str!("data/xiangqi.perft");
    let cases = cases(text, deep);
    assert!(cases.len() >= 20);
    for (f, d, n) in cases {
        let mut pos = fen::parse(&f).expect("valid FEN");
        assert_eq!(perft(&mut pos, d), n, "perft {d} of {f}");
        if d <= 3 {
            assert_eq!(perft_copy(&pos, d), n, "copy-make perft {d} of {f}");
        }
    }
}
