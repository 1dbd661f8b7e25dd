//! The registry of the RULES-more.md games (`engine::more::family`, issue #38's "a new game is its
//! folder and one registry line"): every game in the list plays through every entry point with no
//! code of its own outside its folder, and the source holds no other wiring of a game.

use std::path::{Path, PathBuf};

use engine::any_game::{AnyGame, Start};
use engine::more::presets::{self, Playable, WithGame};
use engine::more::{MoreVariant, FAMILIES};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// What the entry points need of a game at one start: a legal action and the perft to 1.
struct Probe;
impl WithGame for Probe {
    type Output = (usize, u64);
    fn run<G: Playable>(self, g: G) -> Self::Output {
        (g.legal_actions().len(), g.perft(1))
    }
}

#[test]
fn every_registered_game_plays_through_every_entry_point() {
    assert!(FAMILIES.len() >= 3, "the registry lists the games");
    let mut seen = std::collections::HashSet::new();
    for f in FAMILIES {
        assert!(seen.insert(f.name), "{}: family listed twice", f.name);
        assert!(f.presets.contains(&f.default_preset), "{}: its default preset {} is one of its presets", f.name, f.default_preset);
        // A rule file naming only the family starts from its default preset.
        let bare = MoreVariant::from_toml(&format!("game = \"{}\"\n", f.name), "bare.toml").unwrap_or_else(|e| panic!("{}: {e}", f.name));
        assert_eq!(bare.family(), f.name);
        for &name in f.presets {
            let v = (f.preset)(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((v.name(), v.family()), (name, f.name));
            assert_eq!(MoreVariant::preset(name), Ok(v), "{name}: the name resolves to its family");
            assert!(presets::presets().iter().any(|(n, d)| *n == name && *d == v.description()), "{name}: listed by `anqi variants`");
            assert!(presets::is_spec(name));
            // The printed rule table loads back to the same preset.
            let back = MoreVariant::from_toml(&v.to_toml(), "printed.toml").unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(back.to_toml(), v.to_toml(), "{name}");
            // Every command's game: from its start, after its set-up, and from its own FEN.
            let (n, p1) = presets::with_game_at(name, Start::Setup, Probe).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(n > 0 && p1 > 0, "{name}: legal actions at the start");
            let (_, p1) = presets::with_game_at(name, Start::AfterSetup { layouts: None }, Probe).expect("after set-up");
            assert!(p1 > 0, "{name}: perft's start (RULES.md §P4) has legal actions");
            struct Fen;
            impl WithGame for Fen {
                type Output = String;
                fn run<G: Playable>(self, g: G) -> String {
                    g.full_fen()
                }
            }
            let fen = presets::with_game_at(name, Start::AfterSetup { layouts: None }, Fen).expect("fen");
            assert_eq!(presets::with_game_at(name, Start::Fen(&fen), Fen).expect("from its FEN"), fen, "{name}");
            // The one game name resolver, its encoding (nets) and its open twin.
            let any = AnyGame::resolve(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(any.variant().is_none() && any.name() == name);
            any.encoding().unwrap_or_else(|e| panic!("{name}: {e}"));
            if v.hidden_setup() {
                let twin = format!("{name}+open");
                assert!(presets::with_game_at(&twin, Start::Setup, Probe).is_ok(), "{twin}");
            }
        }
    }
}

/// The `.rs` files under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A game's wiring outside its folder is the one registry line: in the library sources of every
/// crate (unit-test modules and comments aside) nothing else names the game's module or its
/// preset, rules or game types. What a new game costs is then its folder and that line.
#[test]
fn a_game_is_its_folder_and_one_registry_line() {
    let root = root();
    let mut files = Vec::new();
    for dir in ["engine/src", "models/src", "selfplay/src", "selfplay/farm/src"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "the sources are found from {}", root.display());
    for f in FAMILIES {
        let folder = root.join("engine/src/more").join(f.name);
        assert!(folder.join("mod.rs").is_file(), "{}: the game's folder engine/src/more/{}/", f.name, f.name);
        let upper = {
            let mut c = f.name.chars();
            c.next().map(|h| h.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        };
        let types = ["Game", "Preset", "Rules", "Position"].map(|t| format!("{upper}{t}"));
        let mut wiring = Vec::new();
        for file in files.iter().filter(|p| !p.starts_with(&folder)) {
            let text = std::fs::read_to_string(file).expect("read source");
            // Unit-test modules sit at the end of a file: they use games, they do not wire them.
            let lib = text.split("#[cfg(test)]").next().unwrap_or("");
            for (i, line) in lib.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                let names_module = code.match_indices(&format!("{}::", f.name)).any(|(at, _)| at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric() && code.as_bytes()[at - 1] != b'_');
                let names_type = types.iter().any(|t| code.contains(t.as_str()));
                if names_module || names_type {
                    wiring.push(format!("{}:{}: {}", file.strip_prefix(&root).unwrap_or(file).display(), i + 1, line.trim()));
                }
            }
        }
        assert_eq!(wiring.len(), 1, "{}: wired outside its folder by more than the registry line:\n{}", f.name, wiring.join("\n"));
        assert!(wiring[0].starts_with("engine/src/more/mod.rs:"), "{}: {}", f.name, wiring[0]);
    }
}
