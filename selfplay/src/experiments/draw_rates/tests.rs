//! Tests of the paired study: a small real run, its resume, and the pairing of deals.

use super::report::Study;
use super::*;

fn settings(out: &std::path::Path) -> Settings {
    Settings {
        presets: vec!["jieqi".into(), "surprise".into(), "skill-secret".into()],
        levels: vec!["greedy".into(), "ismcts:iterations=8".into()],
        deals: vec![3, 2],
        ceiling: Some("oracle:depth=1".into()),
        ceiling_deals: 2,
        scale: 1.0,
        threads: 2,
        cluster: None,
        halfwidth: None,
        min_deals: 30,
        wave: 10,
        report_only: false,
        seed: 5,
        max_plies: 120,
        out: out.to_path_buf(),
        command: "anqi experiment draw-rates --test".into(),
        progress: false,
        anchors: None,
        ladder_dir: out.join("no-ladder"),
    }
}

#[test]
fn small_paired_study_reports_every_cell_and_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let st = settings(dir.path());
    let (rows, _) = run(&st).expect("runs");
    // 3 presets x (3 + 2 deals) x 2 games, plus the ceiling on every preset (the RULES-more.md
    // games have the one expectimax's `oracle` too, #17 item 1) x 2 deals.
    assert_eq!(rows.len(), 3 * 5 * 2 + 3 * 2);
    let study = Study::new(&st, &rows, 1.0);
    assert_eq!(study.cells[0][0].pairs, 3);
    assert_eq!(study.cells[2][1].pairs, 2);
    study.write().expect("writes");
    let md = std::fs::read_to_string(dir.path().join("report.md")).expect("report");
    for needle in ["**Answer.**", "anqi experiment draw-rates --test", "| jieqi | chance reveals | `greedy` | 3 |", "Ceiling: `oracle:depth=1`", "Pikafish"] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }
    assert_eq!(study.summary_csv().lines().count(), 1 + 3 * 2);
    // A rerun plays nothing and gives the same games; a larger scale plays only the new deals.
    let (again, _) = run(&st).expect("resumes");
    assert_eq!(again, rows);
    let bigger = Settings { deals: vec![4, 2], ceiling: None, ..settings(dir.path()) };
    let (more, _) = run(&bigger).expect("extends");
    assert_eq!(more.len(), rows.len() + 3 * 2);
    assert!(rows.iter().all(|r| more.contains(r)));
}

#[test]
fn a_pair_shares_its_deal_and_differs_only_in_information() {
    for preset in ["jieqi", "surprise", "fanqi-9", "skill-secret"] {
        let hidden = GameSpec::load(preset).expect("preset");
        let open = GameSpec::load(&format!("{preset}+open")).expect("twin");
        assert_ne!(hidden.name(), open.name());
        let seed = deal_seed(3, preset, 0);
        let (h, o) = (hidden.setup(seed).expect("hidden set-up"), open.setup(seed).expect("open set-up"));
        assert_eq!(h.seed, o.seed, "{preset}");
        // The same players with the same seeds play both games from one deal.
        let rules = Rules { max_plies: 40, opening_plies: 0 };
        let bot = PlayerKind::Bot("greedy".into());
        let hg = hidden.play(&h, rules, &bot, &bot, (1, 2)).expect("hidden game");
        let og = open.play(&o, rules, &bot, &bot, (1, 2)).expect("open game");
        assert!(!hg.moves.is_empty() && !og.moves.is_empty(), "{preset}");
        // Another seed deals differently.
        assert_ne!(open.setup(deal_seed(3, preset, 1)).expect("set-up").fen, o.fen, "{preset}");
    }
}

#[test]
fn a_game_not_named_is_classed_from_its_rules() {
    // The named presets keep their class; a rule file or twin is read from its game.
    assert_eq!(info_class("jieqi"), "chance reveals");
    assert_eq!(info_class("missile-hidden-5"), "private set-up (RULES-more)");
    assert_eq!(info_class("../configs/variants/examples/missile-broad-base.toml"), "none");
    assert_eq!(info_class("skill-secret+open"), "none");
    assert_eq!(info_class("fanqi-4+open"), "none");
    assert_eq!(info_class("../configs/variants/examples/surprise-two-rights.toml"), "private set-up");
    assert_eq!(info_class("no-such-game"), "chance reveals");
}
