//! Tournaments end to end: greedy beats random; PGN records replay exactly; a killed tournament
//! resumes without losing or repeating games (and ends with the same games as an uninterrupted
//! run); paired games share their hidden set-up; external UCI engines (our own `anqi uci`, and
//! Pikafish when it is built and can search) play through the UCI client, each in its dialect
//! (fake engines named Fairy-Stockfish and Pikafish check the ranks 1-10 and the Jieqi pool order on
//! the wire; a real Fairy-Stockfish when `FAIRY_STOCKFISH` names one); the RULES-more.md
//! presets (missile, skill, camel) run through the same runner with their own bots, record,
//! replay and resume alike, and refuse UCI players.

use selfplay::tournament::game::{self, Setup};
use selfplay::tournament::pgn::{self, Record};
use selfplay::tournament::players::SeatError;
use selfplay::tournament::{self, Config, GameSpec, Options};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A variant record replayed (its entries carry the chance outcomes): the moves from the set-up
/// with its deal, each checked to be written identically.
fn replay_variant(v: &'static engine::variant::Variant, setup: &Setup, moves: &[String]) -> Vec<engine::variant::game::Ply> {
    use rand::SeedableRng;
    let start = setup.state(v).expect("set-up state");
    let deal = setup.deal(&start);
    let mut chance_rng = rand_pcg::Pcg64Mcg::seed_from_u64(setup.seed ^ engine::seeded::CHANCE_SALT);
    let mut game = engine::variant::game_state::VariantGameState::unbounded(start);
    let mut plies = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let a = engine::variant::notation::parse_action(game.state(), m).unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
        let ply = game.play_recorded(a, |outs| deal.resolve(a, outs, &mut chance_rng));
        assert_eq!(&ply.text, m, "ply {}", i + 1);
        plies.push(ply);
    }
    plies
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anqi-tournament-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn config(text: &str) -> Config {
    Config::parse(text, "test.toml").expect("valid config")
}

fn quiet(pgn: &Path) -> Options {
    Options { progress: false, pgn: Some(pgn.to_path_buf()), concurrency: None, max_new_games: None, cluster: None }
}

fn records(pgn: &Path) -> Vec<Record> {
    let (rs, torn) = pgn::parse(&std::fs::read_to_string(pgn).expect("pgn"));
    assert!(!torn, "torn record in {}", pgn.display());
    rs
}

/// Every record replays from its set-up to the same moves (reveal letters included) and, unless
/// adjudicated or forfeited, to the same ending. Variants and RULES-more.md presets alike.
fn check_replays(rs: &[Record]) {
    for r in rs {
        let rules = GameSpec::load(&r.variant).expect("variant");
        let end = rules.replay(&r.setup, &r.moves).unwrap_or_else(|e| panic!("{:?}: {e:#}", r.key));
        if r.outcome.reason != "ply limit" && !r.outcome.reason.starts_with("forfeit") {
            let end = end.unwrap_or_else(|| panic!("{:?}: replay does not end", r.key));
            assert_eq!(end.winner, r.outcome.winner, "{:?}", r.key);
            assert_eq!(end.reason, r.outcome.reason, "{:?}", r.key);
        } else if r.outcome.reason == "ply limit" {
            assert!(end.is_none(), "{:?}: adjudicated, but the rules end it: {end:?}", r.key);
        }
    }
}

