//! `anqi serve`: a local web page to play any game (a RULES.md variant, a RULES-more.md preset or
//! a rule file of either) against any bot, from the human's side's view ([`session`]), on axum.
//! One game at a time; the page talks JSON:
//!
//! - `GET /` the page (static assets compiled in);
//! - `GET /api/options` the presets and the offered bot specs;
//! - `POST /api/new` `{variant, bot, color, movetime_ms, seed}` starts a game;
//! - `GET /api/state`, `POST /api/play` `{action}`, `POST /api/undo`, `POST /api/resign`: each
//!   answers the [`session::Observation`] after the step (or `{error}` with status 400).
//!
//! A finished game is appended to the PGN file (`--pgn`), which `anqi view` turns into pages.

pub mod session;

use axum::extract::State as AxState;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use session::{NewGame, Session, SessionError};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

const PLAY_HTML: &str = include_str!("assets/play.html");
const PLAY_JS: &str = include_str!("assets/play.js");

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Where finished games are appended.
    pub pgn: PathBuf,
    /// The bot specs the page offers (any other spec can be typed in).
    pub bots: Vec<String>,
}

struct Shared {
    settings: Settings,
    game: Mutex<Option<Session>>,
    count: Mutex<u32>,
}

type App = Arc<Shared>;

/// The router of the play page.
pub fn router(settings: Settings) -> Router {
    let shared = Arc::new(Shared { settings, game: Mutex::new(None), count: Mutex::new(0) });
    Router::new()
        .route("/", get(page))
        .route("/api/options", get(options))
        .route("/api/state", get(state))
        .route("/api/new", post(new_game))
        .route("/api/play", post(play))
        .route("/api/undo", post(undo))
        .route("/api/resign", post(resign))
        .with_state(shared)
}

/// Serves the page on `addr` until the process ends; prints `listening on http://ADDR/` once
/// bound (port 0 picks a free port).
///
/// # Errors
/// The address cannot be bound, or the server fails.
pub async fn serve(addr: SocketAddr, settings: Settings) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    println!("listening on http://{local}/");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    axum::serve(listener, router(settings)).await
}

async fn page() -> impl IntoResponse {
    let html = PLAY_HTML
        .replace("{{STYLE}}", crate::viewer::page::STYLE_CSS)
        .replace("{{BOARD_JS}}", crate::viewer::page::BOARD_JS)
        .replace("{{PLAY_JS}}", PLAY_JS);
    ([(header::CACHE_CONTROL, "no-store")], Html(html))
}

async fn options(AxState(app): AxState<App>) -> Response {
    // Both rule books: the RULES.md presets, then the RULES-more.md ones (the session plays any).
    let variants: Vec<&str> = engine::variant::config::preset_names().chain(engine::more::presets::presets().into_iter().map(|(n, _)| n)).collect();
    Json(serde_json::json!({ "variants": variants, "bots": app.settings.bots })).into_response()
}

fn error(e: impl std::fmt::Display) -> Response {
    (StatusCode::BAD_REQUEST, Json(serde_json::json!({ "error": e.to_string() }))).into_response()
}

/// Runs `f` on the game (on a blocking thread: the bot searches there), saves a finished game,
/// and answers the observation.
async fn with_game(app: App, f: impl FnOnce(&mut Session) -> Result<(), SessionError> + Send + 'static) -> Response {
    let result = tokio::task::spawn_blocking(move || {
        let mut guard = app.game.lock().unwrap_or_else(|e| e.into_inner());
        let Some(game) = guard.as_mut() else { return Err("no game: start one".to_string()) };
        f(game).map_err(|e| e.to_string())?;
        save_if_over(&app.settings, game)?;
        game.observation().map_err(|e| e.to_string())
    })
    .await;
    match result {
        Ok(Ok(obs)) => Json(obs).into_response(),
        Ok(Err(e)) => error(e),
        Err(e) => error(format!("the move failed: {e}")),
    }
}

fn save_if_over(settings: &Settings, game: &mut Session) -> Result<(), String> {
    if game.is_saved() {
        return Ok(());
    }
    let Some(record) = game.record(&crate::tournament::pgn::today()) else { return Ok(()) };
    append_pgn(&settings.pgn, &record.to_pgn()).map_err(|e| format!("saving the game to {}: {e}", settings.pgn.display()))?;
    game.set_saved(settings.pgn.display().to_string());
    Ok(())
}

/// Appends one record to the PGN file (through a temporary copy and a rename, so the file is
/// never left half-written).
fn append_pgn(path: &std::path::Path, record: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    text.push_str(record);
    crate::viewer::write_atomic(path, text.as_bytes())
}

async fn state(AxState(app): AxState<App>) -> Response {
    with_game(app, |_| Ok(())).await
}

#[derive(Deserialize)]
struct NewRequest {
    variant: String,
    bot: String,
    color: String,
    movetime_ms: Option<u64>,
    seed: Option<u64>,
}

async fn new_game(AxState(app): AxState<App>, Json(req): Json<NewRequest>) -> Response {
    let human = match req.color.as_str() {
        "red" => engine::Color::Red,
        "black" => engine::Color::Black,
        other => return error(format!("color {other:?}: expected red or black")),
    };
    let seed = req.seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1));
    let ask = NewGame { variant: req.variant, bot: req.bot, human, movetime_ms: req.movetime_ms.filter(|&m| m > 0), seed };
    let result = tokio::task::spawn_blocking(move || {
        let number = {
            let mut c = app.count.lock().unwrap_or_else(|e| e.into_inner());
            *c += 1;
            *c
        };
        let mut game = session::start(&ask, number).map_err(|e| e.to_string())?;
        save_if_over(&app.settings, &mut game)?;
        let obs = game.observation().map_err(|e| e.to_string())?;
        *app.game.lock().unwrap_or_else(|e| e.into_inner()) = Some(game);
        Ok::<_, String>(obs)
    })
    .await;
    match result {
        Ok(Ok(obs)) => Json(obs).into_response(),
        Ok(Err(e)) => error(e),
        Err(e) => error(format!("starting the game failed: {e}")),
    }
}

#[derive(Deserialize)]
struct PlayRequest {
    action: String,
}

async fn play(AxState(app): AxState<App>, Json(req): Json<PlayRequest>) -> Response {
    with_game(app, move |g| g.play(&req.action)).await
}

async fn undo(AxState(app): AxState<App>) -> Response {
    with_game(app, |g| g.undo()).await
}

async fn resign(AxState(app): AxState<App>) -> Response {
    with_game(app, |g| {
        g.resign();
        Ok(())
    })
    .await
}
