//! Pixel Demon's Realm: Soulitaire — the single-player rules engine and its solver bot.
//!
//! Rules as in `rules/soulitaire.md` (every proposal implemented; the defaults are the
//! proposals, the two lobby options their variants).
//!
//! - `cards`: suits, the rank cycle, Ritual cards, Mimics, Demon cards and symbols.
//! - `data`: THE HOUSE SET — suit names, glyphs and the Demon roster (placeholder data).
//! - `config`: the lobby options (demon left bare on a stack; Demon Pile visibility).
//! - `state`: the Spellboard, Foundation Stacks, set-aside cards, Demon Pile; setup and the
//!   end-of-match check.
//! - `rules`: checking and applying moves, sacrifices, discards and concessions.
//! - `legal`: every legal action (complete), and random actions for the harness.
//! - `view`, `hidden`: what each viewer sees, and re-dealing what they cannot.
//! - `outcome`: titles and the match outcome.
//! - `solver`: [`SolverBot`] and [`hint`], which play from the player's view only.
//! - `game`: the [`pandemonium_game::Game`] contract wired to the above.
//!
//! A Sacrifice is one action carrying the foundation and the ordered cards (with each Mimic's
//! declared card), so `legal_actions` lists every foundation × subset × order × declaration.
//! Along solver play that is 237 actions on average; 0.6% of positions list more than
//! 10,000, up to about 330,000 when Bosche (four suits) is on top with both Mimics visible
//! (each Mimic may be declared as any of the 13 cards of the suit it stands for).
//!
//! ## Measured (10,000 seeded deals, `tests/rules/measure.rs`, release build)
//!
//! With the house roster (`data`), [`SolverBot`] wins **79.9%** of deals under every
//! combination of options (it never leaves a demon bare and does not use the spread pile):
//! Master of the Realm 30.6%, Greater Demon 14.5%, Dark Savant 14.0%, Adept Ritualist 11.5%,
//! Wanderer of the Realms 9.3%. The random bot wins 0 of 10,000. Most of the solver's losses
//! end with one to three cards left and the demons spent.

mod action;
mod cards;
mod config;
pub mod data;
mod error;
mod game;
mod hidden;
mod legal;
mod outcome;
mod rules;
mod solver;
mod state;
mod view;

pub use action::{Action, Offering};
pub use cards::{Card, Demon, Face, Rank, Suit, Symbol};
pub use config::{Config, DemonOnTop, DemonPileVisibility};
pub use error::Error;
pub use outcome::Title;
pub use solver::{SolverBot, hint};
pub use state::{COLUMNS, Deal, FOUNDATIONS, PILE, ROWS, Soulitaire, Top};
pub use view::{DemonView, FoundationView, LayerView, SpellboardCard, StatusView, SuitView, View};

/// Writes the TypeScript bindings of the wire types (into a `soulitaire/` folder).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    Config::export_all(cfg)?;
    Action::export_all(cfg)?;
    View::export_all(cfg)
}
