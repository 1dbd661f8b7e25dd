//! Piece kinds of the RULES-more.md games: the seven baseline types (§0.3) plus the missile game's
//! fighter and missile (§3.3) and the camel game's camel and chancellor (§2.4).

use crate::piece::Color;

/// A piece kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 帥/將 (§0.3), FEN `K`.
    General = 0,
    /// 仕/士 (§0.3), FEN `A`.
    Advisor = 1,
    /// 相/象 (§0.3), FEN `B`.
    Elephant = 2,
    /// 傌/馬 (§0.3), FEN `N`.
    Horse = 3,
    /// 俥/車 (§0.3), FEN `R`.
    Chariot = 4,
    /// 炮/砲 (§0.3), FEN `C`.
    Cannon = 5,
    /// 兵/卒 (§0.3), FEN `P`.
    Soldier = 6,
    /// 戰機 fighter (§3.3), FEN `F`.
    Fighter = 7,
    /// 飛彈 missile (§3.3), FEN `M`.
    Missile = 8,
    /// 驼 camel (§2.4), FEN `J`.
    Camel = 9,
    /// 丞 chancellor (§2.4), FEN `Q`.
    Chancellor = 10,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 11] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
        Kind::Fighter,
        Kind::Missile,
        Kind::Camel,
        Kind::Chancellor,
    ];

    /// Index 0..11.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter.
    pub const fn upper_char(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
            Kind::Fighter => 'F',
            Kind::Missile => 'M',
            Kind::Camel => 'J',
            Kind::Chancellor => 'Q',
        }
    }

    /// The kind of an upper-case FEN letter.
    pub fn from_upper(c: char) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.upper_char() == c)
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Chariot => "chariot",
            Kind::Cannon => "cannon",
            Kind::Soldier => "soldier",
            Kind::Fighter => "fighter",
            Kind::Missile => "missile",
            Kind::Camel => "camel",
            Kind::Chancellor => "chancellor",
        }
    }

    /// Material value in centipawns for greedy and evaluation (chariot 900, ..., general huge).
    pub const fn value(self) -> i32 {
        match self {
            Kind::General => 100_000,
            Kind::Chariot => 900,
            Kind::Missile => 700,
            Kind::Fighter | Kind::Camel => 500,
            Kind::Cannon => 450,
            Kind::Horse => 400,
            Kind::Chancellor => 250,
            Kind::Advisor | Kind::Elephant => 200,
            Kind::Soldier => 100,
        }
    }
}

/// A piece: colour and kind, packed as a non-zero byte so that `0` is an empty square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub kind: Kind,
}

impl Piece {
    /// A piece.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// The byte code (1..=22).
    #[inline]
    pub const fn code(self) -> u8 {
        1 + self.color as u8 * 11 + self.kind as u8
    }

    /// The piece of a non-zero byte code.
    #[inline]
    pub fn from_code(c: u8) -> Option<Piece> {
        if c == 0 || c > 22 {
            return None;
        }
        let i = c - 1;
        let color = if i >= 11 { Color::Black } else { Color::Red };
        Some(Piece { color, kind: Kind::ALL[(i % 11) as usize] })
    }

    /// FEN letter: upper case for Red.
    pub fn char(self) -> char {
        let c = self.kind.upper_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::from_upper(c.to_ascii_uppercase())?;
        Some(Piece { color: if c.is_ascii_uppercase() { Color::Red } else { Color::Black }, kind })
    }
}
