//! Jokers and the Marcus King: Hell's Maw Gapes Wide (proposals 16 and 17).

use pandemonium_demon_bound::{
    DemonBound, DemonBoundAction as Act, DemonBoundConfig, DemonBoundError, Rigging,
};
use pandemonium_game_contract::{Game, ScriptedChance};

use super::support::*;

#[test]
fn a_joker_can_never_be_played_only_discarded() {
    let game = table(
        2,
        Rigging {
            hands: lists(&["Joker 2C 3C 4C 5C 6C", JUNK[1]]),
            turn: A,
            ..Rigging::default()
        },
    );
    assert!(
        game.legal_actions(A)
            .iter()
            .all(|a| !format!("{a:?}").contains("Joker"))
    );
    assert_eq!(
        refused(
            &game,
            A,
            Act::Cast {
                card: card("Joker")
            }
        ),
        DemonBoundError::WrongCard
    );
}

#[test]
fn hells_maw_skips_players_carried_away_to_hell() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&[
                "Joker 2C 3C 4C 5C 6C",
                "AH 2D 3D 4D 5D 6D",
                "2S 3S 7D 8D 9D 10D",
            ]),
            stains: vec![1, 6, 1],
            turn: B,
            ..Rigging::default()
        },
    );
    apply(&mut game, B, Act::EndPlay);
    apply(
        &mut game,
        B,
        Act::Discard {
            cards: set("2D 3D 4D 5D 6D AH"),
        },
    );
    assert!(omniscient(&game).players[B as usize].out);
    apply(&mut game, C, Act::EndPlay);
    apply(&mut game, C, Act::Discard { cards: set("7D") });
    apply(&mut game, A, Act::EndPlay);
    // Pitched: C's 2S and 3S, in that order (the scripted shuffle keeps it), dealt from A's
    // left skipping B: C, then A.
    let mut chance = ScriptedChance::new([1]);
    apply_with(
        &mut game,
        A,
        Act::Discard {
            cards: set("Joker"),
        },
        &mut chance,
    );
    assert_eq!(threats(&game, C), cards("2S"));
    assert_eq!(threats(&game, A), cards("3S"));
    assert!(threats(&game, B).is_empty());
}

#[test]
fn the_joker_deal_goes_round_again_until_the_pile_is_exhausted() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["Joker 2C 3C 4C 5C 6C", "AS 2S 3S 7D 8D 9D"]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::EndPlay);
    let mut chance = ScriptedChance::new([2, 1]);
    apply_with(
        &mut game,
        A,
        Act::Discard {
            cards: set("Joker"),
        },
        &mut chance,
    );
    assert_eq!(threats(&game, B), cards("AS 3S"));
    assert_eq!(threats(&game, A), cards("2S"));
}

#[test]
fn two_jokers_discarded_together_open_hells_maw_one_at_a_time() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["Joker Joker 2C 3C 4C 5C", "AS 7D 8D 9D 10D 6D"]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::EndPlay);
    apply(
        &mut game,
        A,
        Act::Discard {
            cards: set("Joker Joker"),
        },
    );
    let maws = omniscient(&game)
        .log
        .iter()
        .filter(|e| matches!(e, pandemonium_demon_bound::Event::HellsMaw { .. }))
        .count();
    assert_eq!(maws, 2);
    assert_eq!(
        threats(&game, B),
        cards("AS"),
        "the second found nothing left"
    );
}

#[test]
fn a_joker_pitch_that_empties_your_own_hand_in_your_discard_step_carries_you_away() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["Joker 5S", "7D 8D 9D 10D 6D 5D"]),
            draw: vec![],
            turn: A,
            ..Rigging::default()
        },
    );
    // The refresh drew four harmless cards; A discards them with the Joker.
    let mut hand_now = hand(&game, A);
    hand_now.retain(|c| *c != card("5S"));
    hand_now.sort();
    apply(&mut game, A, Act::EndPlay);
    apply(
        &mut game,
        A,
        Act::Discard {
            cards: hand_now.into(),
        },
    );
    assert!(omniscient(&game).players[A as usize].out);
    assert_eq!(game.outcome().unwrap().winners, vec![B]);
}

#[test]
fn the_marcus_king_deals_the_spades_of_the_discard_pile_including_those_discarded_with_it() {
    let config = DemonBoundConfig {
        marcus_king: true,
        ..DemonBoundConfig::default()
    };
    let mut game = DemonBound::rigged(
        &config,
        2,
        Rigging {
            hands: lists(&["MK 2S 2C 3C 4C 5C", "3S 7D 8D 9D 10D 6D"]),
            discard: cards("9S 4H"),
            draw: filler(20, "2C 3C 4C 5C 7D 8D 9D 10D 6D 4H"),
            turn: A,
            ..Rigging::default()
        },
    )
    .unwrap();
    apply(&mut game, A, Act::EndPlay);
    // The pile's spades [9S 2S] keep their order: B gets 9S, A gets 2S.
    let mut chance = ScriptedChance::new([1]);
    apply_with(
        &mut game,
        A,
        Act::Discard {
            cards: set("2S MK"),
        },
        &mut chance,
    );
    assert_eq!(threats(&game, B), cards("9S"));
    assert_eq!(threats(&game, A), cards("2S"));
    assert!(
        hand(&game, B).contains(&card("3S")),
        "hands are not pitched"
    );
    assert!(discarded(&game, "MK 4H"));
    assert!(!discarded(&game, "9S"));
}

#[test]
fn the_marcus_king_can_never_be_played() {
    let config = DemonBoundConfig {
        marcus_king: true,
        ..DemonBoundConfig::default()
    };
    let game = DemonBound::rigged(
        &config,
        2,
        Rigging {
            hands: lists(&["MK 2C 3C 4C 5C 6C", JUNK[1]]),
            draw: filler(20, "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 7D"),
            turn: A,
            ..Rigging::default()
        },
    )
    .unwrap();
    assert_eq!(
        refused(&game, A, Act::Cast { card: card("MK") }),
        DemonBoundError::WrongCard
    );
}
