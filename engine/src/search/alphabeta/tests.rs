//! Unit tests of the searcher and the oracle bot.

use super::*;
use super::searcher::CHECK_EVERY;
use crate::piece::Color;
use crate::position::Position;
use crate::repetition::RecordPly;
use crate::search::game_bot::choose_variant;
use crate::variant::game_state::VariantGameState;
use crate::variant::State;
use std::sync::atomic::Ordering;
use crate::notation::fen;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn search(f: &str, limits: Limits) -> SearchResult {
    let pos = fen::parse(f).expect("fen");
    let mut s = Searcher::new(4);
    s.search(&pos, &[], &limits, &mut |_| {})
}

fn mv(s: &str) -> Move {
    let (a, b) = crate::notation::iccs::parse_squares(s).expect("squares");
    Move::new(a, b)
}

/// Exhaustive check: does the side to move force mate within `n` of its own moves?
fn forces_mate(pos: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for m in pos.legal_moves().iter().copied() {
        let u = pos.play(m);
        let ok = all_replies_mated(pos, n - 1);
        pos.unplay(m, u);
        if ok {
            return true;
        }
    }
    false
}

/// Exhaustive check: is the side to move mated now, or mated within `n` more moves of the
/// opponent whatever it replies?
fn all_replies_mated(pos: &mut Position, n: u32) -> bool {
    let replies = pos.legal_moves();
    if replies.is_empty() {
        return true;
    }
    if n == 0 {
        return false;
    }
    for r in replies.iter().copied() {
        let u = pos.play(r);
        let ok = forces_mate(pos, n);
        pos.unplay(r, u);
        if !ok {
            return false;
        }
    }
    true
}

const MATE_IN_1: &str = "3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1";
const MATE_IN_2: &str = "4k4/9/R8/1R7/9/9/9/9/9/3K5 w - - 0 1";

#[test]
fn mate_in_one() {
    let r = search(MATE_IN_1, Limits::depth(3));
    assert_eq!(r.score, Score::Mate(1));
    let mut pos = fen::parse(MATE_IN_1).expect("fen");
    let best = r.best.expect("a move");
    pos.play(best);
    assert!(pos.legal_moves().is_empty() && pos.in_check(), "{best} mates");
}

#[test]
fn mate_in_two() {
    let mut pos = fen::parse(MATE_IN_2).expect("fen");
    assert!(!forces_mate(&mut pos, 1), "not a mate in 1");
    assert!(forces_mate(&mut pos, 2), "a forced mate in 2");
    let r = search(MATE_IN_2, Limits::depth(5));
    assert_eq!(r.score, Score::Mate(2), "pv {:?}", r.pv);
    let best = r.best.expect("a move");
    let u = pos.play(best);
    assert!(all_replies_mated(&mut pos, 1), "{best} forces mate next move");
    pos.unplay(best, u);
}

#[test]
fn mated_side_reports_negative_mate() {
    // Black to move after a mate-in-2 first move: every reply is mated next move.
    let mut pos = fen::parse(MATE_IN_2).expect("fen");
    let r = search(MATE_IN_2, Limits::depth(5));
    pos.play(r.best.expect("move"));
    let mut s = Searcher::new(1);
    let r2 = s.search(&pos, &[], &Limits::depth(4), &mut |_| {});
    assert_eq!(r2.score, Score::Mate(-1));
}

#[test]
fn no_legal_move_is_mate_zero() {
    let mut pos = fen::parse(MATE_IN_1).expect("fen");
    let r = search(MATE_IN_1, Limits::depth(2));
    pos.play(r.best.expect("move"));
    let mut s = Searcher::new(1);
    let r2 = s.search(&pos, &[], &Limits::depth(3), &mut |_| {});
    assert_eq!(r2.best, None);
    assert_eq!(r2.score, Score::Mate(0));
}

#[test]
fn prefers_winning_a_chariot() {
    // The red chariot can take an undefended black horse on f4 or chariot on b8.
    let f = "4k4/1r7/9/9/9/1R3n3/9/9/9/3K5 w - - 0 1";
    for d in 1..=4 {
        let r = search(f, Limits::depth(d));
        assert_eq!(r.best, Some(mv("b4b8")), "depth {d}: {:?}", r.pv);
    }
}

