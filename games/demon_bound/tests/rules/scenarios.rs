//! The test scenarios of `RULES.md`, exactly as written (3 players A → B → C).

use pandemonium_demon_bound::{
    DemonBoundAction as Act, DemonBoundConfig, DemonBoundError, Ending, Phase, Rigging,
};
use pandemonium_game_contract::{Game, ScriptedChance, Viewer};

use super::support::*;

// Scenario 1: auto-appease on summon.

fn scenario_one() -> pandemonium_demon_bound::DemonBound {
    let mut game = rig(
        3,
        Rigging {
            hands: lists(&["8S 2C 3C 4C 5C 6C", "", ""]),
            sacrifices: lists(&["", "7H 3H", ""]),
            draw: filler(20, "8S 2C 3C 4C 5C 6C 7H 3H"),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("8S"),
            onto: B,
        },
    );
    game
}

#[test]
fn a_demon_summoned_onto_a_sacrifice_at_least_its_strength_is_auto_appeased() {
    let game = scenario_one();
    assert_eq!(phase(&game), Phase::Decision { decider: B });
    assert!(discarded(&game, "7H 3H"), "the sacrifice is discarded");
    assert!(sacrifice(&game, B).is_empty());
    assert!(threats(&game, B).is_empty(), "the demon is not before B");
}

#[test]
fn the_sacrificing_player_not_the_summoner_chooses_whom_the_auto_appeased_demon_attacks() {
    let mut game = scenario_one();
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![B]);
    assert_eq!(
        game.legal_actions(B),
        vec![Act::Attack { target: C }, Act::Attack { target: A }]
    );
    assert!(game.legal_actions(A).is_empty());
    apply(&mut game, B, Act::Attack { target: C });
    assert_eq!(threats(&game, C), cards("8S"));
}

#[test]
fn the_summon_uses_the_summoners_card_play() {
    let mut game = scenario_one();
    apply(&mut game, B, Act::Attack { target: C });
    // A had nothing left to do (no banish possible): the turn moved on to the discard step.
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
    assert!(
        game.legal_actions(A)
            .iter()
            .all(|a| matches!(a, Act::Discard { .. }))
    );
}

// Scenario 2: a large demon, then bind / appease / stain.

/// A summons 9S onto B's sacrifice of 2H and discards; B's turn begins.
fn scenario_two() -> pandemonium_demon_bound::DemonBound {
    let mut game = rig(
        3,
        Rigging {
            hands: lists(&["9S 2D 3D 4D 5D 6D", "9C 10C 8C 7H AC", ""]),
            sacrifices: lists(&["", "2H", ""]),
            draw: cards("JH 4H 5H 6H 8H 9H 10H"),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("9S"),
            onto: B,
        },
    );
    assert_eq!(threats(&game, B), cards("9S"), "not appeased: 2 < 9");
    apply(&mut game, A, Act::Discard { cards: set("2D") });
    assert_eq!(omniscient(&game).turn, Some(B));
    game
}

#[test]
fn a_demon_larger_than_the_sacrifice_stays_before_its_player() {
    let game = scenario_two();
    assert_eq!(threats(&game, B), cards("9S"));
    assert_eq!(sacrifice(&game, B), cards("2H"));
}

#[test]
fn a_club_at_least_the_demons_strength_binds_it_and_discards_the_sacrifice_and_the_club() {
    for club in ["9C", "10C"] {
        let mut game = scenario_two();
        apply(
            &mut game,
            B,
            Act::Bind {
                card: card(club),
                demon: card("9S"),
            },
        );
        assert_eq!(bound(&game, B), cards("9S"));
        assert!(threats(&game, B).is_empty() && sacrifice(&game, B).is_empty());
        assert!(discarded(&game, &format!("2H {club}")));
    }
}

#[test]
fn a_club_weaker_than_the_demon_does_not_bind() {
    let game = scenario_two();
    assert_eq!(
        refused(
            &game,
            B,
            Act::Bind {
                card: card("8C"),
                demon: card("9S")
            }
        ),
        DemonBoundError::BindingTooWeak
    );
    assert!(!game.legal_actions(B).contains(&Act::Bind {
        card: card("8C"),
        demon: card("9S")
    }));
}

#[test]
fn a_heart_that_brings_the_sacrifice_to_the_demons_strength_appeases_it() {
    let mut game = scenario_two();
    apply(
        &mut game,
        B,
        Act::Appease {
            card: card("7H"),
            demon: card("9S"),
            target: Some(A),
        },
    );
    assert_eq!(threats(&game, A), cards("9S"), "it attacks B's choice");
    assert!(threats(&game, B).is_empty() && sacrifice(&game, B).is_empty());
    assert!(discarded(&game, "2H 7H"));
}

