//! Rigged battles and scripted rolls for the rule tests. Every die of the house set shows
//! `[its part, Stun, Block, Dodge, Plus, Minus]` on 1 to 6; `roll` turns faces into those
//! numbers, so tests say what each die shows, in die order.

#![allow(dead_code)]

use pandemonium_daemon_dice::{
    Breed, DaemonDice, DaemonDiceConfig, DaemonDiceView, DaemonError, Die, DieView, Face, Health,
    Part, Rigging, Step, Zone,
};
use pandemonium_game_contract::{Game, ScriptedChance, Seat, Viewer};

pub use pandemonium_daemon_dice::DaemonAction as A;

/// A daemon of one breed with these body parts.
pub fn daemon(breed: Breed, parts: &[Part]) -> Vec<Die> {
    parts.iter().map(|&p| Die::new(breed, p)).collect()
}

/// `n` Legs of one breed: dice that matter only for the symbols they roll.
pub fn legs(breed: Breed, n: usize) -> Vec<Die> {
    daemon(breed, &vec![Part::Leg; n])
}

/// The d6 result showing `face` on a house-set die (a body-part face is the die's own part).
pub fn d6(face: Face) -> u8 {
    match face {
        Face::Stun => 2,
        Face::Block => 3,
        Face::Dodge => 4,
        Face::Plus => 5,
        Face::Minus => 6,
        Face::Deflect | Face::Wound => panic!("no house-set die shows a bare {face:?}"),
        _ => 1,
    }
}

/// Scripted rolls showing these faces, die by die.
pub fn roll(faces: &[Face]) -> ScriptedChance {
    ScriptedChance::dice(faces.iter().map(|&f| d6(f)))
}

/// No rolls expected.
pub fn nothing() -> ScriptedChance {
    ScriptedChance::new([])
}

/// Applies an action that must be legal (and listed as legal).
pub fn act(game: &mut DaemonDice, seat: Seat, action: A) {
    act_rolling(game, seat, action, &[]);
}

/// Applies an action whose consequences roll dice showing `faces`.
pub fn act_rolling(game: &mut DaemonDice, seat: Seat, action: A, faces: &[Face]) {
    assert!(
        game.legal_actions(seat).contains(&action),
        "{action:?} is not listed for seat {seat} in {:?}",
        game.view(Viewer::Spectator).step
    );
    let mut chance = roll(faces);
    game.apply(seat, &action, &mut chance)
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
    assert_eq!(chance.remaining(), 0, "rolls left over after {action:?}");
}

/// The error an action is refused with; the state must not change.
pub fn refused(game: &DaemonDice, seat: Seat, action: A) -> DaemonError {
    let mut copy = game.clone();
    let error = copy
        .apply(seat, &action, &mut nothing())
        .expect_err("the action should be refused");
    assert!(copy == *game, "a refused action changed the state");
    assert!(!game.legal_actions(seat).contains(&action));
    error
}

pub fn view(game: &DaemonDice) -> DaemonDiceView {
    game.view(Viewer::Spectator)
}

pub fn step(game: &DaemonDice) -> Step {
    view(game).step
}

pub fn die(game: &DaemonDice, seat: Seat, die: u8) -> DieView {
    view(game).daemons[seat as usize].dice[die as usize]
}

pub fn health(game: &DaemonDice, seat: Seat, d: u8) -> Health {
    die(game, seat, d).health
}

pub fn zone(game: &DaemonDice, seat: Seat, d: u8) -> Zone {
    die(game, seat, d).zone
}

/// Starts a rigged battle, `first` rolling `faces` on its turn.
pub fn start(rigging: Rigging, faces: &[Face]) -> DaemonDice {
    let mut chance = roll(faces);
    let game = rigging.start(&mut chance);
    assert_eq!(chance.remaining(), 0, "rolls left over at the start");
    game
}

pub fn sized(size: u8) -> DaemonDiceConfig {
    DaemonDiceConfig {
        size,
        ..DaemonDiceConfig::default()
    }
}

/// The dice of `seat` the engine lists for `make` (e.g. `|die| A::Suffer { die }`).
pub fn listed(game: &DaemonDice, seat: Seat, make: impl Fn(u8) -> A) -> Vec<u8> {
    let legal = game.legal_actions(seat);
    (0..40).filter(|&d| legal.contains(&make(d))).collect()
}
