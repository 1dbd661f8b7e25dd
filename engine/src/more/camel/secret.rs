//! The secret trick layouts of camel xiangqi (RULES-more.md §2.13, optional non-canonical
//! variant; rule option [`super::CamelRules::secret_tricks`], preset `camel-7-secret`).
//!
//! * **Set-up:** before Red's first move each side places the 8 tricks and the blank under its
//!   own plate, one cell per action in owner-local order (column-major from the back-left cell:
//!   (0,0), (0,1), (0,2), (1,0), ...); the ninth cell takes the last tile by itself. Red places
//!   first, then Black without seeing Red's tiles: a simultaneous commit.
//! * **Secrecy:** a side's layout stays hidden from the opponent until that side's plate is
//!   first flipped (the flip shows it); rotations are public, so the opponent always knows
//!   *where* each original cell is, only not *what* it holds. The face beneath has no effect
//!   while it is down, so legality never depends on the secret.
//! * **Repetition keys** hash a hidden face by where its cells came from
//!   ([`CamelPosition::hash_hiding`]), so a re-dealt layout keeps the game's record valid.
//! * **View FEN:** the FEN with the opponent's hidden cells written `?` (cells not placed yet
//!   stay `-`), then ` view w` or ` view b` (docs/notation.md §5.3).

use rand::seq::SliceRandom;
use rand::Rng;

use super::fen;
use super::game::{CamelGame, OWN_ROOT, SETUP};
use super::position::{CamelPosition, Cell, BLANK, HIDDEN, NUMBER, PLAIN, UNSET};
use super::rules::CamelPreset;
use crate::game::{Action, Game};
use crate::more::history::{mix, Record};
use crate::more::MoreError;
use crate::piece::Color;

/// The nine tiles of a trick face: K1-K8 and the blank.
const TILES: [Cell; 9] = [1, 2, 3, 4, 5, 6, 7, 8, BLANK];

/// The cells of `c`'s face beneath, in owner-local column-major order.
fn down_cells(p: &CamelPosition, c: Color) -> [Cell; 9] {
    let mut out = [0; 9];
    for (i, &x) in p.plates[c.index()].down.iter().flatten().enumerate() {
        out[i] = x;
    }
    out
}

/// Sets cell `k` (column-major) of `c`'s face beneath.
fn set_down(p: &mut CamelPosition, c: Color, k: usize, x: Cell) {
    p.plates[c.index()].down[k / 3][k % 3] = x;
}

/// The own path after placing `tiles` in order.
fn chain(c: Color, tiles: &[Cell]) -> u64 {
    tiles
        .iter()
        .fold(OWN_ROOT[c.index()], |h, &t| mix(h, t as u64))
}

/// The kind of a whole plate face.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Face {
    /// Nine plain cells (editions 1-6).
    Plain,
    /// The trick face (§2.9): K1-K8 and the blank, each once; cells not placed yet (`-`) under
    /// the secret set-up.
    Tricks,
    /// The number face (§2.11): 1-9, each once.
    Numbers,
}

impl Face {
    fn name(self) -> &'static str {
        match self {
            Face::Plain => "plain",
            Face::Tricks => "trick",
            Face::Numbers => "number",
        }
    }
}

/// The kind of `face`, if it is one whole face.
fn face_kind(face: &[[Cell; 3]; 3]) -> Option<Face> {
    let cells: Vec<Cell> = face.iter().flatten().copied().collect();
    let mut set: Vec<Cell> = cells.iter().copied().filter(|&x| x != UNSET).collect();
    set.sort_unstable();
    set.dedup();
    let distinct = set.len() == cells.iter().filter(|&&x| x != UNSET).count();
    if cells.iter().all(|&x| x == PLAIN) {
        Some(Face::Plain)
    } else if distinct && cells.iter().all(|x| TILES.contains(x) || *x == UNSET) {
        Some(Face::Tricks)
    } else if distinct && cells.iter().all(|&x| x > NUMBER && x <= NUMBER + 9) {
        Some(Face::Numbers)
    } else {
        None
    }
}

