//! Input the engine must refuse with a typed error naming the field, parameter or move (issue #39
//! "accepted though invalid", deliver 3): Surprise view and full FENs with impossible discs, King
//! chess grinding runs, facing generals in the RULES-more.md games, Jieqi moves with trailing
//! text, and bot specs out of range or given twice. Each case is its own test, and each has a
//! valid neighbour that is still accepted, so that a test fails if the refusal is too broad.

use engine::any_game::{with_any_game, Start};
use engine::more::presets::{Playable, WithGame};
use engine::variant::{notation, State, Variant};

/// Builds the game `spec` at FEN `fen`; the error's text when it is refused.
fn load(spec: &str, fen: &str) -> Result<String, String> {
    struct Fen;
    impl WithGame for Fen {
        type Output = String;
        fn run<G: Playable>(self, g: G) -> String {
            g.full_fen()
        }
    }
    with_any_game(spec, Start::Fen(fen), Fen).map_err(|e| e.to_string())
}

/// `load` must refuse, with every one of `words` in the message.
fn refused(spec: &str, fen: &str, words: &[&str]) {
    let e = load(spec, fen).expect_err(&format!("{spec}: {fen:?} must be refused"));
    for w in words {
        assert!(e.contains(w), "{spec}: {fen:?}: the message {e:?} should say {w:?}");
    }
}

const BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// Red layout A, Black layout B (RULES.md §N3's example).
const BACKS: &str = "a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n";
/// Red's view of it.
const RED_VIEW: &str = "a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=?,h7=?,a9=?,b9=?,h9=?,i9=? 3:0/3:0 view=w";

/// Black has lost its a9 chariot and b9 horse: four discs on the board, two captured.
const TWO_GONE: &str = "2bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
                        a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=?,h7=?,h9=?,i9=? 3:0/3:0 view=w";

#[test]
fn surprise_view_with_more_captured_discs_than_exist_is_refused() {
    // Two captured discs (a chariot|cannon and a horse|cannon) are fine; eight are not.
    load("surprise", &format!("{TWO_GONE} gone=rc,nc")).expect("two captured discs");
    let eight = vec!["cr"; 8].join(",");
    refused("surprise", &format!("{TWO_GONE} gone={eight}"), &["gone", "six"]);
}

#[test]
fn surprise_view_with_a_seventh_disc_is_refused() {
    // Black has six discs on the board; one more captured is a seventh.
    refused("surprise", &format!("{BOARD} {RED_VIEW} gone=cr"), &["gone", "six"]);
}

#[test]
fn surprise_view_with_three_captured_discs_of_one_kind_is_refused() {
    refused("surprise", &format!("{TWO_GONE} gone=rc,rc,cr"), &["gone"]);
}

#[test]
fn surprise_view_whose_discs_fit_no_layout_is_refused() {
    // Black's only disc on the board is the chariot on i9; it has lost both chariot|horse and
    // both chariot|cannon discs, so the chariot's disc can be of no kind (five discs, at most two
    // of each kind known: only the layouts rule it out).
    let board = "2bakab1r/9/9/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,i9=? 3:0/3:0 view=w";
    load("surprise", &format!("{board} gone=rn,rn,nc,cn")).expect("the chariot hides a cannon");
    refused("surprise", &format!("{board} gone=rn,rn,rc,rc"), &["backs", "layout"]);
}

#[test]
fn surprise_view_gone_entries_must_be_discs() {
    let v = format!("{BOARD} {RED_VIEW}");
    refused("surprise", &format!("{v} gone=kr"), &["gone", "chariot, horse or cannon"]);
    refused("surprise", &format!("{v} gone=cc"), &["gone", "back"]);
    // Red knows the backs of its own discs; and by default captured backs are shown (§S8).
    refused("surprise", &format!("{v} gone=R?"), &["gone"]);
    refused("surprise", &format!("{v} gone=r?"), &["gone", "§S8"]);
}

#[test]
fn surprise_full_fen_with_a_square_listed_twice_is_refused() {
    load("surprise", &format!("{BOARD} {BACKS} 3:0/3:0")).expect("the §N3 example");
    refused("surprise", &format!("{BOARD} a0=N,{BACKS} 3:0/3:0"), &["backs", "a0", "twice"]);
}

#[test]
fn surprise_full_fen_with_an_impossible_disc_set_is_refused() {
    // a0=N, i0=N (chariots hiding horses) and b0=R (a horse hiding a chariot): three chariot|horse.
    let backs = "a0=N,b0=R,h0=C,i0=N,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n";
    refused("surprise", &format!("{BOARD} {backs} 3:0/3:0"), &["backs", "chariot|horse", "§S1"]);
}

