//! Every `§` citation in the repository's code and documents names a clause that exists (issue 38
//! item 5): the rules the code implements are `docs/rules/RULES.md` and `docs/rules/RULES-more.md`,
//! and a citation such as `§S6`, `RULES.md §X6` or `RULES-more.md §3.8` must point at a clause there.
//!
//! How a citation is read (docs/rules/README.md, "How to cite"):
//! - a file named right before it (`RULES.md §F5`, `docs/notation.md §5.1`) is where it must be;
//! - otherwise the nearest file named earlier on the line that has the clause, or by its form: a
//!   letter first (`§X6`, `§S6a`, `§N`) is RULES.md, `§O3` is docs/open-twins.md, digits first
//!   (`§2.9`) is RULES-more.md; `§5 below` / `above` is the file it is written in;
//! - `§S4-S7` cites both ends;
//! - the originals' own sections (`seed §11`, and the list after it: `seed §8(4), §12`) and papers'
//!   (`et al. ..., §VI`) are outside the repository and are not checked.
//!
//! The scan covers `engine/`, `models/`, `selfplay/`, `docs/`, `experiments/`, `configs/`,
//! `scripts/` and `README.md` (text files; build outputs and the virtual environment are skipped).
//! Torch-free and fast: `cargo test --release -p anqi-engine --test rule_citations`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The repository root: the engine crate's parent folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What the scan covers, relative to the root.
const SCANNED: [&str; 8] = [
    "engine",
    "models",
    "selfplay",
    "docs",
    "experiments",
    "configs",
    "scripts",
    "README.md",
];

/// Folders never scanned (build outputs, environments, caches).
const SKIPPED_DIRS: [&str; 6] = [
    "target",
    ".venv",
    "node_modules",
    "__pycache__",
    ".git",
    ".pytest_cache",
];

/// The clause names a document defines: `X1.`/`S6a.`/`O1.1.` at the start of a line, and the names of
/// its headings (`## X. …`, `## T, C, M. …`, `# 1. …`, `### 1.6.1 …`, `## O5. …`, `## 5. …`).
fn clauses_of(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix('#') {
            let rest = rest.trim_start_matches('#');
            let Some(rest) = rest.strip_prefix(' ') else { continue };
            // A heading's name: letters separated by ", " (`T, C, M`), or one clause-shaped name.
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | ' '))
                .collect();
            let name = name.split(". ").next().unwrap_or("").trim_end_matches('.');
            let name = name
                .split(' ')
                .take_while(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let parts: Vec<&str> = name.split(", ").collect();
            if parts.len() > 1
                && parts
                    .iter()
                    .all(|p| p.len() == 1 && p.chars().all(|c| c.is_ascii_uppercase()))
            {
                out.extend(parts.iter().map(|p| p.to_string()));
            } else if let Some(first) = name.split(' ').next() {
                if is_clause_name(first) {
                    out.insert(first.to_string());
                }
            }
        } else {
            // `X1. `, `S6a. `, `O1.1. `: a numbered clause (a bare `1. ` is a list item, not a clause).
            let Some((name, _)) = line.split_once(". ") else {
                continue;
            };
            if is_clause_name(name) && name.chars().any(|c| c.is_ascii_alphabetic() || c == '.') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// `X`, `X6`, `S6a`, `O1.1`, `1`, `1.6.1`: a section or clause name.
fn is_clause_name(s: &str) -> bool {
    let letters = s.chars().take_while(|c| c.is_ascii_uppercase()).count();
    let rest = &s[letters..];
    if rest.is_empty() {
        return letters == 1;
    }
    if letters > 1 {
        return false;
    }
    let rest = rest.strip_suffix(|c: char| c.is_ascii_lowercase()).unwrap_or(rest);
    !rest.is_empty()
        && rest
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// One `§` citation: the clause names it cites (one, or two for a range) and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Citation {
    /// Byte offsets of the `§` and of the end of the citation in its line.
    start: usize,
    end: usize,
    /// The cited names: `["S4", "S7"]` for `§S4-S7`.
    names: Vec<String>,
}

/// The clause-shaped name at the start of `s` (`S6a`, `1.6.1`, `X`), if any, and its length.
fn name_at(s: &str) -> Option<(String, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    let letters = i;
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == digits_start {
        // Letters only: a section (`§X`, `§N`), or a word (`§VI`) checked like any other name.
        return (letters > 0 && b[..letters].iter().all(u8::is_ascii_uppercase))
            .then(|| (s[..letters].to_string(), letters));
    }
    if i < b.len() && b[i].is_ascii_lowercase() && !(i + 1 < b.len() && b[i + 1].is_ascii_alphabetic()) {
        i += 1; // `S6a`
    }
    while i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    Some((s[..i].to_string(), i))
}

/// Every `§` citation in one line, in order.
fn citations(line: &str) -> Vec<Citation> {
    let mut out = Vec::new();
    for (start, _) in line.match_indices('§') {
        let after = start + '§'.len_utf8();
        let Some((name, len)) = name_at(&line[after..]) else {
            continue;
        };
        let mut end = after + len;
        let mut names = vec![name];
        // A range: `§S4-S7`, `§3.3–3.4` (a `§` after the dash is a citation of its own).
        for dash in ['-', '–'] {
            if let Some(rest) = line[end..].strip_prefix(dash) {
                if let Some((second, len2)) = name_at(rest) {
                    names.push(second);
                    end += dash.len_utf8() + len2;
                }
                break;
            }
        }
        out.push(Citation { start, end, names });
    }
    out
}

/// Where a citation points.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// A document of the repository, relative to the root.
    Doc(String),
    /// An outside work (an original document's or a paper's section): not checked.
    Outside,
}

