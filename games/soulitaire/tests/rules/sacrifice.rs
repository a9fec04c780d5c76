//! Sacrifices (rules: "Sacrifice"; proposals 6-7; scenario 4), played as a sequence: place the
//! demon, offer one card per symbol, end.

use pandemonium_game_contract::{Game, RuleError, Viewer};
use pandemonium_soulitaire::{
    Action, Config, Demon, DemonOnTop, LayerView, Rank, Suit, Symbol, Top,
};

use super::common::*;

const SKULL_OR_SEVEN: Demon = Demon::new(
    "Skull or Seven",
    &[Symbol::Suit(Suit::S1), Symbol::Rank(Rank::Seven)],
);
const TWO_SKULLS_TWO_TRIDENTS: Demon = Demon::new(
    "Vesh",
    &[
        Symbol::Suit(Suit::S1),
        Symbol::Suit(Suit::S1),
        Symbol::Suit(Suit::S3),
        Symbol::Suit(Suit::S3),
    ],
);

/// Scenario 4's board: visible 3 of S1, K of S3, 9 of S4 and a Mimic; one foundation top of
/// S2; the other tops are starting Mimics, which Bosche cannot match.
fn bosche_board() -> pandemonium_soulitaire::Soulitaire {
    rig(
        ["3s1", "Ks3", "9s4", "M", "", ""],
        ["5s2", "M", "M", "M"],
        &[BOSCHE, TWO_IMP],
    )
}

#[test]
fn bosche_can_be_sacrificed_onto_a_top_of_one_of_his_suits() {
    // Scenario 4: a foundation top has suit S2, so Bosche can go there (and only there).
    let mut game = bosche_board();
    assert_eq!(sacrifices(&game), vec![sacrifice(0)]);
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    play(&mut game, Action::EndSacrifice);
    let view = game.view(Viewer::Seat(0));
    let layers = &view.foundations[0].layers;
    assert!(matches!(&layers[1], LayerView::Demon(d) if d.name == "Bosche the Plague Doctor"));
    assert_eq!(layers[2], LayerView::Ritual(face("3s1")));
    assert_eq!(view.sacrifice, None);
}

#[test]
fn bosche_takes_one_card_of_each_suit_in_any_order_and_the_last_is_the_new_top() {
    // Scenario 4: four cards, one per suit, the Mimic declared as an S2 card. The sacrifice
    // ends by itself once every symbol is satisfied.
    let game = bosche_board();
    let mut copy = game.clone();
    play(&mut copy, sacrifice(0));
    for action in [
        offer(0, "s1"),
        offer(1, "s3"),
        offer(2, "s4"),
        offer_mimic(3, "s2", "6s2"),
    ] {
        assert!(pending(&copy));
        play(&mut copy, action);
    }
    assert!(
        !pending(&copy),
        "nothing is left to offer: it ended by itself"
    );
    assert_eq!(top(&copy, 0), Top::Face(face("6s2")));
    assert_eq!(copy.view(Viewer::Seat(0)).foundations[0].layers.len(), 6);
    let mut copy = game.clone();
    sacrifice_with(
        &mut copy,
        0,
        &[
            offer_mimic(3, "s2", "Es2"),
            offer(2, "s4"),
            offer(1, "s3"),
            offer(0, "s1"),
        ],
    );
    assert_eq!(top(&copy, 0), Top::Face(face("3s1")));
}

#[test]
fn offering_order_decides_the_new_top() {
    let game = rig(
        ["3s1", "Ks3", "", "", "", ""],
        ["5s2", "Ks2", "Ks2", "Ks2"],
        &[BOSCHE],
    );
    for (first, second, new_top) in [(0, 1, "Ks3"), (1, 0, "3s1")] {
        let mut copy = game.clone();
        let symbol = |c: u8| if c == 0 { "s1" } else { "s3" };
        sacrifice_with(
            &mut copy,
            0,
            &[offer(first, symbol(first)), offer(second, symbol(second))],
        );
        assert_eq!(top(&copy, 0), Top::Face(face(new_top)));
    }
}

