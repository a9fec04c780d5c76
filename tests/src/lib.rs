//! The games the end-to-end tests run the server with: every registered game, the
//! Twenty-One and Race fixtures (platform edge cases, turn-based and real-time, without
//! depending on a real game's rules), and
//! rigged variants of real games whose deals (or rolls) are fixed, so a test can count on a
//! Square or a Media (or a Soulitaire Mimic and Sacrifice, or a Daemon Dice duel's every
//! roll) without depending on what a seed happens to shuffle.

use pandemonium_demon_klondike::{Config as DemonConfig, DemonKlondike, KlondikeBot};
use pandemonium_demos::{Demos, DemosBot, DemosConfig};
use pandemonium_game_contract::fixture::TwentyOne;
use pandemonium_game_contract::fixture::race::Race;
use pandemonium_game_contract::{
    Chance, ConfigError, Engine, Game, GameEntry, GameInfo, RandomBot,
};
use pandemonium_soulitaire::{Config as SoulitaireConfig, SolverBot, Soulitaire};
use std::sync::OnceLock;

pub mod haproxy;
pub mod rigged;

pub fn games() -> &'static [GameEntry] {
    static GAMES: OnceLock<Vec<GameEntry>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut games = pandemonium_game_registry::all().to_vec();
        games.push(GameEntry::of::<TwentyOne, RandomBot>());
        games.push(GameEntry::of::<Race, RandomBot>());
        games.push(GameEntry {
            info: rigged_demos_info,
            create: rigged_demos_create,
        });
        games.push(GameEntry {
            info: rigged_demos_no_winner_info,
            create: rigged_demos_no_winner_create,
        });
        games.push(GameEntry {
            info: rigged_demon_klondike_info,
            create: rigged_demon_klondike_create,
        });
        games.push(GameEntry {
            info: rigged_soulitaire_info,
            create: rigged_soulitaire_create,
        });
        games.push(GameEntry {
            info: rigged_demon_bound_info,
            create: rigged_demon_bound_create,
        });
        games.push(GameEntry {
            info: rigged_daemon_dice_info,
            create: rigged_daemon_dice_create,
        });
        games
    })
}

/// `demos_rigged`: DēmoS with the deal of [`rigged::demos_square_and_media`].
fn rigged_demos_info() -> GameInfo {
    let mut info = Demos::info();
    info.id = "demos_rigged".into();
    // Drawn with the real game's board: the client lists real games only.
    info.board = Some("demos".into());
    info.name = "DēmoS (rigged deal for tests)".into();
    info
}

fn rigged_demos_create(
    options: &serde_json::Value,
    seats: u8,
    _: &mut dyn Chance,
) -> Result<pandemonium_game_contract::Created, ConfigError> {
    let config: DemosConfig = serde_json::from_value(options.clone())
        .map_err(|e| ConfigError::Malformed(e.to_string()))?;
    let game = Demos::from_rigging(&config, seats, rigged::demos_square_and_media())?;
    let options = serde_json::to_value(&config).expect("configs serialise");
    Ok((Engine::<Demos, DemosBot>::boxed(game), options))
}

/// `demos_rigged_no_winner`: four-seat simplified DēmoS in its last round, with the deal of
/// [`rigged::demos_no_winner`]: nobody can win the Election.
fn rigged_demos_no_winner_info() -> GameInfo {
    let mut info = Demos::info();
    info.id = "demos_rigged_no_winner".into();
    info.board = Some("demos".into());
    info.name = "DēmoS (rigged: nobody wins the Election)".into();
    info.min_seats = 4;
    info.max_seats = 4;
    info
}

fn rigged_demos_no_winner_create(
    options: &serde_json::Value,
    seats: u8,
    _: &mut dyn Chance,
) -> Result<pandemonium_game_contract::Created, ConfigError> {
    let config: DemosConfig = serde_json::from_value(options.clone())
        .map_err(|e| ConfigError::Malformed(e.to_string()))?;
    ConfigError::check_seats(&rigged_demos_no_winner_info(), seats)?;
    let game = Demos::from_rigging(&config, seats, rigged::demos_no_winner())?;
    let options = serde_json::to_value(&config).expect("configs serialise");
    Ok((Engine::<Demos, DemosBot>::boxed(game), options))
}

/// `soulitaire_rigged`: Soulitaire with the deal of [`rigged::soulitaire_mimic_and_sacrifice`].
fn rigged_soulitaire_info() -> GameInfo {
    let mut info = Soulitaire::info();
    info.id = "soulitaire_rigged".into();
    info.board = Some("soulitaire".into());
    info.name = "Pixel Demon's Realm: Soulitaire (rigged deal for tests)".into();
    info
}

fn rigged_soulitaire_create(
    options: &serde_json::Value,
    seats: u8,
    _: &mut dyn Chance,
) -> Result<pandemonium_game_contract::Created, ConfigError> {
    let config: SoulitaireConfig = serde_json::from_value(options.clone())
        .map_err(|e| ConfigError::Malformed(e.to_string()))?;
    ConfigError::check_seats(&Soulitaire::info(), seats)?;
    let game = Soulitaire::rigged(config, rigged::soulitaire_mimic_and_sacrifice());
    let options = serde_json::to_value(config).expect("configs serialise");
    Ok((Engine::<Soulitaire, SolverBot>::boxed(game), options))
}

