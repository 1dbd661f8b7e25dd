//! The learned evaluation's trainer (`models::evaltrain`, issue #36 item 2) on synthetic positions
//! whose score is a known linear function of the features (the material balance): training
//! lowers the validation loss, a rerun resumes from the checkpoint, and the exported quantized
//! network reads back and evaluates within a few centipawns of the float one.

use engine::geometry::Geometry;
use engine::nnue::{Network, PieceOn};
use engine::piece::Role;
use engine::Color;
use models::evalshard::EvalSample;
use models::evaltrain::{export, fit, FitConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Centipawns of each role (general, advisor, elephant, horse, chariot, cannon, soldier).
fn value(r: Role) -> i32 {
    match r {
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
        Role::General => 0,
    }
}

/// `n` positions in "games" of 10 (plies rising within a game): the xiangqi start with each non-general piece kept with probability 0.6, a
/// random side to move, scored by the material balance for the side to move (halved, so the
/// targets spread over the sigmoid's range).
fn synthetic(n: usize, seed: u64) -> Vec<EvalSample> {
    let v = engine::any_game::load_variant("xiangqi").expect("xiangqi");
    let start = engine::variant::State::new_game(v);
    let all: Vec<PieceOn> = engine::nnue::pieces_of(start.position(), start.face_down());
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let pieces: Vec<PieceOn> = all.iter().copied().filter(|p| value(p.piece.role) == 0 || rng.random_bool(0.6)).collect();
            let stm = Color::ALL[rng.random_range(0..2)];
            let cp: i32 = pieces.iter().map(|p| if p.piece.color == stm { value(p.piece.role) } else { -value(p.piece.role) }).sum::<i32>() / 2;
            EvalSample::new(&pieces, stm, cp as i16, 0, (i % 10) as u16)
        })
        .collect()
}

#[test]
fn training_learns_material_resumes_and_exports() {
    tch::set_num_threads(1);
    let geom = Geometry::new(9, 10);
    let samples = synthetic(3000, 5);
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = FitConfig { lr: 3e-3, lr_final_fraction: 1.0, batch_size: 128, epochs: 4, validation_fraction: 0.1, lambda: 1.0, max_minutes: 0.0, threads: 1, mirror: true };
    let (first, _, _) = fit(&cfg, &geom, &samples, dir.path(), 1, |_| {}).expect("trains");
    assert!(!first.resumed && first.epochs_done == 4 && first.epochs.len() == 4, "{first:?}");
    // The training positions are counted with their mirrored copies.
    assert_eq!(first.train_positions / 2 + first.val_positions, 3000);
    assert!((300..330).contains(&first.val_positions), "{}", first.val_positions);
    let last = first.epochs.last().expect("epochs").val_loss;
    assert!(last < first.initial_val_loss * 0.3, "validation loss {} -> {last}", first.initial_val_loss);
    // A rerun with more epochs resumes after the fourth.
    let more = FitConfig { epochs: 6, ..cfg };
    let (second, net, val) = fit(&more, &geom, &samples, dir.path(), 1, |_| {}).expect("resumes");
    assert!(second.resumed && second.epochs.len() == 2 && second.epochs_done == 6, "{second:?}");
    assert!((second.initial_val_loss - last).abs() < 1e-9, "resumed from another net: {} vs {last}", second.initial_val_loss);
    let lowest = second.epochs.iter().map(|e| e.val_loss).fold(second.initial_val_loss, f64::min);
    assert_eq!(second.best_val_loss, lowest, "the returned network is the lowest validation loss's");
    assert!((models::evalnet::mean_loss(&net, &models::evalnet::Encoded::new(&geom, &samples), &val, 512, 1.0) - lowest).abs() < 1e-6);
    let curve = std::fs::read_to_string(dir.path().join("curve.csv")).expect("curve");
    assert_eq!(curve.lines().count(), 1 + 6, "{curve}");
    // Export: the file reads back as the same network, within a few centipawns of the float net.
    let path = dir.path().join("eval.nnue");
    let meta = engine::nnue::NetMeta { variant: "xiangqi".into(), description: "test".into() };
    let rep = export(&net, meta.clone(), &geom, &samples, &val, &path).expect("exports");
    assert_eq!(rep.positions, val.len());
    assert!(rep.mae_cp < 1.0 && rep.max_abs_cp < 2.0, "{rep:?}");
    let loaded = Network::load(&path).expect("loads");
    assert_eq!((loaded.short_hash(), loaded.meta()), (rep.hash.clone(), &meta));
    let float = net.to_float();
    let mut err = 0.0;
    for &i in &val {
        let s = &samples[i];
        let q = loaded.evaluate_pieces(&geom, &s.pieces_on(), s.side_to_move());
        err += (f64::from(float.evaluate(&geom, &s.pieces_on(), s.side_to_move())) - f64::from(q)).abs();
    }
    assert!((err / val.len() as f64 - rep.mae_cp).abs() < 1e-6);
    // The trained net knows material: a chariot up scores well above a chariot down.
    let up = samples.iter().filter(|s| s.score_cp > 400).map(|s| float.evaluate(&geom, &s.pieces_on(), s.side_to_move())).sum::<f32>();
    let down = samples.iter().filter(|s| s.score_cp < -400).map(|s| float.evaluate(&geom, &s.pieces_on(), s.side_to_move())).sum::<f32>();
    assert!(up > 0.0 && down < 0.0, "up {up} down {down}");
}

