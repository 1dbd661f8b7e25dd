//! The FEN and move parsers of the RULES-more.md games never panic: random edits of valid
//! FENs and move strings give a position or a typed error (docs/notation.md §5).

use engine::more::camel::{fen as cfen, CamelRules};
use engine::more::missile::{fen as mfen, MissilePosition, MissileRules};
use engine::more::skill::game::DEFAULT_TILES;
use engine::more::skill::{fen as sfen, SkillPosition, SkillRules};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn mutate(s: &str, rng: &mut Pcg64Mcg) -> String {
    let mut c: Vec<char> = s.chars().collect();
    let alphabet: Vec<char> = "0123456789abcdefghijkKABNRCPFMJQmnrpq/ -,:@()=.wx".chars().collect();
    for _ in 0..rng.random_range(1..4) {
        if c.is_empty() {
            break;
        }
        let i = rng.random_range(0..c.len());
        match rng.random_range(0..3) {
            0 => {
                c.remove(i);
            }
            1 => c[i] = alphabet[rng.random_range(0..alphabet.len())],
            _ => c.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
        }
    }
    c.into_iter().collect()
}

#[test]
fn fuzz_more_fen_parsers_never_panic() {
    let mut rng = Pcg64Mcg::seed_from_u64(42);
    let m = mfen::write(&MissilePosition::start(MissileRules::default()));
    let s = sfen::write(&SkillPosition::start(SkillRules::default(), DEFAULT_TILES));
    let c = cfen::write(&engine::more::camel::CamelPosition::start(CamelRules::edition(7)));
    let mut ok = [0; 3];
    for _ in 0..20000 {
        let t = mutate(&m, &mut rng);
        if let Ok(p) = mfen::parse(MissileRules::default(), &t) {
            ok[0] += 1;
            let mut v = Vec::new();
            p.legal_moves(&mut v);
        }
        let t = mutate(&s, &mut rng);
        if let Ok(p) = sfen::parse(SkillRules::default(), &t) {
            ok[1] += 1;
            let mut v = Vec::new();
            p.legal_moves(&mut v);
        }
        let t = mutate(&c, &mut rng);
        if let Ok(p) = cfen::parse(CamelRules::edition(7), &t) {
            ok[2] += 1;
            let mut v = Vec::new();
            p.legal_actions(&mut v);
        }
    }
    eprintln!("accepted mutations: {ok:?}");
}

#[test]
fn fuzz_more_move_parsers_never_panic() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let p = MissilePosition::start(MissileRules::default());
    for _ in 0..2000 {
        let t = mutate("b0c2", &mut rng);
        let _ = mfen::parse_move(&p, &t);
        let _ = p.geo().parse(&t);
        let _ = p.geo().parse_prefix(&t);
    }
    assert!(mfen::parse_move(&p, "").is_err());
    assert!(mfen::parse_move(&p, "z9z9").is_err());
    assert!(mfen::parse_move(&p, "a0a12").is_err());
}