/// `demon_klondike_rigged`: Demon in which every player holds the same deck in the same order
/// ([`rigged::demon_klondike_twin_deck`]), so the players race for the same cards.
fn rigged_demon_klondike_info() -> GameInfo {
    let mut info = DemonKlondike::info();
    info.id = "demon_klondike_rigged".into();
    info.board = Some("demon_klondike".into());
    info.name = "Demon (rigged twin decks for tests)".into();
    info
}

fn rigged_demon_klondike_create(
    options: &serde_json::Value,
    seats: u8,
    _: &mut dyn Chance,
) -> Result<pandemonium_game_contract::Created, ConfigError> {
    let config: DemonConfig = serde_json::from_value(options.clone())
        .map_err(|e| ConfigError::Malformed(e.to_string()))?;
    ConfigError::check_seats(&DemonKlondike::info(), seats)?;
    config.validate()?;
    let decks = (0..seats)
        .map(|_| rigged::demon_klondike_twin_deck())
        .collect();
    let game = DemonKlondike::rigged_decks(config, decks);
    let options = serde_json::to_value(config).expect("configs serialise");
    Ok((Engine::<DemonKlondike, KlondikeBot>::boxed(game), options))
}

/// `demon_bound_rigged`: Demon Bound! (two seats) with the deal of
/// [`rigged::demon_bound_summon_bind_and_scrying`], capped at four rounds unless told otherwise.
fn rigged_demon_bound_info() -> GameInfo {
    let mut info = pandemonium_demon_bound::DemonBound::info();
    info.id = "demon_bound_rigged".into();
    info.board = Some("demon_bound".into());
    info.name = "Demon Bound! (rigged deal for tests)".into();
    info.min_seats = 2;
    info.max_seats = 2;
    info
}

fn rigged_demon_bound_create(
    options: &serde_json::Value,
    seats: u8,
    _: &mut dyn Chance,
) -> Result<pandemonium_game_contract::Created, ConfigError> {
    use pandemonium_demon_bound::{DemonBound, DemonBoundBot, DemonBoundConfig};
    let mut config: DemonBoundConfig = serde_json::from_value(options.clone())
        .map_err(|e| ConfigError::Malformed(e.to_string()))?;
    config.round_cap = config.round_cap.or(Some(4));
    ConfigError::check_seats(&rigged_demon_bound_info(), seats)?;
    let game = DemonBound::rigged_setup(
        &config,
        seats,
        rigged::demon_bound_summon_bind_and_scrying(),
    )?;
    let options = serde_json::to_value(&config).expect("configs serialise");
    Ok((Engine::<DemonBound, DemonBoundBot>::boxed(game), options))
}

/// `daemon_dice_rigged`: a Daemon Dice duel whose every roll is fixed by
/// [`rigged::daemon_dice_duel`]; construction is played as usual.
fn rigged_daemon_dice_info() -> GameInfo {
    let mut info = pandemonium_daemon_dice::DaemonDice::info();
    info.id = "daemon_dice_rigged".into();
    info.name = "Daemon Dice (rigged rolls for tests)".into();
    info.board = Some("daemon_dice".into());
    info.min_seats = 2;
    info.max_seats = 2;
    info
}

fn rigged_daemon_dice_create(
    options: &serde_json::Value,
    seats: u8,
    _: &mut dyn Chance,
) -> Result<pandemonium_game_contract::Created, ConfigError> {
    use pandemonium_daemon_dice::{DaemonBot, DaemonDice, DaemonDiceConfig};
    let config: DaemonDiceConfig = serde_json::from_value(options.clone())
        .map_err(|e| ConfigError::Malformed(e.to_string()))?;
    ConfigError::check_seats(&rigged_daemon_dice_info(), seats)?;
    let game = DaemonDice::scripted(&config, seats, rigged::daemon_dice_duel())?;
    let options = serde_json::to_value(&config).expect("configs serialise");
    Ok((Engine::<DaemonDice, DaemonBot>::boxed(game), options))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rigged_variant_is_drawn_with_the_board_of_a_real_game() {
        let rigged: Vec<_> = super::games()
            .iter()
            .map(|e| (e.info)())
            .filter(|info| info.id.contains("_rigged"))
            .collect();
        assert_eq!(rigged.len(), 6);
        for info in rigged {
            let board = info
                .board
                .as_deref()
                .expect("a rigged variant names its board");
            assert!(
                info.id.starts_with(&format!("{board}_rigged")),
                "{}",
                info.id
            );
            let real =
                pandemonium_game_registry::find(board).expect("the board is a registered game's");
            assert_eq!(
                (real.info)().board,
                None,
                "a real game is drawn with its own board"
            );
        }
    }
}
