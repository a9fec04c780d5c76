//! Every game Pandemonium hosts, by id. The server knows games only through this list and the
//! type-erased [`DynGame`] each entry creates; adding a game is adding an entry here (and the
//! conformance test in `tests/` then holds it to the contract).

pub use pandemonium_game_contract::{ConfigError, DynGame, GameEntry, GameInfo, Rejection};

/// All registered games, in the order the lobby lists them.
pub fn all() -> &'static [GameEntry] {
    static GAMES: std::sync::OnceLock<Vec<GameEntry>> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        vec![
            GameEntry::of::<pandemonium_soulitaire::Soulitaire, pandemonium_soulitaire::SolverBot>(
            ),
            GameEntry::of::<pandemonium_demos::Demos, pandemonium_demos::DemosBot>(),
            GameEntry::of::<
                pandemonium_demon_klondike::DemonKlondike,
                pandemonium_demon_klondike::KlondikeBot,
            >(),
            GameEntry::of::<pandemonium_demon_bound::DemonBound, pandemonium_demon_bound::DemonBoundBot>(
            ),
            GameEntry::of::<pandemonium_daemon_dice::DaemonDice, pandemonium_daemon_dice::DaemonBot>(
            ),
        ]
    })
}

/// The entry for `id`, if such a game is registered.
pub fn find(id: &str) -> Option<&'static GameEntry> {
    all().iter().find(|entry| (entry.info)().id == id)
}

/// Writes the TypeScript bindings of every game's `Config`, `Action` and `View` types.
#[doc(hidden)]
pub fn export_typescript(cfg: &ts_rs::Config) {
    pandemonium_soulitaire::export_typescript(cfg).expect("Soulitaire bindings export");
    pandemonium_demos::export_typescript(cfg).expect("DēmoS bindings export");
    pandemonium_demon_klondike::export_typescript(cfg).expect("Demon bindings export");
    pandemonium_demon_bound::export_typescript(cfg).expect("Demon Bound! bindings export");
    pandemonium_daemon_dice::export_typescript(cfg).expect("Daemon Dice bindings export");
}