#[test]
fn start_position_search_is_sane_and_deterministic() {
    let mut infos = Vec::new();
    let pos = Position::start();
    let mut s = Searcher::new(4);
    let r = s.search(&pos, &[], &Limits::depth(4), &mut |i| infos.push(i.clone()));
    assert_eq!(infos.len(), 4);
    assert!(infos.windows(2).all(|w| w[0].depth + 1 == w[1].depth));
    let best = r.best.expect("a move");
    assert!(pos.is_legal(best));
    assert!(matches!(r.score, Score::Cp(c) if c.abs() < 200), "{:?}", r.score);
    let mut s2 = Searcher::new(4);
    let r2 = s2.search(&pos, &[], &Limits::depth(4), &mut |_| {});
    assert_eq!((r.best, r.raw_score, r.nodes), (r2.best, r2.raw_score, r2.nodes));
}

#[test]
fn respects_node_budget() {
    for budget in [1u64, 10, 100, 1_000, 5_000, 20_000] {
        let r = search(fen::START, Limits::nodes(budget));
        assert!(r.nodes <= budget, "{} nodes > {budget}", r.nodes);
        let best = r.best.expect("a move even on a tiny budget");
        assert!(Position::start().is_legal(best));
    }
}

#[test]
fn stop_flag_ends_search() {
    let pos = Position::start();
    let mut s = Searcher::new(4);
    s.stop_flag().store(true, Ordering::Relaxed);
    let r = s.search(&pos, &[], &Limits::default(), &mut |_| {});
    assert!(r.nodes <= CHECK_EVERY);
    assert!(pos.is_legal(r.best.expect("a move")));
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut s = Searcher::new(2);
    for game in 0..12 {
        let mut pos = Position::start();
        let mut hist = Vec::new();
        for ply in 0..160 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if ply % 7 == game % 7 {
                let limits = if ply % 2 == 0 { Limits::depth(3) } else { Limits::nodes(3_000) };
                let r = s.search(&pos, &hist, &limits, &mut |_| {});
                let best = r.best.expect("a move when moves exist");
                assert!(legal.contains(&best), "illegal {best} in {}", fen::write(&pos));
                // The PV is a legal line.
                let mut p = pos.clone();
                for &m in &r.pv {
                    assert!(p.is_legal(m), "pv move {m} illegal in {}", fen::write(&p));
                    p.play(m);
                }
            }
            let m = legal[rng.random_range(0..legal.len())];
            let mover = pos.turn();
            let quiet = pos.piece_at(m.to).is_none().then_some(m);
            pos.play(m);
            hist.push(RecordPly { hash: pos.hash(), mover, gave_check: pos.in_check(), board: true, quiet });
        }
    }
}

#[test]
fn repetition_scores_as_draw() {
    // Red is a chariot up; a1a2 would repeat the position of the game's history, so it
    // scores as a draw, while without that history it scores the material.
    let pos = fen::parse("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 1").expect("fen");
    let m = mv("a1a2");
    let mut child = pos.clone();
    child.play(m);
    let limits = Limits { depth: Some(3), searchmoves: vec![m], ..Limits::default() };
    let mut s = Searcher::new(1);
    let fresh = s.search(&pos, &[], &limits, &mut |_| {});
    assert!(matches!(fresh.score, Score::Cp(c) if c > 500) || matches!(fresh.score, Score::Mate(n) if n > 0), "{:?}", fresh.score);
    s.clear();
    let repeated = s.search(&pos, &[RecordPly::occurrence(child.hash(), Color::Red), RecordPly::occurrence(pos.hash(), Color::Black)], &limits, &mut |_| {});
    assert_eq!(repeated.score, Score::Cp(0));
    // Any other move keeps the advantage, so with all moves allowed it avoids the repetition.
    s.clear();
    let free = s.search(&pos, &[RecordPly::occurrence(child.hash(), Color::Red), RecordPly::occurrence(pos.hash(), Color::Black)], &Limits::depth(3), &mut |_| {});
    assert_ne!(free.best, Some(m));
    assert!(matches!(free.score, Score::Cp(c) if c > 500) || matches!(free.score, Score::Mate(n) if n > 0), "{:?}", free.score);
}

