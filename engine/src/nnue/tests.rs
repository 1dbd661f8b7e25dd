//! Tests of the learned evaluation: file round trip and refusals, SIMD = portable = reference,
//! float vs quantized.

use super::*;
use crate::geometry::Geometry;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A random float net with weights of the magnitudes training produces.
pub(crate) fn random_net(seed: u64) -> FloatNet {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut f = FloatNet::zeros();
    for w in &mut f.ft_weight {
        *w = rng.random_range(-0.08..0.08);
    }
    for w in &mut f.ft_bias {
        *w = rng.random_range(0.0..0.5);
    }
    for w in &mut f.out_weight {
        *w = rng.random_range(-1.5..1.5);
    }
    f.out_bias = 0.03;
    f
}

/// Positions reached by random moves from the xiangqi start.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut pos = Position::start();
    while out.len() < n {
        let moves = pos.legal_moves();
        if moves.len() == 0 || pos.halfmove() > 60 {
            pos = Position::start();
            continue;
        }
        let m = moves.as_slice()[rng.random_range(0..moves.len())];
        pos.play(m);
        out.push(pos.clone());
    }
    out
}

#[test]
fn nnue_file_round_trip_keeps_bytes_and_hash() {
    let net = Network::quantize(&random_net(1), NetMeta { variant: "xiangqi".into(), description: "test".into() });
    let dir = std::env::temp_dir().join(format!("anqi-nnue-{}", std::process::id()));
    let path = dir.join("net.nnue");
    net.save(&path).expect("save");
    let back = Network::load(&path).expect("load");
    assert_eq!(back.hash(), net.hash());
    assert_eq!(back.to_bytes(), net.to_bytes());
    assert_eq!(back.meta().variant, "xiangqi");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nnue_file_refuses_damage_truncation_version_and_magic() {
    let net = Network::quantize(&random_net(2), NetMeta::default());
    let p = std::path::Path::new("x.nnue");
    let good = net.to_bytes();
    let mut bad = good.clone();
    bad[1000] ^= 1;
    assert!(matches!(Network::from_bytes(&bad, p), Err(NnueError::Hash { .. })));
    assert!(matches!(Network::from_bytes(&good[..good.len() - 3], p), Err(NnueError::Length { .. })));
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(Network::from_bytes(&longer, p), Err(NnueError::Length { .. })));
    let mut v = good.clone();
    v[8] = 9;
    assert!(matches!(Network::from_bytes(&v, p), Err(NnueError::Version { found: 9, .. })));
    assert!(matches!(Network::from_bytes(b"ANQISHRD", p), Err(NnueError::Magic { .. })));
    assert!(matches!(Network::from_bytes(&good[..30], p), Err(NnueError::Length { .. }) | Err(NnueError::Meta { .. })));
    let msg = Network::from_bytes(&bad, p).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("x.nnue") && msg.contains("hash mismatch"), "{msg}");
}

#[test]
fn nnue_simd_portable_and_reference_agree_bit_for_bit() {
    let geom = Geometry::standard();
    for seed in 0..4 {
        let mut simd = Network::quantize(&random_net(seed), NetMeta::default());
        simd.set_simd(true);
        let mut portable = simd.clone();
        portable.set_simd(false);
        for pos in random_positions(200, seed) {
            let pieces = pieces_of(&pos, crate::bitboard::Bitboard::EMPTY);
            let mut a = Accumulator::new(&simd);
            a.refresh(&simd, geom, &pieces);
            let mut b = Accumulator::new(&portable);
            b.refresh(&portable, geom, &pieces);
            assert_eq!(a, b);
            for stm in Color::ALL {
                let r = simd.evaluate_reference(&a, stm);
                assert_eq!(simd.evaluate(&a, stm), r);
                assert_eq!(portable.evaluate(&b, stm), r);
            }
        }
    }
}

#[test]
fn nnue_quantized_is_close_to_float() {
    let geom = Geometry::standard();
    let f = random_net(5);
    let net = Network::quantize(&f, NetMeta::default());
    let (mut worst, mut total, mut n) = (0.0f32, 0.0f32, 0.0f32);
    for pos in random_positions(300, 9) {
        let pieces = pieces_of(&pos, crate::bitboard::Bitboard::EMPTY);
        let fe = f.evaluate(geom, &pieces, pos.turn());
        let qe = net.evaluate_pieces(geom, &pieces, pos.turn()) as f32;
        worst = worst.max((fe - qe).abs());
        total += (fe - qe).abs();
        n += 1.0;
    }
    // Rounding the weights to 1/255 and 1/64 moves the scores of this random net (256 output
    // terms of random sign) by about ten centipawns.
    let mean = total / n;
    assert!(mean < 20.0 && worst < 80.0, "float-vs-quantized difference: mean {mean} cp, worst {worst} cp");
}

#[test]
fn nnue_feature_map_mirrors_ranks_and_separates_kinds() {
    let geom = Geometry::standard();
    let pos = Position::start();
    let mut seen = std::collections::HashSet::new();
    for p in pieces_of(&pos, crate::bitboard::Bitboard::EMPTY) {
        let r = feature(geom, Color::Red, p);
        let b = feature(geom, Color::Black, p);
        assert!(r < INPUTS && b < INPUTS);
        assert!(seen.insert((r, Color::Red)) && seen.insert((b, Color::Black)));
        // The start position is symmetric: every piece of Red seen by Red has Black's mirror
        // piece seen by Black at the same index.
        let mirror = Square::new(p.sq.file(), 9 - p.sq.rank()).expect("square");
        let q = PieceOn { sq: mirror, piece: Piece { color: p.piece.color.opponent(), role: p.piece.role }, face_down: false };
        assert_eq!(feature(geom, Color::Black, q), r);
        let down = PieceOn { face_down: true, ..p };
        assert_ne!(feature(geom, Color::Red, down), r);
    }
}