/// Checks the plate faces of a full-state FEN: no `?` (a view marker), `-` only under the
/// secret-layout option, only beneath, as a suffix of the placement order, Black placing only
/// after Red has finished, and no tile twice; each face a whole plain, trick or number face, the
/// one up being the one the edition and the plate's flip count leave up.
///
/// # Errors
/// [`MoreError::Fen`] naming the plate and what is wrong.
pub fn check_faces(p: &CamelPosition) -> Result<(), MoreError> {
    let secret = p.rules.secret_tricks;
    let mut placed = [0usize; 2];
    for c in Color::ALL {
        let plate = &p.plates[c.index()];
        if plate
            .up
            .iter()
            .flatten()
            .chain(plate.down.iter().flatten())
            .any(|&x| x == HIDDEN)
        {
            return Err(MoreError::Fen(format!(
                "{c} plate: '?' marks a hidden cell in view FENs only"
            )));
        }
        if plate.up.iter().flatten().any(|&x| x == UNSET) {
            return Err(MoreError::Fen(format!(
                "{c} plate: '-' (not placed) only on the face beneath"
            )));
        }
        let cells = down_cells(p, c);
        let n = cells.iter().take_while(|&&x| x != UNSET).count();
        if n < 9 && !secret {
            return Err(MoreError::Fen(format!(
                "{c} plate: '-' (not placed) needs the secret_tricks option"
            )));
        }
        if cells[n..].iter().any(|&x| x != UNSET) {
            return Err(MoreError::Fen(format!(
                "{c} plate: cells are placed in order; a placed cell follows an unplaced one"
            )));
        }
        if n < 9 {
            let mut seen = cells[..n].to_vec();
            if seen.iter().any(|x| !TILES.contains(x)) {
                return Err(MoreError::Fen(format!(
                    "{c} plate: a placed cell must hold a trick or the blank"
                )));
            }
            seen.sort_unstable();
            seen.dedup();
            if seen.len() != n {
                return Err(MoreError::Fen(format!("{c} plate: a tile is placed twice")));
            }
        }
        placed[c.index()] = n;
        // Which face is up follows from the edition and the flips made (§2.9: plain face up at
        // the start, one flip in editions 5-6; §2.11: number face up at the start, every flip
        // turns the plate over), and each face is one whole face of its kind.
        let flips = p.flips[c.index()];
        let (up, down) = match p.rules.edition {
            ..=4 if flips == 0 => (Face::Plain, Face::Plain),
            5 | 6 if flips == 0 => (Face::Plain, Face::Tricks),
            5 | 6 if flips == 1 => (Face::Tricks, Face::Plain),
            // The count saturates at 255 (play_unchecked), where its parity says nothing.
            7.. if flips == u8::MAX && face_kind(&plate.up) == Some(Face::Tricks) => (Face::Tricks, Face::Numbers),
            7.. if flips == u8::MAX => (Face::Numbers, Face::Tricks),
            7.. if flips.is_multiple_of(2) => (Face::Numbers, Face::Tricks),
            7.. => (Face::Tricks, Face::Numbers),
            _ => return Err(MoreError::Fen(format!("{c} plate: {flips} flips, but edition {} flips a plate {}", p.rules.edition, if p.rules.tricks() { "once at most" } else { "never" }))),
        };
        for (face, want, side) in [(&plate.up, up, "up"), (&plate.down, down, "beneath")] {
            if face_kind(face) != Some(want) {
                return Err(MoreError::Fen(format!("{c} plate: after {flips} flips edition {} has a whole {} face {side}", p.rules.edition, want.name())));
            }
        }
    }
    if placed[1] > 0 && placed[0] < 9 {
        return Err(MoreError::Fen(
            "Black places its tiles only after Red has placed all of its own".into(),
        ));
    }
    Ok(())
}

impl CamelGame {
    /// The side placing tiles in the secret set-up, if it is under way.
    pub(super) fn placing(&self) -> Option<Color> {
        let placed = self.setup.as_ref()?;
        Color::ALL.into_iter().find(|c| placed[c.index()].len() < 9)
    }

    /// Checks a game read from a FEN whose secret set-up (§2.13) is under way (cells not
    /// placed): only placements have happened, so the position is the start's with those
    /// placements (a FEN whose pieces moved before the layouts were placed is no game's).
    ///
    /// # Errors
    /// [`MoreError::Fen`] naming the start the set-up expects.
    pub(super) fn check_setup_position(&self, preset: CamelPreset) -> Result<(), MoreError> {
        let Some(placed) = self.setup.as_ref() else { return Ok(()) };
        let mut start = CamelGame::new(preset);
        for c in Color::ALL {
            for &t in placed[c.index()].iter().take(8) {
                if start.placing() != Some(c) || !start.free_tiles(c).contains(&t) {
                    return Err(MoreError::Fen(format!("{c} plate: no set-up places these tiles (§2.13)")));
                }
                start.place(t as u32);
            }
        }
        let (want, got) = (fen::write(&start.pos), fen::write(&self.pos));
        if want != got {
            return Err(MoreError::Fen(format!(
                "the secret set-up is under way (cells not placed, §2.13), so nothing has moved yet: expected {want:?}, got {got:?}"
            )));
        }
        Ok(())
    }

    /// The acting colour (the placing side during the set-up).
    pub fn to_act(&self) -> Color {
        self.placing().unwrap_or(self.pos.turn())
    }

    /// Whether the secret set-up (§2.13) is under way.
    pub fn in_setup(&self) -> bool {
        self.setup.is_some()
    }