#[test]
fn a_sacrifice_needs_a_foundation_top_sharing_a_symbol() {
    let mut game = rig(
        ["3s1", "", "", "", "", ""],
        ["2s2", "5s3", "9s4", "Ks2"],
        &[SKULL_IMP, MOON_IMP],
    );
    assert!(sacrifices(&game).is_empty());
    let before = game.clone();
    let error = try_play(&mut game, &sacrifice(0)).unwrap_err();
    assert_eq!(error.rule(), "demon_does_not_match");
    assert_eq!(game, before);
}

#[test]
fn cards_uncovered_during_a_sacrifice_cannot_be_offered() {
    // Proposal 6: the cards are chosen among those visible when the demon is placed; the 4 of
    // S2 under the 3 of S1 is not one of them, though Bosche still wants a Moon.
    let mut game = rig(
        ["4s2 3s1", "", "", "", "", "9s4"],
        ["5s2", "M", "M", "M"],
        &[BOSCHE],
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    assert!(pending(&game), "the 9 of S4 can still be offered");
    let before = game.clone();
    let error = try_play(&mut game, &offer(0, "s2")).unwrap_err();
    assert_eq!(error.rule(), "not_visible_when_placed");
    assert_eq!(game, before);
    assert_eq!(offers(&game), vec![offer(5, "s4")]);
    let view = game.view(Viewer::Seat(0));
    let sacrifice = view.sacrifice.expect("under way");
    assert_eq!(sacrifice.eligible, vec![5]);
    assert_eq!(sacrifice.offered, 1);
    // Once the 9 is offered nothing eligible is left: the sacrifice ends.
    play(&mut game, offer(5, "s4"));
    assert!(!pending(&game));
}

#[test]
fn a_card_uncovered_during_a_sacrifice_stays_face_down_until_it_ends() {
    // The rules choose every card before moving any, so what an offer uncovers may not inform
    // the rest of the choice: it is turned up when the sacrifice is over.
    let mut game = rig(
        ["4s2 3s1", "", "", "", "", "9s4"],
        ["5s2", "M", "M", "M"],
        &[BOSCHE],
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    let column = &game.view(Viewer::Seat(0)).spellboard[0];
    assert_eq!(column.len(), 1);
    assert!(!column[0].face_up && column[0].card.is_none());
    play(&mut game, Action::EndSacrifice);
    let column = &game.view(Viewer::Seat(0)).spellboard[0];
    assert!(column[0].face_up && column[0].card.is_some());
}

#[test]
fn a_demon_takes_at_most_one_card_per_symbol() {
    let mut game = rig(
        ["3s1", "4s1", "9s4", "Ks3", "2s2", "5s2"],
        ["5s2", "M", "M", "M"],
        &[BOSCHE],
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    let before = game.clone();
    let error = try_play(&mut game, &offer(1, "s1")).unwrap_err();
    assert_eq!(error.rule(), "symbol_not_wanted");
    assert_eq!(game, before);
    assert!(offers(&game).iter().all(|a| !matches!(
        a,
        Action::Offer {
            symbol: Symbol::Suit(Suit::S1),
            ..
        }
    )));
    // The other three suits take a card each; then the sacrifice is over after four.
    play(&mut game, offer(4, "s2"));
    play(&mut game, offer(2, "s4"));
    play(&mut game, offer(3, "s3"));
    assert!(!pending(&game));
    assert_eq!(game.view(Viewer::Seat(0)).foundations[0].layers.len(), 6);
}

#[test]
fn repeated_symbols_allow_that_many_cards() {
    // Proposal 6: a demon with two Skull symbols takes two Skull cards, not three.
    let mut game = rig(
        ["3s1", "4s1", "9s1", "Ks3", "2s3", ""],
        ["5s3", "M", "M", "M"],
        &[TWO_SKULLS_TWO_TRIDENTS],
    );
    play(&mut game, sacrifice(0));
    play(&mut game, offer(0, "s1"));
    assert!(offers(&game).contains(&offer(1, "s1")));
    play(&mut game, offer(3, "s3"));
    play(&mut game, offer(1, "s1"));
    let remaining = game.view(Viewer::Seat(0)).sacrifice.unwrap().remaining;
    assert_eq!(remaining, vec![sym("s3")]);
    let before = game.clone();
    assert_eq!(
        try_play(&mut game, &offer(2, "s1")).unwrap_err().rule(),
        "symbol_not_wanted"
    );
    assert_eq!(game, before);
    assert_eq!(offers(&game), vec![offer(4, "s3")]);
    play(&mut game, Action::EndSacrifice);
    assert_eq!(top(&game, 0), Top::Face(face("4s1")));
}

#[test]
fn each_card_satisfies_exactly_one_symbol_of_the_players_choice() {
    // A 7 of Skulls can take either symbol of a {Skulls, 7} demon, but only one of them.
    let game = rig(
        ["7s1", "3s1", "7s2", "4s1", "", ""],
        ["5s1", "M", "M", "M"],
        &[SKULL_OR_SEVEN],
    );
    let mut placed = game.clone();
    play(&mut placed, sacrifice(0));
    let listed = offers(&placed);
    for action in [offer(0, "s1"), offer(0, "7"), offer(1, "s1"), offer(2, "7")] {
        assert!(listed.contains(&action), "{action:?}");
    }
    assert_eq!(listed.len(), 5, "{listed:?}");
    // The 7 of Skulls for the Skull leaves the 7 for the 7 of Moons, not the 3 of Skulls.
    let mut copy = placed.clone();
    play(&mut copy, offer(0, "s1"));
    assert_eq!(offers(&copy), vec![offer(2, "7")]);
    // Taken for the 7 instead, it leaves the Skull for the 3 or the 4 of Skulls.
    let mut copy = placed.clone();
    play(&mut copy, offer(0, "7"));
    assert_eq!(offers(&copy), vec![offer(1, "s1"), offer(3, "s1")]);
    play(&mut copy, offer(3, "s1"));
    assert!(!pending(&copy));
}

#[test]
fn an_offered_card_must_match_the_symbol_it_is_offered_for() {
    let mut game = rig(
        ["3s2", "", "", "", "", "4s1"],
        ["5s1", "M", "M", "M"],
        &[SKULL_IMP],
    );
    play(&mut game, sacrifice(0));
    let before = game.clone();
    for (action, code) in [
        (offer(0, "s1"), "does_not_match_symbol"),
        (offer(0, "s2"), "symbol_not_wanted"),
        (offer(5, "4"), "symbol_not_wanted"),
        (offer(9, "s1"), "no_such_column"),
        (offer(2, "s1"), "empty_column"),
    ] {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().rule(),
            code,
            "{action:?}"
        );
        assert_eq!(game, before);
    }
    play(&mut game, offer(5, "s1"));
}

#[test]
fn a_mimic_offered_in_a_sacrifice_is_declared_as_a_card_matching_its_symbol() {
    // Proposal 5: the declared card (rank and suit) is fixed and becomes the top.
    let game = rig(
        ["M", "7s3", "Ks3", "", "", "9s2"],
        ["5s1", "M", "M", "M"],
        &[SKULL_IMP],
    );
    let mut placed = game.clone();
    play(&mut placed, sacrifice(0));
    for (action, code) in [
        (offer_mimic(0, "s1", "8s2"), "does_not_match_symbol"),
        (offer(0, "s1"), "mimic_undeclared"),
        (
            Action::Offer {
                column: 1,
                symbol: sym("s1"),
                declare: Some(face("7s1")),
            },
            "not_a_mimic",
        ),
    ] {
        let mut copy = placed.clone();
        let error = try_play(&mut copy, &action).unwrap_err();
        assert_eq!(error.rule(), code, "{action:?}");
        assert_eq!(copy, placed);
    }
    // A Mimic offered for a suit symbol may be any of the 13 cards of that suit.
    assert_eq!(offers(&placed).len(), 13);
    let mut game = placed;
    play(&mut game, offer_mimic(0, "s1", "8s1"));
    assert!(!pending(&game));
    assert_eq!(top(&game, 0), Top::Face(face("8s1")));
    let mut copy = game.clone();
    play(&mut copy, mv(1, 0)); // a 7 goes on the declared 8
    let mut copy = game.clone();
    assert_eq!(
        try_play(&mut copy, &mv(2, 0)).unwrap_err().rule(),
        "not_adjacent"
    );
}

#[test]
fn a_mimic_offered_for_a_rank_symbol_is_one_of_the_four_cards_of_that_rank() {
    let mut game = rig(
        ["M", "", "", "", "", ""],
        ["2s1", "Ks1", "Ks1", "Ks1"],
        &[TWO_IMP],
    );
    play(&mut game, sacrifice(0));
    let listed = offers(&game);
    assert_eq!(listed.len(), 4);
    assert!(listed.contains(&offer_mimic(0, "2", "2s4")));
    let before = game.clone();
    assert_eq!(
        try_play(&mut game, &offer_mimic(0, "2", "3s1"))
            .unwrap_err()
            .rule(),
        "does_not_match_symbol"
    );
    assert_eq!(game, before);
}

#[test]
fn the_legal_list_stays_short_through_a_sacrifice() {
    // Bosche on top, both Mimics visible: placing is one action per matching foundation, and
    // each step lists an offer per eligible card and symbol (a Mimic once per card it may
    // become), never the product of subsets, orders and declarations.
    let mut game = rig(
        ["3s1", "Ks3", "9s4", "M", "M", "2s2"],
        ["5s2", "Ks2", "M", "M"],
        &[BOSCHE],
    );
    assert_eq!(sacrifices(&game).len(), 2);
    play(&mut game, sacrifice(0));
    // 4 Ritual cards for their suits + 2 Mimics × 4 suits × 13 + end + concede.
    assert_eq!(game.legal_actions(0).len(), 4 + 2 * 52 + 2);
    play(&mut game, offer(0, "s1"));
    assert_eq!(game.legal_actions(0).len(), 3 + 2 * 39 + 2);
}

#[test]
fn during_a_sacrifice_only_offers_ending_it_and_conceding_are_legal() {
    let mut game = rig(
        ["6s1", "", "", "", "", "8s1"],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[SKULL_IMP, SKULL_IMP],
    );
    play(&mut game, sacrifice(0));
    let legal = game.legal_actions(0);
    assert!(legal.iter().all(|a| matches!(
        a,
        Action::Offer { .. } | Action::EndSacrifice | Action::Concede
    )));
    let before = game.clone();
    for action in [mv(0, 1), sacrifice(1), Action::Discard] {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().rule(),
            "sacrifice_under_way",
            "{action:?}"
        );
        assert_eq!(game, before);
    }
    play(&mut game, Action::EndSacrifice);
    let before = game.clone();
    for action in [offer(0, "s1"), Action::EndSacrifice] {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().rule(),
            "no_sacrifice"
        );
        assert_eq!(game, before);
    }
}

