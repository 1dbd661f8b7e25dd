//! How often the PIMC bot's best root actions tie exactly in mean centipawns, over the decisions
//! of PIMC-against-PIMC games: `pimc` breaks such ties by win share, then by the first legal
//! action (`Analysis::from_stats`, `Rank::Score`), the farm's hybrid PIMC root by the net's prior
//! (experiments/train/hybrid.md, "Jieqi at equal time, with a net-free control").
//!
//! `cargo run --release -p anqi-engine --example pimc_ties -- VARIANT GAMES SPEC`
//! (default `jieqi 4 pimc:ms=50`). Prints, per game and in total: decisions, decisions whose two
//! best mean scores are equal, and those still tied after the win share.
use engine::search;
use engine::variant::game::draw_outcome;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("jieqi");
    let games: u64 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(4);
    let spec = args.get(2).map(String::as_str).unwrap_or("pimc:ms=50");
    let v: &'static Variant = engine::any_game::load_variant(name).expect("variant");
    let (mut all, mut tied, mut still) = (0, 0, 0);
    for i in 0..games {
        let mut bot = search::from_spec::<VariantGameState>(spec, 10 + i).expect("spec");
        let mut chance = Pcg64Mcg::seed_from_u64(1000 + i);
        let mut g = VariantGameState::unbounded(State::start(v, None).expect("start"));
        let (mut n, mut t, mut s2) = (0, 0, 0);
        while g.outcome().is_none() && g.plies() < 200 {
            let an = engine::search::game_bot::analyse_variant(bot.as_mut(), &g);
            if an.stats.len() >= 2 {
                n += 1;
                let (a, b) = (&an.stats[0], &an.stats[1]);
                if a.score == b.score {
                    t += 1;
                    if a.share == b.share {
                        s2 += 1;
                    }
                }
            }
            g.play(an.best, |outs| draw_outcome(outs, &mut chance));
        }
        println!("game {i}: {} plies, {n} decisions, {t} with the best mean score tied, {s2} still tied after the win share", g.plies());
        (all, tied, still) = (all + n, tied + t, still + s2);
    }
    println!("{name} {spec}: {all} decisions, {tied} tied in mean score ({:.1} %), {still} tied after the win share ({:.1} %)", 100.0 * tied as f64 / all.max(1) as f64, 100.0 * still as f64 / all.max(1) as f64);
}
