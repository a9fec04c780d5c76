//! The Demon Pile, winning with a title, losing and conceding (proposals 8, 9, 12; scenarios
//! 5 and 6).

use pandemonium_game_contract::{Game, RuleError, Viewer};
use pandemonium_soulitaire::{Action, StatusView, Title};

use super::common::*;

const SIX_IMPS: [pandemonium_soulitaire::Demon; 6] = [
    SKULL_IMP,
    MOON_IMP,
    TRIDENT_IMP,
    SKULL_IMP,
    SKULL_IMP,
    SKULL_IMP,
];

#[test]
fn discarding_the_top_demon_loses_it_and_reaches_the_next() {
    let mut game = rig(
        ["3s1", "", "", "", "", ""],
        ["4s1", "Ks1", "Ks1", "Ks1"],
        &[MOON_IMP, TWO_IMP],
    );
    play(&mut game, Action::Discard);
    assert_eq!(game.remaining_demons(), &[TWO_IMP]);
    let view = game.view(Viewer::Seat(0));
    assert_eq!(view.discarded.len(), 1);
    assert_eq!(view.discarded[0].name, "Moon Imp");
    assert_eq!(view.demon_pile.len(), 1);
    play(&mut game, Action::Discard);
    let before = game.clone();
    assert_eq!(
        try_play(&mut game, &Action::Discard).unwrap_err().rule(),
        "no_demon"
    );
    assert_eq!(
        try_play(&mut game, &sacrifice(0)).unwrap_err().rule(),
        "no_demon"
    );
    assert_eq!(game, before);
    assert!(!game.legal_actions(0).contains(&Action::Discard));
}

#[test]
fn sacrificing_two_and_discarding_one_then_clearing_leaves_a_greater_demon() {
    // Scenario 5: start with 6, sacrifice 2, discard 1, clear the Spellboard: 3 left.
    let mut game = rig(
        ["5s1", "9s2", "4s3", "", "", ""],
        ["7s1", "Ks2", "Ks3", "Ks4"],
        &SIX_IMPS,
    );
    assert_eq!(game.remaining_demons().len(), 6);
    sacrifice_with(&mut game, 0, &[offer(0, "s1")]);
    sacrifice_with(&mut game, 1, &[offer(1, "s2")]);
    play(&mut game, Action::Discard);
    assert!(game.outcome().is_none());
    play(&mut game, mv(2, 0)); // the 4 of S3 onto the 5 of S1
    assert_eq!(game.title(), Some(Title::GreaterDemon));
    let outcome = game.outcome().expect("won");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.scores, vec![3]);
    assert_eq!(outcome.summary, "Greater Demon: 3 demons left");
    assert_eq!(
        game.view(Viewer::Seat(0)).status,
        StatusView::Won {
            demons_left: 3,
            title: Title::GreaterDemon
        }
    );
}

#[test]
fn clearing_with_all_six_demons_left_makes_a_master_of_the_realm() {
    // Scenario 5.
    let mut game = rig(
        ["8s1", "", "", "", "", ""],
        ["7s1", "Ks2", "Ks3", "Ks4"],
        &SIX_IMPS,
    );
    play(&mut game, mv(0, 0));
    assert_eq!(game.title(), Some(Title::MasterOfTheRealm));
    assert_eq!(
        game.outcome().unwrap().summary,
        "Master of the Realm: 6 demons left"
    );
}

#[test]
fn clearing_with_no_demon_left_makes_a_wanderer_of_the_realms() {
    // Scenario 5: discard five, sacrifice the sixth with the last card.
    let mut game = rig(
        ["2s1", "", "", "", "", ""],
        ["7s1", "Ks2", "Ks3", "Ks4"],
        &SIX_IMPS,
    );
    for _ in 0..5 {
        play(&mut game, Action::Discard);
    }
    assert!(
        game.outcome().is_none(),
        "the last Skull Imp still matches the 7 of Skulls"
    );
    sacrifice_with(&mut game, 0, &[offer(0, "s1")]);
    assert_eq!(game.title(), Some(Title::WandererOfTheRealms));
}

#[test]
fn each_number_of_demons_left_earns_its_title() {
    let expected = [
        (0, "Wanderer of the Realms"),
        (1, "Adept Ritualist"),
        (2, "Dark Savant"),
        (3, "Greater Demon"),
        (4, "Master of the Realm"),
        (5, "Master of the Realm"),
        (6, "Master of the Realm"),
    ];
    for (left, name) in expected {
        assert_eq!(Title::for_demons_left(left).name(), name);
    }
}

