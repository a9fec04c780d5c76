//! Refusals: typed errors with stable codes, and a refused action changes nothing.

use pandemonium_game::{Game, RuleError, SeededChance};
use pandemonium_soulitaire::{Action, Config, Offering, Soulitaire};

use super::common::*;

#[test]
fn a_refused_action_leaves_the_match_exactly_as_it_was() {
    let game = Soulitaire::rigged(Config::default(), full_deal());
    let mut chance = SeededChance::from_u64(1);
    let legal = game.legal_actions(0);
    let mut refused = 0;
    for _ in 0..2_000 {
        let action = game.arbitrary_action(&mut chance);
        let mut copy = game.clone();
        let result = copy.apply(0, &action, &mut chance);
        assert_eq!(result.is_ok(), legal.contains(&action), "{action:?}");
        if result.is_err() {
            refused += 1;
            assert_eq!(copy, game, "{action:?}");
        }
    }
    assert!(refused > 1_000, "random actions are mostly illegal");
}

#[test]
fn only_seat_zero_may_act() {
    let mut game = Soulitaire::rigged(Config::default(), full_deal());
    let before = game.clone();
    let error = game
        .apply(1, &Action::Concede, &mut SeededChance::from_u64(0))
        .unwrap_err();
    assert_eq!(error.code(), "not_your_seat");
    assert_eq!(game, before);
    assert!(game.legal_actions(1).is_empty());
}

#[test]
fn columns_and_foundations_out_of_range_are_refused() {
    let mut game = rig(
        ["8s1", "", "", "", "", ""],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[BOSCHE],
    );
    let before = game.clone();
    let cases = [
        (mv(6, 0), "no_such_column"),
        (mv(0, 4), "no_such_foundation"),
        (mv(1, 0), "empty_column"),
        (sacrifice(4, &[]), "no_such_foundation"),
        (sacrifice(0, &[Offering::card(9)]), "no_such_column"),
        (sacrifice(0, &[Offering::card(2)]), "empty_column"),
    ];
    for (action, code) in cases {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().code(),
            code,
            "{action:?}"
        );
        assert_eq!(game, before);
    }
}

#[test]
fn errors_read_as_sentences_for_the_player() {
    let mut game = rig(
        ["5s1", "", "", "", "", "8s1"],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[BOSCHE],
    );
    let error = try_play(&mut game, &mv(0, 0)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "A card of rank 5 cannot go onto a 7: the ranks must be one apart (A 2 … 10 E S K A)."
    );
    let error = try_play(
        &mut game,
        &sacrifice(0, &[Offering::card(0), Offering::card(5)]),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Those cards cannot each match a different symbol of Bosche the Plague Doctor."
    );
}

#[test]
fn actions_survive_a_json_round_trip_in_a_readable_shape() {
    let action = Action::Sacrifice {
        foundation: 2,
        offerings: vec![Offering::card(1), Offering::mimic(4, face("Ks2"))],
    };
    let json = serde_json::to_string(&action).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"sacrifice","foundation":2,"offerings":[{"column":1,"declare":null},{"column":4,"declare":{"suit":"s2","rank":"K"}}]}"#
    );
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
    assert_eq!(
        serde_json::to_string(&Action::Discard).unwrap(),
        r#"{"kind":"discard"}"#
    );
}
