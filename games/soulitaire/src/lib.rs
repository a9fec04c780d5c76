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
