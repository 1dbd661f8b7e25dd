//! `anqi serve`: a local web page to play any game (a RULES.md variant, a RULES-more.md preset or
//! a rule file of either) against any bot, from the human's side's view ([`session`]), on axum.
//! One game at a time; the page talks JSON:
//!
//! - `GET /` the page (static assets compiled in);
//! - `GET /api/options` the presets and the offered bot specs;
//! - `POST /api/new` `{variant, bot, color, movetime_ms}` starts a game (`seed` only in a game
//!   with nothing hidden: the server draws the seed of a hidden game);
//! - `GET /api/state`, `POST /api/play` `{action}`, `POST /api/undo`, `POST /api/resign`: each
//!   answers the [`session::Observation`] after the step (or `{error}` with status 400).
//!
//! A finished game is appended to the PGN file (`--pgn`), which `anqi view` turns into pages.
//!
//! The server is for this machine only (issue #39): it listens on a loopback address, answers
//! only requests whose `Host` (and `Origin`, when sent) name that address ([`guard`]: a page
//! of another site reached through DNS rebinding is refused), reads bodies of at most
//! [`MAX_BODY`] bytes, closes a connection whose request header is not in within
//! [`Settings::header_timeout`], answers every request within [`Settings::request_timeout`] (a
//! bot still thinking then answers `busy`), loads only presets and rule files under `--rules DIR`, and caps
//! the bot's time per move ([`Settings::max_movetime_ms`]). Errors name the field, never a
//! file's contents.

pub mod guard;
pub mod session;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Request, State as AxState};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use session::{NewGame, Session, SessionError};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Duration;

const PLAY_HTML: &str = include_str!("assets/play.html");
const PLAY_JS: &str = include_str!("assets/play.js");

/// The largest request body read, in bytes (the page's requests are well under 1 KiB).
pub const MAX_BODY: usize = 4096;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Where finished games are appended.
    pub pgn: PathBuf,
    /// The bot specs the page offers (any other spec can be typed in, within [`guard::check_bot`]).
    pub bots: Vec<String>,
    /// The directory of rule files the page may name (`--rules`); `None`: presets only.
    pub rules: Option<PathBuf>,
    /// The most milliseconds the bot may think per move (folded into every spec as `ms=`).
    pub max_movetime_ms: u64,
    /// The longest a request waits for its answer; a bot still thinking then answers `busy`.
    pub request_timeout: Duration,
    /// The longest a client may take to send a request's header (line and fields) once it has
    /// connected or finished its previous request; a slower client is disconnected (a
    /// "slowloris" holding connections open with a trickle of bytes).
    pub header_timeout: Duration,
    /// Fixed `(game seed, re-deal seed)` for every game, for tests; `None` (the command line):
    /// drawn from the operating system's randomness, never from the request.
    pub fixed_seeds: Option<(u64, u64)>,
}

impl Settings {
    /// Settings with the command line's defaults: `--max-ms 10000`, a 60 s request timeout, a
    /// 10 s header timeout, no rules directory, seeds from the operating system.
    pub fn new(pgn: PathBuf, bots: Vec<String>) -> Settings {
        Settings { pgn, bots, rules: None, max_movetime_ms: 10_000, request_timeout: Duration::from_secs(60), header_timeout: Duration::from_secs(10), fixed_seeds: None }
    }
}

struct Shared {
    settings: Settings,
    local: SocketAddr,
    game: Mutex<Option<Session>>,
    count: Mutex<u32>,
}

type App = Arc<Shared>;

/// The router of the play page served at `local` (the address whose `Host` it accepts).
pub fn router(settings: Settings, local: SocketAddr) -> Router {
    let shared = Arc::new(Shared { settings, local, game: Mutex::new(None), count: Mutex::new(0) });
    Router::new()
        .route("/", get(page))
        .route("/api/options", get(options))
        .route("/api/state", get(state))
        .route("/api/new", post(new_game))
        .route("/api/play", post(play))
        .route("/api/undo", post(undo))
        .route("/api/resign", post(resign))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(shared.clone(), check_host))
        .with_state(shared)
}

/// Serves the page on `addr` (a loopback address) until the process ends; prints `listening
/// on http://ADDR/` once bound (port 0 picks a free port).
///
/// # Errors
/// The address is not a loopback address, cannot be bound, or the server fails.
pub async fn serve(addr: SocketAddr, settings: Settings) -> std::io::Result<()> {
    if !addr.ip().is_loopback() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{} is not a loopback address: the play page serves this machine only", addr.ip())));
    }
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    println!("listening on http://{local}/");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    serve_on(listener, settings).await
}

/// Serves the page on a bound listener (tests bind port 0 and read the address first): one
/// HTTP/1.1 connection task per client, each closed when its request header takes longer than
/// [`Settings::header_timeout`] (`axum::serve` sets no such timer).
///
/// # Errors
/// The listener's address cannot be read. A failed accept (e.g. out of file descriptors) is
/// retried after a pause, not returned.
pub async fn serve_on(listener: tokio::net::TcpListener, settings: Settings) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    let header_timeout = settings.header_timeout;
    let app = router(settings, local);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            // A connection that fails or times out ends alone; the server goes on.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .await;
        });
    }
}

