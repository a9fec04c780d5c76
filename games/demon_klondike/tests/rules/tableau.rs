//! The tableau: building down in alternating colours on your own piles, runs moving as units,
//! the partial-run option, empty piles, automatic turning up.

use pandemonium_demon_klondike::{Config, DemonKlondike, RunMoves};

use super::support::*;

fn whole_runs() -> Config {
    Config {
        runs: RunMoves::WholeRun,
        ..one_deal()
    }
}

#[test]
fn a_run_moves_as_a_unit_the_eight_onto_the_nine_and_both_onto_the_ten() {
    let me = layout(["10H", "3C | 9C", "4C | 8D", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, to_pile("8D", 1));
    play(&mut game, 0, to_pile("9C", 0));
    let layout = game.layout(0);
    assert_eq!(layout.piles[0].up, cards("10H 9C 8D"));
    // Each uncovered face-down card was turned up by itself.
    assert_eq!(layout.piles[1].up, cards("3C"));
    assert_eq!(layout.piles[2].up, cards("4C"));
}

#[test]
fn any_face_up_run_may_move_by_default() {
    let me = layout(["2S | JC 10D 9S", "JS", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, to_pile("10D", 1));
    assert_eq!(game.layout(0).piles[0].up, cards("JC"));
    assert_eq!(game.layout(0).piles[1].up, cards("JS 10D 9S"));
}

#[test]
fn with_the_whole_run_option_only_a_pile_s_whole_face_up_run_moves() {
    let me = layout(["2S | JC 10D 9S", "JS", "QD", "", "", "", ""], "", "");
    let mut game = DemonKlondike::rigged(whole_runs(), vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, to_pile("10D", 1)), "whole_run_only");
    play(&mut game, 0, to_pile("JC", 2));
    assert_eq!(game.layout(0).piles[2].up, cards("QD JC 10D 9S"));
    assert_eq!(game.layout(0).piles[0].up, cards("2S"));
}

#[test]
fn the_top_card_alone_still_goes_to_a_foundation_with_the_whole_run_option() {
    let me = layout(["5C | 3H 2S AD", "", "", "", "", "", ""], "", "");
    let mut game = DemonKlondike::rigged(whole_runs(), vec![me, lively()], vec![]);
    play(&mut game, 0, to_foundation("AD", None));
}

#[test]
fn a_card_cannot_move_onto_its_own_pile() {
    let me = layout(["JC 10D", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, to_pile("10D", 0)), "same_pile");
}

#[test]
fn face_down_cards_and_cards_elsewhere_are_not_playable() {
    let me = layout(["4H | 9C", "", "", "", "", "", ""], "", "");
    // The other player owns an 8H; a player only ever moves their own cards.
    let other = layout(["AD", "8H", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, other], vec![]);
    assert_eq!(refused(&mut game, 0, to_pile("4H", 1)), "not_playable");
    assert_eq!(refused(&mut game, 0, to_pile("8H", 0)), "not_playable");
}

#[test]
fn there_are_seven_piles() {
    let me = layout(["KC", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, to_pile("KC", 7)), "no_such_pile");
}

#[test]
fn a_waste_card_builds_on_a_pile_too() {
    let me = layout(["QS", "", "", "", "", "", ""], "", "JD");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, to_pile("JD", 0));
    assert_eq!(game.layout(0).piles[0].up, cards("QS JD"));
    assert!(game.layout(0).waste.is_empty());
}
