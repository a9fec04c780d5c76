//! The turn: refresh, the one card play, summoning (proposal 7), appeasing (proposal 8),
//! binding (proposal 14), banishing (proposal 13), the stain (proposals 9-12) and discards.

use pandemonium_demon_bound::{DemonBoundAction as Act, DemonBoundError, Phase, Rigging};
use pandemonium_game_contract::Game;

use super::support::*;

#[test]
fn the_refresh_draws_up_to_six_cards() {
    let game = table(
        2,
        Rigging {
            hands: lists(&["2C 3C", JUNK[1]]),
            draw: cards("4C 5C 6C 7C"),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(hand(&game, A), cards("2C 3C 4C 5C 6C 7C"));
}

#[test]
fn an_empty_draw_pile_is_reshuffled_from_the_discards() {
    let game = rig(
        2,
        Rigging {
            hands: lists(&["2C 3C 4C 5C", JUNK[1]]),
            draw: cards("6C"),
            discard: cards("7C 8C 9C"),
            turn: A,
            ..Rigging::default()
        },
    );
    let view = omniscient(&game);
    assert_eq!(view.players[0].hand_size, 6);
    assert_eq!(view.reshuffles, 1);
    assert!(view.discard_pile.is_empty());
    assert_eq!(view.draw_pile, 2);
}

#[test]
fn with_both_piles_empty_the_refresh_draws_what_it_can() {
    let game = rig(
        2,
        Rigging {
            hands: lists(&["2C 3C 4C 5C", JUNK[1]]),
            draw: cards("6C"),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(hand(&game, A).len(), 5);
}

#[test]
fn a_hand_above_six_is_not_cut_by_the_refresh() {
    let game = table(
        2,
        Rigging {
            hands: lists(&["2C 3C 4C 5C 6C 7C 8C", JUNK[1]]),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(hand(&game, A).len(), 7);
}

#[test]
fn only_one_card_may_be_played_each_turn() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["2H 3H 4C 5C 6C 7C", JUNK[1]]),
            threats: lists(&["9S", ""]),
            bound: lists(&["AS", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Sacrifice { card: card("2H") });
    assert_eq!(phase(&game), Phase::Play { card_played: true });
    assert_eq!(
        refused(&game, A, Act::Sacrifice { card: card("3H") }),
        DemonBoundError::AlreadyPlayed
    );
}

#[test]
fn after_the_card_play_the_turn_moves_to_the_discard_step_when_no_banish_is_possible() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["2H 3H 4C 5C 6C 7C", JUNK[1]]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Sacrifice { card: card("2H") });
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
}

#[test]
fn a_demon_is_summoned_only_onto_a_player_with_a_sacrifice() {
    let game = table(
        3,
        Rigging {
            hands: lists(&["8S 2C 3C 4C 5C 6C", JUNK[1], JUNK[2]]),
            sacrifices: lists(&["", "AH", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(
        refused(
            &game,
            A,
            Act::Summon {
                card: card("8S"),
                onto: C
            }
        ),
        DemonBoundError::NoSacrifice
    );
    let summons: Vec<Act> = game
        .legal_actions(A)
        .into_iter()
        .filter(|a| matches!(a, Act::Summon { .. }))
        .collect();
    assert_eq!(
        summons,
        vec![Act::Summon {
            card: card("8S"),
            onto: B
        }]
    );
}

#[test]
fn a_demon_may_be_summoned_onto_your_own_sacrifice_and_waits_until_your_next_turn() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["8S 2C 3C 4C 5C 6C", JUNK[1]]),
            sacrifices: lists(&["AH", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("8S"),
            onto: A,
        },
    );
    assert_eq!(threats(&game, A), cards("8S"));
    // It arrived during A's own turn: no stain this turn, and A could not bind it.
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
    assert_eq!(stain(&game, A), 1);
}

#[test]
fn a_sacrifice_with_a_demon_on_it_may_receive_more_demons_which_queue() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&["8S 2C 3C 4C 5C 6C", JUNK[1], JUNK[2]]),
            sacrifices: lists(&["", "AH", ""]),
            threats: lists(&["", "5S", ""]),
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
    assert_eq!(threats(&game, B), cards("5S 8S"));
}

#[test]
fn the_auto_appease_check_uses_the_sacrifice_as_it_stands_when_the_demon_arrives() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&["5S 2C 3C 4C 5C 6C", JUNK[1], JUNK[2]]),
            sacrifices: lists(&["", "2H 3H", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("5S"),
            onto: B,
        },
    );
    assert_eq!(phase(&game), Phase::Decision { decider: B }, "5 ≥ 5");
}

#[test]
fn an_auto_appeased_demon_goes_by_default_to_the_first_opponent_clockwise() {
    let mut game = table(
        4,
        Rigging {
            hands: lists(&["8S 2C 3C 4C 5C 6C", JUNK[1], JUNK[2], JUNK[3]]),
            sacrifices: lists(&["", "", "9H", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Summon {
            card: card("8S"),
            onto: C,
        },
    );
    let default = game.default_action(C).unwrap();
    assert_eq!(default, Act::Attack { target: 3 });
    apply(&mut game, C, default);
    assert_eq!(threats(&game, 3), cards("8S"));
}

#[test]
fn an_existing_sacrifice_does_not_appease_an_attacking_demon_a_heart_must_be_played() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["AH 2C 3C 4C 5C 6C", JUNK[1]]),
            sacrifices: lists(&["9H", ""]),
            threats: lists(&["7S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(threats(&game, A), cards("7S"), "9 ≥ 7, yet it stays");
    apply(
        &mut game,
        A,
        Act::Appease {
            card: card("AH"),
            demon: card("7S"),
            target: Some(B),
        },
    );
    assert_eq!(threats(&game, B), cards("7S"));
    assert!(discarded(&game, "9H AH"));
}

#[test]
fn a_heart_that_falls_short_stays_in_the_sacrifice_and_the_demon_is_not_appeased() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["AH 2C 3C 4C 5C 6C", JUNK[1]]),
            sacrifices: lists(&["2H", ""]),
            threats: lists(&["7S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    assert_eq!(
        refused(
            &game,
            A,
            Act::Appease {
                card: card("AH"),
                demon: card("7S"),
                target: Some(B)
            }
        ),
        DemonBoundError::SacrificeTooSmall
    );
    apply(&mut game, A, Act::Sacrifice { card: card("AH") });
    assert_eq!(sacrifice(&game, A), cards("2H AH"));
    // The play is spent and the demon is still there: it marks A's soul.
    assert_eq!(stain(&game, A), 2);
}

#[test]
fn binding_an_attacking_demon_still_discards_the_sacrifice() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["7C 2D 3D 4D 5D 6D", JUNK[2]]),
            sacrifices: lists(&["9H", ""]),
            threats: lists(&["7S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Bind {
            card: card("7C"),
            demon: card("7S"),
        },
    );
    assert_eq!(bound(&game, A), cards("7S"));
    assert!(sacrifice(&game, A).is_empty());
    assert!(discarded(&game, "9H 7C"));
}

#[test]
fn any_demon_before_you_at_turn_start_may_be_bound_not_only_the_active_one() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["4C 2D 3D 4D 5D 6D", JUNK[2]]),
            threats: lists(&["9S 4S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Bind {
            card: card("4C"),
            demon: card("4S"),
        },
    );
    assert_eq!(bound(&game, A), cards("4S"));
    // 9S, the active threat, was not dealt with.
    apply(&mut game, A, Act::EndPlay);
    assert_eq!(stain(&game, A), 2);
}

