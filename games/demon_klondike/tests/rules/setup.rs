//! Setup: one deck per player, a Klondike layout each, the start signal, the options.

use pandemonium_demon_klondike::{Card, Config, DemonKlondike, MAX_DEALS};
use pandemonium_game_contract::{Game, SeededChance};

use super::support::*;

#[test]
fn every_player_deals_from_a_whole_deck_of_their_own() {
    let game = DemonKlondike::new(&Config::default(), 4, &mut SeededChance::from_u64(9)).unwrap();
    for seat in 0..4 {
        let layout = game.layout(seat);
        let mut all: Vec<Card> = layout.stock.clone();
        all.extend(&layout.waste);
        for pile in &layout.piles {
            all.extend(&pile.down);
            all.extend(&pile.up);
        }
        all.sort();
        assert_eq!(all, Card::deck(), "seat {seat} holds one whole deck");
    }
}

#[test]
fn a_rigged_deck_is_dealt_as_standard_klondike_piles_then_three_are_turned() {
    // The deck's top is its last card: the first pile gets it, face up.
    let mut deck = Card::deck();
    deck.reverse(); // AS is now on top.
    let game = DemonKlondike::rigged_decks(one_deal(), vec![deck.clone(), deck]);
    let layout = game.layout(0);
    assert_eq!(layout.piles[0].up, cards("AS"));
    assert_eq!(layout.piles[1].down, cards("2S"));
    assert_eq!(layout.piles[1].up, cards("3S"));
    // 28 cards dealt (AS..2D); the stock starts at 3D and three are turned at the signal.
    assert_eq!(layout.waste, cards("3D 4D 5D"));
    assert_eq!(layout.stock.len(), 21);
}

#[test]
fn the_game_is_for_two_to_eight_players() {
    let mut chance = SeededChance::from_u64(0);
    for seats in [1, 9] {
        assert!(DemonKlondike::new(&Config::default(), seats, &mut chance).is_err());
    }
    for seats in 2..=8 {
        assert!(DemonKlondike::new(&Config::default(), seats, &mut chance).is_ok());
    }
}

#[test]
fn the_defaults_are_any_run_three_deals_and_sixty_idle_seconds() {
    let config: Config = serde_json::from_str("{}").unwrap();
    assert_eq!(config, Config::default());
    assert_eq!(
        serde_json::to_value(config).unwrap(),
        serde_json::json!({"runs": "any_run", "deals": 3, "idle_seconds": 60})
    );
    assert!(serde_json::from_str::<Config>(r#"{"jokers": 1}"#).is_err());
    let mut chance = SeededChance::from_u64(0);
    for bad in [
        Config {
            deals: 0,
            ..Config::default()
        },
        Config {
            deals: MAX_DEALS + 1,
            ..Config::default()
        },
        Config {
            idle_seconds: 5,
            ..Config::default()
        },
    ] {
        assert!(DemonKlondike::new(&bad, 2, &mut chance).is_err(), "{bad:?}");
    }
}

#[test]
fn demon_is_listed_as_a_real_time_game() {
    let info = DemonKlondike::info();
    assert_eq!(info.id, "demon_klondike");
    assert!(info.real_time);
    assert_eq!((info.min_seats, info.max_seats), (2, 8));
    let keys: Vec<&str> = info.options.iter().map(|o| o.key.as_str()).collect();
    assert_eq!(keys, ["runs", "deals", "idle_seconds"]);
}

#[test]
fn every_seat_still_racing_is_to_act_at_once() {
    let game = DemonKlondike::new(&Config::default(), 5, &mut SeededChance::from_u64(3)).unwrap();
    assert_eq!(game.to_act().len(), 5);
    for seat in 0..5 {
        assert!(!game.legal_actions(seat).is_empty());
    }
}
