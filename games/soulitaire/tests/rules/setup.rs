//! Setup, the deck and the house data (rules: "Setup"; proposals 1, 11; scenario 7).

use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Game, SeededChance, Viewer};
use pandemonium_soulitaire::data::{ROSTER, SUITS};
use pandemonium_soulitaire::{Card, Config, Deal, Face, Soulitaire, Symbol};
use std::collections::HashSet;

#[test]
fn the_ritual_deck_is_one_card_per_rank_and_suit_plus_two_mimics() {
    let deck = Card::deck();
    assert_eq!(deck.len(), 54);
    assert_eq!(deck.iter().filter(|c| c.is_mimic()).count(), 2);
    let faces: HashSet<Face> = deck.iter().filter_map(|c| c.face()).collect();
    assert_eq!(faces.len(), 52);
}

#[test]
fn a_new_match_deals_36_spellboard_cards_4_foundations_14_set_aside_and_6_demons() {
    // Scenario 7: 30 face down and 6 face up; 36 + 4 + 14 = 54.
    let game = Soulitaire::new(&Config::default(), 1, &mut SeededChance::from_u64(11)).unwrap();
    let view = game.view(Viewer::Omniscient);
    assert_eq!(view.spellboard.len(), 6);
    let board: Vec<_> = view.spellboard.iter().flatten().collect();
    assert_eq!(board.len(), 36);
    assert_eq!(board.iter().filter(|c| c.face_up).count(), 6);
    assert!(
        view.spellboard
            .iter()
            .all(|column| column.len() == 6 && column[5].face_up)
    );
    assert_eq!(view.foundations.len(), 4);
    assert!(view.foundations.iter().all(|f| f.layers.len() == 1));
    assert_eq!(view.set_aside_count, 14);
    assert_eq!(view.set_aside.as_ref().unwrap().len(), 14);
    assert_eq!(view.demon_pile.len(), 6);
    assert_eq!(view.unused_demons.as_ref().unwrap().len(), ROSTER.len() - 6);

    let mut all: Vec<Card> = board.iter().map(|c| c.card.unwrap()).collect();
    all.extend(view.set_aside.unwrap());
    for f in &view.foundations {
        all.push(match &f.layers[0] {
            pandemonium_soulitaire::LayerView::Ritual(face) => Card::from(*face),
            pandemonium_soulitaire::LayerView::Mimic { declared: None } => Card::Mimic,
            other => panic!("a starting foundation card, not {other:?}"),
        });
    }
    let mut deck = Card::deck();
    all.sort();
    deck.sort();
    assert_eq!(all, deck);
}

#[test]
fn the_demon_pile_is_six_different_demons_from_the_roster() {
    let deal = Deal::shuffled(&mut SeededChance::from_u64(5));
    assert_eq!(deal.demons.len(), 6);
    let names: HashSet<&str> = deal
        .demons
        .iter()
        .chain(&deal.unused_demons)
        .map(|d| d.name)
        .collect();
    assert_eq!(names.len(), ROSTER.len());
}

#[test]
fn soulitaire_seats_exactly_one_player() {
    for seats in [0, 2] {
        assert!(
            Soulitaire::new(&Config::default(), seats, &mut SeededChance::from_u64(0)).is_err()
        );
    }
}

#[test]
fn the_house_set_has_four_named_suits_and_at_least_twelve_demons_including_bosche() {
    let names: HashSet<&str> = SUITS.iter().map(|s| s.name).collect();
    assert_eq!(names.len(), 4);
    assert!(SUITS.iter().all(|s| s.glyph.chars().count() == 1));
    assert!(ROSTER.len() >= 12);
    let bosche = ROSTER
        .iter()
        .find(|d| d.name == "Bosche the Plague Doctor")
        .unwrap();
    let mut suits: Vec<Symbol> = bosche.symbols.to_vec();
    suits.sort();
    assert_eq!(suits, SUITS.map(|s| Symbol::Suit(s.suit)).to_vec());
    assert!(ROSTER.iter().all(|d| (1..=4).contains(&d.symbols.len())));
    let suit_count = |d: &&pandemonium_soulitaire::Demon| {
        d.symbols
            .iter()
            .filter(|s| matches!(s, Symbol::Suit(_)))
            .count()
    };
    assert!(
        ROSTER.iter().any(|d| suit_count(&d) == 4),
        "a four-suit demon"
    );
    assert!(
        ROSTER
            .iter()
            .any(|d| suit_count(&d) == 2 && d.symbols.len() == 3),
        "two suits and a rank"
    );
    assert!(
        ROSTER.iter().any(|d| suit_count(&d) == 0),
        "a rank-only demon"
    );
}

#[test]
fn an_empty_config_is_the_rules_proposals_and_unknown_options_are_refused() {
    let config: Config = serde_json::from_str("{}").unwrap();
    assert_eq!(config, Config::default());
    assert_eq!(
        serde_json::to_string(&config).unwrap(),
        r#"{"demon_on_top":"dead_stack","demon_pile":"top_only"}"#
    );
    assert!(serde_json::from_str::<Config>(r#"{"jokers":2}"#).is_err());
    let info = Soulitaire::info();
    assert_eq!(info.id, "soulitaire");
    assert_eq!((info.min_seats, info.max_seats), (1, 1));
    let keys: Vec<&str> = info.options.iter().map(|o| o.key.as_str()).collect();
    assert_eq!(keys, ["demon_on_top", "demon_pile"]);
    assert_eq!(info.options[0].default, "dead_stack");
    assert_eq!(info.options[1].default, "top_only");
}

#[test]
fn the_conformance_harness_plays_every_combination_of_options() {
    let configs = Soulitaire::conformance_configs();
    assert_eq!(configs.len(), 4);
    assert!(configs.iter().all(|(_, seats)| *seats == 1));
}
