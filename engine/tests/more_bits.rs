//! The bitboard move generators of the RULES-more.md games ([`engine::more::bits`], issue #17)
//! against the mailbox generators they replace in perft: the same legal moves in random
//! playouts under every rule option that changes move generation, and the same perft counts.

use engine::more::missile::bits::MissileBits;
use engine::more::missile::perft::mailbox_perft;
use engine::more::missile::{BaseOutcome, BaseReading, DeadGeneral, FighterBlock, MMove, MissilePosition, MissileRules};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn missile_rule_sets() -> Vec<MissileRules> {
    let base = MissileRules::preset("missile").expect("preset").rules;
    vec![
        base,
        MissileRules { base_outcome: BaseOutcome::Illegal, ..base },
        MissileRules { base_reading: BaseReading::Broad, ..base },
        MissileRules { base_reading: BaseReading::Broad, base_outcome: BaseOutcome::Illegal, ..base },
        MissileRules { dead_general: DeadGeneral::Lenient, ..base },
        MissileRules { fighter_block: FighterBlock::AnyTwoOfThree, ..base },
    ]
}

fn sorted_bits(p: &MissilePosition, hidden: u128, seen: bool) -> Vec<MMove> {
    let mut b = MissileBits::new(p).expect("11x10 fits");
    let h = b.geo().from_mask(hidden);
    let mut v: Vec<MMove> = b.moves(h, seen).into_iter().map(|(f, t)| b.to_mmove(f, t)).collect();
    v.sort();
    v
}

#[test]
fn missile_bitboard_moves_match_mailbox_in_random_playouts() {
    let mut rng = Pcg64Mcg::seed_from_u64(17);
    let mut positions = 0;
    for rules in missile_rule_sets() {
        for _game in 0..12 {
            let mut p = MissilePosition::start(rules);
            for _ply in 0..160 {
                let mut legal = Vec::new();
                p.legal_moves(&mut legal);
                let mut want = legal.clone();
                want.sort();
                assert_eq!(sorted_bits(&p, 0, false), want, "{}", engine::more::missile::fen::write(&p));
                // A random face-down set (generals always face up, §3.8 [R]).
                let mut hidden = 0u128;
                for (s, pc) in p.board().pieces() {
                    if pc.kind != engine::more::piece::Kind::General && rng.random_bool(0.3) {
                        hidden |= 1 << s;
                    }
                }
                let mut seen = Vec::new();
                p.legal_moves_seen(hidden, &mut seen);
                seen.sort();
                assert_eq!(sorted_bits(&p, hidden, true), seen, "seen {hidden:x} {}", engine::more::missile::fen::write(&p));
                positions += 1;
                // Mostly captures-first random play, to reach sparse boards and odd effects.
                let mut pseudo = Vec::new();
                p.pseudo_moves(p.turn(), &mut pseudo);
                let pool = if legal.is_empty() || rng.random_bool(0.2) { pseudo } else { legal };
                if pool.is_empty() {
                    break;
                }
                let m = pool[rng.random_range(0..pool.len())];
                p.play_unchecked(m);
                if p.general(engine::piece::Color::Red).is_none() || p.general(engine::piece::Color::Black).is_none() {
                    break;
                }
            }
        }
    }
    assert!(positions > 3000, "{positions}");
}

#[test]
fn missile_bitboard_perft_matches_mailbox_from_random_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    for rules in missile_rule_sets() {
        let mut p = MissilePosition::start(rules);
        for _ in 0..40 {
            let mut legal = Vec::new();
            p.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            p.play_unchecked(legal[rng.random_range(0..legal.len())]);
        }
        let want = mailbox_perft(&p, 0, false, 3);
        assert_eq!(engine::more::missile::perft::perft(&p, 3), want);
        let hidden = p.board().pieces().filter(|(_, pc)| pc.kind == engine::more::piece::Kind::Horse || pc.kind == engine::more::piece::Kind::Chariot).fold(0u128, |m, (s, _)| m | 1 << s);
        assert_eq!(engine::more::missile::perft::perft_seen(&p, hidden, 3), mailbox_perft(&p, hidden, true, 3));
    }
}

/// The counts `anqi perft --bench --variant all` reports for the missile presets (start array,
/// depth 4; the face-down presets count the moves each side sees as legal, §3.8 [R]), checked
/// against the mailbox walk when the bitboard generator came in.
#[test]
fn missile_presets_bench_counts() {
    for name in engine::more::missile::rules::PRESETS {
        let (_, n) = engine::more::presets::perft(name, None, 4, false).expect("perft");
        assert_eq!(n, 13_726_490, "{name}");
    }
}
