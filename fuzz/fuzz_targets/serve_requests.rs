//! The play page's requests (`anqi serve`): the axum router (`selfplay::serve::router`) driven
//! in-process, one request per input line `METHOD PATH BODY` (at most 16), on one server whose
//! game lives across the lines: the JSON bodies' parsing, the guard (variant, bot, movetime,
//! seed), the session's set-up, play, undo and resign.
//!
//! The server offers `random`, `greedy` and `alphabeta:depth=1`, caps the bot at 20 ms a move,
//! draws fixed seeds, has no rules directory and saves finished games to a scratch PGN file.
//!
//! Invariants: no request fails inside the server (status 500); every answer of `/api/…` is a
//! JSON object; a refusal (4xx) carries an `error` text.
#![no_main]

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use libfuzzer_sys::fuzz_target;
use selfplay::serve::{router, Settings};
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::Duration;
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime"))
}

fn settings() -> Settings {
    let pgn = std::env::temp_dir().join(format!("anqi-fuzz-serve-{}.pgn", std::process::id()));
    let mut s = Settings::new(pgn, vec!["random".into(), "greedy".into(), "alphabeta:depth=1".into()]);
    s.max_movetime_ms = 20;
    s.request_timeout = Duration::from_secs(20);
    s.fixed_seeds = Some((1, 2));
    s
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let local: SocketAddr = "127.0.0.1:8080".parse().expect("address");
    let app = router(settings(), local);
    runtime().block_on(async move {
        for line in text.lines().take(16) {
            let mut parts = line.splitn(3, ' ');
            let (Some(method), Some(path)) = (parts.next(), parts.next()) else { continue };
            let body = parts.next().unwrap_or("").to_string();
            let Ok(method) = Method::from_bytes(method.as_bytes()) else { continue };
            let Ok(req) = Request::builder().method(method).uri(path).header("host", "127.0.0.1:8080").body(Body::from(body)) else { continue };
            let api = req.uri().path().starts_with("/api/");
            let res = app.clone().oneshot(req).await.expect("the router answers every request");
            let status = res.status();
            assert_ne!(status, StatusCode::INTERNAL_SERVER_ERROR, "{line:?} failed inside the server");
            let bytes = axum::body::to_bytes(res.into_body(), 1 << 24).await.expect("the answer's body");
            if api && ![StatusCode::NOT_FOUND, StatusCode::METHOD_NOT_ALLOWED, StatusCode::PAYLOAD_TOO_LARGE].contains(&status) {
                let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{line:?}: answer {status} is not JSON ({e}): {:?}", String::from_utf8_lossy(&bytes)));
                assert!(json.is_object(), "{line:?}: answer {json}");
                if status.is_client_error() {
                    assert!(json.get("error").is_some_and(|e| e.is_string()), "{line:?}: refusal {status} without an error text: {json}");
                }
            }
        }
    });
});
