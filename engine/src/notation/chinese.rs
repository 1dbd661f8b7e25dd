//! Chinese move records (`炮二平五`, `马８进７`), the traditional file-based notation, in simplified
//! characters.
//!
//! A move is four characters: the piece, its file, the direction and a number.
//! - Pieces: Red 帅 仕 相 马 车 炮 兵, Black 将 士 象 马 车 炮 卒.
//! - Files are counted from the mover's right: Red writes them with Chinese numerals 一..九
//!   (file `i` is 一, `a` is 九); Black with digits 1..9 (file `a` is 1), written here as
//!   full-width digits １..９ as most printed and software records do (`马８进７`). Every number of
//!   a move, files and step counts, uses the mover's numerals.
//! - Direction: 进 forward (towards the opponent), 退 backward, 平 sideways.
//! - Number: the destination file for a sideways move and for every move of an advisor,
//!   elephant or horse (they move diagonally); otherwise the number of ranks moved.
//!
//! Tandem pieces (several pieces of one type and colour on one file) replace the file by their
//! place, front being nearer the opponent, and put it before the piece name:
//! - two: 前 / 后 (`前车进一`, `后炮平四`);
//! - three soldiers: 前 / 中 / 后 (`中兵平四`);
//! - four or five soldiers: 一 二 三 (四 五) from the front, for both colours (`二卒平４`);
//! - soldiers in tandem on two files: the piece name is replaced by the file
//!   (`前七平六`, `中三平四`, `后７平６`).
//!
//! Advisors and elephants are never marked 前/后: on one file only the rear one can advance and
//! only the front one can retreat, so the file already says which moved (`仕六进五`, `仕六退五`).
//! The analysis is shared with [`super::wxf`], so both records always name the same piece.

use super::wxf::{parts, Designator, Direction};
use crate::moves::Move;
use crate::piece::{Color, Role};
use crate::position::Position;

/// Chinese numerals used for Red's files and counts (and for tandem ordinals), 1-based.
const RED_NUMERALS: [&str; 15] = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四", "十五"];
/// Full-width digits used for Black's files and counts, 1-based.
const BLACK_NUMERALS: [&str; 15] = ["１", "２", "３", "４", "５", "６", "７", "８", "９", "１０", "１１", "１２", "１３", "１４", "１５"];

/// The piece's name in Chinese records (simplified characters).
pub fn piece_name(color: Color, role: Role) -> char {
    match (color, role) {
        (Color::Red, Role::General) => '帅',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Red, Role::Elephant) => '相',
        (Color::Black, Role::General) => '将',
        (Color::Black, Role::Advisor) => '士',
        (Color::Black, Role::Elephant) => '象',
        (_, Role::Horse) => '马',
        (_, Role::Chariot) => '车',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::Soldier) => '兵',
        (Color::Black, Role::Soldier) => '卒',
    }
}

/// The number `n` (1-based) as `color` writes it: 一..九 for Red, １..９ for Black.
pub fn numeral(color: Color, n: u8) -> String {
    let table = match color {
        Color::Red => &RED_NUMERALS,
        Color::Black => &BLACK_NUMERALS,
    };
    match table.get((n as usize).wrapping_sub(1)) {
        Some(s) => (*s).to_string(),
        None => n.to_string(),
    }
}

