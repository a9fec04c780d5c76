//! Options, the packs, the deal and the dealer's rotation.

use pandemonium_demos::{Card, Demos, DemosConfig, DiscardOrder, Mode, Phase, Seating};
use pandemonium_game_contract::{ConfigError, Game, ScriptedChance, SeededChance, Viewer};

use super::support::*;

fn new(config: &DemosConfig, seats: u8) -> Result<Demos, ConfigError> {
    Demos::new(config, seats, &mut SeededChance::from_u64(7))
}

#[test]
fn empty_options_are_the_complete_game_with_simultaneous_discards() {
    let config: DemosConfig = serde_json::from_str("{}").unwrap();
    assert_eq!(config.mode, Mode::Complete);
    assert_eq!(config.discard_order, DiscardOrder::Simultaneous);
    assert!(!config.creators_suggestion);
    let view = new(&config, 4).unwrap().view(Viewer::Spectator);
    assert_eq!(view.round_cap, 14);
}

#[test]
fn unknown_options_are_refused() {
    assert!(serde_json::from_str::<DemosConfig>(r#"{"veto_count": 2}"#).is_err());
}

#[test]
fn the_round_cap_defaults_to_fourteen_complete_and_twelve_simplified_and_can_be_set() {
    let cap = |config: DemosConfig| new(&config, 3).unwrap().view(Viewer::Spectator).round_cap;
    assert_eq!(cap(config(Mode::Simplified)), 12);
    assert_eq!(cap(config(Mode::Complete)), 14);
    assert_eq!(
        cap(DemosConfig {
            round_cap: Some(5),
            ..config(Mode::Complete)
        }),
        5
    );
    let zero = DemosConfig {
        round_cap: Some(0),
        ..config(Mode::Complete)
    };
    assert!(
        matches!(new(&zero, 3), Err(ConfigError::Option { option, .. }) if option == "round_cap")
    );
}

#[test]
fn individual_games_take_three_to_five_players() {
    for mode in [Mode::Simplified, Mode::Complete] {
        for seats in 3..=5 {
            assert!(new(&config(mode), seats).is_ok());
        }
        assert!(matches!(
            new(&config(mode), 2),
            Err(ConfigError::SeatCount { .. })
        ));
        assert!(matches!(
            new(&config(mode), 6),
            Err(ConfigError::SeatCount { .. })
        ));
    }
}

#[test]
fn a_team_mode_with_the_wrong_seat_count_is_refused() {
    for (mode, wrong) in [
        (Mode::Team2v2, 5),
        (Mode::Team2v3, 4),
        (Mode::Team2v2Plus1, 4),
        (Mode::Team2v2, 3),
    ] {
        let error = new(&config(mode), wrong).unwrap_err();
        assert!(
            matches!(error, ConfigError::Option { ref option, .. } if option == "mode"),
            "{error}"
        );
    }
}

#[test]
fn a_team_layout_is_checked_against_the_mode() {
    let with = |mode, teams: Vec<u8>| DemosConfig {
        teams: Some(teams),
        ..config(mode)
    };
    assert!(new(&with(Mode::Team2v2, vec![0, 0, 1, 1]), 4).is_ok());
    assert!(new(&with(Mode::Team2v3, vec![1, 1, 0, 0, 0]), 5).is_ok());
    assert!(new(&with(Mode::Team2v2Plus1, vec![2, 0, 1, 0, 1]), 5).is_ok());
    for (mode, teams, seats) in [
        (Mode::Team2v2, vec![0, 0, 0, 1], 4),
        (Mode::Team2v2, vec![0, 1, 0], 4),
        (Mode::Team2v3, vec![0, 1, 0, 1, 2], 5),
        (Mode::Team2v2Plus1, vec![0, 1, 0, 1, 1], 5),
        (Mode::Complete, vec![0, 1, 0, 1], 4),
    ] {
        let error = new(&with(mode, teams.clone()), seats).unwrap_err();
        assert!(
            matches!(error, ConfigError::Option { ref option, .. } if option == "teams"),
            "{teams:?}"
        );
    }
}

#[test]
fn by_default_teams_alternate_around_the_table() {
    let game = new(&config(Mode::Team2v2), 4).unwrap();
    assert_eq!(game.teams(), Some(vec![0, 1, 0, 1]));
}

#[test]
fn drawn_seating_deals_the_teams_by_lot_keeping_their_sizes() {
    let drawn = DemosConfig {
        seating: Seating::Drawn,
        ..config(Mode::Team2v2)
    };
    // Fisher-Yates over [0, 1, 0, 1] with the draws 0, 1, 0: seats 3<->0, 2<->1, 1<->0.
    let game = Demos::new(&drawn, 4, &mut ScriptedChance::new([0, 1, 0])).unwrap();
    assert_eq!(game.teams(), Some(vec![0, 1, 1, 0]));
    let trio = DemosConfig {
        seating: Seating::Drawn,
        ..config(Mode::Team2v3)
    };
    let game = Demos::new(&trio, 5, &mut ScriptedChance::new([0, 0, 0, 0])).unwrap();
    let mut sizes = game.teams().unwrap();
    sizes.sort();
    assert_eq!(
        sizes,
        vec![0, 0, 1, 1, 1],
        "the pair and the trio keep their sizes"
    );
}

#[test]
fn teams_are_only_drawn_in_the_team_modes() {
    let drawn = DemosConfig {
        seating: Seating::Drawn,
        ..config(Mode::Complete)
    };
    let error = new(&drawn, 4).unwrap_err();
    assert!(matches!(error, ConfigError::Option { ref option, .. } if option == "seating"));
}

#[test]
fn the_option_schema_lists_mode_discard_order_round_cap_seating_and_the_creators_suggestion() {
    let info = Demos::info();
    assert_eq!(
        (info.id.as_str(), info.min_seats, info.max_seats, info.teams),
        ("demos", 3, 5, true)
    );
    let keys: Vec<&str> = info.options.iter().map(|o| o.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "mode",
            "discard_order",
            "round_cap",
            "seating",
            "creators_suggestion"
        ]
    );
}

#[test]
fn the_complete_game_deals_from_forty_number_cards_with_fourteen_figures() {
    let game = new(&config(Mode::Complete), 3).unwrap();
    let view = game.view(Viewer::Omniscient);
    assert_eq!(view.peoples_pack as usize + 15, 40);
    assert_eq!(view.power_pile, 14);
    let media = view
        .revealed
        .unwrap()
        .power_pile
        .iter()
        .filter(|f| f.is_media())
        .count();
    assert_eq!(media, 2);
}

#[test]
fn the_simplified_game_has_no_aces_and_no_media() {
    let game = new(&config(Mode::Simplified), 5).unwrap();
    let view = game.view(Viewer::Omniscient);
    assert_eq!(view.peoples_pack as usize + 25, 36);
    assert_eq!(view.power_pile, 12);
    let revealed = view.revealed.unwrap();
    assert!(revealed.power_pile.iter().all(|f| !f.is_media()));
    let mut all: Vec<Card> = revealed.peoples_pack.clone();
    for player in &view.players {
        all.extend(player.hand.clone().unwrap());
    }
    assert!(all.iter().all(|c| c.rank() > 1));
}

#[test]
fn five_cards_are_dealt_one_by_one_clockwise_from_the_dealers_left() {
    let deck =
        cards("1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 1D 2D 3D 4D 5D 6D 7D");
    let game = Demos::rigged(&config(Mode::Complete), 3, 1, vec![deck], vec![]).unwrap();
    // Dealer 1: seat 2 receives the first card, then seat 0, then seat 1.
    assert_eq!(hand(&game, 2), cards("1S 4S 7S 10S 3H"));
    assert_eq!(hand(&game, 0), cards("2S 5S 8S 1H 4H"));
    assert_eq!(hand(&game, 1), cards("3S 6S 9S 2H 5H"));
    assert_eq!(
        omniscient(&game).revealed.unwrap().peoples_pack,
        cards("6H 7H 8H 9H 10H 1D 2D 3D 4D 5D 6D 7D")
    );
}

#[test]
fn the_dealer_rotates_clockwise_each_round_and_the_cards_are_reshuffled() {
    let (mut game, plans) = rigged(
        Mode::Complete,
        2,
        &[
            &[FORFEIT[0], FORFEIT[1], FORFEIT[2]],
            &[FORFEIT[1], FORFEIT[2], FORFEIT[0]],
        ],
        "ES LH JD",
    );
    assert_eq!(omniscient(&game).dealer, 2);
    play_round(&mut game, &plans[0]);
    let view = omniscient(&game);
    assert_eq!((view.round, view.dealer), (2, 0));
    assert_eq!(
        view.peoples_pack as usize,
        40 - 15,
        "a fresh pack of forty is dealt"
    );
    assert_eq!(
        hand(&game, 1),
        cards(FORFEIT[2])
            .into_iter()
            .take(3)
            .chain(plans[1].junk[1])
            .collect::<Vec<_>>()
    );
    play_round(&mut game, &plans[1]);
    assert_eq!(omniscient(&game).dealer, 1);
}

#[test]
fn a_new_match_draws_the_first_dealer_and_starts_with_the_public_discard() {
    let dealers: std::collections::BTreeSet<u8> = (0..40)
        .map(|seed| {
            let game = Demos::new(
                &config(Mode::Complete),
                4,
                &mut SeededChance::from_u64(seed),
            )
            .unwrap();
            assert_eq!(game.view(Viewer::Spectator).phase, Phase::PublicDiscard);
            game.view(Viewer::Spectator).dealer
        })
        .collect();
    assert_eq!(dealers.len(), 4);
}
