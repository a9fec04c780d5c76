//! Hand-built layouts and positions for the rule tests.

#![allow(dead_code)]

use pandemonium_demon_klondike::{
    Action, Card, Config, DemonKlondike, Foundation, Layout, PILES, Pile, Suit,
};
use pandemonium_game_contract::{Game, ScriptedChance, Seat};

pub fn card(name: &str) -> Card {
    name.parse().unwrap()
}

pub fn cards(names: &str) -> Vec<Card> {
    Card::list(names)
}

/// A layout from text: each pile as `"down | up"` (bottom first), the stock (next card to
/// turn first) and the waste (bottom first; its last card is the top). The fan is the top
/// card alone.
pub fn layout(piles: [&str; PILES], stock: &str, waste: &str) -> Layout {
    let piles = piles.map(|text| {
        let (down, up) = text.split_once('|').unwrap_or(("", text));
        Pile {
            down: cards(down),
            up: cards(up),
        }
    });
    let mut stock = cards(stock);
    stock.reverse();
    let waste = cards(waste);
    Layout {
        piles,
        fan: waste.len().min(1) as u8,
        stock,
        waste,
    }
}

/// A layout with nothing in it (a player who has nothing left to do).
pub fn bare() -> Layout {
    layout(["", "", "", "", "", "", ""], "", "")
}

/// A foundation of `suit` built from the Ace to `top`, every card `owner`'s.
pub fn foundation(suit: Suit, top: u8, owner: Seat) -> Foundation {
    Foundation {
        suit,
        owners: vec![owner; top as usize],
    }
}

/// Foundations holding `count` of `owner`'s cards (whole suits first, then part of the next).
pub fn foundations_with(owner: Seat, count: u8) -> Vec<Foundation> {
    let mut left = count;
    let mut out = Vec::new();
    for suit in Suit::ALL {
        if left == 0 {
            break;
        }
        let n = left.min(13);
        out.push(foundation(suit, n, owner));
        left -= n;
    }
    out
}

pub fn one_deal() -> Config {
    Config {
        deals: 1,
        ..Config::default()
    }
}

pub fn rigged(layouts: Vec<Layout>, foundations: Vec<Foundation>) -> DemonKlondike {
    DemonKlondike::rigged(one_deal(), layouts, foundations)
}

pub fn play(game: &mut DemonKlondike, seat: Seat, action: Action) {
    game.apply(seat, &action, &mut ScriptedChance::new([]))
        .unwrap_or_else(|e| panic!("{action:?} by seat {seat} refused: {e}"));
}

pub fn refused(game: &mut DemonKlondike, seat: Seat, action: Action) -> &'static str {
    use pandemonium_game_contract::RuleError;
    let before = game.clone();
    let error = game
        .apply(seat, &action, &mut ScriptedChance::new([]))
        .expect_err("the action is refused");
    assert!(*game == before, "a refused action changed nothing");
    error.rule()
}

pub fn to_foundation(name: &str, foundation: Option<u16>) -> Action {
    Action::ToFoundation {
        card: card(name),
        foundation,
    }
}

pub fn to_pile(name: &str, pile: u8) -> Action {
    Action::ToPile {
        card: card(name),
        pile,
    }
}

/// A layout with an Ace on a pile: its player can still make progress, so a position where
/// only the others are tested does not end as a stalemate.
pub fn lively() -> Layout {
    layout(["AD", "", "", "", "", "", ""], "", "")
}
