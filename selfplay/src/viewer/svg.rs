//! Draws a [`Picture`] as an SVG document with the `svg` crate: the board lines (river, palace
//! diagonals), the pieces with their Chinese glyphs, face-down pieces, Surprise backs, the belief
//! bars and the last move. Every piece is a `<g class="piece">` carrying `data-sq`, `data-letter`
//! and `data-glyph`, as on the viewer and play pages, so a test can read the board back.

use super::picture::{Mark, Picture, RiverLine, Token, Viewpoint};
use svg::node::element::{Circle, Group, Line, Rectangle, Text as TextEl};
use svg::node::Text;
use svg::Document;

/// Distance between two points, in SVG units.
pub const CELL: f32 = 60.0;
/// Margin around the outermost lines.
pub const MARGIN: f32 = 45.0;
/// The font families asked for (the CJK fonts of Debian's `fonts-wqy-zenhei` and
/// `fonts-noto-cjk` first).
pub const FONT_FAMILY: &str = "WenQuanYi Zen Hei, Noto Sans CJK SC, Noto Serif CJK SC, sans-serif";

const LINE_COLOR: &str = "#5a3a1a";
const RED: &str = "#b3141b";
const BLACK: &str = "#1a1a1a";

/// Where a point is drawn: (x, y) of `file`, `rank` (Black's view turns the board round).
pub fn point(p: &Picture, file: u8, rank: u8) -> (f32, f32) {
    let (col, row) = match p.viewpoint {
        Viewpoint::Black => (p.files - 1 - file, rank),
        _ => (file, p.ranks - 1 - rank),
    };
    (MARGIN + col as f32 * CELL, MARGIN + row as f32 * CELL)
}

/// The square name of `file`, `rank` (`a0`, `e10`).
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank)
}

fn line(a: (f32, f32), b: (f32, f32), width: f32) -> Line {
    Line::new().set("x1", a.0).set("y1", a.1).set("x2", b.0).set("y2", b.1).set("stroke", LINE_COLOR).set("stroke-width", width)
}

fn text(x: f32, y: f32, size: f32, fill: &str, content: &str) -> TextEl {
    TextEl::new("")
        .set("x", x)
        .set("y", y)
        .set("font-size", size)
        .set("font-family", FONT_FAMILY)
        .set("text-anchor", "middle")
        .set("dominant-baseline", "central")
        .set("fill", fill)
        .add(Text::new(content))
}

/// The SVG document of `p` (with `title` above the notes, when given).
pub fn document(p: &Picture, title: Option<&str>) -> Document {
    let width = 2.0 * MARGIN + (p.files - 1) as f32 * CELL;
    let notes = p.notes.len() + usize::from(title.is_some());
    let board_h = 2.0 * MARGIN + (p.ranks - 1) as f32 * CELL;
    let height = board_h + 22.0 * notes as f32 + 8.0;
    let mut doc = Document::new().set("viewBox", (0, 0, width as i32, height as i32)).set("width", width).set("height", height);
    doc = doc.add(Rectangle::new().set("x", 0).set("y", 0).set("width", width).set("height", height).set("fill", "#f2d7a6"));
    doc = doc.add(board_lines(p));
    if let Some([a, b]) = p.last {
        for (f, r) in [a, b] {
            let (x, y) = point(p, f, r);
            let s = CELL * 0.9;
            doc = doc.add(
                Rectangle::new()
                    .set("class", "last")
                    .set("x", x - s / 2.0)
                    .set("y", y - s / 2.0)
                    .set("width", s)
                    .set("height", s)
                    .set("fill", "none")
                    .set("stroke", "#1f6fd1")
                    .set("stroke-width", 3),
            );
        }
    }
    for t in &p.tokens {
        doc = doc.add(piece(p, t));
    }
    for m in &p.marks {
        doc = doc.add(mark(p, m));
    }
    let mut y = board_h + 4.0;
    for line in title.into_iter().map(str::to_string).chain(p.notes.iter().cloned()) {
        y += 20.0;
        doc = doc.add(text(width / 2.0, y - 8.0, 14.0, BLACK, &line));
    }
    doc
}

