//! Demon Bound!: the rules engine for 1-4 players, the solitaire game (one seat) and the
//! optional Origins 2008 Marcus King, and its bot. The rules as implemented are
//! `RULES.md`; names follow the rulebook (sacrifice, summon, bind, appease,
//! banish, soul stain, treasury, mobbed, Demonic Visage, Royal Sacrifice, The Master's Voice,
//! Treasure Scrying, Hell's Maw, carried away to hell).
//!
//! - `cards`: the deck, one byte a card.
//! - `config`: the lobby options (Jokers, the Marcus King, the non-termination caps).
//! - `state`: the match as plain data and the queries shared by the rest; `log`: its events.
//! - `setup`: the deal, the secret setup choice and who goes first.
//! - `turn`: refresh, the card plays, banishing, the stain, discards, hell, pending decisions
//!   and the automatic steps; `spells`: face cards, Hell's Maw and solitaire's turn-ups.
//! - `legal`: every legal action and the check of one; `outcome`: the richest survivor.
//! - `view` and `hidden`: what each viewer may see, and the re-deal of everything else that
//!   proves it; `game`: the `Game` contract on top; `rigged`: tables for tests.
//! - `bot`: [`DemonBoundBot`] (and [`hint`], which asks it).
//!
//! Measured (release, `cargo test --release -p pandemonium-demon-bound --test rules --
//! --ignored --nocapture`):
//! - [`DemonBoundBot`] won **997 of 1,000** seeded three-player matches against two
//!   `RandomBot`s (99.7%; the bot's seat rotates; a shared win counts).
//! - Solitaire: it won **1,507 of 10,000** seeded deals (15.1%; 20 treasure needed).
//! - `cargo bench -p pandemonium-demon-bound` (`make bench`): random playouts of one to four
//!   seats, and one move plus the four seats' views serialised; the figures and the engine's
//!   budget are in docs/performance.md.

mod action;
mod bot;
mod cards;
mod config;
mod game;
mod hidden;
mod legal;
mod log;
mod outcome;
mod rigged;
mod setup;
mod spells;
mod state;
mod turn;
mod view;

pub use action::{DemonBoundAction, DemonBoundError};
pub use bot::{DemonBoundBot, hint};
pub use cards::{BadName, Card, CardSet, Suit};
pub use config::{DemonBoundConfig, MAX_JOKERS, MAX_RESHUFFLE_CAP, MAX_ROUND_CAP};
pub use log::{Event, LOG_LENGTH};
pub use rigged::Rigging;
pub use state::{DemonBound, Ending, HAND, Peek, Pending, SOLITAIRE_TARGET, SetupChoice, Why};
pub use view::{DemonBoundView, Phase, PlayerView};

/// Writes the TypeScript bindings of the Demon Bound! wire types (into `demon_bound/` under
/// the config's output folder).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    DemonBoundConfig::export_all(cfg)?;
    DemonBoundAction::export_all(cfg)?;
    DemonBoundView::export_all(cfg)
}
