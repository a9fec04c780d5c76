//! Every game Pandemonium hosts, by id. The server knows games only through this list and the
//! type-erased [`DynGame`] each entry creates; adding a game is adding its line to
//! `registry!` below (and a dependency on its crate): the server lists it, the conformance test
//! in `tests/` holds it to the contract, `make typescript` writes its types, lobby facts, rules
//! page and rule names for the web client, and the id lists of the tests follow.

pub use pandemonium_game_contract::{ConfigError, DynGame, GameEntry, GameInfo, Rejection};

use pandemonium_game_contract::{Bot, Conformance};

/// Something done with every registered game as its own type: the conformance harness, the
/// web client's generated catalogue. The server never does either, so neither is built into it.
pub trait EachGame {
    /// Called once per game `G`, played by bot `B`, in the lobby's order.
    fn game<G: Conformance, B: Bot<G> + Default + 'static>(&mut self);
}

/// One line per game: `crate::Game by Bot`. The crate must have `export_typescript`.
macro_rules! registry {
    ($($krate:ident :: $game:ident by $bot:ident),+ $(,)?) => {
        /// Calls `visitor` with every registered game, in the order the lobby lists them.
        pub fn each_game(visitor: &mut impl EachGame) {
            $(visitor.game::<$krate::$game, $krate::$bot>();)+
        }

        /// Writes the TypeScript bindings of every game's `Config`, `Action` and `View` types.
        #[doc(hidden)]
        pub fn export_typescript(cfg: &ts_rs::Config) {
            $($krate::export_typescript(cfg).unwrap_or_else(|e| {
                panic!("{} bindings export: {e}", stringify!($krate))
            });)+
        }
    };
}

registry! {
    pandemonium_soulitaire::Soulitaire by SolverBot,
    pandemonium_demos::Demos by DemosBot,
    pandemonium_demon_klondike::DemonKlondike by KlondikeBot,
    pandemonium_demon_bound::DemonBound by DemonBoundBot,
    pandemonium_daemon_dice::DaemonDice by DaemonBot,
}

/// Collects the entries `all` returns.
struct Entries(Vec<GameEntry>);

impl EachGame for Entries {
    fn game<G: Conformance, B: Bot<G> + Default + 'static>(&mut self) {
        self.0.push(GameEntry::of::<G, B>());
    }
}

/// All registered games, in the order the lobby lists them.
pub fn all() -> &'static [GameEntry] {
    static GAMES: std::sync::OnceLock<Vec<GameEntry>> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        let mut entries = Entries(Vec::new());
        each_game(&mut entries);
        entries.0
    })
}

/// The ids of every registered game, in the lobby's order: what tests that cover "every game"
/// iterate, so a new game is covered without a list to edit.
pub fn ids() -> Vec<String> {
    all().iter().map(|entry| (entry.info)().id).collect()
}

/// The entry for `id`, if such a game is registered.
pub fn find(id: &str) -> Option<&'static GameEntry> {
    all().iter().find(|entry| (entry.info)().id == id)
}
