//! DēmoS: the rules engine for all five modes (simplified, complete, 2 vs 2, 2 vs 3 and
//! 2 vs 2 + 1) and its bot. The rules as implemented are `rules/demos.md`; names follow the
//! rulebook (People's Pack, Power Pile, Public/Secret/Unanimous Discard, Harmonious Square,
//! Veto, Scandal Phase, Media, Election, Independent).
//!
//! - `cards`: number cards and figures, one byte each.
//! - `config`: the lobby options and the rules they select.
//! - `scoring`: a hand's best sequence or Harmonious Square and the round's tie-breaks.
//! - `harmony`: a player's best E-L-J trio and the Election of every mode.
//! - `state`: the match as plain data and the queries shared by the rest.
//! - `turns`: the deal, the discard turns (simultaneous commits or sequential) and the veto
//!   poll; `resolution`: points, winners, figure draws and team allocation; `finale`: the
//!   Scandal Phase and the Election.
//! - `view` and `redeal`: what each viewer may see, and the re-deal of everything else that
//!   proves it; `game`: the `Game` contract on top; `rigged`: set-ups for tests.
//! - `bot`: [`DemosBot`].
//!
//! Bot strength (seeded, release build, `cargo test --release -p pandemonium-demos -- --ignored`):
//! BOT_RESULT_PLACEHOLDER

mod actions;
mod bot;
mod cards;
mod config;
mod finale;
mod game;
pub mod harmony;
mod rigged;
mod redeal;
mod resolution;
pub mod scoring;
mod state;
mod turns;
mod view;

pub use actions::{AllocationTargets, Declaration, DemosAction, DemosError, Take};
pub use bot::DemosBot;
pub use cards::{BadName, Card, Figure, Power, Suit};
pub use config::{DemosConfig, DiscardOrder, INDEPENDENT, MAX_ROUND_CAP, Mode};
pub use game::CONSULTATION_SECONDS;
pub use harmony::{Election, ElectionDecidedBy, Harmony, Trio};
pub use rigged::Rigging;
pub use scoring::{Combination, CombinationKind, DecidedBy};
pub use state::{Demos, Draw, ElectionView, RoundSummary, ScandalEvent, Turn, VetoUsed};
pub use view::{DemosView, DiscardView, FigureView, Phase, PlayerView, Revealed, TurnView};

/// Writes the TypeScript bindings of the DēmoS wire types (into `demos/` under the config's
/// output folder).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    DemosConfig::export_all(cfg)?;
    DemosAction::export_all(cfg)?;
    DemosView::export_all(cfg)
}
