//! Beginning the game: the deal, the secret setup choice (proposal 4), who goes first
//! (proposal 5), a Joker discarded at setup (proposal 6) and the deck (proposals 1-3).

use pandemonium_demon_bound::{
    Card, DemonBound, DemonBoundAction as Act, DemonBoundConfig, Event, Phase, Rigging, SetupChoice,
};
use pandemonium_game_contract::{ConfigError, Game, ScriptedChance, SeededChance, Viewer};

use super::support::*;

fn setup(hands: &[&str]) -> DemonBound {
    DemonBound::rigged_setup(
        &config(),
        hands.len() as u8,
        Rigging {
            hands: lists(hands),
            draw: filler(20, &hands.join(" ")),
            ..Rigging::default()
        },
    )
    .unwrap()
}

const HANDS: [&str; 3] = [
    "7H 2C 3C 4C 5C 6C",
    "9H 2D 3D 4D 5D 6D",
    "4H 7C 8C 9C 10C 7D",
];

#[test]
fn each_player_starts_with_one_stain_and_six_cards_and_one_card_turned_up() {
    let game = DemonBound::new(&config(), 4, &mut SeededChance::from_u64(3)).unwrap();
    let view = game.view(Viewer::Omniscient);
    assert!(
        view.players
            .iter()
            .all(|p| p.stain == 1 && p.hand_size == 6)
    );
    assert_eq!(view.discard_pile.len(), 1);
    assert_eq!(view.draw_pile as usize, 54 - 24 - 1);
    assert_eq!(view.phase, Phase::Setup);
    assert_eq!(game.to_act().len(), 4, "everyone chooses at once");
}

#[test]
fn the_deck_holds_two_jokers_by_default_and_the_marcus_king_only_as_an_option() {
    let count = |config: &DemonBoundConfig| {
        let game = DemonBound::new(config, 1, &mut SeededChance::from_u64(1)).unwrap();
        let view = game.view(Viewer::Omniscient);
        let mut all: Vec<Card> = view.revealed_draw_pile.unwrap();
        all.extend(view.discard_pile);
        all.extend(view.players[0].hand.clone().unwrap());
        all
    };
    let standard = count(&DemonBoundConfig::default());
    assert_eq!(standard.len(), 54);
    assert_eq!(standard.iter().filter(|c| **c == Card::JOKER).count(), 2);
    let origins = count(&DemonBoundConfig {
        marcus_king: true,
        ..DemonBoundConfig::default()
    });
    assert_eq!(origins.len(), 55);
    assert!(origins.contains(&Card::MARCUS_KING));
    let none = count(&DemonBoundConfig {
        jokers: 0,
        ..DemonBoundConfig::default()
    });
    assert_eq!(none.len(), 52);
}