#[test]
fn the_match_is_won_when_a_sacrifice_that_clears_the_spellboard_ends() {
    let mut game = rig(
        ["3s1", "9s3", "", "", "", ""],
        ["5s2", "Ks2", "Ks2", "Ks2"],
        &[BOSCHE, TWO_IMP],
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(1, "s3"));
    assert!(game.outcome().is_none());
    // The last card offered empties the Spellboard: nothing more can be offered, so the
    // sacrifice ends and the win is checked at once.
    play(&mut game, offer(0, "s1"));
    assert_eq!(game.title(), Some(Title::AdeptRitualist));
    assert!(game.to_act().is_empty());
}

#[test]
fn a_loss_is_detected_only_once_the_sacrifice_is_over() {
    // With the 3 of Skulls on Bosche, nothing could move and no demon is left; but the 9 of
    // Tridents may still be offered, so the match goes on until the player ends the sacrifice.
    let mut game = rig(
        ["3s1", "9s3", "", "", "", ""],
        ["5s2", "Ks2", "Ks2", "Ks2"],
        &[BOSCHE],
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    assert!(game.outcome().is_none());
    assert_eq!(
        game.legal_actions(0),
        vec![offer(1, "s3"), Action::EndSacrifice, Action::Concede]
    );
    play(&mut game, Action::EndSacrifice);
    assert_eq!(game.view(Viewer::Seat(0)).status, StatusView::Lost);
}

#[test]
fn with_no_ritual_move_and_no_matching_demon_the_match_is_lost() {
    // Scenario 6: the 8 goes up, uncovering a Keeper that fits nowhere, and no demon left
    // matches a top: a loss, whatever demons remain.
    let mut game = rig(
        ["Ks1 8s2", "", "", "", "", ""],
        ["7s3", "4s3", "4s4", "4s2"],
        &[TWO_IMP; 6],
    );
    play(&mut game, mv(0, 0));
    let outcome = game.outcome().expect("lost");
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.scores, vec![0]);
    assert_eq!(game.title(), None);
    assert_eq!(game.remaining_demons().len(), 6);
    assert_eq!(game.view(Viewer::Seat(0)).status, StatusView::Lost);
    assert!(game.legal_actions(0).is_empty());
    assert!(game.to_act().is_empty());
}

#[test]
fn loss_detection_looks_through_the_whole_remaining_pile() {
    // Proposal 9: the fifth demon matches a 4, so the player is not lost: they can discard
    // their way down to it.
    let pile = [TWO_IMP, TWO_IMP, TWO_IMP, TWO_IMP, FOUR_IMP, TWO_IMP];
    let mut game = rig(
        ["Ks1 8s2", "", "", "", "", ""],
        ["7s3", "4s3", "4s4", "4s2"],
        &pile,
    );
    play(&mut game, mv(0, 0));
    assert!(game.outcome().is_none());
    assert!(
        sacrifices(&game).is_empty(),
        "the top demon matches nothing"
    );
    for _ in 0..4 {
        play(&mut game, Action::Discard);
    }
    assert!(!sacrifices(&game).is_empty());
    // Discarding the Four Imp too leaves nothing that can move: lost.
    play(&mut game, Action::Discard);
    assert_eq!(game.view(Viewer::Seat(0)).status, StatusView::Lost);
}

#[test]
fn a_stuck_match_is_lost_at_once_when_it_is_dealt() {
    let game = rig(
        ["Ks1", "", "", "", "", ""],
        ["7s3", "4s3", "4s4", "4s2"],
        &[TWO_IMP],
    );
    assert_eq!(game.view(Viewer::Seat(0)).status, StatusView::Lost);
}

#[test]
fn the_player_may_concede_at_any_time() {
    let mut game = rig(
        ["8s1", "", "", "", "", ""],
        ["7s1", "Ks2", "Ks3", "Ks4"],
        &SIX_IMPS,
    );
    assert!(game.legal_actions(0).contains(&Action::Concede));
    play(&mut game, Action::Concede);
    let outcome = game.outcome().expect("conceded");
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.summary, "Conceded");
    assert_eq!(game.view(Viewer::Spectator).status, StatusView::Conceded);
}

#[test]
fn no_action_is_accepted_once_the_match_is_over() {
    let mut game = rig(
        ["8s1", "", "", "", "", ""],
        ["7s1", "Ks2", "Ks3", "Ks4"],
        &SIX_IMPS,
    );
    play(&mut game, Action::Concede);
    let before = game.clone();
    for action in [
        mv(0, 0),
        Action::Discard,
        Action::Concede,
        sacrifice(0),
        offer(0, "s1"),
        Action::EndSacrifice,
    ] {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().rule(),
            "match_over"
        );
    }
    assert_eq!(game, before);
}