#[test]
fn a_demon_that_arrived_during_your_turn_cannot_be_bound_or_banished_this_turn() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["JH 8S 9C 2D 3D 4D", JUNK[0]]),
            threats: lists(&["3S", ""]),
            bound: lists(&["AS", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("JH") });
    apply(
        &mut game,
        A,
        Act::SpellSummon {
            card: card("8S"),
            onto: A,
        },
    );
    assert_eq!(threats(&game, A), cards("3S 8S"));
    assert_eq!(
        refused(
            &game,
            A,
            Act::Banish {
                demon: card("8S"),
                freed: card("AS")
            }
        ),
        DemonBoundError::NotAThreat
    );
    apply(&mut game, A, Act::EndPlay);
    // Only 3S, there when the turn began, marked A's soul; 8S waits for the next turn.
    assert_eq!(stain(&game, A), 2);
    assert_eq!(threats(&game, A), cards("8S"));
}

#[test]
fn several_demons_may_be_banished_in_one_turn_each_paid_with_a_bound_demon_keeping_the_sacrifice() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1]]),
            sacrifices: lists(&["3H", ""]),
            threats: lists(&["9S 10S", ""]),
            bound: lists(&["AS 2S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(
        &mut game,
        A,
        Act::Banish {
            demon: card("9S"),
            freed: card("AS"),
        },
    );
    apply(
        &mut game,
        A,
        Act::Banish {
            demon: card("10S"),
            freed: card("2S"),
        },
    );
    assert!(threats(&game, A).is_empty() && bound(&game, A).is_empty());
    assert_eq!(sacrifice(&game, A), cards("3H"));
    assert_eq!(phase(&game), Phase::Play { card_played: false });
}