    /// Whether `c`'s trick layout is still secret from its opponent (never flipped).
    pub fn hidden(&self, c: Color) -> bool {
        self.preset_rules().secret_tricks && self.pos.flips[c.index()] == 0
    }

    fn preset_rules(&self) -> &super::CamelRules {
        self.pos.rules()
    }

    /// The tiles `c` has not placed yet.
    pub(super) fn free_tiles(&self, c: Color) -> Vec<Cell> {
        let placed = self
            .setup
            .as_ref()
            .map(|s| s[c.index()].as_slice())
            .unwrap_or(&[]);
        TILES
            .iter()
            .copied()
            .filter(|t| !placed.contains(t))
            .collect()
    }

    /// Places `tile` on the placing side's next cell (the ninth fills itself); ends the set-up
    /// when both sides are done.
    pub(super) fn place(&mut self, tile: u32) {
        let Some(c) = self.placing() else { return };
        let tile = tile as Cell;
        let put = |g: &mut CamelGame, t: Cell| {
            if let Some(s) = g.setup.as_mut() {
                let k = s[c.index()].len();
                s[c.index()].push(t);
                set_down(&mut g.pos, c, k, t);
                g.own_path[c.index()] = mix(g.own_path[c.index()], t as u64);
            }
        };
        put(self, tile);
        if self.setup.as_ref().is_some_and(|s| s[c.index()].len() == 8) {
            let last = self.free_tiles(c)[0];
            put(self, last);
        }
        if self.placing().is_none() {
            self.setup = None;
            self.layouts = [
                Some(down_cells(&self.pos, Color::Red)),
                Some(down_cells(&self.pos, Color::Black)),
            ];
            self.record = Record::new(self.record_hash());
        }
    }

    /// Reads the set-up state and layouts from the position (a game built from a FEN): cells
    /// not placed yet mean the set-up is under way; a complete face beneath a never-flipped
    /// plate is that side's secret layout.
    pub(super) fn adopt_layouts(&mut self) {
        if !self.preset_rules().secret_tricks {
            return;
        }
        let cells = [
            down_cells(&self.pos, Color::Red),
            down_cells(&self.pos, Color::Black),
        ];
        let placed = cells.map(|c| {
            c.iter()
                .copied()
                .take_while(|&x| x != UNSET)
                .collect::<Vec<_>>()
        });
        self.own_path = [
            chain(Color::Red, &placed[0]),
            chain(Color::Black, &placed[1]),
        ];
        if placed.iter().any(|p| p.len() < 9) {
            self.setup = Some(placed);
            return;
        }
        for c in Color::ALL {
            self.layouts[c.index()] = self.hidden(c).then_some(cells[c.index()]);
        }
        self.record = Record::new(self.record_hash());
    }

    /// The hash of the position as both players see it: every secret cell (placed beneath a
    /// plate never flipped, RULES-more.md §2.13) written as hidden. The public path of a game
    /// read from a FEN starts from it, so that no player's information-set key carries the
    /// other's secret layout (issue #39).
    pub(super) fn public_hash(&self) -> u64 {
        let mut p = self.pos.clone();
        for c in Color::ALL {
            if !self.hidden(c) {
                continue;
            }
            for k in 0..9 {
                if down_cells(&p, c)[k] != UNSET {
                    set_down(&mut p, c, k, HIDDEN);
                }
            }
        }
        p.hash()
    }

    /// The position hash kept in the repetition record: secret layouts hashed by origin.
    pub(super) fn record_hash(&self) -> u64 {
        let l = |c: Color| self.layouts[c.index()].as_ref().filter(|_| self.hidden(c));
        self.pos.hash_hiding([l(Color::Red), l(Color::Black)])
    }

    /// The string of a set-up action: `K5@e0` (trick 5 on the cell at e0), `K0@f1` the blank.
    pub(super) fn setup_string(&self, a: Action) -> String {
        let t = (a.0 & 0xF) as Cell;
        let Some(c) = self.placing() else {
            return format!("K{t}@?");
        };
        let k = self.setup.as_ref().map_or(0, |s| s[c.index()].len()) as u8;
        let sq = self.pos.cell_square(c, k / 3, k % 3);
        format!(
            "K{}@{}",
            if t == BLANK { 0 } else { t },
            self.pos.geo().name(sq)
        )
    }

    /// The view FEN of `c` (docs/notation.md §5.3): the FEN while nothing is hidden from `c`;
    /// otherwise the FEN with the opponent's secret cells as `?` (unplaced ones stay `-`), then
    /// ` view w` or ` view b`. [`CamelGame::from_view`] reads it back.
    pub fn view_fen(&self, c: Color) -> String {
        let o = c.opponent();
        if !self.hidden(o) {
            return self.fen();
        }
        let mut p = self.pos.clone();
        for k in 0..9 {
            if down_cells(&p, o)[k] != UNSET {
                set_down(&mut p, o, k, HIDDEN);
            }
        }
        format!(
            "{} view {}",
            fen::write(&p),
            if c == Color::Red { 'w' } else { 'b' }
        )
    }