/// Chinese record of `m` in `pos` (the position before the move), e.g. `炮二平五`, `马８进７`,
/// `前车进一`.
///
/// `m` should be a move of a piece standing on `m.from` (normally a legal move); the piece's own
/// colour decides the numbering. If `m.from` is empty the ICCS form is returned instead.
pub fn chinese(pos: &Position, m: Move) -> String {
    let Some(p) = parts(pos, m) else {
        return m.iccs();
    };
    let name = piece_name(p.color, p.role);
    let num = |n: u8| numeral(p.color, n);
    let place = |index: usize, count: usize| -> &'static str {
        if index == 0 {
            "前"
        } else if index + 1 == count {
            "后"
        } else {
            "中"
        }
    };
    let mut s = match p.designator {
        Designator::File => format!("{name}{}", num(p.file)),
        Designator::Tandem { index, count, other_tandem_file: true } => {
            format!("{}{}", place(index, count), num(p.file))
        }
        Designator::Tandem { index, count, other_tandem_file: false } if count <= 3 => {
            format!("{}{name}", place(index, count))
        }
        Designator::Tandem { index, .. } => {
            format!("{}{name}", RED_NUMERALS.get(index).copied().unwrap_or("?"))
        }
    };
    s.push(match p.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    s.push_str(&num(p.target));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;

    fn c(f: &str, m: &str) -> String {
        let pos = fen::parse(f).expect("fen");
        let (a, b) = crate::notation::iccs::parse_squares(m).expect("squares");
        let m = Move::new(a, b);
        assert!(pos.is_legal(m), "{m} legal in {f}");
        chinese(&pos, m)
    }

    #[test]
    fn opening_moves() {
        let s = fen::START;
        assert_eq!(c(s, "h2e2"), "炮二平五");
        assert_eq!(c(s, "b0c2"), "马八进七");
        assert_eq!(c(s, "h0g2"), "马二进三");
        assert_eq!(c(s, "i0i1"), "车一进一");
        assert_eq!(c(s, "c0e2"), "相七进五");
        assert_eq!(c(s, "f0e1"), "仕四进五");
        assert_eq!(c(s, "e0e1"), "帅五进一");
        assert_eq!(c(s, "g3g4"), "兵三进一");
        assert_eq!(c(s, "h2h9"), "炮二进七");
        let f = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(c(f, "h9g7"), "马８进７");
        assert_eq!(c(f, "b9c7"), "马２进３");
        assert_eq!(c(f, "h7e7"), "炮８平５");
        assert_eq!(c(f, "a9a7"), "车１进２");
        assert_eq!(c(f, "c6c5"), "卒３进１");
        assert_eq!(c(f, "d9e8"), "士４进５");
        assert_eq!(c(f, "g9e7"), "象７进５");
        assert_eq!(c(f, "e9e8"), "将５进１");
    }

    #[test]
    fn backward_moves() {
        let f = "4k4/9/9/2n6/9/r8/9/9/9/3K5 b - - 0 1";
        assert_eq!(c(f, "a4a8"), "车１退４");
        assert_eq!(c(f, "c6b8"), "马３退２");
        let f = "3k5/9/9/9/R8/9/9/9/4K4/9 w - - 0 1";
        assert_eq!(c(f, "a5a1"), "车九退四");
        assert_eq!(c(f, "e1e0"), "帅五退一");
    }

    #[test]
    fn tandem_pieces() {
        let f = "3k5/9/2R6/9/9/9/2R6/9/9/4K4 w - - 0 1";
        assert_eq!(c(f, "c7f7"), "前车平四");
        assert_eq!(c(f, "c3c1"), "后车退二");
        let f = "3k5/9/2c6/9/9/9/2c6/9/9/4K4 b - - 0 1";
        assert_eq!(c(f, "c3c2"), "前炮进１");
        assert_eq!(c(f, "c7e7"), "后炮平５");
        let f = "3k5/9/9/9/9/6N2/9/6N2/9/4K4 w - - 0 1";
        assert_eq!(c(f, "g4h6"), "前马进二");
        assert_eq!(c(f, "g2f0"), "后马退四");
        // Advisors and elephants keep their file.
        let f = "5k3/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1";
        assert_eq!(c(f, "d0e1"), "仕六进五");
        assert_eq!(c(f, "d2e1"), "仕六退五");
        let f = "5k3/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1";
        assert_eq!(c(f, "c0a2"), "相七进九");
        assert_eq!(c(f, "c4e2"), "相七退五");
    }

    #[test]
    fn tandem_soldiers() {
        let f = "3k5/9/4P4/4P4/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(c(f, "e7d7"), "前兵平六");
        assert_eq!(c(f, "e6f6"), "后兵平四");
        let f = "3k5/2P6/2P6/2P6/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(c(f, "c8d8"), "前兵平六");
        assert_eq!(c(f, "c7d7"), "中兵平六");
        assert_eq!(c(f, "c6d6"), "后兵平六");
        let f = "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(c(f, "g9f9"), "一兵平四");
        assert_eq!(c(f, "g8f8"), "二兵平四");
        assert_eq!(c(f, "g7f7"), "三兵平四");
        assert_eq!(c(f, "g6f6"), "四兵平四");
        assert_eq!(c(f, "g5f5"), "五兵平四");
        // Black, four soldiers on Black's file 3 (c): 一卒 is the one nearest Red.
        let f = "4k4/9/9/9/9/2p6/2p6/2p6/2p6/3K5 b - - 0 1";
        assert_eq!(c(f, "c1d1"), "一卒平４");
        assert_eq!(c(f, "c2b2"), "二卒平２");
        assert_eq!(c(f, "c3d3"), "三卒平４");
        assert_eq!(c(f, "c4b4"), "四卒平２");
        // Tandems on two files: the file replaces the piece name.
        let f = "4k4/6P2/2P3P2/2P3P2/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(c(f, "g8f8"), "前三平四");
        assert_eq!(c(f, "g7f7"), "中三平四");
        assert_eq!(c(f, "g6f6"), "后三平四");
        assert_eq!(c(f, "c7d7"), "前七平六");
        assert_eq!(c(f, "c6b6"), "后七平八");
        let f = "4k4/9/9/9/9/1p5p1/1p5p1/9/9/3K5 b - - 0 1";
        assert_eq!(c(f, "b3a3"), "前２平１");
        assert_eq!(c(f, "h4i4"), "后８平９");
    }
}
