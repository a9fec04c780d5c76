//! Rigged tables and small helpers for the rule tests.

#![allow(dead_code)]

use pandemonium_demon_bound::{
    Card, CardSet, DemonBound, DemonBoundAction, DemonBoundConfig, DemonBoundError, DemonBoundView,
    Phase, Rigging,
};
use pandemonium_game_contract::{Game, ScriptedChance, Seat, SeededChance, Viewer};

pub const A: Seat = 0;
pub const B: Seat = 1;
pub const C: Seat = 2;

pub fn cards(names: &str) -> Vec<Card> {
    Card::list(names)
}

/// Cards chosen together, for a discard or a release.
pub fn set(names: &str) -> CardSet {
    cards(names).into()
}

pub fn card(name: &str) -> Card {
    name.parse().unwrap()
}

/// Per-seat lists from strings: `lists(&["7H 3H", "", "2S"])`.
pub fn lists(names: &[&str]) -> Vec<Vec<Card>> {
    names.iter().map(|n| cards(n)).collect()
}

pub fn config() -> DemonBoundConfig {
    DemonBoundConfig::default()
}

pub fn rig(seats: u8, rigging: Rigging) -> DemonBound {
    DemonBound::rigged(&config(), seats, rigging).expect("a valid rigging")
}

pub fn apply(game: &mut DemonBound, seat: Seat, action: DemonBoundAction) {
    let mut chance = SeededChance::from_u64(1);
    game.apply(seat, &action, &mut chance)
        .unwrap_or_else(|e| panic!("seat {seat}: {action:?} refused: {e}"));
}

pub fn apply_with(
    game: &mut DemonBound,
    seat: Seat,
    action: DemonBoundAction,
    chance: &mut ScriptedChance,
) {
    game.apply(seat, &action, chance)
        .unwrap_or_else(|e| panic!("seat {seat}: {action:?} refused: {e}"));
}

pub fn refused(game: &DemonBound, seat: Seat, action: DemonBoundAction) -> DemonBoundError {
    let mut copy = game.clone();
    let error = copy
        .apply(seat, &action, &mut SeededChance::from_u64(1))
        .expect_err("the action is refused");
    assert_eq!(&copy, game, "a refused action changes nothing");
    error
}

pub fn omniscient(game: &DemonBound) -> DemonBoundView {
    game.view(Viewer::Omniscient)
}

pub fn phase(game: &DemonBound) -> Phase {
    omniscient(game).phase
}

pub fn hand(game: &DemonBound, seat: Seat) -> Vec<Card> {
    omniscient(game).players[seat as usize]
        .hand
        .clone()
        .unwrap()
}

pub fn sacrifice(game: &DemonBound, seat: Seat) -> Vec<Card> {
    omniscient(game).players[seat as usize].sacrifice.clone()
}

pub fn threats(game: &DemonBound, seat: Seat) -> Vec<Card> {
    omniscient(game).players[seat as usize].threats.clone()
}

pub fn bound(game: &DemonBound, seat: Seat) -> Vec<Card> {
    omniscient(game).players[seat as usize].bound.clone()
}

pub fn treasury(game: &DemonBound, seat: Seat) -> Vec<Card> {
    omniscient(game).players[seat as usize].treasury.clone()
}

pub fn stain(game: &DemonBound, seat: Seat) -> u8 {
    omniscient(game).players[seat as usize].stain
}

pub fn discard_pile(game: &DemonBound) -> Vec<Card> {
    omniscient(game).discard_pile
}

/// Whether the discard pile holds every one of `names`.
pub fn discarded(game: &DemonBound, names: &str) -> bool {
    let pile = discard_pile(game);
    cards(names).iter().all(|c| pile.contains(c))
}

/// A draw pile of harmless cards (low diamonds and clubs are kept out of the way by using
/// hearts and clubs not used elsewhere), top first.
pub fn filler(count: usize, except: &str) -> Vec<Card> {
    let used = cards(except);
    Card::deck(0, false)
        .into_iter()
        .filter(|c| !used.contains(c))
        .filter(|c| !c.is_demon() && c.spell_power().is_none())
        .take(count)
        .collect()
}

/// Every card the rigging places, as names.
fn used(rigging: &Rigging) -> String {
    let mut names: Vec<String> = Vec::new();
    for lists in [
        &rigging.hands,
        &rigging.sacrifices,
        &rigging.threats,
        &rigging.bound,
        &rigging.treasuries,
    ] {
        for list in lists {
            names.extend(list.iter().map(|c| c.to_string()));
        }
    }
    names.extend(rigging.discard.iter().map(|c| c.to_string()));
    names.extend(rigging.draw.iter().map(|c| c.to_string()));
    names.join(" ")
}

/// A rigged table whose draw pile (after any rigged top cards) is 20 harmless cards.
pub fn table(seats: u8, mut rigging: Rigging) -> DemonBound {
    let more = filler(20, &used(&rigging));
    rigging.draw.extend(more);
    rig(seats, rigging)
}

/// Hands of harmless cards for the seats a test does not care about.
pub const JUNK: [&str; 4] = [
    "2C 3C 4C 5C 6C 7C",
    "2D 3D 4D 5D 6D 7D",
    "8C 9C 10C 8D 9D 10D",
    "AC AD 2H 3H 4H 5H",
];
