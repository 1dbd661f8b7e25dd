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

#[test]
fn fuzz_face_down_fens_and_views_never_panic() {
    // RULES-more.md §3.8 alternative reading: the full FEN with its `down` field and a view with
    // `X`/`x` markers and a `pool` field (docs/notation.md §5.1), randomly edited.
    use engine::game::Game;
    use engine::more::missile::MissileGame;
    use engine::piece::Color;
    let preset = MissileRules::preset("missile-hidden-centre-down").expect("preset");
    let mut g = MissileGame::new(preset);
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    while g.in_setup() {
        let l = g.legal_actions();
        g.apply(l[rng.random_range(0..l.len())]);
    }
    let texts = [g.fen(), g.view_fen(Color::Red), g.view_fen(Color::Black)];
    let mut ok = 0;
    for i in 0..6000 {
        let t = mutate(&texts[i % 3], &mut rng);
        for back in [MissileGame::from_view(preset, &t), MissileGame::from_fen(preset, &t)].into_iter().flatten() {
            ok += 1;
            let _ = back.legal_actions();
            let _ = (back.view_fen(Color::Red), back.view_fen(Color::Black), back.fen());
        }
    }
    eprintln!("accepted face-down mutations: {ok}");
}
