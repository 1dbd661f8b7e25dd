//! The learned evaluation's file reader (`engine::nnue::Network::from_bytes`, issue #39).
//!
//! 1. The input as a whole file: read or refused with a typed error, never a panic.
//! 2. The input as the seed of a file with a valid hash and arbitrary `i16` weights (extremes
//!    included: a hostile file need not come from the trainer's clipped weights): it loads,
//!    writes back the same bytes, and on positions reached by the input's moves the SIMD and the
//!    reference evaluations agree, and an accumulator updated from the previous position equals
//!    a fresh refresh (the wrapping arithmetic of engine::nnue::simd).
#![no_main]

use engine::geometry::Geometry;
use engine::nnue::{pieces_of, Accumulator, Network, PieceOn, HIDDEN, INPUTS};
use engine::position::Position;
use libfuzzer_sys::fuzz_target;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::Path;

/// FNV-1a 64, the file format's hash (docs/search.md, "The learned evaluation").
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A weight: mostly small, sometimes an extreme of the `i16` range.
fn weight(rng: &mut Pcg64Mcg, wild: u32) -> i16 {
    match rng.random_range(0..100u32) {
        x if x < wild => [i16::MIN, i16::MAX, -1, 1][rng.random_range(0..4)],
        _ => rng.random_range(-300..=300),
    }
}

/// A well-formed file (format version 1) seeded by `data`.
fn file_from(data: &[u8]) -> Vec<u8> {
    let mut rng = Pcg64Mcg::seed_from_u64(fnv(data));
    let wild = data.first().map_or(0, |b| u32::from(*b) % 40);
    let text: String = data.iter().take(40).map(|&c| c as char).filter(char::is_ascii_alphanumeric).collect();
    let meta = format!("variant = \"xiangqi\"\ndescription = \"{text}\"\n");
    let mut b = Vec::new();
    b.extend_from_slice(b"ANQINNUE");
    for v in [1u32, INPUTS as u32, HIDDEN as u32, meta.len() as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(meta.as_bytes());
    for _ in 0..INPUTS * HIDDEN + 3 * HIDDEN {
        b.extend_from_slice(&weight(&mut rng, wild).to_le_bytes());
    }
    b.extend_from_slice(&rng.random::<i32>().to_le_bytes());
    let h = fnv(&b);
    b.extend_from_slice(&h.to_le_bytes());
    b
}

fn diff(a: &[PieceOn], b: &[PieceOn]) -> Vec<PieceOn> {
    a.iter().filter(|p| !b.contains(p)).copied().collect()
}

fuzz_target!(|data: &[u8]| {
    let _ = Network::from_bytes(data, Path::new("fuzz.nnue"));

    let bytes = file_from(data);
    let mut net = Network::from_bytes(&bytes, Path::new("seeded.nnue")).expect("a well-formed file loads");
    assert_eq!(net.to_bytes(), bytes, "written back alike");
    let mut reference = net.clone();
    reference.set_simd(false);
    net.set_simd(true);
    let geom = Geometry::standard();
    let mut pos = Position::start();
    let mut pieces = pieces_of(&pos, Default::default());
    let mut acc = Accumulator::new(&net);
    acc.refresh(&net, geom, &pieces);
    for &b in data.iter().take(60) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[b as usize % moves.len()];
        pos.play(m);
        let next = pieces_of(&pos, Default::default());
        acc.update(&net, geom, &diff(&pieces, &next), &diff(&next, &pieces));
        pieces = next;
        let mut fresh = Accumulator::new(&net);
        fresh.refresh(&reference, geom, &pieces);
        for side in [engine::piece::Color::Red, engine::piece::Color::Black] {
            assert_eq!(acc.half(side), fresh.half(side), "incremental = refresh");
        }
        let stm = pos.turn();
        assert_eq!(net.evaluate(&acc, stm), reference.evaluate_reference(&fresh, stm), "SIMD = reference");
        assert_eq!(net.evaluate(&acc, stm), reference.evaluate(&fresh, stm), "SIMD = portable");
    }
});