#[test]
fn doing_nothing_about_the_demon_adds_a_stain_discards_the_demon_and_keeps_the_sacrifice() {
    let mut game = scenario_two();
    apply(&mut game, B, Act::EndPlay);
    assert_eq!(stain(&game, B), 2);
    assert!(discarded(&game, "9S") && threats(&game, B).is_empty());
    assert_eq!(sacrifice(&game, B), cards("2H"));
    // The new stain counts this turn: B must discard two cards.
    assert_eq!(phase(&game), Phase::Discard { at_least: 2 });
    assert_eq!(
        refused(&game, B, Act::Discard { cards: set("AC") }),
        DemonBoundError::TooFewDiscards
    );
}

// Scenario 3: treasure.

fn scenario_three() -> pandemonium_demon_bound::DemonBound {
    rig(
        3,
        Rigging {
            hands: lists(&["", "9D 10D 2C 3C 4C 5C", ""]),
            bound: lists(&["", "4S 5S", ""]),
            draw: filler(20, "9D 10D 2C 3C 4C 5C 4S 5S"),
            turn: B,
            ..Rigging::default()
        },
    )
}

#[test]
fn a_diamond_enters_the_treasury_by_releasing_bound_demons_whose_total_reaches_its_value() {
    let mut game = scenario_three();
    apply(
        &mut game,
        B,
        Act::Treasure {
            card: card("9D"),
            release: set("4S 5S"),
        },
    );
    assert_eq!(treasury(&game, B), cards("9D"));
    assert!(bound(&game, B).is_empty());
    assert!(discarded(&game, "4S 5S"));
}

#[test]
fn a_diamond_worth_more_than_the_bound_demons_cannot_be_played() {
    let game = scenario_three();
    assert_eq!(
        refused(
            &game,
            B,
            Act::Treasure {
                card: card("10D"),
                release: set("4S 5S")
            }
        ),
        DemonBoundError::BadRelease
    );
    assert!(
        !game
            .legal_actions(B)
            .iter()
            .any(|a| matches!(a, Act::Treasure { card: c, .. } if *c == card("10D")))
    );
}

// Scenario 4: banish is not a card play.

#[test]
fn banish_does_not_use_the_card_play() {
    let mut game = rig(
        3,
        Rigging {
            hands: lists(&["", "", "4H 2C 3C 4C 5C 6C"]),
            threats: lists(&["", "", "10S"]),
            bound: lists(&["", "", "2S"]),
            draw: filler(20, "4H 2C 3C 4C 5C 6C 10S 2S"),
            turn: C,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        C,
        Act::Banish {
            demon: card("10S"),
            freed: card("2S"),
        },
    );
    assert!(discarded(&game, "10S 2S"));
    assert!(threats(&game, C).is_empty() && bound(&game, C).is_empty());
    assert_eq!(phase(&game), Phase::Play { card_played: false });
    apply(&mut game, C, Act::Sacrifice { card: card("4H") });
    assert_eq!(sacrifice(&game, C), cards("4H"));
}

// Scenario 5: mobbed.

fn scenario_five() -> pandemonium_demon_bound::DemonBound {
    rig(
        3,
        Rigging {
            hands: lists(&[
                "7S 2C 3C 4C 5C 6C",
                "8H 7C 8C 9C 10C JH",
                "2D 3D 4D 5D 6D 7D",
            ]),
            sacrifices: lists(&["", "", "AH"]),
            threats: lists(&["", "", "9S 4S"]),
            draw: filler(
                30,
                "7S 2C 3C 4C 5C 6C AH 8H 7C 8C 9C 10C JH 2D 3D 4D 5D 6D 7D 9S 4S",
            ),
            turn: C,
            ..Rigging::default()
        },
    )
}

#[test]
fn when_mobbed_only_the_strongest_demon_attacks() {
    let mut game = scenario_five();
    assert_eq!(omniscient(&game).active_threat, Some(card("9S")));
    apply(&mut game, C, Act::EndPlay);
    assert_eq!(stain(&game, C), 2);
    assert!(discarded(&game, "9S"));
    assert_eq!(
        threats(&game, C),
        cards("4S"),
        "the weaker demon waits in line"
    );
}

#[test]
fn a_waiting_demon_becomes_the_active_threat_on_the_next_turn() {
    let mut game = scenario_five();
    apply(&mut game, C, Act::EndPlay);
    apply(
        &mut game,
        C,
        Act::Discard {
            cards: set("2D 3D"),
        },
    );
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    apply(&mut game, B, Act::EndPlay);
    apply(&mut game, B, Act::Discard { cards: set("7C") });
    assert_eq!(omniscient(&game).turn, Some(C));
    assert_eq!(omniscient(&game).active_threat, Some(card("4S")));
}

#[test]
fn a_stronger_demon_arriving_in_between_goes_to_the_front_of_the_line() {
    let mut game = scenario_five();
    apply(&mut game, C, Act::EndPlay);
    apply(
        &mut game,
        C,
        Act::Discard {
            cards: set("2D 3D"),
        },
    );
    // A summons 7S onto C's sacrifice of AH: 1 < 7, so it stays before C.
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("7S"),
            onto: C,
        },
    );
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    apply(&mut game, B, Act::EndPlay);
    apply(&mut game, B, Act::Discard { cards: set("7C") });
    assert_eq!(threats(&game, C), cards("4S 7S"));
    assert_eq!(omniscient(&game).active_threat, Some(card("7S")));
}

