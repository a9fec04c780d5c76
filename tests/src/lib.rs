//! The games the end-to-end tests run the server with: every registered game plus the
//! Twenty-One fixture, which exercises platform edge cases without depending on a real game's
//! rules.

use pandemonium_game::GameEntry;
use pandemonium_game::RandomBot;
use pandemonium_game::fixture::TwentyOne;
use std::sync::OnceLock;

pub fn games() -> &'static [GameEntry] {
    static GAMES: OnceLock<Vec<GameEntry>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut games = pandemonium_games::all().to_vec();
        games.push(GameEntry::of::<TwentyOne, RandomBot>());
        games
    })
}