#[test]
fn greedy_beats_random() {
    let cfg = config(
        r#"
name = "gr"
variant = "xiangqi"
pairs = 10
max_plies = 400
[[player]]
spec = "greedy"
[[player]]
spec = "random"
"#,
    );
    let pgn = tmp("gr.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
    assert_eq!(s.games, 20);
    let g = s.table[0][1];
    assert!(g.points() >= 15.0, "greedy scored {g:?}");
    let text = s.render();
    assert!(text.contains("greedy") && text.contains("Elo"), "{text}");
    let rs = records(&pgn);
    assert_eq!(rs.len(), 20);
    check_replays(&rs);
}

#[test]
fn sprt_stops_the_match() {
    let cfg = config(
        r#"
name = "sprt"
pairs = 100
[[player]]
spec = "greedy"
[[player]]
spec = "random"
[sprt]
elo0 = 0
elo1 = 200
"#,
    );
    let pgn = tmp("sprt.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
    let (llr, _, hi, v) = s.sprt.expect("sprt");
    assert_eq!(v, tournament::sprt::Verdict::AcceptH1, "llr {llr}");
    assert!(llr >= hi);
    assert!(s.games < 200, "stopped early, after {} games", s.games);
    // A rerun finds the verdict in the PGN and plays nothing.
    let again = tournament::run(&cfg, &quiet(&pgn)).expect("reruns");
    assert_eq!(again.played_now, 0);
    assert_eq!(again.games, s.games);
}

const KILLED: &str = r#"
name = "resume"
variant = "jieqi"
pairs = 5
concurrency = 2
seed = 3
max_plies = 300
[[player]]
spec = "greedy"
[[player]]
spec = "random"
[[player]]
spec = "alphabeta"
depth = 1
"#;

#[test]
fn killed_tournament_resumes_without_loss_or_repeat() {
    let cfg = config(KILLED);
    // Reference: one uninterrupted run.
    let full_pgn = tmp("full.pgn");
    let full = tournament::run(&cfg, &quiet(&full_pgn)).expect("full run");
    assert_eq!(full.games, 30);
    // Killed after 7 games, with the last record torn in half.
    let pgn = tmp("killed.pgn");
    let first = tournament::run(&cfg, &Options { max_new_games: Some(7), ..quiet(&pgn) }).expect("first part");
    assert_eq!(first.played_now, 7);
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    let cut = text.len() - text.trim_end().rsplit("\n\n").next().expect("last record").len() / 2;
    std::fs::write(&pgn, &text[..cut]).expect("truncate");
    assert_eq!(pgn::parse(&text[..cut]).0.len(), 6);
    // Restarted with the same command.
    let second = tournament::run(&cfg, &quiet(&pgn)).expect("resumed");
    assert_eq!(second.resumed, 6);
    assert_eq!(second.played_now, 24);
    assert_eq!(second.games, 30);
    let rs = records(&pgn);
    let keys: BTreeSet<_> = rs.iter().map(|r| r.key).collect();
    assert_eq!(keys.len(), rs.len(), "no game twice");
    assert_eq!(rs.len(), 30, "no game lost");
    // The same games as the uninterrupted run.
    let mut a: Vec<_> = records(&full_pgn).into_iter().map(|r| (r.key, r.moves, r.outcome)).collect();
    let mut b: Vec<_> = rs.iter().cloned().map(|r| (r.key, r.moves, r.outcome)).collect();
    a.sort_by_key(|x| x.0);
    b.sort_by_key(|x| x.0);
    assert_eq!(a, b);
    assert_eq!(full.table, second.table);
    check_replays(&rs);
    // A different configuration refuses to append to this PGN.
    let other = config(&KILLED.replace("seed = 3", "seed = 4"));
    let e = tournament::run(&other, &quiet(&pgn)).expect_err("other tournament");
    assert!(format!("{e:#}").contains("another tournament"), "{e:#}");
}

#[test]
fn pairs_share_the_hidden_setup() {
    for variant in ["surprise", "jieqi", "fanqi-9"] {
        let cfg = config(&format!(
            "name = \"pairs-{variant}\"\nvariant = \"{variant}\"\npairs = 3\nmax_plies = 200\n[[player]]\nspec = \"greedy\"\n[[player]]\nspec = \"random\"\n"
        ));
        let pgn = tmp(&format!("pairs-{variant}.pgn"));
        tournament::run(&cfg, &quiet(&pgn)).expect("runs");
        let rs = records(&pgn);
        assert_eq!(rs.len(), 6);
        let setups: BTreeSet<(String, u64)> = rs.iter().map(|r| (r.setup.fen.clone(), r.setup.seed)).collect();
        assert_eq!(setups.len(), 3, "{variant}: one set-up per pair");
        for r in &rs {
            let twin = rs.iter().find(|o| o.key.pair == r.key.pair && o.key.game != r.key.game).expect("twin");
            assert_eq!(r.setup, twin.setup);
            assert_eq!((r.red.as_str(), r.black.as_str()), (twin.black.as_str(), twin.red.as_str()), "colours swapped");
        }
        check_replays(&rs);
    }
}

#[test]
fn random_deal_reveals_the_dealt_types() {
    // In Jieqi every first reveal from a given start point shows the same type in both games of a
    // pair: the dealt one.
    let v = selfplay::cli::variant_arg::load("jieqi").expect("jieqi");
    let jieqi = GameSpec::load("jieqi").expect("jieqi");
    let setup = jieqi.setup(99).expect("setup");
    assert_eq!(setup, Setup::generate(v, 99).expect("setup"));
    let mut seen = std::collections::HashMap::new();
    for bot_seed in 0..6u64 {
        let random = game::PlayerKind::Bot("random".into());
        let p = jieqi.play(&setup, game::Rules { max_plies: 40, opening_plies: 0 }, &random, &random, (bot_seed, bot_seed + 100)).expect("plays");
        let g = replay_variant(v, &setup, &p.moves);
        let start_down = setup.state(v).expect("state").face_down();
        for ply in &g {
            if let (engine::variant::Action::Move { from, .. }, Some(o)) = (ply.action, ply.chance) {
                if let Some(r) = o.mover {
                    if start_down.contains(from) {
                        let prev = seen.insert(from, r);
                        assert!(prev.is_none() || prev == Some(r), "{from}: {prev:?} then {r:?}");
                    }
                }
            }
        }
    }
    assert!(!seen.is_empty());
}

fn anqi_bin() -> String {
    env!("CARGO_BIN_EXE_anqi").to_string()
}

#[test]
fn uci_engine_plays_through_the_client() {
    for variant in ["xiangqi", "jieqi"] {
        let cfg = config(&format!(
            "name = \"uci-{variant}\"\nvariant = \"{variant}\"\npairs = 2\nmax_plies = 160\n\
             [[player]]\nname = \"anqi-uci\"\nspec = \"uci:{} uci\"\ndepth = 2\noptions = {{ Hash = \"4\" }}\n\
             [[player]]\nspec = \"random\"\n",
            anqi_bin()
        ));
        let pgn = tmp(&format!("uci-{variant}.pgn"));
        let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
        assert_eq!(s.games, 4);
        assert!(!s.reasons.contains_key("forfeit"), "{variant}: {:?}\n{}", s.reasons, std::fs::read_to_string(&pgn).unwrap_or_default());
        assert!(s.table[0][1].points() > 2.0, "{variant}: depth-2 search against random: {:?}", s.table[0][1]);
        check_replays(&records(&pgn));
    }
}

#[test]
fn broken_uci_engines_are_forfeits_not_hangs() {
    let t = std::time::Instant::now();
    // An engine that exits at once: the handshake fails, and its games are forfeits naming it.
    let cfg = config("name = \"bad-uci\"\npairs = 1\n[[player]]\nspec = \"uci:/bin/true\"\nmovetime_ms = 10\n[[player]]\nspec = \"random\"\n");
    let pgn = tmp("bad-uci.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).expect("forfeits are results");
    assert_eq!((s.games, s.reasons.get("forfeit"), s.table[1][0].w), (2, Some(&2), 2), "{:?}", s.reasons);
    let rs = records(&pgn);
    // Depending on timing: the write of `uci` fails (broken pipe) or the wait for `uciok` does.
    assert!(rs.iter().all(|r| r.outcome.reason.contains("UCI engine \"/bin/true\" exited")), "{:?}", rs[0].outcome);
    // An engine that completes the handshake but never answers `go`: a forfeit after timeout_ms.
    let script = tmp("silent-engine.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; quit) exit 0;; esac; done\n",
    )
    .expect("script");
    let cfg = config(&format!(
        "name = \"silent-uci\"\npairs = 1\n[[player]]\nspec = \"uci:/bin/sh {}\"\nmovetime_ms = 10\ntimeout_ms = 300\n[[player]]\nspec = \"random\"\n",
        script.display()
    ));
    let pgn = tmp("silent-uci.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).expect("forfeits are results");
    assert_eq!(s.reasons.get("forfeit"), Some(&2));
    assert_eq!(s.table[1][0].w, 2);
    let rs = records(&pgn);
    assert!(rs.iter().all(|r| r.outcome.reason.contains("no bestmove in time")), "{:?}", rs[0].outcome);
    assert!(t.elapsed().as_secs() < 20);
}

/// A UCI engine script for `anqi tournament` runs: `exit-after-uciok` answers the handshake's
/// `uci` and exits; `dies-mid-game` is `anqi uci` until its first `go`, then exits.
fn dying_engine(kind: &str) -> PathBuf {
    let script = tmp(&format!("{kind}.sh"));
    let body = match kind {
        "exit-after-uciok" => "#!/bin/sh\nread l\necho 'id name exits-after-uciok'\necho uciok\nexit 0\n".to_string(),
        _ => format!(
            "#!/bin/sh\nwhile read -r l; do case \"$l\" in uci) echo 'id name dies-mid-game'; echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done\n"
        ),
    };
    std::fs::write(&script, body).expect("script");
    script
}

/// `anqi tournament` (whose `main` restores SIGPIPE's default action) with an engine that exits:
/// before issue #39 the process died of SIGPIPE (status 141) with an empty PGN; now the engine's
/// games are forfeits naming it and the tournament ends normally.
#[test]
fn tournament_command_survives_an_engine_that_exits() {
    for spec in ["/bin/true".to_string(), format!("/bin/sh {}", dying_engine("exit-after-uciok").display()), format!("/bin/sh {}", dying_engine("dies-mid-game").display())] {
        let cfg = tmp("dying.toml");
        let pgn = tmp("dying.pgn");
        std::fs::write(&cfg, format!("name = \"dying\"\npairs = 2\nconcurrency = 1\npgn = {:?}\n[[player]]\nspec = \"uci:{spec}\"\nmovetime_ms = 10\n[[player]]\nspec = \"random\"\n", pgn.display().to_string()))
            .expect("config");
        let out = std::process::Command::new(anqi_bin()).args(["tournament", "--quiet", "--config"]).arg(&cfg).output().expect("run anqi");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{spec}: {:?}\n{err}", out.status);
        let rs = records(&pgn);
        assert_eq!(rs.len(), 4, "{spec}");
        assert!(rs.iter().all(|r| r.outcome.reason.starts_with("forfeit: UCI engine") && r.outcome.winner.is_some()), "{spec}: {:?}", rs[0].outcome);
        assert!(err.contains("forfeits: UCI engine"), "{spec}: the forfeits are reported\n{err}");
    }
}

/// `engine_restart`: `game` (the default) starts a fresh process for every game, `never` keeps
/// one per player and worker for the whole run.
#[test]
fn engine_restart_decides_how_many_processes_start() {
    for (restart, starts) in [("", 4), ("engine_restart = \"game\"\n", 4), ("engine_restart = \"never\"\n", 1)] {
        let log = tmp("starts.log");
        let _ = std::fs::remove_file(&log);
        let script = tmp("counted.sh");
        std::fs::write(&script, format!("#!/bin/sh\necho start >> {}\nexec {} uci\n", log.display(), anqi_bin())).expect("script");
        let cfg = config(&format!(
            "name = \"restart\"\npairs = 2\nconcurrency = 1\nmax_plies = 20\n{restart}[[player]]\nspec = \"uci:/bin/sh {}\"\ndepth = 1\n[[player]]\nspec = \"random\"\n",
            script.display()
        ));
        let pgn = tmp("restart.pgn");
        let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
        assert_eq!(s.games, 4);
        assert!(!s.reasons.contains_key("forfeit"), "{restart}: {:?}", s.reasons);
        assert_eq!(logged(&log).len(), starts, "{restart:?}: engine processes started");
        check_replays(&records(&pgn));
    }
}

#[test]
fn pikafish_if_it_can_search() {
    let bin = "/work/peers/pikafish/src/pikafish";
    if !Path::new(bin).exists() {
        eprintln!("skipped: {bin} not built");
        return;
    }
    let cfg = config(&format!(
        "name = \"pikafish\"\npairs = 1\nmax_plies = 100\n[[player]]\nspec = \"uci:{bin}\"\nmovetime_ms = 50\n[[player]]\nspec = \"greedy\"\n"
    ));
    let pgn = tmp("pikafish.pgn");
    match tournament::run(&cfg, &quiet(&pgn)) {
        Ok(s) if !s.reasons.contains_key("forfeit") => {
            assert_eq!(s.games, 2);
            check_replays(&records(&pgn));
        }
        Ok(s) => eprintln!("skipped: Pikafish forfeits (no NNUE net?): {:?}", s.reasons),
        Err(e) => eprintln!("skipped: Pikafish cannot play here: {e:#}"),
    }
}

/// A fake UCI engine: `sh <script> <log> <first> <second> <id name…>` logs every line it gets to
/// `<log>`, announces `id name <id name…>` and a `UCI_Variant` combo (chess, xiangqi, jieqi), and
/// answers `go` with `<first>` when the position has no moves yet, else `<second>`.
fn fake_engine(tag: &str) -> PathBuf {
    let script = tmp(&format!("fake-{tag}.sh"));
    std::fs::write(
        &script,
        r#"#!/bin/sh
log="$1"; first="$2"; second="$3"; shift 3
n=0
while read -r l; do
  echo "$l" >> "$log"
  case "$l" in
    uci) echo "id name $*"; echo "option name UCI_Variant type combo default chess var chess var xiangqi var jieqi"; echo uciok;;
    isready) echo readyok;;
    "position "*) n=$(echo "$l" | awk '{ i = 0; for (k = 1; k <= NF; k++) if ($k == "moves") i = k; print (i ? NF - i : 0) }');;
    go*) if [ "$n" = 0 ]; then echo "bestmove $first ponder a1a2"; else echo "bestmove $second"; fi;;
    quit) exit 0;;
  esac
done
"#,
    )
    .expect("script");
    script
}

