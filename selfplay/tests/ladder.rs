//! The strength ladder end to end: a small real ladder, its report files, resume, and an added
//! player that plays only its own pairings.

use selfplay::ladder::{self, parse_add, Roster};

#[test]
fn ladder_plays_resumes_and_extends_incrementally() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lad = dir.path().join("jieqi");
    let mut roster = Roster::new("jieqi", 5, 1, 3, 80);
    roster.players.retain(|p| p.name == "random" || p.name == "greedy" || p.name == "oracle-alphabeta");
    roster.players.iter_mut().filter(|p| p.name == "oracle-alphabeta").for_each(|p| p.spec = "alphabeta:depth=1".into());
    roster.save(&lad.join("ladder.toml")).expect("save");
    let opts = ladder::Options { concurrency: Some(2), progress: false, report_only: false, cluster: None };
    let first = ladder::run(&roster, &lad, &opts).expect("runs");
    assert_eq!(first.pairings.len(), 3);
    assert!(first.pairings.iter().all(|p| p.wdl.n() == 2 && p.played_now == 2));
    let random = first.standings.iter().find(|s| roster.players[s.index].name == "random").expect("random");
    assert_eq!((random.elo, random.ci95), (0.0, 0.0));
    assert!(first.standings.iter().any(|s| s.oracle), "the alpha-beta player is rated as an oracle");
    let md = first.write(&lad, dir.path(), "jieqi", "anqi ladder --variant jieqi").expect("report");
    let text = std::fs::read_to_string(md).expect("md");
    assert!(text.contains("| oracle-alphabeta †") && text.contains("## Pairings"), "{text}");
    let csv = std::fs::read_to_string(dir.path().join("jieqi.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 4, "{csv}");

    // A rerun plays nothing.
    let again = ladder::run(&Roster::load(&lad.join("ladder.toml")).expect("load"), &lad, &opts).expect("resumes");
    assert!(again.pairings.iter().all(|p| p.played_now == 0));
    assert_eq!(again.pairings.iter().map(|p| p.wdl).collect::<Vec<_>>(), first.pairings.iter().map(|p| p.wdl).collect::<Vec<_>>());

    // An added player plays only its own pairings, against the same set-ups.
    roster.add(parse_add("ismcts-8=ismcts:iterations=8")).expect("add");
    let more = ladder::run(&roster, &lad, &opts).expect("extends");
    assert_eq!(more.pairings.len(), 6);
    for p in &more.pairings {
        let new = roster.players[p.players.1].name == "ismcts-8";
        assert_eq!(p.played_now, if new { 2 } else { 0 }, "{:?}", p.players);
    }
}

#[test]
fn a_ladder_of_another_variant_or_time_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lad = dir.path().join("l");
    Roster::new("surprise", 50, 2, 1, 100).save(&lad.join("ladder.toml")).expect("save");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(["ladder", "--variant", "jieqi", "--dir"])
        .arg(&lad)
        .output()
        .expect("anqi");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ladder.toml") && err.contains("surprise"), "{err}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(["ladder", "--variant", "surprise", "--movetime", "60", "--dir"])
        .arg(&lad)
        .output()
        .expect("anqi");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("50 ms"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `anqi ladder` on `lad` with `args`; returns (success, stderr).
fn anqi_ladder(lad: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(["ladder", "--variant", "jieqi", "--movetime", "5", "--report-only", "--dir"])
        .arg(lad)
        .args(args)
        .output()
        .expect("anqi");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn drop_removes_a_player_and_only_its_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lad = dir.path().join("jieqi");
    let mut roster = Roster::new("jieqi", 5, 1, 3, 60);
    roster.players.retain(|p| p.name == "random" || p.name == "greedy");
    roster.add(parse_add("ismcts-8=ismcts:iterations=8")).expect("add");
    roster.save(&lad.join("ladder.toml")).expect("save");
    let opts = ladder::Options { concurrency: Some(2), progress: false, report_only: false, cluster: None };
    ladder::run(&roster, &lad, &opts).expect("runs");
    let kept = lad.join("games/random__ismcts-8.pgn");
    let kept_before = std::fs::read(&kept).expect("kept pgn");

    let (ok, err) = anqi_ladder(&lad, &["--drop", "nobody"]);
    assert!(!ok && err.contains("nobody") && err.contains("random, greedy, ismcts-8"), "{err}");
    let (ok, err) = anqi_ladder(&lad, &["--drop", "random"]);
    assert!(!ok && err.contains("anchor"), "{err}");
    assert!(lad.join("games/random__greedy.pgn").exists(), "a refused drop deletes nothing");

    let (ok, err) = anqi_ladder(&lad, &["--drop", "greedy"]);
    assert!(ok, "{err}");
    let after = Roster::load(&lad.join("ladder.toml")).expect("load");
    assert_eq!(after.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["random", "ismcts-8"]);
    assert!(!lad.join("games/random__greedy.pgn").exists() && !lad.join("games/greedy__ismcts-8.pgn").exists());
    assert_eq!(std::fs::read(&kept).expect("kept pgn"), kept_before, "the other pairing's games are untouched");
    let rerun = ladder::run(&after, &lad, &opts).expect("resumes");
    assert_eq!(rerun.pairings.len(), 1);
    assert_eq!((rerun.pairings[0].played_now, rerun.pairings[0].wdl.n()), (0, 2), "nothing is replayed");
    let csv = std::fs::read_to_string(dir.path().join("jieqi.csv")).expect("csv");
    assert!(!csv.contains("greedy") && csv.lines().count() == 3, "{csv}");
}

/// Issue #17: the RULES-more.md games run in the ladder through the one game contract, with the
/// same reference bots (the generic `pimc`, `ismcts`, `expectimax` and the oracle alpha-beta),
/// hidden set-ups included: every pairing plays its games, `random` stays the anchor, and the
/// report is written.
#[test]
fn ladder_runs_the_rules_more_games_with_the_same_bots() {
    for variant in ["missile-hidden-5", "skill-secret", "camel-5"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let lad = dir.path().join(variant);
        let mut roster = Roster::new(variant, 5, 1, 1, 60);
        let keep = ["random", "greedy", "pimc", "ismcts-so", "expectimax", "oracle-alphabeta"];
        for name in keep {
            assert!(roster.players.iter().any(|p| p.name == name), "{variant}: the reference roster has {name}");
        }
        roster.players.retain(|p| keep.contains(&p.name.as_str()));
        roster.save(&lad.join("ladder.toml")).expect("save");
        let opts = ladder::Options { concurrency: Some(2), progress: false, report_only: false, cluster: None };
        let l = ladder::run(&roster, &lad, &opts).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(l.pairings.len(), 15, "{variant}");
        assert!(l.pairings.iter().all(|p| p.wdl.n() == 2), "{variant}: every pairing played its two games");
        let random = l.standings.iter().find(|s| roster.players[s.index].name == "random").expect("random");
        assert_eq!((random.elo, random.ci95), (0.0, 0.0), "{variant}");
        let md = l.write(&lad, dir.path(), variant, "anqi ladder").expect("report");
        assert!(std::fs::read_to_string(md).expect("md").contains("oracle-alphabeta †"), "{variant}");
    }
}
