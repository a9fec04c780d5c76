//! The web client's protocol types are generated from the Rust types into
//! `web-client/src/protocol/`. This test regenerates them into a scratch folder and fails when
//! the committed files differ; `UPDATE_TYPESCRIPT=1 cargo test -p pandemonium-game-registry` rewrites
//! them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ts_rs::{Config, TS};

fn generate(out: &Path) {
    let cfg = Config::new().with_out_dir(out).with_large_int("number");
    macro_rules! export {
        ($($ty:ty),* $(,)?) => {$(
            <$ty>::export_all(&cfg).unwrap_or_else(|e| panic!("{}: {e}", stringify!($ty)));
        )*};
    }
    use pandemonium_protocol as p;
    export!(
        p::ClientMsg,
        p::ServerMsg,
        p::Viewer,
        p::GameInfo,
        p::CreateRoom,
        p::RoomList,
        p::MatchPage,
        p::MatchRecord,
        p::ApiError,
        p::ErrorCode,
        p::NewGuest,
        p::Guest,
        p::Replay,
    );
    pandemonium_game_registry::export_typescript(&cfg);
}

fn read_dir(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            for (name, text) in read_dir(&path) {
                files.insert(
                    format!("{}/{name}", entry.file_name().to_string_lossy()),
                    text,
                );
            }
        } else if path.extension().is_some_and(|e| e == "ts") {
            let text = std::fs::read_to_string(&path).expect("readable");
            files.insert(entry.file_name().to_string_lossy().into_owned(), text);
        }
    }
    files
}

#[test]
fn typescript_bindings_are_up_to_date() {
    let committed: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web-client/src/protocol");
    let scratch = std::env::temp_dir().join(format!("pandemonium-ts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    generate(&scratch);
    let fresh = read_dir(&scratch);
    if std::env::var_os("UPDATE_TYPESCRIPT").is_some() {
        let _ = std::fs::remove_dir_all(&committed);
        std::fs::create_dir_all(&committed).expect("create the protocol folder");
        for (name, text) in &fresh {
            let path = committed.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).expect("write a binding");
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let current = read_dir(&committed);
    let stale: Vec<&String> = fresh
        .keys()
        .chain(current.keys())
        .filter(|name| fresh.get(*name) != current.get(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "web-client/src/protocol is stale ({stale:?}); run `make typescript` to regenerate it"
    );
}