/// Lines the fake engine logged.
fn logged(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_string).collect()
}

/// Anqi's rank-0 square text shifted to Fairy-Stockfish's ranks (for checking the log).
fn fsf_move(anqi: &str) -> String {
    let b = anqi.as_bytes();
    let r1 = (b[1] - b'0') as u32 + 1;
    let r2 = (b[3] - b'0') as u32 + 1;
    format!("{}{r1}{}{r2}{}", b[0] as char, b[2] as char, &anqi[4..])
}

#[test]
fn fairy_stockfish_dialect_detected_from_id_name_shifts_ranks_both_ways() {
    // Fairy-Stockfish counts ranks 1-10: it plays h3e3 (anqi's h2e2) as Red, a10a9 (anqi's
    // a9a8, legal after any first move of Red's) as Black; max_plies 2 ends each game there.
    let script = fake_engine("fsf");
    let log = tmp("fake-fsf.log");
    let cfg = config(&format!(
        "name = \"fake-fsf\"\npairs = 2\nmax_plies = 2\nconcurrency = 1\n\
         [[player]]\nname = \"fsf\"\nspec = \"uci:/bin/sh {} {} h3e3 a10a9 Fairy-Stockfish 011226 LB\"\nmovetime_ms = 10\n\
         [[player]]\nspec = \"random\"\n",
        script.display(),
        log.display()
    ));
    let pgn = tmp("fake-fsf.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
    assert_eq!(s.games, 4);
    assert_eq!(s.reasons.get("ply limit"), Some(&4), "{:?}\n{}", s.reasons, std::fs::read_to_string(&pgn).unwrap_or_default());
    let rs = records(&pgn);
    check_replays(&rs);
    let lines = logged(&log);
    // Fairy-Stockfish starts in chess, so xiangqi is selected too.
    assert!(lines.iter().any(|l| l == "setoption name UCI_Variant value xiangqi"), "{lines:?}");
    let start = "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for r in &rs {
        assert_eq!(r.moves.len(), 2, "{:?}", r.key);
        if r.red == "fsf" {
            assert_eq!(r.moves[0], "h2e2", "{:?}", r.key);
        } else {
            // Random's move went out shifted; the answer came back shifted down.
            assert_eq!(r.moves[1], "a9a8", "{:?}", r.key);
            let sent = format!("{start} moves {}", fsf_move(&r.moves[0]));
            assert!(lines.contains(&sent), "{sent:?} not in {lines:?}");
        }
    }
    assert!(lines.iter().any(|l| l == start), "{lines:?}");
}