/// The documents named in `text` (`RULES.md`, `../shared/RULES-more.md`, `docs/notation.md`), with the
/// byte offset where each name ends, mapped to repository paths; names of no document of the
/// repository are left out.
fn named_docs(text: &str, docs: &BTreeMap<String, BTreeSet<String>>) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(".md") {
        let end = at + 3;
        let head = &text[..at];
        let base_start = head
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(0, |i| i + 1);
        let base = &head[base_start..];
        let path = match base {
            "RULES" | "RULES-more" => format!("docs/rules/{base}.md"),
            _ => format!("docs/{base}.md"),
        };
        if docs.contains_key(&path) {
            out.push((end, path));
        }
    }
    out
}

/// The document a citation in `line` of `file` refers to (see the module docs); `prev` is the
/// previous citation on the line and its target.
fn target(
    file: &str,
    line: &str,
    c: &Citation,
    prev: Option<(&Citation, &Target)>,
    docs: &BTreeMap<String, BTreeSet<String>>,
) -> Target {
    let before = &line[..c.start];
    let after = &line[c.end..];
    // A list item after an outside work's section is outside too (`seed §8(4), §12`).
    if let Some((p, t @ Target::Outside)) = prev {
        let gap = line[p.end..c.start]
            .trim_matches(|ch: char| ch.is_whitespace() || matches!(ch, ',' | ';' | '/' | '(' | ')' | '`'));
        let gap = gap.trim_start_matches(|ch: char| ch.is_ascii_digit()); // `seed §8(4), §12`
        let gap = gap.trim_matches(|ch: char| ch.is_whitespace() || matches!(ch, ',' | ';' | '/' | '(' | ')' | '`'));
        if matches!(gap, "" | "and" | "or" | "to") {
            return t.clone();
        }
    }
    let tail = before.trim_end();
    if tail.to_ascii_lowercase().ends_with("seed") || line.contains("et al.") {
        return Target::Outside;
    }
    let first = &c.names[0];
    if after.starts_with(" below") || after.starts_with(" above") {
        return Target::Doc(file.to_string());
    }
    let named = named_docs(before, docs);
    if let Some((end, path)) = named.last() {
        // A file named right before the citation is where it must be.
        if before[*end..]
            .chars()
            .all(|ch| ch.is_whitespace() || matches!(ch, '`' | '(' | ':' | ','))
        {
            return Target::Doc(path.clone());
        }
    }
    if let Some((_, path)) = named.iter().rev().find(|(_, p)| docs[p].contains(first)) {
        return Target::Doc(path.clone());
    }
    let mut chars = first.chars();
    let doc = match (chars.next(), chars.next()) {
        (Some('O'), Some(d)) if d.is_ascii_digit() => "docs/open-twins.md",
        (Some(l), _) if l.is_ascii_alphabetic() => "docs/rules/RULES.md",
        _ => "docs/rules/RULES-more.md",
    };
    Target::Doc(doc.to_string())
}