#[test]
fn a_sacrifice_takes_the_top_demon_and_the_next_one_becomes_the_top() {
    let mut game = rig(
        ["3s1", "", "", "", "", "Ks3"],
        ["5s1", "M", "M", "M"],
        &[SKULL_IMP, TWO_IMP],
    );
    play(&mut game, sacrifice(0));
    assert_eq!(game.top_demon(), Some(&TWO_IMP));
    assert_eq!(game.remaining_demons().len(), 1);
    let view = game.view(Viewer::Seat(0));
    let under_way = view.sacrifice.expect("under way");
    assert_eq!(under_way.demon.name, "Skull Imp");
    assert_eq!(under_way.remaining, vec![sym("s1")]);
    assert_eq!(under_way.eligible, vec![0, 5]);
}

#[test]
fn a_sacrifice_with_no_cards_is_legal() {
    // Proposal 9: a 0-card sacrifice still counts as a move. With nothing to offer it is a
    // single action; with something to offer the player may still end it at once.
    let mut game = rig(
        ["3s2", "", "", "", "", ""],
        ["5s1", "Ks1", "Ks1", "Ks1"],
        &[SKULL_IMP, MOON_IMP, TWO_IMP],
    );
    play(&mut game, sacrifice(0));
    assert!(
        !pending(&game),
        "nothing could be offered: it ended by itself"
    );
    assert_eq!(game.remaining_demons(), &[MOON_IMP, TWO_IMP]);
    let mut game = rig(
        ["3s2", "", "", "", "", ""],
        ["5s2", "Ks1", "Ks1", "Ks1"],
        &[MOON_IMP, TWO_IMP],
    );
    play(&mut game, sacrifice(0));
    assert!(pending(&game));
    play(&mut game, Action::EndSacrifice);
    assert_eq!(game.remaining_demons(), &[TWO_IMP]);
    assert_eq!(top(&game, 0), Top::Dead);
}

