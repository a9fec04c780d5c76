//! Face-card spells (proposal 15): each uses the card play, goes to the discard pile and does
//! up to 1, 2 or 3 things, one at a time.

use pandemonium_demon_bound::{DemonBoundAction as Act, DemonBoundError, Event, Phase, Rigging};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

#[test]
fn a_spell_uses_the_card_play_and_goes_to_the_discard_pile() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["JS 2H 2C 3C 4C 5C", JUNK[1]]),
            threats: lists(&["", "9S"]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("JS") });
    assert!(discarded(&game, "JS"));
    assert!(matches!(phase(&game), Phase::Spell { left: 1, .. }));
    apply(&mut game, A, Act::EndSpell);
    assert!(
        game.legal_actions(A)
            .iter()
            .all(|a| matches!(a, Act::Discard { .. })),
        "no second card play"
    );
}

#[test]
fn a_jack_of_spades_banishes_one_demon_and_may_take_your_own_bound_demon() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["JS 2C 3C 4C 5C 6C", JUNK[1]]),
            bound: lists(&["7S", ""]),
            threats: lists(&["", "9S"]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("JS") });
    assert!(
        game.legal_actions(A)
            .contains(&Act::SpellBanish { demon: card("7S") })
    );
    apply(&mut game, A, Act::SpellBanish { demon: card("9S") });
    assert!(threats(&game, B).is_empty());
    assert_eq!(
        bound(&game, A),
        cards("7S"),
        "a jack banishes one demon only"
    );
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
}

#[test]
fn a_king_of_spades_banishes_up_to_three_demons() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&["KS 2C 3C 4C 5C 6C", JUNK[1], JUNK[2]]),
            threats: lists(&["", "2S AS", "3S 4S"]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("KS") });
    for demon in ["2S", "3S", "4S"] {
        apply(&mut game, A, Act::SpellBanish { demon: card(demon) });
    }
    assert_eq!(threats(&game, B), cards("AS"), "three at most");
    assert!(threats(&game, C).is_empty());
}

#[test]
fn royal_sacrifice_sends_spades_from_hand_as_attackers_with_no_sacrifice_and_no_auto_appease() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&["QH 3S 9S 2C 3C 4C", JUNK[1], JUNK[2]]),
            sacrifices: lists(&["", "10H", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("QH") });
    apply(
        &mut game,
        A,
        Act::SpellSummon {
            card: card("3S"),
            onto: B,
        },
    );
    apply(
        &mut game,
        A,
        Act::SpellSummon {
            card: card("9S"),
            onto: C,
        },
    );
    assert_eq!(threats(&game, B), cards("3S"), "10H does not appease it");
    assert_eq!(sacrifice(&game, B), cards("10H"));
    assert_eq!(threats(&game, C), cards("9S"), "C had no sacrifice at all");
}

#[test]
fn royal_sacrifice_may_target_yourself() {
    let game = {
        let mut game = table(
            2,
            Rigging {
                hands: lists(&["JH 3S 2C 3C 4C 5C", JUNK[1]]),
                turn: A,
                ..Rigging::default()
            },
        );
        apply(&mut game, A, Act::Cast { card: card("JH") });
        game
    };
    assert!(game.legal_actions(A).contains(&Act::SpellSummon {
        card: card("3S"),
        onto: A
    }));
}

