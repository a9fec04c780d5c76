//! Demon: racing multiplayer Klondike for 2 to 8 players — the real-time rules engine and its
//! bot. The rules as implemented are `RULES.md`; names follow the rulebook and
//! Klondike (layout, tableau pile, stock, waste, foundation, run).
//!
//! - `cards`: the standard deck, one byte per card.
//! - `config`: the lobby options (partial runs, number of deals, idle time).
//! - `layout`: one player's Klondike layout and its mechanics (deal, draw three, turn the
//!   waste over, take a run and turn up the card beneath).
//! - `state`: the match — layouts, shared foundations, deals, scoring; rigged positions.
//! - `action`: actions (each naming its card and target precisely, for races) and rule errors.
//! - `rules`: checking and applying actions; `legal`: every legal action.
//! - `stalemate`: the "nobody can make progress" test that ends a dead deal.
//! - `view` and `hidden`: the public table each viewer sees, and the re-deal of what nobody
//!   sees that proves it; `game`: the `Game` contract on top (a real-time game).
//! - `bot`: [`KlondikeBot`] and [`hint`].
//!
//! Real time: every seat still racing is to act at every moment. The room applies actions in
//! arrival order; an action that lost a race (its foundation moved on) is refused with a rule
//! error such as `foundation_moved`, and its card stays where it was.
//!
//! House readings of the stall fallbacks (proposal 6): saying "we're stuck" stops that seat
//! for the rest of the deal (it leaves `to_act`; "all *active* players press stuck"), and the
//! deal ends when every seat has said it. The idle time is [`pandemonium_game_contract::RuleClock`]:
//! its window is the deal and the count of progress moves, and its default action is "stuck".
//! The stalemate test then runs over the seats still racing. A stall safeguard
//! ([`STALL_ACTIONS_PER_SEAT`], counted per seat, with a hard bound [`STALL_SPREAD`] times
//! larger) bounds a deal played by machines that never give up; it is also what makes
//! [`pandemonium_game_contract::Game::max_actions`] finite.
//!
//! ## Measured
//!
//! - [`KlondikeBot`] beat the random bot in **947 of 1,000** seeded two-player deals by score
//!   (average 9.6 points to 0.5; seats alternate): `cargo test --release -p
//!   pandemonium-demon-klondike --test rules -- --ignored --nocapture`.
//! - `cargo bench -p pandemonium-demon-klondike` (`make bench`): one action plus all nine
//!   views of an eight-seat table serialised, and a random eight-seat playout (a random
//!   player soon says it is stuck); the figures and the engine's budget are in
//!   docs/performance.md. Almost all of an action's cost is JSON (the card names' strings),
//!   and the eight seat views are the same public table but for `you`: what a room would
//!   save by serialising the table once per version.

mod action;
mod bot;
mod cards;
mod config;
mod game;
mod hidden;
mod layout;
mod legal;
mod rules;
pub mod stalemate;
mod state;
mod view;

pub use action::{Action, Error};
pub use bot::KlondikeBot;
pub use cards::{ACE, BadCard, Card, KING, Rank, Suit};
pub use config::{Config, IDLE_SECONDS, MAX_DEALS, RunMoves};
pub use game::{BETWEEN_DEALS_SECONDS, hint};
pub use layout::{DRAW, Layout, PILES, Pile, Place};
pub use state::{
    DECK, DEMON_SCORE, DealResult, DemonKlondike, Ending, Foundation, Phase,
    STALL_ACTIONS_PER_SEAT, STALL_SPREAD,
};
pub use view::{FoundationView, PhaseView, PileView, PlayerView, RevealedLayout, View};

/// Writes the TypeScript bindings of the Demon wire types (into `demon_klondike/`).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    Config::export_all(cfg)?;
    Action::export_all(cfg)?;
    View::export_all(cfg)
}
