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
    let opts = ladder::Options { concurrency: Some(2), progress: false, report_only: false };
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