#[test]
fn the_masters_voice_binds_demons_anywhere_even_stealing_bound_ones_and_keeps_the_sacrifice() {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&["QC 2D 3D 4D 5D 6D", JUNK[0], JUNK[2]]),
            sacrifices: lists(&["4H", "", ""]),
            threats: lists(&["", "", "10S"]),
            bound: lists(&["", "8S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("QC") });
    apply(&mut game, A, Act::SpellBind { demon: card("8S") });
    apply(&mut game, A, Act::SpellBind { demon: card("10S") });
    assert_eq!(bound(&game, A), cards("8S 10S"), "demons of any size");
    assert!(bound(&game, B).is_empty() && threats(&game, C).is_empty());
    assert_eq!(sacrifice(&game, A), cards("4H"));
}

#[test]
fn the_masters_voice_does_not_bind_your_own_bound_demons_again() {
    let mut game = table(
        2,
        Rigging {
            hands: lists(&["JC 2D 3D 4D 5D 6D", JUNK[0]]),
            bound: lists(&["8S", ""]),
            turn: A,
            ..Rigging::default()
        },
    );
    let before = game.clone();
    apply(&mut game, A, Act::Cast { card: card("JC") });
    // Nothing to bind: the spell ends at once.
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
    assert_eq!(
        refused(&before, A, Act::SpellBind { demon: card("8S") }),
        DemonBoundError::WrongStep
    );
}

fn scrying() -> pandemonium_demon_bound::DemonBound {
    let mut game = table(
        3,
        Rigging {
            hands: lists(&[
                "QD 2C 3C 4C 5C 6C",
                "7D 2H 3H 4H 5H 6H",
                "9D 10D 8C 9C 10C 7C",
            ]),
            turn: A,
            ..Rigging::default()
        },
    );
    apply(&mut game, A, Act::Cast { card: card("QD") });
    apply(&mut game, A, Act::Scry { seat: B });
    game
}

#[test]
fn treasure_scrying_shows_the_hand_to_the_caster_and_to_nobody_else() {
    let game = scrying();
    let caster = game.view(Viewer::Seat(A));
    assert_eq!(
        caster.players[B as usize].hand,
        Some(cards("7D 2H 3H 4H 5H 6H"))
    );
    assert_eq!(caster.peeks[0].target, B);
    let other = game.view(Viewer::Seat(C));
    assert_eq!(other.players[B as usize].hand, None);
    assert!(other.peeks.is_empty());
    assert_eq!(game.view(Viewer::Spectator).players[B as usize].hand, None);
}

#[test]
fn treasure_scrying_steals_numbered_diamonds_into_the_hand_not_the_treasury() {
    let mut game = scrying();
    apply(&mut game, A, Act::Steal { card: card("7D") });
    assert!(hand(&game, A).contains(&card("7D")));
    assert!(!hand(&game, B).contains(&card("7D")));
    assert!(treasury(&game, A).is_empty());
}

#[test]
fn treasure_scrying_goes_on_to_a_second_player_when_the_first_has_too_few_diamonds() {
    let mut game = scrying();
    assert!(
        !game.legal_actions(A).contains(&Act::Scry { seat: C }),
        "B still has a diamond to take"
    );
    apply(&mut game, A, Act::Steal { card: card("7D") });
    assert!(game.legal_actions(A).contains(&Act::Scry { seat: C }));
    apply(&mut game, A, Act::Scry { seat: C });
    apply(&mut game, A, Act::Steal { card: card("10D") });
    // A queen takes two: the spell is spent.
    assert_eq!(phase(&game), Phase::Discard { at_least: 1 });
    assert!(hand(&game, A).contains(&card("10D")));
    assert!(hand(&game, C).contains(&card("9D")));
}

#[test]
fn others_learn_only_how_many_diamonds_were_taken_and_the_victim_learns_which() {
    let mut game = scrying();
    apply(&mut game, A, Act::Steal { card: card("7D") });
    let stole = |viewer: Viewer| {
        game.view(viewer)
            .log
            .into_iter()
            .find(|e| matches!(e, Event::Stole { .. }))
            .unwrap()
    };
    let full = Event::Stole {
        seat: A,
        from: Some(B),
        count: 1,
        cards: cards("7D"),
    };
    assert_eq!(stole(Viewer::Seat(A)), full);
    assert_eq!(stole(Viewer::Seat(B)), full);
    let counted = Event::Stole {
        seat: A,
        from: Some(B),
        count: 1,
        cards: vec![],
    };
    assert_eq!(stole(Viewer::Seat(C)), counted);
    assert_eq!(stole(Viewer::Spectator), counted);
}

#[test]
fn the_peek_stays_with_the_caster_until_their_next_turn() {
    let mut game = scrying();
    apply(&mut game, A, Act::EndSpell);
    let peek = &game.view(Viewer::Seat(A)).peeks[0];
    assert_eq!(peek.hand, cards("7D 2H 3H 4H 5H 6H"));
    assert_eq!(
        game.view(Viewer::Seat(A)).players[B as usize].hand,
        None,
        "the live hand is hidden again once the spell ends"
    );
}

#[test]
fn treasure_scrying_never_targets_yourself() {
    let game = {
        let mut game = table(
            2,
            Rigging {
                hands: lists(&["JD 2C 3C 4C 5C 6C", JUNK[1]]),
                turn: A,
                ..Rigging::default()
            },
        );
        apply(&mut game, A, Act::Cast { card: card("JD") });
        game
    };
    assert_eq!(
        refused(&game, A, Act::Scry { seat: A }),
        DemonBoundError::SpellSpent
    );
}
