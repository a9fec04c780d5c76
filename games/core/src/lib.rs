//! The game contract all Pandemonium engines share.
//!
//! - [`Game`] (in `game`): a pure, deterministic engine — validated config, `apply` that
//!   either changes the state or returns a typed rule error and leaves it untouched, views per
//!   viewer, the outcome. No I/O, no clock, no tokio.
//! - [`Chance`]: the only source of randomness an engine may use, passed in by the room, so
//!   `(config, seed, action log)` replays a match exactly. [`SeededChance`] for play,
//!   [`ScriptedChance`] for tests that inject dice.
//! - [`Bot`]: strategies that see only their seat's view and legal actions; [`RandomBot`]
//!   works for every game.
//! - [`DynGame`]: the same contract with the types erased to JSON, which is how the server
//!   holds "some game" without knowing which.
//! - [`Conformance`]: what the harness needs of a game beyond playing it, and the harness
//!   every registered game must pass (`conformance`, with the `conformance` feature: tests only,
//!   never the server).

mod bot;
mod chance;
#[cfg(any(test, feature = "conformance"))]
pub mod conformance;
mod dynamic;
pub mod fixture;
mod game;
pub mod playout;
mod seats;

pub use bot::{Bot, RandomBot};
pub use chance::{Chance, ScriptedChance, SeededChance, shuffle};
pub use dynamic::{ConfigError, Created, DynGame, Engine, GameEntry, Rejection};
pub use game::{Conformance, Game, RuleClock, RuleError, SharedRefusal};
pub use pandemonium_protocol::game::ChoiceValue;
pub use pandemonium_protocol::{
    ErrorCode, GameInfo, OptionKind, OptionSpec, Outcome, Seat, Viewer,
};
pub use seats::SeatSet;
