//! Pixel Demon's Realm: Soulitaire — the single-player rules engine and its solver bot.
//!
//! Rules as in `RULES.md` (every proposal implemented; the defaults are the
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
//! - `game`: the [`pandemonium_game_contract::Game`] contract wired to the above.
//!
//! A Sacrifice is a short sequence of actions (proposal 6 kept exactly): `Sacrifice`
//! places the top demon and fixes the cards that may be offered (those visible at that
//! moment), each `Offer` places one of them for one still-unsatisfied symbol (a Mimic with the
//! card it is declared as), and `EndSacrifice` stops, automatically once nothing more can be
//! offered. Cards an offer uncovers stay face down until the sacrifice ends, since the rules
//! choose every card before moving any. So `legal_actions` stays short: along solver play
//! over 10,000 deals it lists 10 actions on average and 93 at most (both Mimics offerable to
//! a four-suit demon: 13 declarations per suit each).
//!
//! ## Measured (10,000 seeded deals, `tests/rules/measure.rs`, release build)
//!
//! With the house roster (`data`), [`SolverBot`] wins **79.9%** of deals with only the top
//! demon visible (either demon-on-top rule; it never leaves a demon bare): Master of the
//! Realm 30.6%, Greater Demon 14.6%, Dark Savant 13.9%, Adept Ritualist 11.5%, Wanderer of
//! the Realms 9.3%. With the pile spread it wins 80.1% (seeing the demon after the one it
//! sacrifices). The random bot wins 0 of 10,000. Most of the solver's losses end with one to
//! three cards left and the demons spent.

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

pub use action::Action;
pub use cards::{Card, Demon, Face, Rank, Suit, Symbol};
pub use config::{Config, DemonOnTop, DemonPileVisibility};
pub use error::Error;
pub use outcome::Title;
pub use solver::{SolverBot, hint};
pub use state::{COLUMNS, Deal, FOUNDATIONS, PILE, ROWS, Soulitaire, Top};
pub use view::{
    DemonView, FoundationView, LayerView, SacrificeView, SpellboardCard, StatusView, SuitView, View,
};

/// Writes the TypeScript bindings of the wire types (into a `soulitaire/` folder).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    Config::export_all(cfg)?;
    Action::export_all(cfg)?;
    View::export_all(cfg)
}