/// No positions is a typed error, not a panic.
#[test]
fn no_data_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = fit(&FitConfig::default(), &Geometry::new(9, 10), &[], dir.path(), 1, |_| {}).err().expect("refused");
    assert!(err.to_string().contains("no training positions"), "{err}");
}

/// The split keeps each game (a run of rising plies) on one side and holds out about the share
/// asked for.
#[test]
fn the_split_holds_out_whole_games() {
    let samples = synthetic(1000, 9);
    let (train, val) = models::evaltrain::split(&samples, 0.2, 3);
    assert_eq!(train.len() + val.len(), 1000);
    assert!((200..210).contains(&val.len()), "{}", val.len());
    for g in 0..100 {
        let held = (g * 10..g * 10 + 10).filter(|i| val.contains(i)).count();
        assert!(held == 0 || held == 10, "game {g} split: {held} of 10 held out");
    }
    assert_eq!(models::evaltrain::split(&samples, 0.2, 3), (train, val), "seeded");
}

/// The learning rate decays geometrically from `lr` to `lr * lr_final_fraction` at the last
/// epoch, and bad keys are named.
#[test]
fn the_learning_rate_schedule_and_the_checks() {
    let cfg = FitConfig { lr: 1e-3, lr_final_fraction: 0.1, epochs: 3, ..FitConfig::default() };
    let lrs: Vec<f64> = (0..4).map(|e| cfg.lr_at(e)).collect();
    assert!((lrs[0] - 1e-3).abs() < 1e-12 && (lrs[1] - 1e-3 * 0.1f64.sqrt()).abs() < 1e-12 && (lrs[2] - 1e-4).abs() < 1e-12 && lrs[3] == lrs[2], "{lrs:?}");
    assert_eq!(FitConfig { epochs: 1, ..cfg.clone() }.lr_at(0), 1e-3);
    let bad = FitConfig { lr_final_fraction: 0.0, ..cfg.clone() };
    assert!(bad.validate("evaltrain").expect_err("refused").contains("evaltrain.lr_final_fraction"));
    let bad = FitConfig { validation_fraction: 1.0, ..cfg };
    assert!(bad.validate("evaltrain").expect_err("refused").contains("evaltrain.validation_fraction"));
}

/// The left-right mirror the trainer adds to its data: file f goes to 8 - f on the 9-file
/// board, ranks, pieces and labels stay, and mirroring twice gives the sample back.
#[test]
fn mirrored_samples_flip_files_only() {
    let s = EvalSample { pieces: vec![(0, 4, false), (11 * 9 + 3, 11, true), (11 * 2 + 4, 5, false)], stm: 1, score_cp: -37, result: 1, ply: 12 };
    let m = s.mirrored(9);
    assert_eq!(m.pieces, vec![(8, 4, false), (11 * 9 + 5, 11, true), (11 * 2 + 4, 5, false)]);
    assert_eq!((m.stm, m.score_cp, m.result, m.ply), (1, -37, 1, 12));
    assert_eq!(m.mirrored(9), s);
}