fn board_lines(p: &Picture) -> Group {
    let mut g = Group::new().set("class", "board");
    let (fmax, rmax) = (p.files - 1, p.ranks - 1);
    for r in 0..p.ranks {
        g = g.add(line(point(p, 0, r), point(p, fmax, r), 1.5));
    }
    for f in 0..p.files {
        let edge = f == 0 || f == fmax;
        match p.river {
            RiverLine::Between(bank) if !edge => {
                g = g.add(line(point(p, f, 0), point(p, f, bank), 1.5));
                g = g.add(line(point(p, f, bank + 1), point(p, f, rmax), 1.5));
            }
            _ => g = g.add(line(point(p, f, 0), point(p, f, rmax), 1.5)),
        }
    }
    let (label_y, band) = match p.river {
        RiverLine::Between(bank) => ((point(p, 0, bank).1 + point(p, 0, bank + 1).1) / 2.0, None),
        RiverLine::Row(r) => (point(p, 0, r).1, Some(r)),
    };
    if let Some(r) = band {
        let (x0, y) = point(p, 0, r);
        let (x1, _) = point(p, fmax, r);
        let (lo, hi) = (x0.min(x1), x0.max(x1));
        g = g.add(Rectangle::new().set("x", lo).set("y", y - CELL * 0.3).set("width", hi - lo).set("height", CELL * 0.6).set("fill", "#9cc3e6").set("opacity", 0.5));
    }
    let width = 2.0 * MARGIN + fmax as f32 * CELL;
    g = g.add(text(width * 0.3, label_y, 26.0, LINE_COLOR, "楚 河").set("opacity", 0.6));
    g = g.add(text(width * 0.7, label_y, 26.0, LINE_COLOR, "漢 界").set("opacity", 0.6));
    for &(f, r) in &p.palaces {
        g = g.add(line(point(p, f, r), point(p, f + 2, r + 2), 1.2));
        g = g.add(line(point(p, f + 2, r), point(p, f, r + 2), 1.2));
    }
    g
}

/// A tile badge on its point, or in the point's upper-left corner when a piece stands there (over
/// the piece, so it stays readable), its name as the tooltip.
fn mark(p: &Picture, m: &Mark) -> Group {
    let (x, y) = point(p, m.file, m.rank);
    let ink = if m.color == 'r' { RED } else { BLACK };
    let (w, h) = (CELL * 0.42, CELL * 0.24);
    let occupied = p.tokens.iter().any(|t| (t.file, t.rank) == (m.file, m.rank));
    let (bx, by) = if occupied { (x - CELL * 0.5, y - CELL * 0.5) } else { (x - w / 2.0, y - h / 2.0) };
    Group::new()
        .set("class", "tile")
        .set("data-sq", square_name(m.file, m.rank))
        .set("data-label", m.label.clone())
        .add(svg::node::element::Title::new(if m.name.is_empty() { m.label.clone() } else { format!("{} {}", m.label, m.name) }))
        .add(Rectangle::new().set("x", bx).set("y", by).set("width", w).set("height", h).set("rx", 3).set("fill", "#fff7e0").set("stroke", ink).set("stroke-width", 1.2))
        .add(text(bx + w / 2.0, by + h / 2.0, CELL * 0.18, ink, &m.label))
}

fn piece(p: &Picture, t: &Token) -> Group {
    let (x, y) = point(p, t.file, t.rank);
    let ink = if t.color == 'r' { RED } else { BLACK };
    let radius = CELL * 0.43;
    let mut g = Group::new()
        .set("class", "piece")
        .set("data-sq", square_name(t.file, t.rank))
        .set("data-letter", t.letter.to_string())
        .set("data-glyph", t.glyph.to_string())
        .set("data-down", if t.down { "1" } else { "0" });
    if let Some(b) = t.back {
        g = g.set("data-back", b.to_string());
    }
    let known_down = t.down && t.glyph != super::picture::UNKNOWN_GLYPH;
    let (fill, glyph_ink) = if t.down && !known_down { ("#7a5a33", "#f2d7a6") } else { ("#fbeed3", ink) };
    let mut disc = Circle::new().set("cx", x).set("cy", y).set("r", radius).set("fill", fill).set("stroke", ink).set("stroke-width", 2.5);
    if known_down {
        disc = disc.set("stroke-dasharray", "5 3");
    }
    g = g.add(disc);
    if t.marker {
        g = g.add(Circle::new().set("cx", x).set("cy", y).set("r", radius + 4.0).set("fill", "none").set("stroke", "#d4a017").set("stroke-width", 3));
    }
    g = g.add(text(x, y, CELL * 0.48, glyph_ink, &t.glyph.to_string()));
    if let Some(b) = t.back {
        let (bx, by) = (x + radius * 0.75, y + radius * 0.75);
        g = g.add(Circle::new().set("cx", bx).set("cy", by).set("r", CELL * 0.16).set("fill", "#e8e0cc").set("stroke", ink).set("stroke-width", 1.2));
        g = g.add(text(bx, by, CELL * 0.2, ink, &b.to_string()));
    }
    if !t.beliefs.is_empty() {
        let bar_w = CELL * 0.8 / t.beliefs.len().max(1) as f32;
        let base = y + radius + 1.0;
        for (i, (glyph, prob)) in t.beliefs.iter().enumerate() {
            let bx = x - CELL * 0.4 + i as f32 * bar_w;
            let h = 12.0 * prob;
            g = g.add(
                Rectangle::new()
                    .set("class", "belief")
                    .set("data-glyph", glyph.to_string())
                    .set("data-p", format!("{prob:.3}"))
                    .set("x", bx + 1.0)
                    .set("y", base + 12.0 - h)
                    .set("width", bar_w - 2.0)
                    .set("height", h.max(0.5))
                    .set("fill", "#2a7f62"),
            );
            g = g.add(text(bx + bar_w / 2.0, base + 17.0, 7.0, BLACK, &glyph.to_string()));
        }
    }
    g
}