#[test]
fn bot_plays_legal_actions_in_variants() {
    use crate::variant::Variant;
    for name in ["xiangqi", "jieqi", "fanqi-1", "surprise", "king"] {
        let v: &'static Variant = crate::any_game::load_variant(name).expect("preset");
        let mut state = State::start(v, None).expect("start");
        let mut bot = AlphaBetaBot::from_params("depth=2").expect("params");
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        for _ in 0..20 {
            if state.is_chance() {
                let outs = state.chance_outcomes();
                state.apply_chance(outs[rng.random_range(0..outs.len())].0);
                continue;
            }
            let acts = state.legal_actions();
            if acts.is_empty() {
                break;
            }
            let a = choose_variant(&mut bot, &VariantGameState::new(state.clone()));
            assert!(acts.contains(&a), "{name}: {a:?} not legal");
            state.apply(a);
        }
    }
}

#[test]
fn spec_parameters() {
    assert_eq!(AlphaBetaBot::from_params("").expect("ok").limits().depth, Some(4));
    let b = AlphaBetaBot::from_params("depth=3,nodes=500").expect("ok");
    assert_eq!((b.limits().depth, b.limits().nodes), (Some(3), Some(500)));
    assert!(AlphaBetaBot::from_params("depth=x").is_err());
    assert!(AlphaBetaBot::from_params("width=3").is_err());
}

/// `cargo test -p anqi-engine --release bench_start_position -- --ignored --nocapture`:
/// prints the iterations of a depth-7 search of the start position (speed check).
#[test]
#[ignore]
fn bench_start_position() {
    let mut s = Searcher::new(64);
    let r = s.search(&Position::start(), &[], &Limits::depth(7), &mut |i| {
        let pv: Vec<String> = i.pv.iter().map(|m| m.iccs()).collect();
        println!("depth {} seldepth {} score {} nodes {} nps {} time {} pv {}", i.depth, i.seldepth, i.score, i.nodes, i.nps, i.time_ms, pv.join(" "));
    });
    println!("best {:?} nodes {} ms {}", r.best, r.nodes, r.time_ms);
}

/// `alphabeta:off=...` names the techniques switched off, and refuses unknown ones.
#[test]
fn spec_off_names_techniques() {
    let b = AlphaBetaBot::from_params("depth=3,off=null+rfp").expect("ok");
    assert!(b.limits().off.has(Techniques::NULL_MOVE) && b.limits().off.has(Techniques::REVERSE_FUTILITY));
    assert!(!b.limits().off.has(Techniques::FUTILITY));
    assert_eq!(limits_name(b.limits()), "alphabeta:depth=3,off=null+rfp");
    let e = AlphaBetaBot::from_params("off=nulls").err().expect("unknown technique");
    assert!(e.contains("nulls") && e.contains("aspiration"), "{e}");
}

/// Every technique, switched off or on, finds the forced mates the full-width search finds
/// (the pruning guards keep mate scores out of reverse futility and null-move cut-offs).
#[test]
fn pruning_keeps_forced_mates() {
    // Red mates in two with the chariots (a ladder mate on the back rank).
    let f = "3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1";
    for off in ["", "null", "rfp", "futility", "lmr", "aspiration", "iir", "all"] {
        let mut limits = Limits::depth(6);
        limits.off = Techniques::parse(off).expect("names");
        let r = search(f, limits);
        assert!(matches!(r.score, Score::Mate(n) if n > 0 && n <= 2), "off={off}: {:?}", r.score);
    }
}