#[test]
fn surprise_full_fen_with_too_many_flip_rights_is_refused() {
    refused("surprise", &format!("{BOARD} {BACKS} 99:0/3:0"), &["rights", "99", "starts with 3"]);
    refused("surprise", &format!("{BOARD} {BACKS} 3:0/4:0"), &["rights", "black"]);
    load("surprise", &format!("{BOARD} {BACKS} 1:1/3:0")).expect("one right after a chariot reveal");
    refused("surprise", &format!("{BOARD} {BACKS} 0:2/3:0"), &["rights", "chariot reveals"]);
}

const KING: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 e0,e9";

#[test]
fn king_chess_grinding_run_of_zero_is_refused() {
    load("king", &format!("{KING} h2:3,-")).expect("a run of 3");
    refused("king", &format!("{KING} h2:0,-"), &["grind", "h2:0"]);
}

#[test]
fn king_chess_grinding_run_past_the_limit_is_refused() {
    refused("king", &format!("{KING} h2:99,-"), &["grind", "h2:99", "§K7"]);
    refused("king", &format!("{KING} -,h7:7"), &["grind"]);
}

/// The side not to move may not face the other general (xiangqi's X3, which `xiangqi` refuses
/// as the side not to move in check).
#[test]
fn xiangqi_refuses_facing_generals() {
    assert!(load("xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_err());
}

#[test]
fn missile_fen_with_facing_generals_is_refused() {
    load("missile", "4k6/11/11/11/11/11/11/11/11/5K5 w - 0 1").expect("generals on different files");
    refused("missile", "5k5/11/11/11/11/11/11/11/11/5K5 w - 0 1", &["FEN", "board", "face"]);
}

#[test]
fn skill_fen_with_facing_generals_is_refused() {
    // Board B (the 9x10 point board, no river row): no turn can be caught between a stagnation
    // removal and its move, so facing generals are refused as in xiangqi.
    let file = std::env::temp_dir().join(format!("anqi-bad-input-skill-b-{}.toml", std::process::id()));
    std::fs::write(&file, "name = \"skill-board-b\"\ngame = \"skill\"\n[rules]\nboard = \"b\"\n").expect("rule file");
    let spec = file.to_str().expect("utf-8");
    let tiles = "1,2,3,4,5,7,8,9/1,2,3,4,5,7,8,9";
    load(spec, &format!("3k5/9/9/9/9/9/9/9/9/4K4 w {tiles}")).expect("generals on different files");
    refused(spec, &format!("4k4/9/9/9/9/9/9/9/9/4K4 w {tiles}"), &["FEN", "board", "face"]);
    // With T6 active for Red (its general on its T6 recess, e.g. d0 on board B), Red may have
    // made the facing (§1.6.1): Black is in check and to move.
    let t6 = "6,1,2,3,4,5,7,8/1,2,3,4,5,7,8,9";
    load(spec, &format!("3k5/9/9/9/9/9/9/9/9/3K5 b {t6}")).expect("Red's T6 lifts the ban for Red");
    refused(spec, &format!("3k5/9/9/9/9/9/9/9/9/3K5 w {t6}"), &["board", "face"]);
    // Board A: a stagnation removal of the river-row piece between the generals leaves them
    // facing until the turn's move (§1.7), so the FEN of that turn in progress is read.
    load("skill", &format!("4k4/9/9/9/9/9/9/9/9/9/4K4 w {tiles}")).expect("a turn in progress on board A");
}

#[test]
fn camel_fen_with_facing_generals_is_refused() {
    let plates = "e0:.........:......... e7:.........:......... 0n0n - -,- 0 1";
    load("camel-1", &format!("6k4/11/11/11/11/11/11/11/11/5K5 w {plates}")).expect("generals on different files");
    refused("camel-1", &format!("5k5/11/11/11/11/11/11/11/11/5K5 w {plates}"), &["FEN", "board", "face"]);
    let secret = "e0:hafcegdib:187206345 e7:hafcegdib:187206345 0n0n - -,- 0 1";
    refused("camel-7-secret", &format!("5k5/11/11/11/11/11/11/11/11/5K5 w {secret}"), &["board", "face"]);
}

fn jieqi() -> State {
    let v: &'static Variant = engine::any_game::load_variant("jieqi").expect("jieqi");
    State::start(v, None).expect("start")
}

#[test]
fn jieqi_move_with_three_reveal_letters_is_refused() {
    let s = jieqi();
    notation::parse_action(&s, "h2e2").expect("plain");
    notation::parse_action(&s, "h2e2C").expect("with its reveal letter");
    let e = notation::parse_action(&s, "h2e2RNC").expect_err("three letters").to_string();
    assert!(e.contains("h2e2RNC") && e.contains("at most 2"), "{e}");
}

#[test]
fn jieqi_move_with_trailing_junk_is_refused() {
    let s = jieqi();
    for junk in ["h2e2_", "h2e2 x", "h2e2C_", "h2e2~C", "h2e2??"] {
        let e = notation::parse_action(&s, junk).expect_err(junk).to_string();
        assert!(e.contains(junk), "{junk}: {e}");
    }
}

/// `from_spec`'s error text for `spec`, which must be refused naming `param`.
fn bad_spec(spec: &str, param: &str) {
    let e = engine::search::from_spec::<engine::variant::game_state::VariantGameState>(spec, 1).err().unwrap_or_else(|| panic!("{spec} must be refused"));
    assert!(e.contains(param), "{spec}: {e:?} should name {param:?}");
    // The same parser serves the RULES-more.md games.
    let e = engine::search::game_bot::from_spec::<engine::more::missile::MissileGame>(spec, 1).err().unwrap_or_else(|| panic!("{spec} must be refused for missile"));
    assert!(e.contains(param), "{spec}: {e:?} should name {param:?}");
}

#[test]
fn pimc_with_no_determinizations_is_refused() {
    assert!(engine::search::from_spec::<engine::variant::game_state::VariantGameState>("pimc:k=1", 1).is_ok());
    bad_spec("pimc:k=0", "k");
}

#[test]
fn pimc_with_a_determinization_count_that_never_returns_is_refused() {
    assert!(engine::search::from_spec::<engine::variant::game_state::VariantGameState>("pimc:k=10000,ms=60", 1).is_ok());
    bad_spec("pimc:k=999999999999", "k");
}

#[test]
fn ismcts_with_no_iterations_is_refused() {
    assert!(engine::search::from_spec::<engine::variant::game_state::VariantGameState>("ismcts:iterations=1", 1).is_ok());
    bad_spec("ismcts:iterations=0", "iterations");
}

#[test]
fn ismcts_with_negative_exploration_is_refused() {
    assert!(engine::search::from_spec::<engine::variant::game_state::VariantGameState>("ismcts:c=0", 1).is_ok());
    bad_spec("ismcts:c=-1", "c");
}

#[test]
fn alphabeta_depth_past_the_searchable_is_refused() {
    assert!(engine::search::from_spec::<engine::variant::game_state::VariantGameState>("alphabeta:depth=100", 1).is_ok());
    bad_spec("alphabeta:depth=4294967295", "depth");
    bad_spec("alphabeta:depth=0", "depth");
    bad_spec("pimc:depth=4294967295", "depth");
    bad_spec("pimc:search=alphabeta:depth=4294967295", "depth");
    bad_spec("expectimax:depth=33", "depth");
}

#[test]
fn a_hash_table_that_cannot_be_allocated_is_refused() {
    bad_spec("alphabeta:hash=65536", "hash");
    bad_spec("pimc:depth=2,hash=65536", "hash");
}

#[test]
fn duplicate_bot_parameters_are_refused() {
    bad_spec("alphabeta:depth=2,depth=3", "depth");
    bad_spec("alphabeta:ms=10,movetime=20", "ms");
    bad_spec("pimc:k=2,k=3", "k");
    bad_spec("pimc:k=2,determinizations=3", "k");
    bad_spec("ismcts:iterations=5,n=6", "iterations");
    bad_spec("ismcts:c=1,c=2", "c");
    bad_spec("expectimax:depth=1,depth=2", "depth");
    bad_spec("pimc:search=expectimax:depth=1,depth=2", "depth");
}

/// Found by fuzzing (fuzz/fuzz_targets/variant_fen.rs): in an owner's-arrangement mode (Fan-qi 3)
/// a start given by a FEN (or perft's, §P4) may leave identities undetermined after the set-up;
/// the viewer's own ones are then unknown to it, listed in its view's pool. A determinization
/// sampled from that view must keep them undetermined (determined, the owner would know them and
/// the sample's view would differ) and keep the pool (the sampler dropped it: the sample's FEN
/// had undetermined pieces and no pool to draw them from).
#[test]
fn an_owner_arrangement_view_with_undetermined_own_pieces_samples_states_with_that_view() {
    use engine::variant::{fen as vfen, View};
    use engine::Color;
    use rand::SeedableRng;
    let v = engine::any_game::load_variant("fanqi-3").expect("fanqi-3");
    let given = View::from_fen(v, "1xbakab1x/9/r7p/2x1x1x2/p8/6B2/XpX1X1Xpr/1X6N/4A2R1/XX1AK1BX1 w N1R1C1P4n2c2p1 10 10 b2=C view=w").expect("the fuzzer's view");
    let start = State::start(v, None).expect("perft's start");
    let views = [given, View::new(&start, Color::Red), View::new(&start, Color::Black)];
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    for view in &views {
        for _ in 0..20 {
            let s = view.sample(&mut rng);
            assert!(view.is_consistent(&s), "a sample of {:?} is not consistent with it", view.fen());
            assert_eq!(View::new(&s, view.player()).fen(), view.fen(), "the view of a sample");
            let text = vfen::write(&s);
            let back = vfen::parse(v, &text).unwrap_or_else(|e| panic!("the sample's FEN {text:?} does not parse: {e}"));
            assert_eq!(vfen::write(&back), text);
        }
    }
}

/// Found by fuzzing (fuzz/fuzz_targets/variant_fen.rs): in Fan-qi modes 1 and 2 no face-down
/// piece is ever undetermined (§F3: mode 2's stand on their own start points, known to both; §F5
/// turns a known piece down), so a FEN leaving identities to a pool is refused, naming the field;
/// its sampled views named identities the view FEN had in the pool.
#[test]
fn fanqi_fixed_mode_fen_with_undetermined_pieces_is_refused() {
    let board = "xxbakabxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXBAKABXX w";
    refused("fanqi-2", &format!("{board} N2R2C2P5n2r2c2p5 0 1"), &["determined", "fixed"]);
    let known = "a0=R,b0=N,h0=N,i0=R,b2=C,h2=C,a3=P,c3=P,e3=P,g3=P,i3=P,a6=p,c6=p,e6=p,g6=p,i6=p,b7=c,h7=c,a9=r,b9=n,h9=n,i9=r";
    assert!(load("fanqi-2", &format!("{board} - 0 1 {known}")).is_ok(), "the determined start");
    // The random and owner's-choice modes still take a pool.
    assert!(load("fanqi-4", &format!("{board} N2R2C2P5n2r2c2p5 0 1")).is_ok(), "fanqi-4's pool");
    assert!(load("fanqi-3", &format!("{board} N2R2C2P5n2r2c2p5 0 1")).is_ok(), "fanqi-3's undetermined start");
}

/// Found by fuzzing (fuzz/fuzz_targets/variant_fen.rs): pool counts of one letter that add up
/// past 255 (`a3a255`) overflowed the count (a panic with overflow checks, a wrong pool
/// without); both the full FEN's and the view FEN's pool field refuse them, naming the field.
#[test]
fn fanqi_pool_counts_past_255_are_refused() {
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w";
    // 3 + 255 advisors wrap to the start's 2 in a u8.
    refused("jieqi", &format!("{board} A2B2N2R2C2P5a3a255b2n2r2c2p5 0 1"), &["pool"]);
    refused("jieqi", &format!("{board} A2B2N2R2C2P5a3a255b2n2r2c2p5 0 1 view=b"), &["pool"]);
    assert!(load("jieqi", &format!("{board} A2B2N2R2C2P5a1a1b2n2r2c2p5 0 1")).is_ok(), "a letter given twice still adds up");
}

/// Found by fuzzing (fuzz/fuzz_targets/more_fen.rs): a camel-7-secret FEN whose trick layouts
/// are not placed yet (`---------`, the set-up of §2.13 under way) but whose pieces have moved is
/// no game's position: it was taken, and its view FEN then read back as no set-up's. Refused,
/// naming the set-up; the start with unplaced layouts is still taken.
#[test]
fn camel_secret_fen_that_moved_before_its_set_up_is_refused() {
    let plates = "b e0:hafcegdib:--------- e7:hafcegdib:--------- 0n0n - -,- 0 1";
    refused("camel-7-secret", &format!("1jCbaka1nj1/r10/2c2b3qr/1p1p2cp1p1/3q1p5/5R5/1P1P1P1P1P1/1Q1N5Q1/R4A1C3/1J1B1KABNJ1 {plates}"), &["set-up", "expected"]);
    let start = "rjnbakabnjr/11/1qc5cq1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1QC5CQ1/11/RJNBAKABNJR w e0:hafcegdib:--------- e7:hafcegdib:--------- 0n0n - -,- 0 1";
    assert_eq!(load("camel-7-secret", start).as_deref(), Ok(start));
}

/// Found by fuzzing (fuzz/fuzz_targets/variant_fen.rs): a FEN rank whose digit runs add up past
/// the word size (`18446744073709551615`) overflowed the file count (a panic with overflow
/// checks; without them it wrapped to the first files, so this rank read as `1c7`: one cannon).
/// Refused naming the rank, in every FEN that reads a board.
#[test]
fn fen_rank_digits_past_the_word_size_are_refused() {
    let fen = "rnbakabnr/9/1c18446744073709551615c7/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    refused("xiangqi", fen, &["rank 3", "expected 9"]);
    assert!(engine::notation::fen::parse(fen).is_err());
    assert!(load("xiangqi", "rnbakabnr/9/1c7/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").is_ok(), "one cannon");
}

/// Found by fuzzing (fuzz/fuzz_targets/variant_fen.rs): a view FEN of an open twin with unseen
/// backs (`=?`) was taken (its backs filled in arbitrarily), and the view written from it then
/// did not read back (three chariot|horse discs). An open twin hides no back: refused, naming
/// the backs field; the hidden game's view with those backs is still taken.
#[test]
fn open_twin_view_with_unseen_backs_is_refused() {
    use engine::variant::View;
    let text = "r2ak1b1r/9/2n1ba2n/p1p1p1p1p/2c6/PNP6/4P1P1P/3CB3N/4C4/R1BAKAR2 w - - 7 19 a0=C,g0=N,e1=R,d2=N,i2=R,b4=C,c5=?,c7=?,i7=?,a9=?,i9=? 3:0/3:0 view=w";
    let open = engine::any_game::load_variant("surprise+open").expect("surprise+open");
    let e = View::from_fen(open, &format!("{text} gone=cr")).err().expect("an open twin's view with unseen backs is refused").to_string();
    assert!(e.contains("backs"), "{e}");
    let hidden = engine::any_game::load_variant("surprise").expect("surprise");
    assert!(View::from_fen(hidden, text).is_ok(), "the hidden game's view");
}

/// Found by fuzzing (fuzz/fuzz_targets/more_fen.rs, the one-hour run of session 27): a
/// skill-tile FEN whose `last` field named a piece of the side to move (`b@a10` with Black to
/// move) was taken, then written in the other side's case (the writer's reading: the last move
/// was the opponent's), and that FEN did not read back. Refused, naming the field; with the
/// other side to move the same field loads and round-trips.
#[test]
fn skill_fen_last_move_by_the_side_to_move_is_refused() {
    let board = "rnb1kab2/4a4/6nr1/2p6/p3p1pPp/9/2P6/P3P1P1P/8N/1C1C5/1RBK2QAB";
    let tiles = "23,27,26,2,14,8,28,25/22,6,31,30,24,23,9,25";
    refused("skill-secret+open", &format!("{board} b {tiles} b@a10 - 7 16"), &["last", "b@a10", "side to move"]);
    let ok = format!("{board} w {tiles} b@a10 - 7 16");
    let written = load("skill-secret+open", &ok).expect("Black moved last, Red to move");
    assert!(written.contains(" b@a10 "), "{written}");
    assert_eq!(load("skill-secret+open", &written).as_deref(), Ok(written.as_str()));
}

/// Found by fuzzing (fuzz/fuzz_targets/rule_toml.rs, session 27): a RULES-more rule file whose
/// description held a carriage return was written (`MoreVariant::to_toml`) with the description
/// repeated raw in its first comment line — not TOML (a bare CR), and a line break there would
/// have started a line of TOML. The comment now shows each control character as a space; the
/// quoted value keeps it, and the written file reads back to the same table.
#[test]
fn more_rule_file_description_with_control_characters_writes_back() {
    use engine::more::MoreVariant;
    for description in ["a\rb", "x\nname = \"other\"", "tab\tand\u{c}feed"] {
        let text = format!("name = \"skill-points\"\ngame = \"skill\"\ndescription = {}\n", toml::Value::String(description.into()));
        let v = MoreVariant::from_toml(&text, "t.toml").unwrap_or_else(|e| panic!("{description:?}: {e}"));
        let written = v.to_toml();
        let back = MoreVariant::from_toml(&written, "t.toml").unwrap_or_else(|e| panic!("{description:?}: written file does not load: {e}\n{written}"));
        assert_eq!(back.description(), description);
        assert_eq!(back.to_toml(), written);
    }
}