    /// A game state that a view FEN ([`CamelGame::view_fen`]) describes, with the viewer's
    /// view and infoset string: during the set-up the viewer's tiles are replayed in order and
    /// the opponent's hidden ones are its lowest free tiles; after it, the opponent's hidden
    /// cells get K1-K8 and the blank in cell order (one state of the information set; a
    /// determinization draws others). A FEN carries no move history, so after the set-up the
    /// state has the position, not the path, of the original. A view without ` view ` is a FEN.
    ///
    /// # Errors
    /// [`MoreError::Fen`]: a malformed view, a preset without secret layouts, or faces that
    /// no set-up produces.
    pub fn from_view(preset: CamelPreset, text: &str) -> Result<CamelGame, MoreError> {
        let Some((fen_text, who)) = text.rsplit_once(" view ") else {
            return CamelGame::from_fen(preset, text);
        };
        let bad = |why: String| MoreError::Fen(format!("view {text:?}: {why}"));
        let viewer = match who {
            "w" => Color::Red,
            "b" => Color::Black,
            x => return Err(bad(format!("viewer {x:?} is not w or b"))),
        };
        if !preset.rules.secret_tricks {
            return Err(bad(format!("{} has no secret trick layouts", preset.name)));
        }
        let mut pos = fen::parse(preset.rules, fen_text)?;
        let o = viewer.opponent();
        let opp = down_cells(&pos, o);
        if opp.iter().any(|&x| x != HIDDEN && x != UNSET) {
            return Err(bad(
                "the opponent's face beneath must be hidden ('?') or unplaced ('-')".into(),
            ));
        }
        let own = down_cells(&pos, viewer);
        let g = if own.contains(&UNSET) || opp.contains(&UNSET) {
            let own: Vec<Cell> = own.iter().copied().take_while(|&x| x != UNSET).collect();
            let hidden = opp.iter().filter(|&&x| x == HIDDEN).count();
            let mut g = CamelGame::new(preset);
            for c in Color::ALL {
                let n = if c == viewer { own.len() } else { hidden };
                let mut mine = own.iter();
                for _ in 0..n.min(8) {
                    if g.placing() != Some(c) {
                        return Err(bad(
                            "placements out of order (Red places all of its tiles first)".into(),
                        ));
                    }
                    let t = match mine.next() {
                        Some(&t) if c == viewer => t,
                        _ => g.free_tiles(c)[0],
                    };
                    if !g.free_tiles(c).contains(&t) {
                        return Err(bad(format!("tile {t} placed twice")));
                    }
                    g.apply(Action(SETUP | t as u32));
                }
            }
            g
        } else {
            for (k, t) in TILES.iter().enumerate() {
                set_down(&mut pos, o, k, *t);
            }
            check_faces(&pos)?;
            CamelGame::from_fen(preset, &fen::write(&pos))?
        };
        if g.view_fen(viewer) != text {
            return Err(bad(format!(
                "no set-up gives this view (expected {:?})",
                g.view_fen(viewer)
            )));
        }
        Ok(g)
    }

    /// This state with `o`'s secret tiles re-dealt uniformly (a determinization for `o`'s
    /// opponent): during the set-up the tiles `o` has placed; after it, `o`'s whole layout,
    /// each original cell keeping its current place on the (possibly rotated) plate. States
    /// where nothing of `o` is secret come back unchanged.
    pub(super) fn redeal<R: Rng + ?Sized>(&self, o: Color, rng: &mut R) -> CamelGame {
        let mut g = self.clone();
        if !self.hidden(o) {
            return g;
        }
        let mut deal = TILES;
        deal.shuffle(rng);
        if let Some(s) = g.setup.as_mut() {
            let n = s[o.index()].len();
            s[o.index()] = deal[..n].to_vec();
            for (k, &t) in deal[..n].iter().enumerate() {
                set_down(&mut g.pos, o, k, t);
            }
            g.own_path[o.index()] = chain(o, &deal[..n]);
            g.refresh();
            return g;
        }
        let Some(layout) = self.layouts[o.index()] else {
            return g;
        };
        let now = down_cells(&self.pos, o);
        for (x, t) in now.iter().enumerate() {
            let origin = layout.iter().position(|l| l == t).unwrap_or(x);
            set_down(&mut g.pos, o, x, deal[origin]);
        }
        g.layouts[o.index()] = Some(deal);
        g.own_path[o.index()] = chain(o, &deal);
        g
    }
}