/// This file, left out of the scan: its examples cite missing clauses on purpose.
const THIS_FILE: &str = "engine/tests/rule_citations.rs";

/// Every text file under the scanned paths (but this one), relative to the root, in order.
fn scanned_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if p.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_str()) {
                    walk(&p, out);
                }
            } else if p.is_file() {
                out.push(p);
            }
        }
    }
    let root = root();
    let mut paths = Vec::new();
    for s in SCANNED {
        let p = root.join(s);
        if p.is_dir() {
            walk(&p, &mut paths);
        } else {
            paths.push(p);
        }
    }
    paths
        .into_iter()
        .filter_map(|p| {
            let text = String::from_utf8(fs::read(&p).ok()?).ok()?; // binary files are skipped
            let rel = p.strip_prefix(&root).ok()?.to_string_lossy().replace('\\', "/");
            (rel != THIS_FILE).then_some((rel, text))
        })
        .collect()
}

/// The clauses of every Markdown document under `docs/`, by path relative to the root.
fn documents(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    files
        .iter()
        .filter(|(p, _)| p.starts_with("docs/") && p.ends_with(".md"))
        .map(|(p, t)| (p.clone(), clauses_of(t)))
        .collect()
}

/// The outcome of checking every citation: how many clause names were checked, how many point
/// outside the repository, and the unresolved ones as `file:line: …` messages.
struct Report {
    checked: usize,
    outside: usize,
    by_doc: BTreeMap<String, usize>,
    unresolved: Vec<String>,
}

fn check(files: &[(String, String)], docs: &BTreeMap<String, BTreeSet<String>>) -> Report {
    let mut r = Report {
        checked: 0,
        outside: 0,
        by_doc: BTreeMap::new(),
        unresolved: Vec::new(),
    };
    for (file, text) in files {
        for (n, line) in text.lines().enumerate() {
            let cs = citations(line);
            let mut prev: Option<(Citation, Target)> = None;
            for c in cs {
                let t = target(file, line, &c, prev.as_ref().map(|(c, t)| (c, t)), docs);
                match &t {
                    Target::Outside => r.outside += c.names.len(),
                    Target::Doc(doc) => {
                        for name in &c.names {
                            r.checked += 1;
                            *r.by_doc.entry(doc.clone()).or_default() += 1;
                            if !docs.get(doc).is_some_and(|cl| cl.contains(name)) {
                                r.unresolved.push(format!(
                                    "{file}:{}: §{name} is not a clause of {doc}: {}",
                                    n + 1,
                                    line.trim()
                                ));
                            }
                        }
                    }
                }
                prev = Some((c, t));
            }
        }
    }
    r
}

#[test]
fn every_cited_clause_exists() {
    let files = scanned_files();
    let docs = documents(&files);
    let r = check(&files, &docs);
    println!(
        "{} clause citations checked ({:?}), {} outside the repository, {} unresolved",
        r.checked,
        r.by_doc,
        r.outside,
        r.unresolved.len()
    );
    // The code cites its rules over a thousand times: a scan that finds far fewer is broken.
    assert!(
        r.checked > 1000,
        "only {} citations found: the scan missed the source tree",
        r.checked
    );
    assert!(
        r.unresolved.is_empty(),
        "{} citations name no existing clause:\n{}",
        r.unresolved.len(),
        r.unresolved.join("\n")
    );
}

