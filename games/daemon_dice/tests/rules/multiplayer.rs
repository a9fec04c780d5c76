//! Multiplayer battles: one target per turn, the target plays next, a defeated daemon names
//! the next player, the last daemon standing wins.

use pandemonium_daemon_dice::{
    Breed::{Blood, Death, Fester},
    DaemonError, Face, Part, Rigging, Step,
};
use pandemonium_game_contract::Game;

use super::support::*;

fn three() -> Rigging {
    Rigging::new(vec![legs(Blood, 2), legs(Death, 2), legs(Fester, 2)])
}

#[test]
fn each_turn_the_player_picks_one_target_who_takes_the_next_turn() {
    let mut game = start(three(), &[Face::Stun, Face::Minus]);
    assert_eq!(step(&game), Step::Target);
    assert_eq!(
        refused(&game, 0, A::Target { seat: 0 }),
        DaemonError::BadTarget
    );
    act(&mut game, 0, A::Target { seat: 2 });
    act(&mut game, 0, A::Done);
    assert_eq!(view(&game).active, Some(2));
    assert_eq!(step(&game), Step::SetAside { left: 1 });
}

#[test]
fn a_defeated_daemon_names_the_next_player_who_faces_nothing() {
    let mut game = start(three().wounded(1, 0), &[Face::Minus, Face::Block]);
    act(&mut game, 0, A::Target { seat: 1 });
    act(&mut game, 0, A::Done);
    // Seat 1 has one healthy die and one minus: nothing to roll.
    assert_eq!(view(&game).defeated, vec![1]);
    assert_eq!(step(&game), Step::NameNext);
    assert_eq!(game.to_act().iter().collect::<Vec<_>>(), vec![1]);
    assert_eq!(
        refused(&game, 1, A::NameNext { seat: 1 }),
        DaemonError::BadTarget
    );
    act_rolling(
        &mut game,
        1,
        A::NameNext { seat: 0 },
        &[Face::Stun, Face::Stun],
    );
    assert_eq!(view(&game).active, Some(0));
    assert_eq!(view(&game).pending, None);
    // Only seat 2 is left to target.
    assert_eq!(step(&game), Step::Attack);
    assert_eq!(view(&game).array.unwrap().against, 2);
}

#[test]
fn the_last_daemon_standing_wins_and_the_others_rank_by_when_they_fell() {
    let mut game = start(
        three().wounded(1, 0).wounded(2, 0),
        &[Face::Minus, Face::Block],
    );
    act(&mut game, 0, A::Target { seat: 1 });
    act(&mut game, 0, A::Done);
    act_rolling(&mut game, 1, A::NameNext { seat: 2 }, &[Face::Minus]);
    act(&mut game, 2, A::Done);
    // Seat 0 is hit by a minus; it rolls its other die.
    assert_eq!(view(&game).active, Some(0));
    let outcome = game.outcome();
    assert!(outcome.is_none());
    act_rolling(&mut game, 0, A::SetAside { die: 0 }, &[Face::Minus]);
    act(&mut game, 0, A::Done);
    let outcome = game.outcome().expect("seat 2 had nothing to roll");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.placements, vec![1, 3, 2]);
}

#[test]
fn grabs_persist_when_the_grabber_targets_another_daemon() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Tentacle, Part::Leg]),
            legs(Death, 2),
            legs(Fester, 2),
        ])
        .grab((0, 0), (1, 0)),
        &[],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Stun]);
    act(&mut game, 0, A::Target { seat: 2 });
    assert!(die(&game, 0, 0).holding.is_some());
    assert_eq!(view(&game).array.unwrap().against, 2);
}
