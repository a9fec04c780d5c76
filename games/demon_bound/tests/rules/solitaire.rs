//! The solitaire game: one seat (proposal 24).

use pandemonium_demon_bound::{
    DemonBound, DemonBoundAction as Act, DemonBoundConfig, Ending, Event, Phase, Rigging,
};
use pandemonium_game_contract::{Game, ScriptedChance};

use super::support::*;

fn solo(rigging: Rigging) -> DemonBound {
    rig(1, rigging)
}

fn marcus() -> DemonBoundConfig {
    DemonBoundConfig {
        marcus_king: true,
        ..DemonBoundConfig::default()
    }
}

#[test]
fn two_cards_are_turned_up_after_each_turn_a_demon_attacks_and_others_are_discarded() {
    let mut game = solo(Rigging {
        hands: lists(&[JUNK[0]]),
        draw: cards("9S 4H 8C 9C 10C"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    // The refresh then drew 8C; 9S and 4H were turned up.
    assert_eq!(threats(&game, A), cards("9S"));
    assert!(discarded(&game, "4H"));
    assert_eq!(hand(&game, A).len(), 6);
    assert_eq!(omniscient(&game).draw_pile, 2);
}

#[test]
fn a_spade_face_card_turned_up_is_discarded() {
    let mut game = solo(Rigging {
        hands: lists(&[JUNK[0]]),
        draw: cards("KS 4H 8C 9C 10C"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    assert!(threats(&game, A).is_empty());
    assert!(discarded(&game, "KS 4H"));
}

#[test]
fn a_turned_up_joker_sends_every_spade_in_your_hand_against_you() {
    let mut game = solo(Rigging {
        hands: lists(&["3S 5S 2C 3C 4C 5C"]),
        draw: cards("Joker 4H 8C 9C 10C"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    let mut got = threats(&game, A);
    got.sort();
    assert_eq!(got, cards("3S 5S"));
    assert!(hand(&game, A).iter().all(|c| !c.is_demon()));
    assert!(discarded(&game, "Joker"));
}

#[test]
fn a_joker_discarded_from_your_hand_also_sends_your_spades_against_you() {
    let mut game = solo(Rigging {
        hands: lists(&["3S Joker 2C 3C 4C 5C"]),
        draw: cards("4H 6H 8C 9C 10C"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::EndPlay);
    apply(
        &mut game,
        A,
        Act::Discard {
            cards: set("Joker"),
        },
    );
    assert_eq!(threats(&game, A), cards("3S"));
}

#[test]
fn a_turned_up_marcus_king_sends_the_spades_of_the_discard_pile_against_you() {
    let mut game = DemonBound::rigged(
        &marcus(),
        1,
        Rigging {
            hands: lists(&[JUNK[0]]),
            discard: cards("7S 2H"),
            draw: cards("MK 4H 8C 9C 10C"),
            turn: A,
            ..Rigging::default()
        },
    )
    .unwrap();
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    assert_eq!(threats(&game, A), cards("7S"));
    assert!(!discarded(&game, "7S") && discarded(&game, "MK 2H"));
}

#[test]
fn solitaire_never_reshuffles_the_discards() {
    let game = solo(Rigging {
        hands: lists(&["2C 3C 4C"]),
        draw: cards("5C"),
        discard: cards("6C 7C 8C"),
        turn: A,
        ..Rigging::default()
    });
    assert_eq!(hand(&game, A).len(), 4);
    assert_eq!(omniscient(&game).reshuffles, 0);
}

#[test]
fn if_only_one_card_is_left_only_one_is_turned_up_and_the_game_ends_at_the_next_discard_step() {
    let mut game = solo(Rigging {
        hands: lists(&[JUNK[0]]),
        draw: cards("8C 4H"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    // 8C was drawn by the refresh; 4H alone was turned up.
    assert!(discarded(&game, "4H"));
    assert_eq!(omniscient(&game).draw_pile, 0);
    assert_eq!(phase(&game), Phase::Play { card_played: false });
    apply(&mut game, A, Act::EndPlay);
    assert_eq!(omniscient(&game).ending, Some(Ending::DeckExhausted));
}

#[test]
fn appeasing_in_solitaire_discards_the_demon_and_the_sacrifice() {
    let mut game = solo(Rigging {
        hands: lists(&["5H 2C 3C 4C 5C 6C"]),
        sacrifices: lists(&["4H"]),
        threats: lists(&["9S"]),
        draw: filler(10, "5H 2C 3C 4C 5C 6C 4H"),
        turn: A,
        ..Rigging::default()
    });
    assert!(game.legal_actions(A).contains(&Act::Appease {
        card: card("5H"),
        demon: card("9S"),
        target: None
    }));
    apply(
        &mut game,
        A,
        Act::Appease {
            card: card("5H"),
            demon: card("9S"),
            target: None,
        },
    );
    assert!(threats(&game, A).is_empty() && sacrifice(&game, A).is_empty());
    assert!(discarded(&game, "9S 4H 5H"));
}

#[test]
fn an_auto_appeased_demon_in_solitaire_is_discarded() {
    let mut game = solo(Rigging {
        hands: lists(&["3S 2C 3C 4C 5C 6C"]),
        sacrifices: lists(&["4H"]),
        draw: filler(10, "2C 3C 4C 5C 6C 4H"),
        turn: A,
        ..Rigging::default()
    });
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("3S"),
            onto: A,
        },
    );
    assert!(threats(&game, A).is_empty());
    assert!(discarded(&game, "3S 4H"));
    assert!(omniscient(&game).log.contains(&Event::Attacks {
        demon: card("3S"),
        by: A,
        target: None
    }));
}

#[test]
fn treasure_scrying_in_solitaire_takes_diamonds_from_the_discard_pile() {
    let mut game = solo(Rigging {
        hands: lists(&["QD 2C 3C 4C 5C 6C"]),
        discard: cards("9D 4H 3D"),
        draw: filler(10, "2C 3C 4C 5C 6C 9D 4H 3D"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::Cast { card: card("QD") });
    assert!(
        !game
            .legal_actions(A)
            .iter()
            .any(|a| matches!(a, Act::Scry { .. }))
    );
    apply(&mut game, A, Act::Steal { card: card("9D") });
    apply(&mut game, A, Act::Steal { card: card("3D") });
    assert!(hand(&game, A).contains(&card("9D")) && hand(&game, A).contains(&card("3D")));
    assert!(!discarded(&game, "9D") && !discarded(&game, "3D"));
}

#[test]
fn royal_sacrifice_in_solitaire_targets_only_yourself() {
    let mut game = solo(Rigging {
        hands: lists(&["JH 3S 2C 3C 4C 5C"]),
        turn: A,
        draw: filler(10, "2C 3C 4C 5C"),
        ..Rigging::default()
    });
    apply(&mut game, A, Act::Cast { card: card("JH") });
    let summons: Vec<Act> = game
        .legal_actions(A)
        .into_iter()
        .filter(|a| matches!(a, Act::SpellSummon { .. }))
        .collect();
    assert_eq!(
        summons,
        vec![Act::SpellSummon {
            card: card("3S"),
            onto: A
        }]
    );
}

#[test]
fn an_empty_hand_loses_solitaire_early() {
    let mut game = solo(Rigging {
        hands: lists(&["2C 3C 4C 5C 6C 7C"]),
        treasuries: lists(&["10D 9D 8D"]),
        stains: vec![6],
        draw: filler(20, "2C 3C 4C 5C 6C 7C 10D 9D 8D"),
        turn: A,
        ..Rigging::default()
    });
    apply(&mut game, A, Act::EndPlay);
    apply(
        &mut game,
        A,
        Act::Discard {
            cards: set("2C 3C 4C 5C 6C 7C"),
        },
    );
    assert_eq!(omniscient(&game).ending, Some(Ending::CarriedAway));
    assert!(
        game.outcome().unwrap().winners.is_empty(),
        "27 treasure, yet lost"
    );
}

#[test]
fn the_solitaire_setup_choice_happens_but_decides_nothing() {
    let mut game = DemonBound::rigged_setup(
        &config(),
        1,
        Rigging {
            hands: lists(&["7H 2C 3C 4C 5C 6C"]),
            draw: filler(20, "7H 2C 3C 4C 5C 6C"),
            ..Rigging::default()
        },
    )
    .unwrap();
    let mut chance = ScriptedChance::new([]);
    apply_with(
        &mut game,
        A,
        Act::SetupSacrifice { card: card("7H") },
        &mut chance,
    );
    assert_eq!(sacrifice(&game, A), cards("7H"));
    assert_eq!(omniscient(&game).turn, Some(A));
    assert!(omniscient(&game).log.contains(&Event::FirstPlayer {
        seat: A,
        by_lot: false
    }));
}
