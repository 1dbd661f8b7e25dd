//! Chinese move records for the RULES-more.md games, in the traditional file-based form of
//! [`crate::notation::chinese`] (`炮二平五`, `马８进７`) extended to 9x11 and 11x10 boards and
//! camel boards up to 15 files: files are counted from the mover's right (Red 一..十五, Black
//! １..１５); 进 / 退 / 平; the number is
//! the destination file when the file changes and the rank too (or on a sideways move), else the
//! number of ranks moved. Two pieces of one kind on the mover's file are 前 / 后, more are
//! numbered from the front (一, 二, ...). New pieces: 机 fighter, 弹 missile (§3.3), 驼 camel, 丞
//! chancellor (§2.4). A trailing word names a special effect: 兑 exchange (§1.5), 炸 mutual
//! destruction and 自毁 base self-destruction (§3.4-§3.5), 升车/升马/升炮/升驼 promotion.

use super::board::Board;
use super::geometry::{Geometry, Sq};
use super::piece::{Kind, Piece};
use crate::notation::chinese::numeral;
use crate::piece::Color;

/// The piece's name (simplified characters).
pub fn piece_char(p: Piece) -> char {
    match (p.color, p.kind) {
        (Color::Red, Kind::General) => '帅',
        (Color::Black, Kind::General) => '将',
        (Color::Red, Kind::Advisor) => '仕',
        (Color::Black, Kind::Advisor) => '士',
        (Color::Red, Kind::Elephant) => '相',
        (Color::Black, Kind::Elephant) => '象',
        (_, Kind::Horse) => '马',
        (_, Kind::Chariot) => '车',
        (_, Kind::Cannon) => '炮',
        (Color::Red, Kind::Soldier) => '兵',
        (Color::Black, Kind::Soldier) => '卒',
        (_, Kind::Fighter) => '机',
        (_, Kind::Missile) => '弹',
        (_, Kind::Camel) => '驼',
        (_, Kind::Chancellor) => '丞',
    }
}

/// `c`'s file number of `s` (1 = the mover's rightmost file).
fn file_number(g: &Geometry, c: Color, s: Sq) -> u8 {
    match c {
        Color::Red => g.files - g.file(s),
        Color::Black => g.file(s) + 1,
    }
}

/// The Chinese record of moving the piece on `from` to `to` in `board` (before the move), with
/// an optional trailing effect word. Empty if `from` is empty.
pub fn move_record(board: &Board, from: Sq, to: Sq, effect: &str) -> String {
    let g = board.geo();
    let Some(p) = board.get(from) else { return String::new() };
    let c = p.color;
    let fwd = Geometry::forward(c) as i16;
    let dy = (g.rank(to) as i16 - g.rank(from) as i16) * fwd;
    let same_file = g.file(to) == g.file(from);
    // Tandem pieces of the same kind on the mover's file, front (nearer the opponent) first.
    let mut tandem: Vec<Sq> = board.pieces().filter(|&(s, q)| q == p && g.file(s) == g.file(from)).map(|(s, _)| s).collect();
    tandem.sort_by_key(|&s| -(g.rank(s) as i16) * fwd);
    let head = if tandem.len() >= 2 && !matches!(p.kind, Kind::Advisor | Kind::Elephant) {
        let i = tandem.iter().position(|&s| s == from).unwrap_or(0);
        let place = match (tandem.len(), i) {
            (2, 0) => "前".to_string(),
            (2, _) => "后".to_string(),
            (3, 0) => "前".to_string(),
            (3, 1) => "中".to_string(),
            (3, _) => "后".to_string(),
            (_, i) => numeral(Color::Red, i as u8 + 1),
        };
        format!("{place}{}", piece_char(p))
    } else {
        format!("{}{}", piece_char(p), numeral(c, file_number(g, c, from)))
    };
    let (dir, num) = if dy == 0 {
        ('平', file_number(g, c, to))
    } else if same_file {
        (if dy > 0 { '进' } else { '退' }, dy.unsigned_abs() as u8)
    } else {
        (if dy > 0 { '进' } else { '退' }, file_number(g, c, to))
    };
    format!("{head}{dir}{}{effect}", numeral(c, num))
}

/// The promotion word (`升车`).
pub fn promotion_word(c: Color, k: Kind) -> String {
    format!("升{}", piece_char(Piece::new(c, k)))
}