// Scenario 6: carried to hell.

fn scenario_six() -> pandemonium_demon_bound::DemonBound {
    rig(
        3,
        Rigging {
            hands: lists(&["", "AH 2C 3C 4C 5C", ""]),
            bound: lists(&["", "3S 8S", ""]),
            stains: vec![1, 5, 1],
            draw: cards("6C 2D 3D 4D 5D 6D 7D 8D 9D 10D 2H 3H 4H 5H 6H 7H"),
            turn: B,
            ..Rigging::default()
        },
    )
}

#[test]
fn a_player_whose_discard_empties_the_hand_is_carried_away_to_hell() {
    let mut game = scenario_six();
    assert_eq!(hand(&game, B).len(), 6, "refreshed to six cards");
    apply(&mut game, B, Act::Sacrifice { card: card("AH") });
    assert_eq!(phase(&game), Phase::Discard { at_least: 5 });
    apply(
        &mut game,
        B,
        Act::Discard {
            cards: set("2C 3C 4C 5C 6C"),
        },
    );
    let view = omniscient(&game);
    assert!(view.players[B as usize].out);
    assert_eq!(phase(&game), Phase::Decision { decider: B });
    // B assigns each bound demon, one by one, to A or C.
    assert_eq!(
        game.legal_actions(B),
        vec![Act::Attack { target: C }, Act::Attack { target: A }]
    );
    apply(&mut game, B, Act::Attack { target: A });
    apply(&mut game, B, Act::Attack { target: C });
    assert_eq!(threats(&game, A), cards("3S"));
    assert_eq!(threats(&game, C), cards("8S"));
    assert_eq!(omniscient(&game).turn, Some(C), "play goes on to C");
}

#[test]
fn a_player_who_plays_no_card_keeps_one_card_after_discarding_five_and_survives() {
    let mut game = scenario_six();
    apply(&mut game, B, Act::EndPlay);
    apply(
        &mut game,
        B,
        Act::Discard {
            cards: set("2C 3C 4C 5C 6C"),
        },
    );
    assert!(!omniscient(&game).players[B as usize].out);
    assert_eq!(hand(&game, B), cards("AH"));
    assert_eq!(omniscient(&game).turn, Some(C));
}

// Scenario 7: the Joker deal.

