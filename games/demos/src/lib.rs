//! DēmoS: the rules engine for all five modes (simplified, complete, 2 vs 2, 2 vs 3 and
//! 2 vs 2 + 1) and its bot. The rules as implemented are `RULES.md`; names follow the
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
//! Measured (release, 2 cores):
//! - [`DemosBot`] won **953 of 1,000** seeded four-player complete matches against three
//!   `RandomBot`s (95.3%; the bot's seat rotates; a shared victory counts as a win, a match
//!   without a winner does not): `cargo test --release -p pandemonium-demos --test rules --
//!   --ignored --nocapture`.
//! - `cargo bench -p pandemonium-demos` (`make bench`): one move plus the four seats' views
//!   serialised, the four seats' patches of one move, and a random four-seat complete
//!   playout; the figures and the engine's budget are in docs/performance.md.

mod actions;
mod bot;
mod cards;
mod config;
mod finale;
mod game;
pub mod harmony;
mod json;
mod redeal;
mod resolution;
mod rigged;
pub mod scoring;
mod state;
mod turns;
mod view;
mod view_json;

pub use actions::{AllocationTargets, Declaration, DemosAction, DemosError, Take};
pub use bot::DemosBot;
pub use cards::{BadName, Card, Figure, Power, Suit};
pub use config::{DemosConfig, DiscardOrder, INDEPENDENT, MAX_ROUND_CAP, Mode, Seating};
pub use game::CONSULTATION_SECONDS;
pub use harmony::{Election, ElectionDecidedBy, Harmony, Trio};
pub use rigged::Rigging;
pub use scoring::{Combination, CombinationKind, DecidedBy};
pub use state::{
    Demos, Draw, ElectionView, MissedTake, RoundSummary, ScandalEvent, Turn, VetoUsed,
};
pub use view::{DemosView, DiscardView, FigureView, Phase, PlayerView, Revealed, TurnView};

/// Writes the TypeScript bindings of the DēmoS wire types (into `demos/` under the config's
/// output folder).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    DemosConfig::export_all(cfg)?;
    DemosAction::export_all(cfg)?;
    DemosView::export_all(cfg)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_typescript_bindings_export_into_a_demos_folder() {
        let out = std::env::temp_dir().join(format!("demos-ts-{}", std::process::id()));
        let cfg = ts_rs::Config::new().with_out_dir(&out);
        super::export_typescript(&cfg).expect("the bindings export");
        for name in ["DemosConfig", "DemosAction", "DemosView", "Card", "Phase"] {
            assert!(
                out.join("demos").join(format!("{name}.ts")).exists(),
                "{name}.ts"
            );
        }
        let card = std::fs::read_to_string(out.join("demos/Card.ts")).unwrap();
        assert!(card.contains("string"), "{card}");
        if std::env::var("KEEP_TS").is_err() {
            let _ = std::fs::remove_dir_all(&out);
        }
    }
}
