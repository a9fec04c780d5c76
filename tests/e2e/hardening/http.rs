//! HTTP: security and cache headers, compression, source maps, impossible paths, and the
//! origins allowed to open a WebSocket.

use pandemonium_server::Config;

use super::sqlite;
use crate::support::TestApp;
use crate::support::net::{get, http, loopback, websocket};

/// A built web client in miniature: an index, a hashed script with its source map.
fn static_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pdm-static-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><script type=module src=/assets/index-B1x2y3z4.js></script>",
    )
    .unwrap();
    let script = "export const lobby = 'the lobby';\n".repeat(400);
    std::fs::write(dir.join("assets/index-B1x2y3z4.js"), script).unwrap();
    std::fs::write(dir.join("assets/index-B1x2y3z4.js.map"), "{\"sources\":[]}").unwrap();
    dir
}

#[tokio::test]
async fn pages_carry_security_and_cache_headers_and_are_compressed() {
    let db = sqlite().await;
    let dir = static_dir();
    let mut config = Config::for_tests(&db.url);
    config.static_dir = dir.clone();
    let app = TestApp::spawn_with(config).await;
    let me = loopback(1);

    for path in ["/", "/r/K7QX2M", "/api/games", "/assets/index-B1x2y3z4.js"] {
        let page = get(app.port, me, path, "").await;
        assert_eq!(page.status, 200, "{path}");
        assert_eq!(
            page.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(page.header("x-frame-options"), Some("DENY"), "{path}");
        assert!(page.header("referrer-policy").is_some(), "{path}");
        let csp = page.header("content-security-policy").unwrap_or_default();
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
    }
    let index = get(app.port, me, "/", "").await;
    assert_eq!(index.header("cache-control"), Some("no-cache"));
    let route = get(app.port, me, "/r/K7QX2M", "").await;
    assert_eq!(route.header("cache-control"), Some("no-cache"));
    let script = get(app.port, me, "/assets/index-B1x2y3z4.js", "").await;
    assert_eq!(
        script.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );

    for encoding in ["gzip", "br"] {
        let packed = get(
            app.port,
            me,
            "/assets/index-B1x2y3z4.js",
            &format!("Accept-Encoding: {encoding}\r\n"),
        )
        .await;
        assert_eq!(packed.header("content-encoding"), Some(encoding));
        assert!(packed.body.len() < script.body.len() / 4, "{encoding}");
    }
    // A short answer goes as it is, whatever the client accepts: for a few hundred bytes,
    // setting up an encoder here and a decoder there costs more than the bytes saved.
    let guest = http(
        app.port,
        me,
        "POST /api/guests HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Accept-Encoding: gzip, deflate, br\r\nContent-Type: application/json\r\n\
         Content-Length: 14\r\n\r\n{\"name\":\"Ada\"}",
    )
    .await;
    assert_eq!(guest.status, 201);
    assert!(guest.body.len() < 1024, "{}", guest.body.len());
    assert_eq!(guest.header("content-encoding"), None);

    let map = get(app.port, me, "/assets/index-B1x2y3z4.js.map", "").await;
    assert_eq!(map.status, 404, "source maps are not served");
    for path in [
        format!("/{}", "a".repeat(300)),
        format!("/assets/{}.js", "b".repeat(300)),
        format!("/api/rooms/{}", "C".repeat(300)),
        format!("/api/matches/{}", "d".repeat(300)),
    ] {
        let answer = get(app.port, me, &path, "").await;
        assert_eq!(answer.status, 404, "{}", &path[..20]);
    }
    app.stop().await;
    let _ = std::fs::remove_dir_all(dir);
    db.drop_database().await;
}

#[tokio::test]
async fn websockets_are_accepted_only_from_allowed_origins() {
    let db = sqlite().await;
    let app = TestApp::spawn(&db).await;
    let me = loopback(1);
    let host = format!("127.0.0.1:{}", app.port);
    let same = format!("http://{host}");
    // The page's own origin, and clients that are not browsers (no Origin), are welcome.
    assert!(
        websocket(app.port, me, &[("origin", &same)], None)
            .await
            .is_ok()
    );
    assert!(websocket(app.port, me, &[], None).await.is_ok());
    // Another site's page may not open a socket in its visitor's name.
    for origin in ["https://evil.example", "null", "http://127.0.0.1:1"] {
        assert_eq!(
            websocket(app.port, me, &[("origin", origin)], None)
                .await
                .err(),
            Some(403),
            "{origin}"
        );
    }
    app.stop().await;

    let mut config = Config::for_tests(&db.url);
    config.network.allowed_origins = vec!["https://games.example.org".into()];
    let app = TestApp::spawn_with(config).await;
    let listed = [("origin", "https://games.example.org")];
    assert!(websocket(app.port, me, &listed, None).await.is_ok());
    let unlisted = [("origin", "https://evil.example")];
    assert_eq!(
        websocket(app.port, me, &unlisted, None).await.err(),
        Some(403)
    );
    app.stop().await;
    db.drop_database().await;
}