#[test]
fn a_discarded_joker_pitches_every_numbered_spade_in_hand_and_deals_them_from_the_discarders_left()
{
    let mut game = rig(
        3,
        Rigging {
            hands: lists(&[
                "Joker 2C 3C 4C 5C 6C",
                "3S 7S 2D 3D 4D 5D",
                "2S 6D 7D 8D 9D 10D",
            ]),
            draw: filler(20, "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 7D 8D 9D 10D"),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::EndPlay);
    // The shuffle of the three pitched spades [3S 7S 2S] is scripted to leave them in order.
    let mut chance = ScriptedChance::new([2, 1]);
    apply_with(
        &mut game,
        A,
        Act::Discard {
            cards: set("Joker"),
        },
        &mut chance,
    );
    assert_eq!(threats(&game, B), cards("3S"));
    assert_eq!(threats(&game, C), cards("7S"));
    assert_eq!(threats(&game, A), cards("2S"));
    assert!(hand(&game, B).iter().all(|c| !c.is_demon()));
    assert!(hand(&game, C).iter().all(|c| !c.is_demon()));
    assert!(discarded(&game, "Joker"));
}

// Scenario 8: the Queen of spades.

#[test]
fn the_queen_of_spades_banishes_two_demons_anywhere_bound_or_not() {
    let mut game = rig(
        3,
        Rigging {
            hands: lists(&["QS 2C 3C 4C 5C 6C", "", ""]),
            bound: lists(&["", "6S", ""]),
            threats: lists(&["", "", "9S"]),
            draw: filler(20, "2C 3C 4C 5C 6C"),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("QS") });
    apply(&mut game, A, Act::SpellBanish { demon: card("6S") });
    apply(&mut game, A, Act::SpellBanish { demon: card("9S") });
    assert!(bound(&game, B).is_empty() && threats(&game, C).is_empty());
    assert!(discarded(&game, "6S 9S QS"));
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
}

// Scenario 9: solitaire win and loss.

fn solitaire_ending(treasury: &str) -> pandemonium_demon_bound::DemonBound {
    let mut game = rig(
        1,
        Rigging {
            hands: lists(&["2C 3C 4C"]),
            treasuries: lists(&[treasury]),
            draw: cards("5C 6C 7C"),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(
        omniscient(&game).draw_pile,
        0,
        "the refresh emptied the pile"
    );
    apply(&mut game, A, Act::EndPlay);
    game
}

#[test]
fn solitaire_ends_at_the_discard_step_of_the_turn_whose_refresh_emptied_the_pile() {
    let game = solitaire_ending("10D 6D 4D");
    assert_eq!(phase(&game), Phase::Over);
    assert_eq!(omniscient(&game).ending, Some(Ending::DeckExhausted));
    assert_eq!(hand(&game, A).len(), 6, "the discard step is skipped");
}

#[test]
fn solitaire_is_won_with_twenty_treasure() {
    let game = solitaire_ending("10D 6D 4D");
    assert_eq!(game.outcome().unwrap().winners, vec![A]);
}

#[test]
fn solitaire_is_lost_with_nineteen_treasure() {
    let game = solitaire_ending("10D 6D 3D");
    assert!(game.outcome().unwrap().winners.is_empty());
}

// Scenario 10: the end by treasures.

#[test]
fn the_game_ends_at_once_when_the_tenth_numbered_diamond_enters_a_survivors_treasury() {
    let mut game = rig(
        3,
        Rigging {
            hands: lists(&["AD 2C 3C 4C 5C 6C", "", ""]),
            bound: lists(&["2S", "", ""]),
            treasuries: lists(&["10D 8D", "9D 7D", "2D 3D 4D 5D 6D"]),
            draw: filler(10, "2C 3C 4C 5C 6C"),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Treasure {
            card: card("AD"),
            release: set("2S"),
        },
    );
    assert_eq!(phase(&game), Phase::Over, "no discard step");
    assert_eq!(omniscient(&game).ending, Some(Ending::TreasuresClaimed));
    assert_eq!(
        game.outcome().unwrap().winners,
        vec![C],
        "20 beats 19 and 16"
    );
}

#[test]
fn a_treasury_of_ten_and_eight_beats_nine_seven_and_ace() {
    let config = DemonBoundConfig {
        round_cap: Some(1),
        ..DemonBoundConfig::default()
    };
    let mut game = pandemonium_demon_bound::DemonBound::rigged(
        &config,
        3,
        Rigging {
            hands: lists(&[
                "2C 3C 4C 5C 6C 7C",
                "2H 3H 4H 5H 6H 7H",
                "8H 9H 10H 8C 9C 10C",
            ]),
            treasuries: lists(&["10D 8D", "9D 7D AD", "2D"]),
            draw: filler(
                10,
                "2C 3C 4C 5C 6C 7C 2H 3H 4H 5H 6H 7H 8H 9H 10H 8C 9C 10C 10D 8D 9D 7D AD 2D",
            ),
            turn: A,
            ..Rigging::default()
        },
    )
    .unwrap();
    for (seat, junk) in [(A, "2C"), (B, "2H"), (C, "8H")] {
        apply(&mut game, seat, Act::EndPlay);
        apply(&mut game, seat, Act::Discard { cards: set(junk) });
    }
    let outcome = game.outcome().expect("the round cap ended the game");
    assert_eq!(outcome.winners, vec![A]);
    assert_eq!(outcome.scores, vec![18, 17, 2]);
    assert_eq!(outcome.placements, vec![1, 2, 3]);
    assert!(game.view(Viewer::Spectator).players[0].hand.is_some());
}