#[test]
fn the_joker_count_runs_from_zero_to_two_and_unknown_options_are_refused() {
    let three = DemonBoundConfig {
        jokers: 3,
        ..DemonBoundConfig::default()
    };
    assert!(matches!(
        DemonBound::new(&three, 2, &mut SeededChance::from_u64(1)),
        Err(ConfigError::Option { .. })
    ));
    assert!(serde_json::from_str::<DemonBoundConfig>(r#"{"mode":"x"}"#).is_err());
    assert_eq!(
        serde_json::from_str::<DemonBoundConfig>("{}").unwrap(),
        DemonBoundConfig::default()
    );
    assert!(DemonBound::new(&config(), 5, &mut SeededChance::from_u64(1)).is_err());
}

#[test]
fn a_player_may_sacrifice_a_numbered_heart_or_discard_at_random_even_while_holding_a_heart() {
    let game = setup(&HANDS);
    assert_eq!(
        game.legal_actions(A),
        vec![Act::SetupDiscard, Act::SetupSacrifice { card: card("7H") }]
    );
}

#[test]
fn setup_choices_stay_secret_until_everyone_has_chosen() {
    let mut game = setup(&HANDS);
    apply(&mut game, A, Act::SetupSacrifice { card: card("7H") });
    let mine = game.view(Viewer::Seat(A));
    let theirs = game.view(Viewer::Seat(B));
    assert_eq!(
        mine.my_setup,
        Some(SetupChoice::Sacrifice { card: card("7H") })
    );
    assert_eq!(theirs.my_setup, None);
    assert!(theirs.players[A as usize].chosen);
    assert!(theirs.players[A as usize].sacrifice.is_empty());
    assert_eq!(
        game.to_act().iter().collect::<Vec<_>>(),
        vec![B, C],
        "A has chosen"
    );
    assert!(game.legal_actions(A).is_empty());
}

#[test]
fn the_reveal_puts_sacrifices_before_their_players_and_random_discards_on_the_pile() {
    let mut game = setup(&HANDS);
    apply(&mut game, A, Act::SetupSacrifice { card: card("7H") });
    apply(&mut game, B, Act::SetupDiscard);
    // B's random card is the third of the hand (index 2): 3D.
    let mut chance = ScriptedChance::new([2]);
    apply_with(
        &mut game,
        C,
        Act::SetupSacrifice { card: card("4H") },
        &mut chance,
    );
    assert_eq!(sacrifice(&game, A), cards("7H"));
    assert_eq!(sacrifice(&game, C), cards("4H"));
    assert!(sacrifice(&game, B).is_empty());
    assert_eq!(discard_pile(&game), cards("3D"));
    assert!(!hand(&game, B).contains(&card("3D")));
}

#[test]
fn the_high_sacrifice_goes_first() {
    let mut game = setup(&HANDS);
    apply(&mut game, A, Act::SetupSacrifice { card: card("7H") });
    apply(&mut game, B, Act::SetupSacrifice { card: card("9H") });
    apply(&mut game, C, Act::SetupSacrifice { card: card("4H") });
    let view = omniscient(&game);
    assert_eq!(view.turn, Some(B));
    assert!(view.log.contains(&Event::FirstPlayer {
        seat: B,
        by_lot: false
    }));
    assert_eq!(view.players[B as usize].hand_size, 6, "B refreshed first");
}

#[test]
fn with_no_sacrifice_the_first_player_is_drawn_by_lot() {
    let mut game = setup(&HANDS);
    apply(&mut game, A, Act::SetupDiscard);
    apply(&mut game, B, Act::SetupDiscard);
    // Three random discards (index 0 each), then the lot among all three: seat 2.
    let mut chance = ScriptedChance::new([0, 0, 0, 2]);
    apply_with(&mut game, C, Act::SetupDiscard, &mut chance);
    let view = omniscient(&game);
    assert_eq!(view.turn, Some(C));
    assert!(view.log.contains(&Event::FirstPlayer {
        seat: C,
        by_lot: true
    }));
}

#[test]
fn hearts_are_unique_so_the_high_sacrifice_is_only_tied_when_nobody_sacrificed() {
    // One sacrifice against two random discards: the sacrificer goes first, with no lot.
    let mut game = setup(&HANDS);
    apply(&mut game, A, Act::SetupDiscard);
    apply(&mut game, B, Act::SetupDiscard);
    game.apply(
        C,
        &Act::SetupSacrifice { card: card("4H") },
        &mut ScriptedChance::new([0, 0]),
    )
    .unwrap();
    assert_eq!(omniscient(&game).turn, Some(C));
    assert!(omniscient(&game).log.contains(&Event::FirstPlayer {
        seat: C,
        by_lot: false
    }));
}

#[test]
fn a_joker_discarded_at_setup_opens_hells_maw_after_the_reveal() {
    let mut game = setup(&[
        "Joker 2C 3C 4C 5C 6C",
        "3S 2D 3D 4D 5D 6D",
        "7H 7S 7C 8C 9C 10C",
    ]);
    apply(&mut game, A, Act::SetupDiscard);
    apply(&mut game, B, Act::SetupDiscard);
    // A's random card: the Joker (index 0); B's: 2D (index 1); the two pitched spades
    // [3S 7S] keep their order; they are dealt from A's left: B then C.
    let mut chance = ScriptedChance::new([0, 1, 1]);
    apply_with(
        &mut game,
        C,
        Act::SetupSacrifice { card: card("7H") },
        &mut chance,
    );
    assert_eq!(threats(&game, B), cards("3S"));
    assert_eq!(threats(&game, C), cards("7S"));
    assert!(threats(&game, A).is_empty());
    assert_eq!(
        omniscient(&game).turn,
        Some(C),
        "C's 7H is the high sacrifice"
    );
}

#[test]
fn a_joker_turned_up_to_start_the_discard_pile_does_nothing() {
    let mut game = DemonBound::rigged_setup(
        &config(),
        2,
        Rigging {
            hands: lists(&["3S 2C 3C 4C 5C 6C", "7H 2D 3D 4D 5D 6D"]),
            discard: cards("Joker"),
            draw: filler(20, "2C 3C 4C 5C 6C 7H 2D 3D 4D 5D 6D"),
            ..Rigging::default()
        },
    )
    .unwrap();
    apply(&mut game, A, Act::SetupDiscard);
    // A's random discard is 2C (index 1).
    let mut chance = ScriptedChance::new([1]);
    apply_with(
        &mut game,
        B,
        Act::SetupSacrifice { card: card("7H") },
        &mut chance,
    );
    assert!(threats(&game, A).is_empty() && threats(&game, B).is_empty());
    assert!(hand(&game, A).contains(&card("3S")), "nothing was pitched");
}

#[test]
fn the_default_setup_choice_is_the_random_discard() {
    let game = setup(&HANDS);
    assert_eq!(game.default_action(A), Some(Act::SetupDiscard));
}
