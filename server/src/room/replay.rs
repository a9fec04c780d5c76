//! Rebuilding a match from `(config, seed, log)`: after a restart, for a replay, to undo an
//! action the store could not keep, and to tell a rejoining client the states it missed.
//! Engines are deterministic, so this is exact.

use std::borrow::Borrow;

use pandemonium_game_contract::{DynGame, GameEntry, Seat, SeededChance};
use pandemonium_protocol::LoggedAction;

/// Why a stored match could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the stored configuration is no longer valid: {0}")]
    Config(#[from] pandemonium_game_contract::ConfigError),
    #[error("action {index} of the log was refused on replay: {message}")]
    Refused { index: usize, message: String },
}

/// Replays `log` from the start; calls `each(index, game)` after the setup (index 0) and after
/// every action (index n+1). Returns the final game and the match RNG as it stands.
pub fn replay(
    entry: &GameEntry,
    config: &serde_json::Value,
    seats: u8,
    seed: [u8; 32],
    log: &[LoggedAction],
    each: impl FnMut(usize, &dyn DynGame),
) -> Result<(Box<dyn DynGame>, SeededChance), ReplayError> {
    let actions = log.iter().map(|logged| (logged.seat, &logged.action));
    replay_actions(entry, config, seats, seed, actions, each)
}

/// [`replay`] of `(seat, action)` pairs, however the log holds them.
pub fn replay_actions<A: Borrow<serde_json::Value>>(
    entry: &GameEntry,
    config: &serde_json::Value,
    seats: u8,
    seed: [u8; 32],
    actions: impl IntoIterator<Item = (Seat, A)>,
    mut each: impl FnMut(usize, &dyn DynGame),
) -> Result<(Box<dyn DynGame>, SeededChance), ReplayError> {
    let (mut game, mut chance) = set_up(entry, config, seats, seed)?;
    each(0, game.as_ref());
    replay_from(game.as_mut(), &mut chance, 0, actions, |index, game, _| {
        each(index, game)
    })?;
    Ok((game, chance))
}

/// The match as its seed deals it, before any action, and the match RNG as it then stands.
pub fn set_up(
    entry: &GameEntry,
    config: &serde_json::Value,
    seats: u8,
    seed: [u8; 32],
) -> Result<(Box<dyn DynGame>, SeededChance), ReplayError> {
    let mut chance = SeededChance::from_seed(seed);
    let (game, _) = (entry.create)(config, seats, &mut chance)?;
    Ok((game, chance))
}

/// Applies `actions` to `game`, which stands after `start` actions with the match RNG at
/// `chance`; calls `each(index, game, chance)` after every action (index `start + n + 1`).
pub fn replay_from<A: Borrow<serde_json::Value>>(
    game: &mut dyn DynGame,
    chance: &mut SeededChance,
    start: usize,
    actions: impl IntoIterator<Item = (Seat, A)>,
    mut each: impl FnMut(usize, &dyn DynGame, &SeededChance),
) -> Result<(), ReplayError> {
    for (n, (seat, action)) in actions.into_iter().enumerate() {
        let index = start + n;
        game.apply(seat, action.borrow(), chance)
            .map_err(|r| ReplayError::Refused {
                index,
                message: r.message,
            })?;
        each(index + 1, game, chance);
    }
    Ok(())
}
