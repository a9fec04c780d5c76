//! Step 3a: which defences suit which attacks.

use pandemonium_daemon_dice::{
    Breed::{Blood, Death},
    DaemonDice, DaemonError, Face, Health, Part, Rigging, Step, Zone,
};

use super::support::*;

/// Seat 0 (Blood) attacks with `parts` rolling `attack`; seat 1 (Death Shells) rolls `defence`.
fn attacked(parts: &[Part], attack: &[Face], defence: &[Face]) -> DaemonDice {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, parts),
            daemon(Death, &vec![Part::Shell; defence.len()]),
        ]),
        attack,
    );
    act_rolling(&mut game, 0, A::Done, defence);
    game
}

#[test]
fn a_dodge_defends_only_rays_and_sweeps() {
    let game = attacked(&[Part::Leg], &[Face::Leg], &[Face::Dodge]);
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 0 }),
        DaemonError::UnsuitableDefence
    );
}

#[test]
fn a_tail_sweep_does_two_stuns_cannot_be_blocked_and_can_be_dodged() {
    let game = attacked(
        &[Part::Tail],
        &[Face::Tail],
        &[Face::Block, Face::Dodge, Face::Dodge],
    );
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 0 }),
        DaemonError::UnsuitableDefence
    );
    let mut dodged = game.clone();
    act(&mut dodged, 1, A::Defend { attack: 0, die: 1 });
    assert!(view(&dodged).pending_status[0].intercepted);
    let mut hit = game;
    act(&mut hit, 1, A::Done);
    match step(&hit) {
        Step::Suffer { points } => assert_eq!(points.len(), 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_deflect_defends_any_attack_and_shells_boost_each_other() {
    let mut game = start(
        Rigging::new(vec![legs(Blood, 2), daemon(Death, &[Part::Shell; 2])]),
        &[Face::Leg, Face::Plus],
    );
    act(&mut game, 0, A::Boost { attack: 0 });
    act_rolling(&mut game, 0, A::Done, &[Face::Shell, Face::Shell]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    assert!(!view(&game).pending_status[0].intercepted);
    act(&mut game, 1, A::Defend { attack: 0, die: 1 });
    assert!(view(&game).pending_status[0].intercepted);
}

#[test]
fn an_arm_is_a_deflect_in_defence_or_a_one_stun_attack() {
    let game = attacked(&[Part::Eye], &[Face::Eye], &[Face::Block]);
    let _ = game;
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Eye]),
            daemon(Death, &[Part::Arm, Part::Arm]),
        ]),
        &[Face::Eye],
    );
    act_rolling(&mut game, 0, A::Done, &[Face::Arm, Face::Arm]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    assert!(
        view(&game).pending_status[0].intercepted,
        "an Arm deflects even a ray"
    );
    act(&mut game, 1, A::Done);
    let array = view(&game).array.unwrap();
    assert_eq!(array.attacks.len(), 1, "the unused Arm attacks");
    assert_eq!(array.attacks[0].die, 1);
    assert_eq!(array.attacks[0].face, Face::Arm);
}

#[test]
fn an_intercepted_attack_takes_no_more_defenders() {
    let mut game = attacked(&[Part::Leg], &[Face::Leg], &[Face::Block, Face::Block]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 1 }),
        DaemonError::AlreadyIntercepted
    );
}

#[test]
fn a_face_that_is_no_defence_cannot_defend_and_each_die_defends_once() {
    let mut game = attacked(
        &[Part::Leg, Part::Leg],
        &[Face::Leg, Face::Leg],
        &[Face::Stun, Face::Block],
    );
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 0 }),
        DaemonError::NotADefence
    );
    act(&mut game, 1, A::Defend { attack: 0, die: 1 });
    assert_eq!(zone(&game, 1, 1), Zone::Spent);
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 1, die: 1 }),
        DaemonError::NotEligible
    );
}

#[test]
fn a_defender_may_choose_not_to_defend() {
    let mut game = attacked(
        &[Part::Pincer],
        &[Face::Pincer],
        &[Face::Block, Face::Block],
    );
    act(&mut game, 1, A::Done);
    act(&mut game, 1, A::Suffer { die: 1 });
    assert_eq!(
        health(&game, 1, 1),
        Health::Wounded,
        "a Pincer does one wound"
    );
    assert_eq!(
        zone(&game, 1, 0),
        Zone::Rolled,
        "the unused block is still rolled"
    );
}