/// Refuses a request whose `Host` or `Origin` is not this server ([`guard::host_allowed`]).
async fn check_host(AxState(app): AxState<App>, req: Request, next: Next) -> Response {
    let checked = {
        let text = |name: header::HeaderName| req.headers().get(name).map(|v| v.to_str().unwrap_or("(not text)").to_string());
        // HTTP/1.1 carries the authority in Host; an absolute-form request line carries it in the URI.
        let host = text(header::HOST).or_else(|| req.uri().authority().map(|a| a.to_string()));
        guard::host_allowed(app.local, host.as_deref(), text(header::ORIGIN).as_deref())
    };
    match checked {
        Ok(()) => next.run(req).await,
        Err(e) => error(StatusCode::FORBIDDEN, e),
    }
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
    Json(serde_json::json!({ "variants": guard::preset_names(), "bots": app.settings.bots })).into_response()
}

fn error(status: StatusCode, e: impl std::fmt::Display) -> Response {
    (status, Json(serde_json::json!({ "error": e.to_string() }))).into_response()
}

/// The answer of a request whose work (on a blocking thread: the bot searches there) did not end
/// within the request timeout: the work goes on and the game stays locked until it ends.
fn busy() -> Response {
    error(StatusCode::SERVICE_UNAVAILABLE, "busy: the bot is still thinking; ask again (GET /api/state)")
}

/// Runs `work` on a blocking thread, answering within the request timeout.
async fn blocking<T: Send + 'static>(app: &App, work: impl FnOnce() -> Result<T, String> + Send + 'static) -> Result<T, Response> {
    match tokio::time::timeout(app.settings.request_timeout, tokio::task::spawn_blocking(work)).await {
        Err(_) => Err(busy()),
        Ok(Err(e)) => Err(error(StatusCode::INTERNAL_SERVER_ERROR, format!("the request failed: {e}"))),
        Ok(Ok(Err(e))) => Err(error(StatusCode::BAD_REQUEST, e)),
        Ok(Ok(Ok(v))) => Ok(v),
    }
}

/// A request's JSON body, or the error naming what is wrong with it.
fn parse<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, Response> {
    serde_json::from_slice(body).map_err(|e| error(StatusCode::BAD_REQUEST, format!("request body: {e}")))
}

/// Runs `f` on the game (on a blocking thread: the bot searches there), saves a finished game,
/// and answers the observation. A game still locked by a bot move answers `busy` at once.
async fn with_game(app: App, f: impl FnOnce(&mut Session) -> Result<(), SessionError> + Send + 'static) -> Response {
    let a = app.clone();
    let work = move || {
        let mut guard = match a.game.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => return Err(None),
        };
        let Some(game) = guard.as_mut() else { return Err(Some("no game: start one".to_string())) };
        f(game).map_err(|e| Some(e.to_string()))?;
        save_if_over(&a.settings, game).map_err(Some)?;
        game.observation().map_err(|e| Some(e.to_string()))
    };
    match blocking(&app, move || Ok(work())).await {
        Ok(Ok(obs)) => Json(obs).into_response(),
        Ok(Err(None)) => busy(),
        Ok(Err(Some(e))) => error(StatusCode::BAD_REQUEST, e),
        Err(r) => r,
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

/// A seed from the operating system's randomness (std's per-process random hash keys, mixed
/// with the clock and a counter): never from the request.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    h.finish()
}

async fn new_game(AxState(app): AxState<App>, body: Bytes) -> Response {
    let req: NewRequest = match parse(&body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let human = match req.color.as_str() {
        "red" => engine::Color::Red,
        "black" => engine::Color::Black,
        other => return error(StatusCode::BAD_REQUEST, format!("color {:?}: expected red or black", other.chars().take(16).collect::<String>())),
    };
    let s = &app.settings;
    let checked = guard::resolve_variant(&req.variant, s.rules.as_deref()).and_then(|v| Ok((v, guard::check_bot(&req.bot, &s.bots, req.movetime_ms, s.max_movetime_ms)?)));
    let (variant, movetime_ms) = match checked {
        Ok(x) => x,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let (seed, redeal_seed) = s.fixed_seeds.unwrap_or_else(|| (fresh_seed(), fresh_seed()));
    let ask = NewGame { variant, bot: req.bot.trim().to_string(), human, movetime_ms, seed, redeal_seed };
    let client_seed = req.seed;
    let a = app.clone();
    let work = move || {
        let mut ask = ask;
        if let Some(seed) = client_seed {
            // Only where nothing is hidden: a seed fixes a hidden game's deal and layouts.
            if session::hides(&ask.variant).map_err(|e| e.to_string())? {
                return Err("seed: not taken from the page in a game with hidden information (the server draws it)".to_string());
            }
            ask.seed = seed;
        }
        let number = {
            let mut c = a.count.lock().unwrap_or_else(|e| e.into_inner());
            *c += 1;
            *c
        };
        let mut game = session::start(&ask, number).map_err(|e| e.to_string())?;
        save_if_over(&a.settings, &mut game)?;
        let obs = game.observation().map_err(|e| e.to_string())?;
        match a.game.try_lock() {
            Ok(mut g) => *g = Some(game),
            Err(TryLockError::Poisoned(p)) => *p.into_inner() = Some(game),
            Err(TryLockError::WouldBlock) => return Err("busy: the bot is still thinking in the game before; ask again".to_string()),
        }
        Ok(obs)
    };
    match blocking(&app, work).await {
        Ok(obs) => Json(obs).into_response(),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
struct PlayRequest {
    action: String,
}

async fn play(AxState(app): AxState<App>, body: Bytes) -> Response {
    let req: PlayRequest = match parse(&body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    if req.action.len() > guard::MAX_FIELD {
        return error(StatusCode::BAD_REQUEST, guard::GuardError::Field { field: "action", problem: format!("longer than {} bytes", guard::MAX_FIELD) });
    }
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
