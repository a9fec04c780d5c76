//! Daemon Dice: the rules engine for two-player duels and multiplayer battles of 3 to 6
//! daemons of any size, with breeds and their powers, and its bot. The rules as implemented
//! are `RULES.md`; names follow the rulebook (activate, minus, recover, defend,
//! suffer, grab, array; block, deflect, dodge, plus, stun, wound; ray, sweep, poison).
//!
//! - `data`: **the house set** — the die faces and breed colours no public source gives.
//! - `dice`: breeds, body parts, faces and what each face does; `breeds`: purebred,
//!   half-breed and mongrel, immunities and the reach of powers.
//! - `config`: the lobby options; `actions`: actions and rule errors.
//! - `state`: the battle as plain data; `construction`: secret daemon building and the
//!   initiative roll; `turn`: activation, minuses, the roll and recovery (steps 1-2);
//!   `combat`: defences, Mouths, poison and damage placement (step 3); `attack`: targets,
//!   grabs, arrayed attacks, Rot, defeat and the end of the battle (step 4).
//! - `view`: what each viewer may see and the re-deal that proves it; `game`: the `Game`
//!   contract; `rigged`: positions for tests; `bot`: [`DaemonBot`].
//!
//! Measured (release, on a shared 2-core machine):
//! - [`DaemonBot`] won **962 of 1,000** seeded two-player battles of 13-dice daemons against
//!   `RandomBot` (96.2%; the bot's seat alternates): `cargo test --release -p
//!   pandemonium-daemon-dice --test rules -- --ignored --nocapture`.
//! - `cargo bench -p pandemonium-daemon-dice`: a random two-player playout of 13-dice daemons
//!   about 0.19 ms (some 5,200 playouts a second); a six-player one about 0.89 ms (1,100 a
//!   second); one move plus both seats' views serialised about 19 µs (budget 20 µs).
//! - The conformance harness's 2,000 matches (`make test`) take about 85 s on one core.

mod actions;
mod attack;
mod bot;
pub mod breeds;
mod combat;
mod config;
mod construction;
pub mod data;
mod dice;
mod game;
mod rigged;
mod state;
mod turn;
mod view;

pub use actions::{DaemonAction, DaemonError};
pub use bot::DaemonBot;

pub use breeds::Lineage;
pub use config::{DaemonDiceConfig, MAX_SIZE};
pub use dice::{Breed, Die, Face, Guard, Part, Reach, Strike};
pub use rigged::{Rigging, ScriptedRolls};
pub use state::{
    Array, Attack, DaemonDice, Damage, DieRef, DieState, Health, Initiative, InitiativeRoll, Point,
    Step, Zone,
};
pub use view::{AttackStatus, DaemonDiceView, DaemonView, DieView};

/// Writes the TypeScript bindings of the Daemon Dice wire types (into `daemon_dice/` under
/// the config's output folder).
pub fn export_typescript(cfg: &ts_rs::Config) -> Result<(), ts_rs::ExportError> {
    use ts_rs::TS;
    DaemonDiceConfig::export_all(cfg)?;
    DaemonAction::export_all(cfg)?;
    DaemonDiceView::export_all(cfg)
}
