//! The web client's protocol types are generated from the Rust types into
//! `web-client/src/protocol/`, and its catalogue of games from the registry: each game's lobby
//! facts (`catalogue.ts`), rules page (`rulesPages.ts`) and rule names (`ruleNames.ts`). This
//! test regenerates them into a scratch folder and fails when the committed files differ, so the
//! client and the server's registry agree; `UPDATE_TYPESCRIPT=1 cargo test -p
//! pandemonium-game-registry` (`make typescript`) rewrites them.

use pandemonium_game_contract::{Bot, Conformance, GameInfo, RuleError};
use pandemonium_game_registry::EachGame;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use ts_rs::{Config, TS};

/// The first line of every file the registry generates.
const GENERATED: &str = "// Generated from the game registry (games/registry) by `make typescript`. Do not edit \
                         this file manually.\n";

/// What the client's catalogue is made of, gathered from every registered game.
#[derive(Default)]
struct Catalogue {
    infos: Vec<GameInfo>,
    pages: Vec<(String, &'static str)>,
    rules: Vec<(String, &'static [&'static str])>,
}

impl EachGame for Catalogue {
    fn game<G: Conformance, B: Bot<G> + Default + 'static>(&mut self) {
        let info = G::info();
        self.pages.push((info.id.clone(), G::RULES_PAGE));
        self.rules
            .push((info.id.clone(), <G::Error as RuleError>::RULES));
        self.infos.push(info);
    }
}

/// A JSON string literal, which is a TypeScript one too.
fn literal(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialise")
}

/// Writes `catalogue.ts`, `rulesPages.ts` and `ruleNames.ts` into `out`.
fn generate_catalogue(out: &Path) {
    std::fs::create_dir_all(out).expect("create the scratch folder");
    let mut catalogue = Catalogue::default();
    pandemonium_game_registry::each_game(&mut catalogue);
    let infos = serde_json::to_string_pretty(&catalogue.infos).expect("infos serialise");
    let mut text = format!(
        "{GENERATED}import type {{ GameInfo }} from \"./GameInfo\";\n\n\
         /** Every game of the server's registry, in the lobby's order, as `GET /api/games` lists \
         it. */\nexport const CATALOGUE: GameInfo[] = {infos};\n"
    );
    std::fs::write(out.join("catalogue.ts"), &text).expect("write catalogue.ts");

    text = format!(
        "{GENERATED}\n/** Each game's rules as Pandemonium plays them: the `RULES.md` beside its \
         crate, by game id. */\nexport const RULES_PAGES: Record<string, string> = {{\n"
    );
    for (id, page) in &catalogue.pages {
        writeln!(text, "  {}: {},", literal(id), literal(page)).unwrap();
    }
    text.push_str("};\n");
    std::fs::write(out.join("rulesPages.ts"), &text).expect("write rulesPages.ts");

    text = format!(
        "{GENERATED}\n/** Each game's rule names, by game id: the `rule` of an `illegal_action` \
         reject, and of the shared refusals. */\nexport const RULE_NAMES = {{\n"
    );
    for (id, rules) in &catalogue.rules {
        let names: Vec<String> = rules.iter().map(|rule| literal(rule)).collect();
        writeln!(text, "  {}: [{}],", literal(id), names.join(", ")).unwrap();
    }
    text.push_str(
        "} as const;\n\n/** A rule name of game `G`. */\nexport type RuleName<G extends keyof \
         typeof RULE_NAMES> = (typeof RULE_NAMES)[G][number];\n",
    );
    std::fs::write(out.join("ruleNames.ts"), &text).expect("write ruleNames.ts");
}

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
    generate_catalogue(out);
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
