//! Coordinate and FEN dialects of external UCI engines: what a move or a start FEN looks like on
//! the wire to one engine, and back.
//!
//! - [`Dialect::Anqi`]: anqi's own strings (ICCS ranks 0-9, files a-i; RULES.md §N FENs with the
//!   §N2 pool in anqi's canonical order). `anqi uci` speaks it, and it is the default for an
//!   engine not recognised by name.
//! - [`Dialect::Pikafish`]: the same ranks; a Jieqi / Fan-qi FEN lists the pool letters in the
//!   order Pikafish's `jieqi` branch writes them (R A C P N B per side,
//!   [`vfen::PoolOrder::Pikafish`]).
//! - [`Dialect::FairyStockfish`]: ranks 1-10 (`a10a9` is anqi's `a9a8`); every square of a move
//!   is shifted one rank up on the way out and one down on the way in. The xiangqi FEN is sent as
//!   is: its board text names no square and is the same in both. Fairy-Stockfish starts in chess,
//!   so the client always selects the variant with `UCI_Variant`.
//!
//! A player's `dialect` key in the tournament file picks one; without it the client detects it
//! from the engine's `id name` ([`Dialect::detect`]).

use engine::variant::{fen as vfen, State};
use serde::Deserialize;
use std::fmt;

/// How an external engine writes moves and FENs (module docs).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// anqi's own: ranks 0-9, canonical pool order.
    #[default]
    Anqi,
    /// Pikafish: ranks 0-9, Jieqi pool in R A C P N B order.
    Pikafish,
    /// Fairy-Stockfish: ranks 1-10.
    FairyStockfish,
}

/// A move from an engine that cannot be put into anqi's coordinates.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DialectError {
    /// A square of the move names a rank the dialect does not have (rank 0 for Fairy-Stockfish).
    #[error("move {text:?} from a {dialect} engine: square {square:?} has rank {rank}, and {dialect} ranks start at {first}")]
    RankOffBoard {
        /// The move as received.
        text: String,
        /// The dialect it was read in.
        dialect: Dialect,
        /// The offending square, as received.
        square: String,
        /// Its rank.
        rank: u32,
        /// The dialect's first rank.
        first: u32,
    },
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Anqi => "anqi",
            Dialect::Pikafish => "pikafish",
            Dialect::FairyStockfish => "fairy-stockfish",
        })
    }
}

impl Dialect {
    /// The dialect of an engine that announced `id name <id_name>`: Fairy-Stockfish and Pikafish
    /// by their names (any case, any version suffix), anything else [`Dialect::Anqi`].
    pub fn detect(id_name: &str) -> Dialect {
        let n = id_name.trim().to_ascii_lowercase();
        if n.starts_with("fairy-stockfish") {
            Dialect::FairyStockfish
        } else if n.starts_with("pikafish") {
            Dialect::Pikafish
        } else {
            Dialect::Anqi
        }
    }

    /// The dialect's first rank: what anqi's rank 0 is called.
    fn first_rank(self) -> u32 {
        match self {
            Dialect::FairyStockfish => 1,
            Dialect::Anqi | Dialect::Pikafish => 0,
        }
    }

    /// Whether the engine must be told `UCI_Variant` even for xiangqi (its default is another
    /// game).
    pub fn always_sets_variant(self) -> bool {
        self == Dialect::FairyStockfish
    }

    /// The start FEN of `start` as this dialect writes it.
    pub fn fen(self, start: &State) -> String {
        let order = match self {
            Dialect::Pikafish => vfen::PoolOrder::Pikafish,
            Dialect::Anqi | Dialect::FairyStockfish => vfen::PoolOrder::Canonical,
        };
        vfen::write_with(start, order)
    }

    /// A record string of anqi's (`h2e2`, `h2e2C`, `b0b0N`, `demand`) as this dialect writes it:
    /// the ranks of a leading square pair shifted; anything else unchanged.
    pub fn move_out(self, anqi: &str) -> String {
        let shift = self.first_rank();
        match split_squares(anqi) {
            Some(([(f1, r1), (f2, r2)], rest)) if shift != 0 => format!("{f1}{}{f2}{}{rest}", r1 + shift, r2 + shift),
            _ => anqi.to_string(),
        }
    }

