//! Refusals: typed errors with stable codes, and a refused action changes nothing.

use pandemonium_game_contract::Conformance;
use pandemonium_game_contract::{Game, RuleError, SeededChance};
use pandemonium_soulitaire::{Action, Config, Soulitaire};

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
    assert_eq!(error.rule(), "not_your_seat");
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
        (sacrifice(4), "no_such_foundation"),
        (offer(0, "s1"), "no_sacrifice"),
    ];
    for (action, code) in cases {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().rule(),
            code,
            "{action:?}"
        );
        assert_eq!(game, before);
    }
}

#[test]
fn errors_read_as_sentences_for_the_player() {
    let mut game = rig(
        ["4s2 5s1", "", "", "", "", "8s3"],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[BOSCHE],
    );
    let error = try_play(&mut game, &mv(0, 0)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "A card of rank 5 cannot go onto a 7: the ranks must be one apart (A 2 … 10 E S K A)."
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    let error = try_play(&mut game, &offer(0, "s2")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "The card of column 0 was not visible when the demon was placed, so it cannot be offered."
    );
    let error = try_play(&mut game, &Action::Discard).unwrap_err();
    assert_eq!(
        error.to_string(),
        "A sacrifice is under way: offer a card to the demon or end the sacrifice first."
    );
    let error = try_play(&mut game, &offer(5, "s4")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "The 8 of Tridents does not match the Pentacles symbol."
    );
}

#[test]
fn actions_survive_a_json_round_trip_in_a_readable_shape() {
    for (action, expected) in [
        (sacrifice(2), r#"{"kind":"sacrifice","foundation":2}"#),
        (
            offer_mimic(4, "s2", "Ks2"),
            r#"{"kind":"offer","column":4,"symbol":{"suit":"s2"},"declare":{"suit":"s2","rank":"K"}}"#,
        ),
        (
            offer(1, "7"),
            r#"{"kind":"offer","column":1,"symbol":{"rank":"7"},"declare":null}"#,
        ),
        (Action::EndSacrifice, r#"{"kind":"end_sacrifice"}"#),
    ] {
        let json = serde_json::to_string(&action).unwrap();
        assert_eq!(json, expected);
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action);
    }
    assert_eq!(
        serde_json::to_string(&Action::Discard).unwrap(),
        r#"{"kind":"discard"}"#
    );
}