#[test]
fn the_rule_documents_define_their_clauses() {
    let files = scanned_files();
    let docs = documents(&files);
    let rules = &docs["docs/rules/RULES.md"];
    for name in [
        "X", "X1", "X6", "S", "S6a", "S11", "F9", "K7", "T", "C", "M", "N", "N5", "P6",
    ] {
        assert!(rules.contains(name), "RULES.md lacks §{name}");
    }
    assert_eq!(
        rules.iter().filter(|n| n.len() > 1).count(),
        6 + 12 + 9 + 7 + 5 + 6,
        "{rules:?}"
    );
    let more = &docs["docs/rules/RULES-more.md"];
    for name in ["0", "0.3", "1.6.1", "1.10", "2.14", "3.8", "4"] {
        assert!(more.contains(name), "RULES-more.md lacks §{name}");
    }
    assert!(!more.contains("5") && !more.contains("3.10"), "{more:?}");
    assert!(docs["docs/open-twins.md"].contains("O6") && docs["docs/notation.md"].contains("5.3"));
}

#[test]
fn citations_are_read_as_the_rules_readme_says() {
    let files = scanned_files();
    let docs = documents(&files);
    let read = |line: &str| -> Vec<(String, Target)> {
        let mut out = Vec::new();
        let mut prev: Option<(Citation, Target)> = None;
        for c in citations(line) {
            let t = target("docs/x.md", line, &c, prev.as_ref().map(|(c, t)| (c, t)), &docs);
            out.extend(c.names.iter().map(|n| (n.clone(), t.clone())));
            prev = Some((c, t));
        }
        out
    };
    let doc = |p: &str| Target::Doc(p.to_string());
    let rules = doc("docs/rules/RULES.md");
    let more = doc("docs/rules/RULES-more.md");
    assert_eq!(
        read("flip rights (§S5, §S6a)."),
        vec![("S5".into(), rules.clone()), ("S6a".into(), rules.clone())]
    );
    assert_eq!(
        read("RULES.md §S4-S7"),
        vec![("S4".into(), rules.clone()), ("S7".into(), rules.clone())]
    );
    assert_eq!(
        read("the camel (§2.9) and §X6."),
        vec![("2.9".into(), more.clone()), ("X6".into(), rules.clone())]
    );
    // A file named right before the citation decides, even where the clause is not there.
    assert_eq!(read("RULES.md §3.8"), vec![("3.8".into(), rules.clone())]);
    assert_eq!(read("../shared/RULES-more.md §1.7"), vec![("1.7".into(), more.clone())]);
    // Named earlier on the line: the nearest named file that has the clause, else by form.
    assert_eq!(
        read("docs/notation.md §5.1: the view after the §3.6 array"),
        vec![("5.1".into(), doc("docs/notation.md")), ("3.6".into(), more.clone())]
    );
    assert_eq!(read("(RULES.md §N, docs/notation.md §2), result (§X4-X6"), {
        let n = doc("docs/notation.md");
        vec![
            ("N".into(), rules.clone()),
            ("2".into(), n),
            ("X4".into(), rules.clone()),
            ("X6".into(), rules.clone()),
        ]
    });
    assert_eq!(read("open twins (§O3)"), vec![("O3".into(), doc("docs/open-twins.md"))]);
    assert_eq!(read("Steps 1-7 of §5 below"), vec![("5".into(), doc("docs/x.md"))]);
    // Outside works are not checked, nor the items listed after them.
    assert_eq!(
        read("(seed §8(4), §12)"),
        vec![("8".into(), Target::Outside), ("12".into(), Target::Outside)]
    );
    assert_eq!(read("(Cowling et al. 2012, §VI)"), vec![("VI".into(), Target::Outside)]);
    // A wrong clause is reported with its file and line.
    let bad = vec![(
        "engine/src/x.rs".to_string(),
        "// RULES.md §S12 and §2.15\n".to_string(),
    )];
    let r = check(&bad, &docs);
    assert_eq!(r.checked, 2);
    assert_eq!(
        r.unresolved,
        vec![
            "engine/src/x.rs:1: §S12 is not a clause of docs/rules/RULES.md: // RULES.md §S12 and §2.15".to_string(),
            "engine/src/x.rs:1: §2.15 is not a clause of docs/rules/RULES-more.md: // RULES.md §S12 and §2.15"
                .to_string(),
        ]
    );
}
