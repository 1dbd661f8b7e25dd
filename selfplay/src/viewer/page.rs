//! The viewer pages: one self-contained HTML file per game (no server, no network: the page's
//! script, style and the game's frames as JSON are inside it) and an index linking them. The
//! HTML, CSS and JavaScript are static assets compiled in with `include_str!`.

use super::frames::{self, FramesError, GameFrames};
use super::write_atomic;
use crate::tournament::pgn::Record;
use std::path::{Path, PathBuf};

const VIEW_HTML: &str = include_str!("assets/view.html");
const VIEW_JS: &str = include_str!("assets/view.js");
/// The board-drawing script shared by the viewer and the play page.
pub const BOARD_JS: &str = include_str!("assets/board.js");
/// The style sheet shared by the viewer and the play page.
pub const STYLE_CSS: &str = include_str!("assets/style.css");

/// Why the pages could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// A record could not be replayed.
    #[error(transparent)]
    Frames(#[from] FramesError),
    /// The frames could not be serialised.
    #[error("serialising the game: {0}")]
    Json(#[from] serde_json::Error),
    /// A file could not be written.
    #[error("writing {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// A chosen game index is not in the records.
    #[error("game {index} asked for, but the records hold {count} games")]
    NoSuchGame {
        /// The 0-based index asked for.
        index: usize,
        /// How many records there are.
        count: usize,
    },
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// JSON made safe inside a `<script>` element (no `</script>` or `<!--` can appear).
pub fn script_json<T: serde::Serialize>(value: &T) -> Result<String, serde_json::Error> {
    Ok(serde_json::to_string(value)?.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026"))
}

/// Links shown above a game: the index and the neighbouring games.
#[derive(Clone, Debug, Default)]
pub struct Nav {
    /// The index page.
    pub index: Option<String>,
    /// The previous game's page.
    pub prev: Option<String>,
    /// The next game's page.
    pub next: Option<String>,
}

/// The HTML of one game's viewer page.
///
/// # Errors
/// The frames cannot be serialised.
pub fn game_page(g: &GameFrames, nav: &Nav) -> Result<String, serde_json::Error> {
    let mut links = Vec::new();
    if let Some(i) = &nav.index {
        links.push(format!("<a class=\"index\" href=\"{}\">all games</a>", escape_html(i)));
    }
    if let Some(p) = &nav.prev {
        links.push(format!("<a class=\"prev\" href=\"{}\">previous game (p)</a>", escape_html(p)));
    }
    if let Some(n) = &nav.next {
        links.push(format!("<a class=\"next\" href=\"{}\">next game (n)</a>", escape_html(n)));
    }
    Ok(VIEW_HTML
        .replace("{{TITLE}}", &escape_html(&g.title))
        .replace("{{STYLE}}", STYLE_CSS)
        .replace("{{NAV}}", &links.join(" · "))
        .replace("{{BOARD_JS}}", BOARD_JS)
        .replace("{{VIEW_JS}}", VIEW_JS)
        .replace("{{GAME}}", &script_json(g)?))
}

/// The file name of game `i` (0-based) of a set of pages: `{prefix}game-001.html`.
pub fn game_file(prefix: &str, i: usize) -> String {
    format!("{prefix}game-{:03}.html", i + 1)
}

/// Writes the viewer pages of `chosen` games of `records` (indices into it) into `dir` as
/// `{prefix}game-NNN.html` (NNN the game's 1-based place in `records`), linked to each other,
/// and returns `(title, file name)` of each page in order. Reports call this to link a few
/// games: the file names are relative to `dir`.
///
/// # Errors
/// [`PageError`].
pub fn write_games(records: &[Record], chosen: &[usize], dir: &Path, prefix: &str, index: Option<&str>) -> Result<Vec<(String, String)>, PageError> {
    std::fs::create_dir_all(dir).map_err(|source| PageError::Io { path: dir.to_path_buf(), source })?;
    for &i in chosen {
        if i >= records.len() {
            return Err(PageError::NoSuchGame { index: i, count: records.len() });
        }
    }
    let mut out = Vec::new();
    for (k, &i) in chosen.iter().enumerate() {
        let frames = frames::of_record(&records[i])?;
        let nav = Nav {
            index: index.map(str::to_string),
            prev: k.checked_sub(1).map(|j| game_file(prefix, chosen[j])),
            next: chosen.get(k + 1).map(|&j| game_file(prefix, j)),
        };
        let html = game_page(&frames, &nav)?;
        let name = game_file(prefix, i);
        let path = dir.join(&name);
        write_atomic(&path, html.as_bytes()).map_err(|source| PageError::Io { path: path.clone(), source })?;
        out.push((frames.title, name));
    }
    Ok(out)
}

/// Writes a viewer page for every game of `records` and `index.html` listing them into `dir`;
/// returns the index's path.
///
/// # Errors
/// [`PageError`].
pub fn write_all(records: &[Record], dir: &Path, heading: &str) -> Result<PathBuf, PageError> {
    let all: Vec<usize> = (0..records.len()).collect();
    let pages = write_games(records, &all, dir, "", Some("index.html"))?;
    let mut items = String::new();
    for (title, file) in &pages {
        items.push_str(&format!("<li><a href=\"{}\">{}</a></li>\n", escape_html(file), escape_html(title)));
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\"><title>{h}</title><style>{STYLE_CSS}</style></head>\n<body><h2>{h}</h2><p>{n} games. Each page steps through one game (← →, Home/End; r b f: red, black, full view).</p>\n<ol>\n{items}</ol></body></html>\n",
        h = escape_html(heading),
        n = pages.len(),
    );
    let path = dir.join("index.html");
    write_atomic(&path, html.as_bytes()).map_err(|source| PageError::Io { path: path.clone(), source })?;
    Ok(path)
}