#[test]
fn a_demon_left_bare_kills_its_stack() {
    // Proposal 7 (default): nothing, Ritual card or demon, goes on a bare demon.
    let mut game = rig(
        ["4s2", "6s3", "", "", "", "Ks4"],
        ["5s1", "3s4", "2s4", "2s4"],
        &[SKULL_IMP, BOSCHE],
    );
    play(&mut game, sacrifice(0));
    assert_eq!(top(&game, 0), Top::Dead);
    let before = game.clone();
    for action in [mv(0, 0), sacrifice(0)] {
        assert_eq!(
            try_play(&mut game, &action).unwrap_err().rule(),
            "dead_stack"
        );
        assert_eq!(game, before);
    }
    assert!(game.legal_actions(0).iter().all(|a| !matches!(
        a,
        Action::Move { foundation: 0, .. } | Action::Sacrifice { foundation: 0 }
    )));
}

#[test]
fn under_the_forgiving_rule_the_card_beneath_a_bare_demon_still_counts() {
    let config = Config {
        demon_on_top: DemonOnTop::Forgiving,
        ..Config::default()
    };
    let mut game = rig_with(
        config,
        ["4s2", "6s3", "", "", "", "Ks4"],
        ["5s1", "3s4", "2s4", "2s4"],
        &[SKULL_IMP, BOSCHE],
    );
    play(&mut game, sacrifice(0));
    assert_eq!(top(&game, 0), Top::Face(face("5s1")));
    let mut copy = game.clone();
    play(&mut copy, mv(0, 0));
    // The next demon may go onto the bare one too: the 5 of Skulls beneath matches Bosche.
    sacrifice_with(&mut game, 0, &[offer(1, "s3")]);
    assert_eq!(top(&game, 0), Top::Face(face("6s3")));
}

#[test]
fn a_demon_matches_a_top_by_rank_as_well_as_by_suit() {
    // "any foundation whose suit or rank matches one of the demon's symbols"
    let game = rig(
        ["3s1", "", "", "", "", ""],
        ["2s2", "2s3", "9s4", "Ks2"],
        &[TWO_IMP],
    );
    assert_eq!(sacrifices(&game), vec![sacrifice(0), sacrifice(1)]);
}

#[test]
fn a_sacrifice_and_a_discard_are_allowed_even_when_ritual_moves_remain() {
    // "You may perform a Sacrifice at any time, not only when you are stuck."
    let mut game = rig(
        ["6s1", "", "", "", "", "8s1"],
        ["7s1", "Ks1", "Ks1", "Ks1"],
        &[SKULL_IMP, SKULL_IMP],
    );
    assert!(!moves(&game).is_empty());
    sacrifice_with(&mut game, 0, &[offer(0, "s1")]);
    play(&mut game, Action::Discard);
}
