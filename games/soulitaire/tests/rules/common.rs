//! Helpers: rigged deals built from short card names.

#![allow(dead_code)]

use pandemonium_game_contract::{Game, SeededChance};
use pandemonium_soulitaire::{
    Action, Card, Config, Deal, Demon, Face, Rank, Soulitaire, Suit, Symbol,
};

/// A card from a short name: `"7s1"`, `"Ks3"`, `"10s4"`, `"M"` for a Mimic.
pub fn c(name: &str) -> Card {
    if name == "M" {
        return Card::Mimic;
    }
    let (rank, suit) = name.split_at(name.len() - 2);
    Card::new(suit_of(suit), rank_of(rank))
}

pub fn face(name: &str) -> Face {
    c(name).face().expect("a Ritual card")
}

pub fn suit_of(name: &str) -> Suit {
    match name {
        "s1" => Suit::S1,
        "s2" => Suit::S2,
        "s3" => Suit::S3,
        "s4" => Suit::S4,
        _ => panic!("no suit {name}"),
    }
}

pub fn rank_of(name: &str) -> Rank {
    Rank::ALL
        .into_iter()
        .find(|r| r.label() == name)
        .unwrap_or_else(|| panic!("no rank {name}"))
}

pub fn cards(names: &str) -> Vec<Card> {
    names.split_whitespace().map(c).collect()
}

/// A deal from columns (top row first, exposed card last, space-separated names), four
/// foundation cards and the demon pile (top first).
pub fn deal(columns: [&str; 6], foundations: [&str; 4], demons: &[Demon]) -> Deal {
    Deal {
        spellboard: columns.map(cards),
        foundations: foundations.map(c),
        set_aside: Vec::new(),
        demons: demons.to_vec(),
        unused_demons: Vec::new(),
    }
}

pub fn rig(columns: [&str; 6], foundations: [&str; 4], demons: &[Demon]) -> Soulitaire {
    Soulitaire::rigged(Config::default(), deal(columns, foundations, demons))
}

pub fn rig_with(
    config: Config,
    columns: [&str; 6],
    foundations: [&str; 4],
    demons: &[Demon],
) -> Soulitaire {
    Soulitaire::rigged(config, deal(columns, foundations, demons))
}

pub fn play(game: &mut Soulitaire, action: Action) {
    game.apply(0, &action, &mut SeededChance::from_u64(0))
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
}

pub fn try_play(
    game: &mut Soulitaire,
    action: &Action,
) -> Result<(), pandemonium_soulitaire::Error> {
    game.apply(0, action, &mut SeededChance::from_u64(0))
}

pub fn mv(column: u8, foundation: u8) -> Action {
    Action::Move {
        column,
        foundation,
        declare: None,
    }
}

pub fn mv_mimic(column: u8, foundation: u8, declared: &str) -> Action {
    Action::Move {
        column,
        foundation,
        declare: Some(face(declared)),
    }
}

/// A symbol from a short name: `"s1"`..`"s4"` for a suit, else a rank (`"7"`, `"K"`).
pub fn sym(name: &str) -> Symbol {
    if name.starts_with('s') {
        Symbol::Suit(suit_of(name))
    } else {
        Symbol::Rank(rank_of(name))
    }
}

/// Placing the top demon on `foundation`: the first step of a Sacrifice.
pub fn sacrifice(foundation: u8) -> Action {
    Action::Sacrifice { foundation }
}

/// Offering the card of `column` for the symbol named `symbol`.
pub fn offer(column: u8, symbol: &str) -> Action {
    Action::Offer {
        column,
        symbol: sym(symbol),
        declare: None,
    }
}

/// Offering the Mimic of `column` for `symbol`, declared as `declared`.
pub fn offer_mimic(column: u8, symbol: &str, declared: &str) -> Action {
    Action::Offer {
        column,
        symbol: sym(symbol),
        declare: Some(face(declared)),
    }
}

/// A whole Sacrifice: the demon onto `foundation`, the offers in order, then its end (unless
/// it ended by itself).
pub fn sacrifice_with(game: &mut Soulitaire, foundation: u8, offers: &[Action]) {
    play(game, sacrifice(foundation));
    for action in offers {
        play(game, action.clone());
    }
    if game.legal_actions(0).contains(&Action::EndSacrifice) {
        play(game, Action::EndSacrifice);
    }
}

/// Whether a sacrifice is under way.
pub fn pending(game: &Soulitaire) -> bool {
    game.view(pandemonium_game_contract::Viewer::Seat(0))
        .sacrifice
        .is_some()
}

/// Test demons with one symbol each.
pub const SKULL_IMP: Demon = Demon::new("Skull Imp", &[Symbol::Suit(Suit::S1)]);
pub const MOON_IMP: Demon = Demon::new("Moon Imp", &[Symbol::Suit(Suit::S2)]);
pub const TRIDENT_IMP: Demon = Demon::new("Trident Imp", &[Symbol::Suit(Suit::S3)]);
pub const TWO_IMP: Demon = Demon::new("Two Imp", &[Symbol::Rank(Rank::Two)]);
pub const FOUR_IMP: Demon = Demon::new("Four Imp", &[Symbol::Rank(Rank::Four)]);
/// The one known demon: a symbol of each suit.
pub const BOSCHE: Demon = Demon::new(
    "Bosche the Plague Doctor",
    &[
        Symbol::Suit(Suit::S1),
        Symbol::Suit(Suit::S2),
        Symbol::Suit(Suit::S3),
        Symbol::Suit(Suit::S4),
    ],
);

/// A full 54-card deal in a fixed (unshuffled) order, with the first six house demons.
pub fn full_deal() -> Deal {
    let deck = Card::deck();
    let spellboard =
        std::array::from_fn(|column| (0..6).map(|row| deck[row * 6 + column]).collect());
    let roster = pandemonium_soulitaire::data::ROSTER;
    Deal {
        spellboard,
        foundations: std::array::from_fn(|i| deck[36 + i]),
        set_aside: deck[40..].to_vec(),
        demons: roster[..6].to_vec(),
        unused_demons: roster[6..].to_vec(),
    }
}

pub fn sacrifices(game: &Soulitaire) -> Vec<Action> {
    game.legal_actions(0)
        .into_iter()
        .filter(|a| matches!(a, Action::Sacrifice { .. }))
        .collect()
}

pub fn offers(game: &Soulitaire) -> Vec<Action> {
    game.legal_actions(0)
        .into_iter()
        .filter(|a| matches!(a, Action::Offer { .. }))
        .collect()
}

pub fn moves(game: &Soulitaire) -> Vec<Action> {
    game.legal_actions(0)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .collect()
}

/// The current top of foundation `f` as seen by the player.
pub fn top(game: &Soulitaire, f: usize) -> pandemonium_soulitaire::Top {
    game.top(f)
}