#[test]
fn a_player_may_always_decline_and_take_the_stain() {
    let game = table(
        2,
        Rigging {
            hands: lists(&["9C 2D 3D 4D 5D 6D", JUNK[0]]),
            threats: lists(&["4S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    assert!(game.legal_actions(A).contains(&Act::EndPlay));
    assert_eq!(game.default_action(A), Some(Act::EndPlay));
}

#[test]
fn without_a_threat_ending_the_play_adds_no_stain() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1]]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::EndPlay);
    assert_eq!(stain(&game, A), 1);
}

#[test]
fn you_may_discard_more_cards_than_your_stain() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1]]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::EndPlay);
    assert_eq!(
        game.legal_actions(A).len(),
        63,
        "every non-empty set of six"
    );
    apply(
        &mut game,
        A,
        Act::Discard {
            cards: set("2C 3C 4C"),
        },
    );
    assert!(discarded(&game, "2C 3C 4C"));
    assert_eq!(omniscient(&game).turn, Some(B));
}

#[test]
fn a_discard_may_name_its_cards_in_any_order() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1]]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::EndPlay);
    let sent: Act = serde_json::from_str(r#"{"type":"discard","cards":["4C","2C"]}"#).unwrap();
    assert_eq!(
        sent,
        Act::Discard {
            cards: set("2C 4C")
        }
    );
    assert!(game.legal_actions(A).contains(&sent));
    apply(&mut game, A, sent);
    assert!(discarded(&game, "2C 4C"));
}

#[test]
fn treasure_may_release_several_demons_but_only_those_needed() {
    let game = table(
        2,
        Rigging {
            hands: lists(&["6D 2C 3C 4C 5C 6C", JUNK[2]]),
            bound: lists(&["AS 2S 5S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    let treasures: Vec<Act> = game
        .legal_actions(A)
        .into_iter()
        .filter(|a| matches!(a, Act::Treasure { .. }))
        .collect();
    assert_eq!(
        treasures,
        vec![
            Act::Treasure {
                card: card("6D"),
                release: set("AS 5S")
            },
            Act::Treasure {
                card: card("6D"),
                release: set("2S 5S")
            },
        ]
    );
    assert_eq!(
        refused(
            &game,
            A,
            Act::Treasure {
                card: card("6D"),
                release: set("AS 2S 5S")
            }
        ),
        DemonBoundError::BadRelease
    );
}

#[test]
fn turns_go_clockwise() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1], JUNK[2]]),
            turn: B,
            ..Rigging::default()
        },
    );
    for expected in [C, A, B] {
        let seat = omniscient(&game).turn.unwrap();
        apply(&mut game, seat, Act::EndPlay);
        let first = hand(&game, seat)[0];
        apply(
            &mut game,
            seat,
            Act::Discard {
                cards: vec![first].into(),
            },
        );
        assert_eq!(omniscient(&game).turn, Some(expected));
    }
}
