//! The stock and the waste: draw three, fewer at the end, turn the waste over only when the
//! stock is empty, only the top waste card plays.

use pandemonium_demon_klondike::Action;

use super::support::*;

#[test]
fn a_draw_turns_three_cards_and_the_last_turned_is_on_top() {
    let me = layout(["", "", "", "", "", "", ""], "2S 3S 4S 5S", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, Action::Draw);
    let layout = game.layout(0);
    assert_eq!(layout.waste, cards("2S 3S 4S"));
    assert_eq!(layout.waste_top(), Some(card("4S")));
    assert_eq!(layout.stock, cards("5S"));
}

#[test]
fn when_fewer_than_three_remain_the_draw_turns_what_is_left() {
    let me = layout(["", "", "", "", "", "", ""], "2S 3S", "9D");
    let mut game = rigged(vec![me, lively()], vec![]);
    play(&mut game, 0, Action::Draw);
    assert_eq!(game.layout(0).waste, cards("9D 2S 3S"));
    assert_eq!(game.layout(0).visible_waste(), cards("2S 3S").as_slice());
    assert!(game.layout(0).stock.is_empty());
}

#[test]
fn the_waste_is_turned_over_only_when_the_stock_is_empty() {
    let me = layout(["", "", "", "", "", "", ""], "2S", "9D");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, Action::Recycle), "stock_not_empty");
    play(&mut game, 0, Action::Draw);
    assert_eq!(refused(&mut game, 0, Action::Draw), "stock_empty");
    play(&mut game, 0, Action::Recycle);
    assert_eq!(game.layout(0).stock.len(), 2);
    assert!(game.layout(0).waste.is_empty());
    assert_eq!(refused(&mut game, 0, Action::Recycle), "stock_not_empty");
}

#[test]
fn an_empty_stock_and_waste_cannot_be_turned() {
    let me = layout(["9S", "", "", "", "", "", ""], "", "");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, Action::Recycle), "waste_empty");
    assert_eq!(refused(&mut game, 0, Action::Draw), "stock_empty");
}

#[test]
fn playing_the_waste_top_uncovers_the_card_beneath_it() {
    let me = layout(["10C", "", "", "", "", "", ""], "", "4S 9H");
    let mut game = rigged(vec![me, lively()], vec![]);
    assert_eq!(refused(&mut game, 0, to_pile("4S", 1)), "not_playable");
    play(&mut game, 0, to_pile("9H", 0));
    assert_eq!(game.layout(0).waste_top(), Some(card("4S")));
}