    /// A move as this dialect's engine wrote it, in anqi's coordinates (the inverse of
    /// [`Dialect::move_out`]). A string that does not start with two squares comes back
    /// unchanged, for the move parser to judge.
    ///
    /// # Errors
    /// A square below the dialect's first rank ([`DialectError::RankOffBoard`]).
    pub fn move_in(self, theirs: &str) -> Result<String, DialectError> {
        let shift = self.first_rank();
        let Some((squares, rest)) = split_squares(theirs) else { return Ok(theirs.to_string()) };
        if shift == 0 {
            return Ok(theirs.to_string());
        }
        let mut out = String::new();
        for (f, r) in squares {
            if r < shift {
                return Err(DialectError::RankOffBoard { text: theirs.to_string(), dialect: self, square: format!("{f}{r}"), rank: r, first: shift });
            }
            out.push_str(&format!("{f}{}", r - shift));
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// The two squares, `(file, rank)`, that a string starts with (a lower-case file letter and one
/// or two digits each), and the rest of it; `None` when it does not start so.
fn split_squares(text: &str) -> Option<([(char, u32); 2], &str)> {
    let (a, rest) = square(text)?;
    let (b, rest) = square(rest)?;
    Some(([a, b], rest))
}

/// The square a string starts with and the text after it.
fn square(text: &str) -> Option<((char, u32), &str)> {
    let file = text.chars().next().filter(char::is_ascii_lowercase)?;
    let digits = text[1..].bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=2).contains(&digits) {
        return None;
    }
    let rank = text[1..1 + digits].parse().ok()?;
    Some(((file, rank), &text[1 + digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::variant::Variant;

    const FSF: Dialect = Dialect::FairyStockfish;

    #[test]
    fn detected_from_id_name() {
        assert_eq!(Dialect::detect("Fairy-Stockfish 011226 LB"), FSF);
        assert_eq!(Dialect::detect("fairy-stockfish"), FSF);
        assert_eq!(Dialect::detect("Pikafish 2026-01-02"), Dialect::Pikafish);
        assert_eq!(Dialect::detect("anqi 0.1.0"), Dialect::Anqi);
        assert_eq!(Dialect::detect("ElephantEye 3.3"), Dialect::Anqi);
        assert_eq!(Dialect::detect(""), Dialect::Anqi);
    }

    #[test]
    fn named_in_config_files_as_displayed() {
        #[derive(Deserialize)]
        struct T {
            d: Dialect,
        }
        for d in [Dialect::Anqi, Dialect::Pikafish, FSF] {
            let t: T = toml::from_str(&format!("d = \"{d}\"")).expect("dialect name");
            assert_eq!(t.d, d);
        }
        let e = toml::from_str::<T>("d = \"stockfish\"").err().expect("unknown dialect");
        assert!(e.to_string().contains("fairy-stockfish"), "{e}");
    }

    #[test]
    fn fairy_stockfish_ranks_are_one_higher() {
        for (anqi, fsf) in [
            ("h2e2", "h3e3"),
            ("c0e2", "c1e3"),
            ("a8a9", "a9a10"),
            ("a9a8", "a10a9"),
            ("i9i0", "i10i1"),
            ("h2e2C", "h3e3C"),
            ("h9g7n", "h10g8n"),
            ("b2b9Nn", "b3b10Nn"),
            ("a3a0~", "a4a1~"),
            ("h2e2^", "h3e3^"),
            ("b0b0N", "b1b1N"),
        ] {
            assert_eq!(FSF.move_out(anqi), fsf, "{anqi}");
            assert_eq!(FSF.move_in(fsf), Ok(anqi.to_string()), "{fsf}");
        }
    }

    #[test]
    fn every_square_pair_round_trips() {
        for f1 in 'a'..='i' {
            for r1 in 0..10 {
                for (f2, r2) in [('a', 0), ('e', 9), (f1, 9 - r1)] {
                    let m = format!("{f1}{r1}{f2}{r2}");
                    let theirs = FSF.move_out(&m);
                    assert_eq!(FSF.move_in(&theirs), Ok(m.clone()), "{m} -> {theirs}");
                    for d in [Dialect::Anqi, Dialect::Pikafish] {
                        assert_eq!(d.move_out(&m), m);
                        assert_eq!(d.move_in(&m), Ok(m.clone()));
                    }
                }
            }
        }
    }

    #[test]
    fn words_and_set_up_actions_pass_unchanged() {
        for text in ["demand", "resign", "draw", "refuse", "layout=C3", "place=R", "(none)", "e2", "", "a123b1"] {
            assert_eq!(FSF.move_out(text), text);
            assert_eq!(FSF.move_in(text), Ok(text.to_string()));
        }
    }

    #[test]
    fn rank_zero_from_fairy_stockfish_is_an_error_naming_the_square() {
        let e = FSF.move_in("a0a1").expect_err("rank 0");
        assert_eq!(e, DialectError::RankOffBoard { text: "a0a1".into(), dialect: FSF, square: "a0".into(), rank: 0, first: 1 });
        let msg = FSF.move_in("e1e0").expect_err("rank 0").to_string();
        assert!(msg.contains("\"e1e0\"") && msg.contains("\"e0\"") && msg.contains("fairy-stockfish"), "{msg}");
    }

    #[test]
    fn start_fens_per_dialect() {
        let jieqi: &'static Variant = engine::any_game::load_variant("jieqi").expect("jieqi");
        let s = State::start(jieqi, None).expect("start");
        let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w";
        assert_eq!(Dialect::Anqi.fen(&s), format!("{board} A2B2N2R2C2P5a2b2n2r2c2p5 0 1"));
        assert_eq!(Dialect::Pikafish.fen(&s), format!("{board} R2A2C2P5N2B2r2a2c2p5n2b2 0 1"));
        let xiangqi: &'static Variant = engine::any_game::load_variant("xiangqi").expect("xiangqi");
        let x = State::start(xiangqi, None).expect("start");
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        for d in [Dialect::Anqi, Dialect::Pikafish, FSF] {
            assert_eq!(d.fen(&x), fen, "{d}");
        }
        assert!(FSF.always_sets_variant() && !Dialect::Pikafish.always_sets_variant() && !Dialect::Anqi.always_sets_variant());
    }
}
