//! The learned evaluation's data generation (`farm::evaldata`, issue #36 item 2): shards that read
//! back, resume to the same data after a lost shard, work in the hidden variants, and samples
//! that depend only on the mover's information.

mod common;

use engine::search::alphabeta::AlphaBetaBot;
use engine::variant::View;
use farm::evaldata::{decide, generate, play_game, DataConfig};
use models::evalshard;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn small(games: u64) -> DataConfig {
    DataConfig {
        games,
        games_per_shard: 2,
        random_plies: 4,
        max_plies: 40,
        adjudicate_material: 3.0,
        nodes: Some(300),
        depth: None,
        eval: None,
        hash_mb: 1,
        max_minutes: 0.0,
    }
}

/// Two shards of two xiangqi games read back with every sample quiet and labelled; after the
/// second shard is lost, a rerun writes it again with the same samples and leaves the first.
#[test]
fn shards_read_back_and_resume_to_the_same_data() {
    let v = engine::any_game::load_variant("xiangqi").expect("xiangqi");
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = small(4);
    let mut seen = Vec::new();
    let stats = generate(v, dir.path(), &cfg, 7, "test", |done, total, _| seen.push((done, total))).expect("generates");
    assert_eq!(seen, vec![(1, 2), (2, 2)]);
    assert!(stats.complete && stats.written_shards == 2 && stats.games == 4, "{stats:?}");
    let files = evalshard::list(dir.path()).expect("lists");
    assert_eq!(files.len(), 2);
    let (h1, s1) = evalshard::read(&files[1]).expect("reads");
    assert_eq!((h1.variant.as_str(), h1.seq, h1.games, h1.samples as usize), ("xiangqi", 1, 2, s1.len()));
    let (headers, all) = evalshard::read_all(dir.path()).expect("reads all");
    assert_eq!(all.len() as u64, stats.samples);
    assert!(all.len() > 20, "{} samples of 4 games of 40 plies", all.len());
    assert!(headers.iter().all(|h| h.searcher.contains("nodes=300")));
    for s in &all {
        assert!(s.ply >= 4 && s.ply < 40, "searched plies only: {}", s.ply);
        assert!(s.score_cp.abs() < 20_000);
        assert!(s.pieces.len() >= 2 && s.pieces.iter().all(|p| !p.2), "xiangqi has no face-down piece");
    }
    // Nothing to do once complete.
    let again = generate(v, dir.path(), &cfg, 7, "test", |_, _, _| {}).expect("resumes");
    assert_eq!((again.resumed_shards, again.written_shards), (2, 0));
    // A lost shard is played again, the same games.
    std::fs::remove_file(&files[1]).expect("removes");
    let redo = generate(v, dir.path(), &cfg, 7, "test", |_, _, _| {}).expect("resumes");
    assert_eq!((redo.resumed_shards, redo.written_shards, redo.games), (1, 1, 2));
    let (_, s1_again) = evalshard::read(&files[1]).expect("reads");
    assert_eq!(s1_again, s1);
    // Another shard size would number the games differently: refused, naming the key.
    let other = DataConfig { games_per_shard: 3, games: 9, ..cfg };
    let err = generate(v, dir.path(), &other, 7, "test", |_, _, _| {}).expect_err("another shard size");
    assert!(err.to_string().contains("evaldata.games_per_shard"), "{err}");
}

/// A budget of (almost) no minutes stops before the first shard, and the run is incomplete.
#[test]
fn the_budget_stops_between_shards() {
    let v = engine::any_game::load_variant("xiangqi").expect("xiangqi");
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = DataConfig { max_minutes: 1e-9, ..small(4) };
    let stats = generate(v, dir.path(), &cfg, 1, "test", |_, _, _| {}).expect("runs");
    assert!(!stats.complete && stats.written_shards == 0);
}

/// Jieqi, Surprise and Fan-qi 9 games play to their end (or the cap) with results for the
/// mover; Jieqi's samples have face-down pieces.
#[test]
fn hidden_variants_play_and_label() {
    for (name, face_down) in [("jieqi", true), ("surprise", false), ("fanqi-9", false)] {
        let v = engine::any_game::load_variant(name).expect(name);
        let cfg = small(1);
        let g = play_game(v, &cfg, &cfg.limits().expect("limits"), 3);
        assert!(g.plies > 4 && g.plies <= 40, "{name}: {} plies", g.plies);
        assert!(g.searched > 0, "{name}");
        assert!(!g.samples.is_empty(), "{name}: no sample");
        let want = match g.winner {
            None => 0,
            Some(_) => 1,
        };
        assert!(g.samples.iter().all(|s| s.result.abs() == want), "{name}: results {:?}", g.samples.iter().map(|s| s.result).collect::<Vec<_>>());
        if face_down {
            assert!(g.samples.iter().any(|s| s.pieces.iter().any(|p| p.2)), "{name}: no face-down piece in any sample");
        }
    }
}

