//! Shared foundations: every Ace starts its own, anyone builds any of them up by suit, the
//! action names its target, cards never leave, and a lost race is refused.

use pandemonium_demon_klondike::{Action, Suit};

use super::support::*;

#[test]
fn every_ace_played_starts_its_own_foundation_even_of_the_same_suit() {
    let p1 = layout(["AS", "", "", "", "", "", ""], "", "");
    let p2 = layout(["AS", "2S", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![p1, p2], vec![]);
    play(&mut game, 0, to_foundation("AS", None));
    play(&mut game, 1, to_foundation("AS", None));
    let foundations = game.foundations();
    assert_eq!(foundations.len(), 2);
    assert!(foundations.iter().all(|f| f.suit == Suit::Spades));
    // The two of spades may go on either: one action per target.
    let legal = pandemonium_game_contract::Game::legal_actions(&game, 1);
    assert!(legal.contains(&to_foundation("2S", Some(0))));
    assert!(legal.contains(&to_foundation("2S", Some(1))));
}

#[test]
fn anyone_builds_any_foundation_up_by_suit() {
    let p1 = layout(["AH", "", "", "", "", "", ""], "", "");
    let p2 = layout(["2H", "2D", "4H", "", "", "", ""], "", "");
    let mut game = rigged(vec![p1, p2], vec![]);
    play(&mut game, 0, to_foundation("AH", None));
    assert_eq!(
        refused(&mut game, 1, to_foundation("2D", Some(0))),
        "wrong_suit"
    );
    assert_eq!(
        refused(&mut game, 1, to_foundation("4H", Some(0))),
        "not_next_on_foundation"
    );
    play(&mut game, 1, to_foundation("2H", Some(0)));
    assert_eq!(game.foundations()[0].owners, vec![0, 1]);
}

#[test]
fn only_an_ace_starts_a_foundation_and_an_ace_always_starts_one() {
    let me = layout(["2S", "AC", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![foundation(Suit::Clubs, 1, 1)]);
    assert_eq!(
        refused(&mut game, 0, to_foundation("2S", None)),
        "not_an_ace"
    );
    assert_eq!(
        refused(&mut game, 0, to_foundation("AC", Some(0))),
        "ace_starts_a_foundation"
    );
    assert_eq!(
        refused(&mut game, 0, to_foundation("AC", Some(5))),
        "no_such_foundation"
    );
}

#[test]
fn only_the_top_card_of_a_pile_goes_to_a_foundation() {
    let me = layout(["AH 8S", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(
        refused(&mut game, 0, to_foundation("AH", None)),
        "not_top_card"
    );
}

#[test]
fn cards_never_leave_the_foundations() {
    let me = layout(["AH", "3C", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, to_foundation("AH", None));
    assert_eq!(refused(&mut game, 0, to_pile("AH", 1)), "not_playable");
    assert_eq!(
        refused(&mut game, 0, to_foundation("AH", None)),
        "not_playable"
    );
    let ace = card("AH");
    let legal = pandemonium_game_contract::Game::legal_actions(&game, 0);
    assert!(legal.iter().all(|a| !matches!(a,
        Action::ToPile { card, .. } | Action::ToFoundation { card, .. } if *card == ace)));
}

#[test]
fn aces_are_not_forced_to_the_foundations() {
    let me = layout(["AH", "", "", "", "", "", ""], "2S 3S 4S", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, Action::Draw);
    assert_eq!(game.layout(0).piles[0].up, cards("AH"));
}

#[test]
fn a_foundation_move_that_lost_the_race_leaves_the_card_where_it_was() {
    let clubs = foundation(Suit::Clubs, 6, 1);
    let p1 = layout(["7C", "", "", "", "", "", ""], "", "");
    let p2 = layout(["AD", "", "", "", "", "", ""], "", "9H 7C");
    let mut game = rigged(vec![p1, p2], vec![clubs]);
    play(&mut game, 0, to_foundation("7C", Some(0)));
    assert_eq!(
        refused(&mut game, 1, to_foundation("7C", Some(0))),
        "foundation_moved"
    );
    assert_eq!(game.layout(1).waste_top(), Some(card("7C")));
}
