//! Rebuilding a match from `(config, seed, log)`: after a restart, for a replay, and to undo an
//! action the store could not keep. Engines are deterministic, so this is exact.

use pandemonium_game::{DynGame, GameEntry, SeededChance};
use pandemonium_protocol::LoggedAction;

/// Why a stored match could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the stored configuration is no longer valid: {0}")]
    Config(#[from] pandemonium_game::ConfigError),
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
    mut each: impl FnMut(usize, &dyn DynGame),
) -> Result<(Box<dyn DynGame>, SeededChance), ReplayError> {
    let mut chance = SeededChance::from_seed(seed);
    let (mut game, _) = (entry.create)(config, seats, &mut chance)?;
    each(0, game.as_ref());
    for (index, logged) in log.iter().enumerate() {
        game.apply(logged.seat, &logged.action, &mut chance)
            .map_err(|r| ReplayError::Refused {
                index,
                message: r.message,
            })?;
        each(index + 1, game.as_ref());
    }
    Ok((game, chance))
}