/// Make and unmake with [`HiddenValues`] (a Jieqi position after random moves): every piece
/// of unknown identity carries its value when it moves, a capture removes the victim's, and
/// unmake restores the squares, the values and the evaluation exactly.
#[test]
fn hidden_values_move_with_pieces_and_unmake_restores() {
    let v: &'static crate::variant::Variant = crate::any_game::load_variant("jieqi").expect("jieqi");
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let state = State::start(v, None).expect("start");
    let known = crate::variant::View::new(&state, state.turn()).known().clone();
    let hidden = HiddenValues::from_known(&known).expect("face-down pieces");
    // At the start every face-down piece is worth its side's pool mean, 320 cp (§P2).
    assert_eq!(hidden.squares.count(), 30);
    assert!(hidden.squares.into_iter().all(|sq| hidden.value[sq.index()] == 320), "{:?}", &hidden.value[..]);
    let mut core = CorePosition::with_hidden(state.position(), &[], Some(hidden));
    let start_eval = core.evaluate();
    let mut stack = Vec::new();
    for _ in 0..40 {
        let mut moves = Vec::new();
        core.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let eval = core.evaluate();
        let undo = core.make(m);
        stack.push((m, undo, eval));
    }
    while let Some((m, undo, eval)) = stack.pop() {
        core.unmake(m, undo);
        assert_eq!(core.evaluate(), eval, "unmake of {m:?} restores the evaluation");
    }
    assert_eq!(core.evaluate(), start_eval);
    // A face-down chariot point's piece counts 320, not 900: both sides' are level at the start.
    assert_eq!(start_eval, 0);
}

/// The honest core search (`pimc:search=alphabeta`) of two states of one information set (a
/// Jieqi position and a determinization of the mover's view) gives the same move and score.
#[test]
fn view_search_is_a_function_of_the_view() {
    let v: &'static crate::variant::Variant = crate::any_game::load_variant("jieqi").expect("jieqi");
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut checked = 0;
    while checked < 12 {
        let mut s = State::start(v, None).expect("start");
        for _ in 0..rng.random_range(4..40) {
            if s.is_chance() {
                let outs = s.chance_outcomes();
                s.apply_chance(outs[rng.random_range(0..outs.len())].0);
                continue;
            }
            let acts = s.legal_actions();
            if acts.is_empty() {
                break;
            }
            s.apply(acts[rng.random_range(0..acts.len())]);
        }
        if s.is_chance() || s.legal_actions().len() < 2 {
            continue;
        }
        let d = crate::variant::View::new(&s, s.turn()).sample(&mut rng);
        let mut bot = AlphaBetaBot::from_params("depth=3").expect("params");
        let limits = bot.limits().clone();
        let a = bot.view_search(&s, &[], &limits);
        let b = bot.view_search(&d, &[], &limits);
        assert_eq!(a, b, "two states of one information set");
        checked += 1;
    }
}

/// The learned evaluation's accumulator, updated on make and popped on unmake, equals a full
/// refresh after random move sequences in every RULES.md variant (face-down pieces moving and
/// revealed as known identities, captures), and its evaluation is restored by unmake.
#[test]
fn nnue_incremental_equals_refresh_in_every_variant() {
    let eval = crate::nnue::EvalNet {
        spec: "test".into(),
        net: std::sync::Arc::new(crate::nnue::Network::quantize(&crate::nnue::tests::random_net(3), Default::default())),
    };
    for name in crate::variant::config::preset_names() {
        let v: &'static crate::variant::Variant = crate::any_game::load_variant(name).expect("preset");
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for _game in 0..6 {
            let mut state = State::start(v, None).expect("start");
            // Some plies of the real game first, so that reveals and flips have happened.
            for _ in 0..rng.random_range(0..30) {
                if state.is_chance() {
                    let outs = state.chance_outcomes();
                    state.apply_chance(outs[rng.random_range(0..outs.len())].0);
                    continue;
                }
                let acts = state.legal_actions();
                if acts.is_empty() {
                    break;
                }
                state.apply(acts[rng.random_range(0..acts.len())]);
            }
            if state.is_chance() {
                continue;
            }
            let hidden = if state.face_down().any() { HiddenValues::from_known(crate::variant::View::new(&state, state.turn()).known()) } else { None };
            let mut core = CorePosition::with_hidden(state.position(), &[], hidden).with_eval(Some(&eval));
            assert!(core.nnue_matches_refresh(), "{name}: the root");
            let mut stack = Vec::new();
            for _ in 0..40 {
                let mut moves = Vec::new();
                core.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let before = core.evaluate();
                let undo = core.make(m);
                assert!(core.nnue_matches_refresh(), "{name}: after {m:?}");
                stack.push((m, undo, before));
            }
            while let Some((m, undo, before)) = stack.pop() {
                core.unmake(m, undo);
                assert!(core.nnue_matches_refresh(), "{name}: after unmaking {m:?}");
                assert_eq!(core.evaluate(), before, "{name}: unmake of {m:?} restores the evaluation");
            }
        }
    }
}