#[test]
fn configured_dialect_overrides_detection_and_an_unknown_engine_speaks_anqi() {
    // The same engine under another name: detected as anqi's dialect, its h3e3 (an empty point
    // in anqi's ranks) is illegal, a forfeit; with `dialect = "fairy-stockfish"` it plays.
    let script = fake_engine("mystery");
    let log = tmp("fake-mystery.log");
    let text = |dialect: &str| {
        format!(
            "name = \"fake-mystery\"\npairs = 1\nmax_plies = 2\nconcurrency = 1\n\
             [[player]]\nname = \"mystery\"\nspec = \"uci:/bin/sh {} {} h3e3 a10a9 Mystery 1.0\"\nmovetime_ms = 10\n{dialect}\
             [[player]]\nspec = \"random\"\n",
            script.display(),
            log.display()
        )
    };
    let pgn = tmp("fake-mystery.pgn");
    let s = tournament::run(&config(&text("")), &quiet(&pgn)).expect("runs");
    assert_eq!(s.reasons.get("forfeit"), Some(&2), "{:?}", s.reasons);
    let rs = records(&pgn);
    // As Red its h3e3 is refused; as Black its a10a9 (rank 10) too.
    assert!(
        rs.iter().all(|r| r.outcome.reason.contains("engine move \"h3e3\"") || r.outcome.reason.contains("engine move \"a10a9\"")),
        "{:?}",
        rs.iter().map(|r| &r.outcome).collect::<Vec<_>>()
    );
    assert!(!logged(&log).iter().any(|l| l.contains("UCI_Variant")), "xiangqi is the default of an anqi-dialect engine");
    let pgn = tmp("fake-mystery-fsf.pgn");
    let s = tournament::run(&config(&text("dialect = \"fairy-stockfish\"\n")), &quiet(&pgn)).expect("runs");
    assert_eq!(s.reasons.get("ply limit"), Some(&2), "{:?}\n{}", s.reasons, std::fs::read_to_string(&pgn).unwrap_or_default());
    check_replays(&records(&pgn));
}