/// Two true Jieqi states the mover cannot tell apart (two determinizations of its view) give
/// the same decision and the same sample: the labels come from the mover's information only.
#[test]
fn two_states_of_one_information_set_give_one_sample() {
    let v = engine::any_game::load_variant("jieqi").expect("jieqi");
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let cfg = small(1);
    let mut compared = 0;
    for _ in 0..6 {
        let s = common::random_decision(v, 12, &mut rng);
        let view = View::new(&s, s.turn());
        let (a, b) = (view.sample(&mut rng), view.sample(&mut rng));
        let run = |st: &engine::variant::State| {
            let limits = cfg.limits().expect("limits");
            let mut bot = AlphaBetaBot::new(limits.clone(), 1);
            decide(&mut bot, st, &[], &limits, 9)
        };
        let (da, db) = (run(&a), run(&b));
        assert_eq!((da.0, &da.1), (db.0, &db.1), "one information set, two decisions or samples");
        compared += usize::from(da.1.is_some());
    }
    assert!(compared > 0, "no sample compared");
}

/// A later round: the searcher with a learned evaluation (`evaldata.eval`, a network file) plays
/// and says so in the shard header; a file that does not load is refused naming the key.
#[test]
fn a_learned_evaluation_can_play_the_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("round1.nnue");
    let net = engine::nnue::Network::quantize(&models::evalnet::EvalNet::new(2).to_float(), engine::nnue::NetMeta::default());
    net.save(&path).expect("saves");
    let cfg = DataConfig { eval: Some(path.display().to_string()), ..small(2) };
    cfg.validate("evaldata").expect("valid");
    let v = engine::any_game::load_variant("xiangqi").expect("xiangqi");
    let stats = generate(v, &dir.path().join("data"), &cfg, 1, "test", |_, _, _| {}).expect("generates");
    assert!(stats.samples > 0);
    let (headers, _) = evalshard::read_all(&dir.path().join("data")).expect("reads");
    assert!(headers[0].searcher.contains("eval="), "{}", headers[0].searcher);
    let bad = DataConfig { eval: Some(dir.path().join("missing.nnue").display().to_string()), ..small(2) };
    let err = bad.validate("evaldata").expect_err("refused");
    assert!(err.contains("evaldata.eval") && err.contains("missing.nnue"), "{err}");
}

/// The whole pipeline (`anqi train` with an eval config): generate, train, export, summary; a
/// rerun with more epochs plays no game again and resumes the training.
#[test]
fn the_pipeline_generates_trains_exports_and_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = format!(
        "variant = \"xiangqi\"\nrun_dir = {:?}\nthreads = 1\n[evaldata]\ngames = 4\ngames_per_shard = 2\nrandom_plies = 4\nmax_plies = 60\nnodes = 300\nhash_mb = 1\n[evaltrain]\nepochs = 2\nbatch_size = 64\n",
        dir.path().join("run").display().to_string()
    );
    let file = dir.path().join("eval.toml");
    std::fs::write(&file, &toml).expect("writes");
    assert!(farm::evalrun::is_eval_config(&toml));
    let cfg = farm::evalrun::EvalRunConfig::load(&file, &[]).expect("loads");
    let first = farm::evalrun::run(&cfg, false).expect("runs");
    assert_eq!((first.generation.games, first.training.epochs_done), (4, 2));
    let run = dir.path().join("run");
    for f in ["eval.nnue", "summary.json", "config.toml", "train/curve.csv", "train/evalnet.safetensors"] {
        assert!(run.join(f).is_file(), "{f} missing");
    }
    assert!(first.export.mae_cp < 1.5, "quantization-aware training: {:?}", first.export);
    let net = engine::nnue::Network::load(&run.join("eval.nnue")).expect("loads");
    assert_eq!(net.meta().variant, "xiangqi");
    let more = farm::evalrun::EvalRunConfig::load(&file, &["evaltrain.epochs=3".to_string()]).expect("loads");
    let second = farm::evalrun::run(&more, false).expect("resumes");
    assert_eq!((second.generation.games, second.generation.resumed_shards), (0, 2));
    assert!(second.training.resumed && second.training.epochs.len() == 1 && second.training.epochs_done == 3);
    // A key of the wrong table is named.
    let err = farm::evalrun::EvalRunConfig::load(&file, &["evaltrain.nodes=5".to_string()]).expect_err("unknown key");
    assert!(err.to_string().contains("nodes") && err.to_string().contains("evaltrain"), "{err}");
}
