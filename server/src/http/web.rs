//! The web client: files from `web-client/dist`, with every other path answered by
//! `index.html` so client-side routes (`/r/K7QX2MHDWA`) work on reload. While the client has not
//! been built, a plain page says how to build it.

use axum::response::Html;
use axum::routing::{MethodRouter, get};
use std::path::Path;
use tower_http::services::{ServeDir, ServeFile};

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>Pandemonium</title>\
<body style=\"font-family:sans-serif;max-width:40em;margin:3em auto\">\
<h1>Pandemonium is running</h1><p>The web client has not been built yet. Run \
<code>make run</code> (which builds it) or <code>cd web-client &amp;&amp; npm ci &amp;&amp; \
npm run build</code>, then reload this page.</p><p>The API is at <code>/api/games</code>.</p>";

pub fn service<S: Clone + Send + Sync + 'static>(dir: &Path) -> MethodRouter<S> {
    let index = dir.join("index.html");
    if index.is_file() {
        let files = ServeDir::new(dir).fallback(ServeFile::new(index));
        axum::routing::get_service(files)
    } else {
        tracing::warn!(dir = %dir.display(), "no built web client; serving a notice instead");
        get(|| async { Html(NOT_BUILT) })
    }
}