#[test]
fn jieqi_goes_to_a_pikafish_dialect_engine_in_its_pool_order() {
    let script = fake_engine("pikafish");
    let log = tmp("fake-pikafish.log");
    let cfg = config(&format!(
        "name = \"fake-pikafish\"\nvariant = \"jieqi\"\npairs = 1\nmax_plies = 2\nconcurrency = 1\n\
         [[player]]\nname = \"pika\"\nspec = \"uci:/bin/sh {} {} h2e2 a9a8 Pikafish 2026-01-02\"\nmovetime_ms = 10\n\
         [[player]]\nspec = \"random\"\n",
        script.display(),
        log.display()
    ));
    let pgn = tmp("fake-pikafish.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
    assert_eq!(s.reasons.get("ply limit"), Some(&2), "{:?}\n{}", s.reasons, std::fs::read_to_string(&pgn).unwrap_or_default());
    let rs = records(&pgn);
    check_replays(&rs);
    // The records keep anqi's canonical pool order; the engine got Pikafish's R A C P N B.
    assert!(rs.iter().all(|r| r.setup.fen.contains(" A2B2N2R2C2P5a2b2n2r2c2p5 ")), "{:?}", rs[0].setup.fen);
    let positions: Vec<String> = logged(&log).into_iter().filter(|l| l.starts_with("position ")).collect();
    assert_eq!(positions.len(), 2, "{positions:?}");
    let board = "position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";
    assert!(positions.iter().all(|p| p.starts_with(board)), "{positions:?}");
    assert!(logged(&log).iter().any(|l| l == "setoption name UCI_Variant value jieqi"));
}

#[test]
fn unset_environment_variable_in_a_uci_spec_is_named() {
    let cfg = config(
        "name = \"env\"\npairs = 1\n[[player]]\nname = \"fsf\"\nspec = \"uci:${ANQI_TEST_SURELY_UNSET_ENGINE}\"\nmovetime_ms = 10\n\
         [[player]]\nspec = \"random\"\n",
    );
    let e = tournament::run(&cfg, &quiet(&tmp("env.pgn"))).expect_err("unset variable");
    let msg = format!("{e:#}");
    assert!(msg.contains("player \"fsf\"") && msg.contains("environment variable ANQI_TEST_SURELY_UNSET_ENGINE is not set"), "{msg}");
}

#[test]
fn fairy_stockfish_if_built() {
    // A real Fairy-Stockfish (built with largeboards=yes, experiments/perf/PEERS.md), named by
    // FAIRY_STOCKFISH or at the PEERS.md path.
    let bin = std::env::var("FAIRY_STOCKFISH").unwrap_or_else(|_| "/work/peers/fairy/src/stockfish".into());
    if !Path::new(&bin).exists() {
        eprintln!("skipped: no Fairy-Stockfish at {bin:?} (set FAIRY_STOCKFISH)");
        return;
    }
    let cfg = config(&format!(
        "name = \"fairy-stockfish\"\npairs = 1\nmax_plies = 60\nconcurrency = 1\n[[player]]\nspec = \"uci:{bin}\"\nmovetime_ms = 20\n[[player]]\nspec = \"greedy\"\n"
    ));
    let pgn = tmp("fairy-stockfish.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(s.games, 2);
    assert!(!s.reasons.contains_key("forfeit"), "{:?}\n{}", s.reasons, std::fs::read_to_string(&pgn).unwrap_or_default());
    check_replays(&records(&pgn));
}

const MISSILE: &str = r#"
name = "missile-gr"
variant = "missile"
pairs = 2
seed = 5
max_plies = 300
[[player]]
spec = "greedy"
[[player]]
spec = "random"
"#;

#[test]
fn missile_tournament_records_replays_and_resumes() {
    let cfg = config(MISSILE);
    let full_pgn = tmp("missile-full.pgn");
    let full = tournament::run(&cfg, &quiet(&full_pgn)).expect("runs");
    assert_eq!((full.games, full.played_now, full.variant.as_str()), (4, 4, "missile"));
    assert!(full.table[0][1].points() > full.table[1][0].points(), "greedy against random: {:?}", full.table[0][1]);
    assert!(full.render().contains("Tournament missile-gr (missile): 4 games"), "{}", full.render());
    let rs = records(&full_pgn);
    assert_eq!(rs.len(), 4);
    for r in &rs {
        assert_eq!(r.variant, "missile");
        assert!(!r.moves.is_empty() && r.setup.fen.split_whitespace().count() >= 4, "{r:?}");
    }
    check_replays(&rs);
    // A rerun finds every game in the PGN and plays none.
    let again = tournament::run(&cfg, &quiet(&full_pgn)).expect("reruns");
    assert_eq!((again.resumed, again.played_now, again.games), (4, 0, 4));
    assert_eq!(records(&full_pgn).len(), 4);
    // Killed after one game: the rest is played on restart, without repeats, and the games are
    // those of the uninterrupted run.
    let pgn = tmp("missile-killed.pgn");
    let first = tournament::run(&cfg, &Options { max_new_games: Some(1), ..quiet(&pgn) }).expect("first part");
    assert_eq!(first.played_now, 1);
    let second = tournament::run(&cfg, &quiet(&pgn)).expect("resumed");
    assert_eq!((second.resumed, second.played_now, second.games), (1, 3, 4));
    let mut a: Vec<_> = rs.into_iter().map(|r| (r.key, r.setup, r.moves, r.outcome)).collect();
    let mut b: Vec<_> = records(&pgn).into_iter().map(|r| (r.key, r.setup, r.moves, r.outcome)).collect();
    a.sort_by_key(|x| x.0);
    b.sort_by_key(|x| x.0);
    assert_eq!(a, b);
    assert_eq!(full.table, second.table);
}

#[test]
fn presets_play_every_bot_kind_from_shared_setups() {
    // A hidden missile set-up, a secret tile set-up and a camel edition with plate actions; the
    // search bots with small budgets; short games.
    for variant in [
        "missile-hidden-centre",
        "skill-secret",
        "camel-3",
        "camel-7-secret",
    ] {
        let cfg = config(&format!(
            "name = \"bots-{variant}\"\nvariant = \"{variant}\"\npairs = 2\nmax_plies = 40\nopening_plies = 2\n[budget]\nnodes = 3000\n\
             [[player]]\nspec = \"alphabeta:depth=2\"\n[[player]]\nspec = \"pimc:k=2,depth=1\"\n[[player]]\nspec = \"ismcts:iterations=40\"\n"
        ));
        let pgn = tmp(&format!("bots-{variant}.pgn"));
        let s = tournament::run(&cfg, &quiet(&pgn)).expect("runs");
        assert_eq!(s.games, 12, "{variant}");
        assert!(!s.reasons.contains_key("forfeit"), "{variant}: {:?}", s.reasons);
        let rs = records(&pgn);
        assert_eq!(rs.len(), 12);
        // One set-up per pair, the same for every pairing; different pairs draw different ones.
        let setups: BTreeSet<(u32, String)> = rs.iter().map(|r| (r.key.pair, r.setup.fen.clone())).collect();
        assert_eq!(setups.len(), 2, "{variant}: {setups:?}");
        if variant != "camel-3" {
            assert!(rs.iter().all(|r| r.setup.label.starts_with("set-up drawn")), "{variant}: {:?}", rs[0].setup);
        }
        // Both games of a pair open with the same random plies.
        for r in &rs {
            let twin = rs.iter().find(|o| o.key.pairing == r.key.pairing && o.key.pair == r.key.pair && o.key.game != r.key.game).expect("twin");
            assert_eq!(r.moves[..2], twin.moves[..2], "{variant} {:?}", r.key);
        }
        check_replays(&rs);
    }
}

#[test]
fn every_preset_plays_records_and_replays() {
    // Every RULES-more.md preset, greedy against random: records that parse back (action strings
    // as PGN move tokens) and replay from their set-up FEN to the recorded end.
    for (name, _) in engine::more::presets::presets() {
        let cfg = config(&format!(
            "name = \"all-{name}\"\nvariant = \"{name}\"\npairs = 1\nmax_plies = 120\nopening_plies = 6\n[[player]]\nspec = \"greedy\"\n[[player]]\nspec = \"random\"\n"
        ));
        let pgn = tmp(&format!("all-{name}.pgn"));
        let s = tournament::run(&cfg, &quiet(&pgn)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(s.games, 2, "{name}");
        let rs = records(&pgn);
        assert_eq!(rs.len(), 2, "{name}");
        assert!(rs.iter().all(|r| r.variant == name && r.moves.len() >= 6), "{name}");
        check_replays(&rs);
    }
}

#[test]
fn uci_players_are_refused_for_presets() {
    let cfg = config("name = \"uci-missile\"\nvariant = \"missile\"\npairs = 1\n[[player]]\nspec = \"uci:/bin/true\"\nmovetime_ms = 10\n[[player]]\nspec = \"random\"\n");
    let e = tournament::run(&cfg, &quiet(&tmp("uci-missile.pgn"))).expect_err("refused");
    match e.downcast_ref::<SeatError>() {
        Some(SeatError::Uci { game, .. }) => assert_eq!(game, "missile"),
        _ => panic!("expected SeatError::Uci, got {e:#}"),
    }
    // A bot the presets' bot set does not have is named at load.
    let cfg = config("name = \"bad-bot\"\nvariant = \"camel-1\"\npairs = 1\n[[player]]\nspec = \"minimax\"\n[[player]]\nspec = \"random\"\n");
    let e = tournament::run(&cfg, &quiet(&tmp("bad-bot.pgn"))).expect_err("unknown bot");
    assert!(format!("{e:#}").contains("minimax"), "{e:#}");
    // The one expectimax (#17 item 1) is one of them now: it is seated and plays.
    let cfg = config("name = \"expectimax-camel\"\nvariant = \"camel-1\"\npairs = 1\nmax_plies = 40\n[[player]]\nspec = \"expectimax:depth=1\"\n[[player]]\nspec = \"random\"\n");
    let s = tournament::run(&cfg, &quiet(&tmp("expectimax-camel.pgn"))).expect("expectimax plays camel-1");
    assert_eq!(s.games, 2);
}

#[test]
fn rule_file_plays_where_a_preset_name_does() {
    // A RULES-more.md rule file (engine::more::config) as the tournament's `variant`: its games
    // play, record the file as their variant and replay from it.
    let file = "../configs/variants/examples/missile-broad-base.toml";
    let game = GameSpec::load(file).expect("rule file");
    assert_eq!(game.name(), file);
    assert!(!game.speaks_uci());
    let cfg = config(&format!("name = \"rule-file\"\nvariant = \"{file}\"\npairs = 1\nmax_plies = 80\n[[player]]\nspec = \"greedy\"\n[[player]]\nspec = \"random\"\n"));
    let pgn = tmp("rule-file.pgn");
    let s = tournament::run(&cfg, &quiet(&pgn)).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(s.games, 2);
    let rs = records(&pgn);
    assert!(rs.iter().all(|r| r.variant == file && !r.moves.is_empty()));
    check_replays(&rs);
    // A broken rule file is an error naming its bad key, not a fall-through to RULES.md variants.
    let bad = tmp("bad-rules.toml");
    std::fs::write(&bad, "base = \"camel-2\"\n[rules]\nstacking = \"iii\"\n").expect("write");
    let e = format!("{:#}", GameSpec::load(bad.to_str().expect("utf-8")).and_then(|r| r.setup(1)).expect_err("bad value"));
    assert!(e.contains("rules.stacking") && e.contains("ii"), "{e}");
}

#[test]
fn o4_setup_pair_hidden_and_open_share_the_deal() {
    // docs/open-twins.md §O4: for one seed the open twin's start shows exactly the deal that
    // resolves the hidden game's reveals, so the same actions make the same physical game.
    for name in ["jieqi", "fanqi-6", "surprise", "fanqi-5"] {
        let hidden = selfplay::cli::variant_arg::load(name).expect("variant");
        let open = selfplay::cli::variant_arg::load(&format!("{name}+open")).expect("twin");
        let (hs, os) = Setup::pair(hidden, 31).expect("pair");
        assert_eq!(os, Setup::generate(open, 31).expect("open setup"), "{name}: pair and generate agree");
        let (hstart, ostart) = (hs.state(hidden).expect("hidden"), os.state(open).expect("open"));
        let deal = hs.deal(&hstart);
        assert!(os.deal(&ostart).is_empty(), "{name}: nothing left to deal in the open twin");
        for sq in ostart.face_down() {
            assert_eq!(ostart.identity(sq), hstart.identity(sq).or(deal.role(sq)), "{name}: {sq}");
        }
        // Same random actions in both; the hidden game's reveals come from the deal.
        let (mut hg, mut og) = (engine::variant::game_state::VariantGameState::unbounded(hstart), engine::variant::game_state::VariantGameState::unbounded(ostart));
        let mut rng = <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(4);
        for _ in 0..60 {
            if hg.outcome().is_some() {
                break;
            }
            let acts = hg.state().legal_actions();
            let a = acts[rand::Rng::random_range(&mut rng, 0..acts.len())];
            hg.play(a, |outs| deal.outcome(a, outs).expect("the deal fits"));
            og.play(a, |_| panic!("{name}: the open twin has no chance node"));
            assert_eq!(hg.state().position().hash(), og.state().position().hash(), "{name}");
        }
    }
}