#[test]
fn spec_eval_parameter_loads_a_net_and_names_it() {
    let dir = std::env::temp_dir().join(format!("anqi-ab-eval-{}", std::process::id()));
    let path = dir.join("n.nnue");
    crate::nnue::Network::quantize(&crate::nnue::tests::random_net(4), Default::default()).save(&path).expect("save");
    let spec = format!("depth=2,eval={}", path.display());
    let b = AlphaBetaBot::from_params(&spec).expect("eval spec");
    assert!(b.limits().eval.is_some());
    assert_eq!(limits_name(b.limits()), format!("alphabeta:{spec}"));
    let err = AlphaBetaBot::from_params("eval=zoo:no-such-net").err().unwrap_or_default();
    assert!(err.contains("no-such-net") && err.contains("zoo"), "{err}");
    let err = AlphaBetaBot::from_params(&format!("eval={}", dir.join("missing").display())).err().unwrap_or_default();
    assert!(err.contains("missing"), "{err}");
    let state = State::start(crate::any_game::load_variant("xiangqi").expect("xiangqi"), None).expect("start");
    let mut b = b;
    let limits = b.limits().clone();
    assert!(b.view_search(&state, &[], &limits).0.is_some());
    // pimc takes it as one of the alpha-beta's parameters, in both forms.
    let p = crate::search::pimc::PimcConfig::from_params(&format!("ms=50,eval={}", path.display())).expect("pimc eval").for_variants();
    assert!(p.limits().is_some_and(|l| l.eval.is_some()));
    let p = crate::search::pimc::PimcConfig::from_params(&format!("k=1,search=alphabeta:depth=2,eval={}", path.display())).expect("pimc inner eval");
    assert!(p.limits().is_some_and(|l| l.eval.is_some()));
    assert!(crate::search::pimc::PimcConfig::from_params(&format!("eval={},search=expectimax", path.display())).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spec_parts_keep_colons_inside_values() {
    assert_eq!(crate::search::spec_parts("eval=zoo:xiangqi,depth=3"), vec!["eval=zoo:xiangqi", "depth=3"]);
    assert_eq!(crate::search::spec_parts("depth=3:nodes=5"), vec!["depth=3", "nodes=5"]);
    assert_eq!(crate::search::spec_parts(" , depth=3,"), vec!["depth=3"]);
}

#[test]
fn eval_auto_and_none_choose_the_family_net_or_the_hand_written_one() {
    let (l, _) = parse_limits("depth=2", 4).expect("spec");
    assert!(l.family_eval && l.eval.is_none());
    let (l, _) = parse_limits("depth=2,eval=none", 4).expect("spec");
    assert!(!l.family_eval && l.eval.is_none());
    assert_eq!(limits_name(&l), "alphabeta:depth=2,eval=none");
    let p = crate::search::pimc::PimcConfig::from_params("ms=50").expect("pimc").for_variants();
    assert!(p.limits().expect("alpha-beta").family_eval);
    let p = crate::search::pimc::PimcConfig::from_params("ms=50,eval=none").expect("pimc").for_variants();
    assert!(!p.limits().expect("alpha-beta").family_eval);
    // An inner alpha-beta's own eval=none holds even though the outer spec says nothing.
    let p = crate::search::pimc::PimcConfig::from_params("k=2,search=alphabeta:depth=2,eval=none").expect("pimc");
    assert!(!p.limits().expect("alpha-beta").family_eval);
    assert!(parse_limits("eval=zoo:no-such-net", 4).is_err());
}
