//! The test scenarios at the end of `RULES.md`, exactly as written.

use pandemonium_daemon_dice::{
    Breed::{Blood, Death, Fester, Fire, Frost, Rot, Stench, Wraith},
    DaemonDice, DaemonDiceConfig, DaemonError, Damage, Face, Health, Part, Rigging, Step, Zone,
};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

/// Seat 0 attacks with Stun + 2 Plus (two boosts); seat 1, five Shells, rolls `faces`.
fn two_boost_attack(faces: &[Face]) -> pandemonium_daemon_dice::DaemonDice {
    let mut game = start(
        Rigging::new(vec![legs(Blood, 3), daemon(Death, &[Part::Shell; 3])]),
        &[Face::Stun, Face::Plus, Face::Plus],
    );
    act(&mut game, 0, A::Boost { attack: 0 });
    act(&mut game, 0, A::Boost { attack: 0 });
    act_rolling(&mut game, 0, A::Done, faces);
    assert_eq!(step(&game), Step::Defend);
    assert_eq!(view(&game).pending_status[0].boosts, 2);
    game
}

fn intercepted(game: &pandemonium_daemon_dice::DaemonDice) -> bool {
    view(game).pending_status[0].intercepted
}

#[test]
fn scenario_1_three_blocks_intercept_an_attack_with_two_boosts() {
    let mut game = two_boost_attack(&[Face::Block, Face::Block, Face::Block]);
    for die in 0..3 {
        assert!(!intercepted(&game));
        act(&mut game, 1, A::Defend { attack: 0, die });
    }
    assert!(intercepted(&game));
}

#[test]
fn scenario_1_two_blocks_and_a_plus_intercept_an_attack_with_two_boosts() {
    let mut game = two_boost_attack(&[Face::Block, Face::Block, Face::Plus]);
    for die in 0..3 {
        act(&mut game, 1, A::Defend { attack: 0, die });
    }
    assert!(intercepted(&game));
}

#[test]
fn scenario_1_one_block_and_two_pluses_intercept_an_attack_with_two_boosts() {
    let mut game = two_boost_attack(&[Face::Block, Face::Plus, Face::Plus]);
    for die in 0..3 {
        act(&mut game, 1, A::Defend { attack: 0, die });
    }
    assert!(intercepted(&game));
    act(&mut game, 1, A::Done);
    assert!(
        (0..3).all(|d| health(&game, 1, d) == Health::Healthy),
        "an intercepted attack does no damage"
    );
}

#[test]
fn scenario_1_a_block_and_one_plus_fail_against_two_boosts() {
    let mut game = two_boost_attack(&[Face::Block, Face::Plus, Face::Dodge]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    act(&mut game, 1, A::Defend { attack: 0, die: 1 });
    assert!(!intercepted(&game));
    act(&mut game, 1, A::Done);
    // The stun gets through: the defender places it on the only die not spent... any die.
    assert!(matches!(step(&game), Step::Suffer { .. }));
    act(&mut game, 1, A::Suffer { die: 2 });
    assert_eq!(health(&game, 1, 2), Health::Stunned);
}

#[test]
fn scenario_1_two_pluses_alone_are_no_defence() {
    let game = two_boost_attack(&[Face::Plus, Face::Plus, Face::Dodge]);
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 0 }),
        DaemonError::PlusNeedsBase
    );
}

#[test]
fn scenario_1_a_block_cannot_combine_with_a_deflect() {
    let mut game = two_boost_attack(&[Face::Block, Face::Shell, Face::Plus]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 1 }),
        DaemonError::MixedDefence
    );
}

/// Seat 0 fires an Eye's ray with `pluses` pluses; seat 1 (Shells) rolls `faces`.
fn ray(pluses: usize, faces: &[Face]) -> pandemonium_daemon_dice::DaemonDice {
    let mut dice = daemon(Blood, &[Part::Eye]);
    dice.extend(legs(Blood, pluses));
    let mut rolled = vec![Face::Eye];
    rolled.extend(vec![Face::Plus; pluses]);
    let mut game = start(
        Rigging::new(vec![dice, daemon(Death, &vec![Part::Shell; faces.len()])]),
        &rolled,
    );
    for _ in 0..pluses {
        act(&mut game, 0, A::Boost { attack: 0 });
    }
    act_rolling(&mut game, 0, A::Done, faces);
    game
}

#[test]
fn scenario_2_a_plus_on_an_eye_counts_two_boosts_and_no_block_defends_a_ray() {
    let game = ray(1, &[Face::Block, Face::Dodge]);
    assert_eq!(view(&game).pending_status[0].boosts, 2);
    assert_eq!(
        refused(&game, 1, A::Defend { attack: 0, die: 0 }),
        DaemonError::UnsuitableDefence
    );
}

#[test]
fn scenario_2_three_dodges_defend_a_boosted_ray() {
    let mut game = ray(1, &[Face::Dodge, Face::Dodge, Face::Dodge]);
    for die in 0..3 {
        act(&mut game, 1, A::Defend { attack: 0, die });
    }
    assert!(intercepted(&game));
}

#[test]
fn scenario_2_a_deflect_and_two_pluses_defend_a_boosted_ray() {
    let mut game = ray(1, &[Face::Shell, Face::Plus, Face::Plus]);
    for die in 0..3 {
        act(&mut game, 1, A::Defend { attack: 0, die });
    }
    assert!(intercepted(&game));
}

#[test]
fn scenario_2_a_dodge_and_a_plus_fail_against_a_boosted_ray() {
    let mut game = ray(1, &[Face::Dodge, Face::Plus]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    act(&mut game, 1, A::Defend { attack: 0, die: 1 });
    assert!(!intercepted(&game));
}

#[test]
fn scenario_2_an_unboosted_ray_falls_to_a_single_dodge_or_deflect() {
    let mut game = ray(0, &[Face::Dodge]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    assert!(intercepted(&game));
    let mut game = ray(0, &[Face::Shell]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    assert!(intercepted(&game));
}

#[test]
fn scenario_3_an_undefended_leg_stuns_two_different_healthy_dice_grabbed_minused_or_spent_included()
{
    // Seat 1's die 0 is stunned and die 1 wounded. Seat 0 rolls a Leg, a Tentacle and a Minus:
    // it grabs seat 1's die 2, and its minus takes die 3.
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Leg, Part::Tentacle, Part::Arm]),
            legs(Death, 5),
        ])
        .stunned(1, 0)
        .wounded(1, 1),
        &[Face::Leg, Face::Tentacle, Face::Minus],
    );
    act(
        &mut game,
        0,
        A::Grab {
            tentacle: 1,
            die: 2,
        },
    );
    // Seat 1's turn: dice 3 and 4 are active; the minus takes die 3, die 4 rolls a plus.
    act(&mut game, 0, A::Done);
    assert_eq!(step(&game), Step::SetAside { left: 1 });
    act_rolling(&mut game, 1, A::SetAside { die: 3 }, &[Face::Plus]);
    // The plus recovers die 0: the plus (die 4) and die 0 are spent.
    act(&mut game, 1, A::Recover { die: 0 });
    assert_eq!(step(&game), Step::Defend);
    act(&mut game, 1, A::Done);
    assert_eq!(
        listed(&game, 1, |die| A::Suffer { die }),
        vec![0, 2, 3, 4],
        "any die neither stunned nor wounded: spent (0, 4), grabbed (2), minus-ed (3)"
    );
    assert_eq!(
        refused(&game, 1, A::Suffer { die: 1 }),
        DaemonError::NotEligible
    );
    act(&mut game, 1, A::Suffer { die: 2 });
    assert_eq!(
        listed(&game, 1, |die| A::Suffer { die }),
        vec![0, 3, 4],
        "the second stun goes on a different die"
    );
    act(&mut game, 1, A::Suffer { die: 3 });
    assert_eq!(health(&game, 1, 2), Health::Stunned);
    assert_eq!(health(&game, 1, 3), Health::Stunned);
    assert_eq!(
        die(&game, 1, 2).grabbed_by,
        None,
        "damage on a grabbed die ends the grab"
    );
    assert_eq!(die(&game, 0, 1).holding, None);
}

#[test]
fn scenario_4_initiative_counts_dodges_pluses_minuses_and_wings_but_not_lungs() {
    let mut game = DaemonDice::new(&sized(5), 2, &mut nothing()).unwrap();
    for part in [Part::Wings, Part::Leg, Part::Leg, Part::Leg, Part::Leg] {
        act(&mut game, 0, A::Pick { breed: Blood, part });
    }
    act(&mut game, 0, A::Ready { breed: None });
    for part in [Part::Lungs, Part::Leg, Part::Leg, Part::Leg, Part::Leg] {
        act(&mut game, 1, A::Pick { breed: Death, part });
    }
    // Everyone is ready: the daemons are revealed and roll initiative, A's dice then B's.
    act_rolling(
        &mut game,
        1,
        A::Ready { breed: None },
        &[
            Face::Wings,
            Face::Dodge,
            Face::Dodge,
            Face::Plus,
            Face::Minus,
            Face::Lungs,
            Face::Dodge,
            Face::Minus,
            Face::Stun,
            Face::Stun,
        ],
    );
    let initiative = view(&game).initiative.unwrap();
    assert_eq!(initiative.rolls[0].totals, vec![Some(5), Some(2)]);
    assert_eq!(initiative.winner, 0);
    assert_eq!(initiative.minuses_from, Some(1));
    // B's minuses: 1 + 2 (Lungs) = 3, set aside by A on A's first turn.
    assert_eq!(view(&game).active, Some(0));
    assert_eq!(step(&game), Step::SetAside { left: 3 });
    act(&mut game, 0, A::SetAside { die: 0 });
    act(&mut game, 0, A::SetAside { die: 2 });
    act_rolling(
        &mut game,
        0,
        A::SetAside { die: 4 },
        &[Face::Leg, Face::Leg],
    );
    for (d, expected) in [
        (0, Zone::Minused),
        (1, Zone::Arrayed),
        (2, Zone::Minused),
        (3, Zone::Arrayed),
        (4, Zone::Minused),
    ] {
        assert_eq!(zone(&game, 0, d), expected, "die {d}");
    }
}

#[test]
fn scenario_5_a_daemon_with_three_healthy_dice_facing_three_minuses_loses_at_once() {
    let mut game = start(
        Rigging::new(vec![legs(Blood, 5), legs(Death, 5)])
            .wounded(1, 0)
            .wounded(1, 1),
        &[
            Face::Minus,
            Face::Minus,
            Face::Minus,
            Face::Block,
            Face::Block,
        ],
    );
    act(&mut game, 0, A::Done);
    let outcome = game
        .outcome()
        .expect("nothing is left to roll: seat 1 lost");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.placements, vec![1, 2]);
    assert!((2..5).all(|d| zone(&game, 1, d) == Zone::Minused));
}

/// Seat 0 arrays Stun + Spike; seat 1 (Shells) rolls `faces`.
fn spiked(faces: &[Face]) -> pandemonium_daemon_dice::DaemonDice {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Leg, Part::Spike]),
            daemon(Death, &[Part::Shell; 3]),
        ]),
        &[Face::Stun, Face::Spike],
    );
    act(&mut game, 0, A::Spike { attack: 0 });
    act_rolling(&mut game, 0, A::Done, faces);
    game
}

#[test]
fn scenario_6_an_undefended_spiked_stun_gives_a_stun_and_a_wound_on_two_dice() {
    let mut game = spiked(&[Face::Dodge, Face::Dodge, Face::Dodge]);
    act(&mut game, 1, A::Done);
    match step(&game) {
        Step::Suffer { points } => assert_eq!(
            points.iter().map(|p| p.damage).collect::<Vec<_>>(),
            vec![Damage::Stun, Damage::Wound]
        ),
        other => panic!("expected damage, got {other:?}"),
    }
    act(&mut game, 1, A::Suffer { die: 0 });
    assert_eq!(
        refused(&game, 1, A::Suffer { die: 0 }),
        DaemonError::NotEligible
    );
    act(&mut game, 1, A::Suffer { die: 1 });
    assert_eq!(health(&game, 1, 0), Health::Stunned);
    assert_eq!(health(&game, 1, 1), Health::Wounded);
}

#[test]
fn scenario_6_a_defended_spiked_attack_does_nothing() {
    let mut game = spiked(&[Face::Block, Face::Dodge, Face::Dodge]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    act(&mut game, 1, A::Done);
    assert!((0..3).all(|d| health(&game, 1, d) == Health::Healthy));
    assert_eq!(step(&game), Step::Attack);
}

#[test]
fn scenario_6_a_spike_and_a_brain_cannot_go_on_the_same_attack() {
    let dice = daemon(Blood, &[Part::Leg, Part::Spike, Part::Brain]);
    let mut game = start(
        Rigging::new(vec![dice.clone(), legs(Death, 3)]),
        &[Face::Stun, Face::Spike, Face::Brain],
    );
    act(&mut game, 0, A::Spike { attack: 0 });
    assert_eq!(
        refused(&game, 0, A::Brain { attack: 0 }),
        DaemonError::BrainNotAllowed
    );
    let mut game = start(
        Rigging::new(vec![dice, legs(Death, 3)]),
        &[Face::Stun, Face::Spike, Face::Brain],
    );
    act(&mut game, 0, A::Brain { attack: 0 });
    assert_eq!(
        refused(&game, 0, A::Spike { attack: 0 }),
        DaemonError::SpikeNotAllowed
    );
}

#[test]
fn scenario_7_a_grabbed_leg_is_not_rolled_and_a_stun_placed_on_it_ends_the_grab() {
    let mut game = start(
        Rigging::new(vec![
            daemon(Blood, &[Part::Tentacle, Part::Leg]),
            daemon(Death, &[Part::Leg, Part::Shell, Part::Shell]),
        ]),
        &[Face::Tentacle, Face::Stun],
    );
    act(
        &mut game,
        0,
        A::Grab {
            tentacle: 0,
            die: 0,
        },
    );
    // Seat 1 rolls only its two Shells: the grabbed Leg stays out.
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge, Face::Dodge]);
    assert_eq!(zone(&game, 1, 0), Zone::Idle);
    assert_eq!(die(&game, 1, 0).face, None);
    assert!(die(&game, 1, 0).grabbed_by.is_some());
    act(&mut game, 1, A::Done);
    act(&mut game, 1, A::Suffer { die: 0 });
    assert_eq!(health(&game, 1, 0), Health::Stunned);
    assert_eq!(die(&game, 1, 0).grabbed_by, None);
    assert_eq!(die(&game, 0, 0).holding, None, "the Tentacle is free");
}

#[test]
fn scenario_8_two_pluses_recover_only_the_stunned_die_and_are_spent_with_it() {
    let mut game = start(
        Rigging::new(vec![legs(Blood, 4), legs(Death, 2)])
            .stunned(0, 0)
            .wounded(0, 1),
        &[Face::Plus, Face::Plus],
    );
    assert_eq!(step(&game), Step::Recover);
    assert_eq!(
        refused(&game, 0, A::Recover { die: 1 }),
        DaemonError::NotEligible,
        "pluses cannot bring back a wounded die"
    );
    act(&mut game, 0, A::Recover { die: 0 });
    assert_eq!(health(&game, 0, 0), Health::Healthy);
    assert_eq!(health(&game, 0, 1), Health::Wounded);
    assert_eq!(zone(&game, 0, 0), Zone::Spent);
    assert_eq!(zone(&game, 0, 2), Zone::Spent, "the plus used is spent");
    assert_eq!(
        zone(&game, 0, 3),
        Zone::Rolled,
        "the other plus is still to use"
    );
    assert_eq!(step(&game), Step::Attack);
}

#[test]
fn scenario_9_an_undefended_poisoned_stinger_stuns_and_wounds_and_stuns_itself() {
    let mut game = start(
        Rigging::new(vec![daemon(Blood, &[Part::Stinger]), legs(Death, 3)]),
        &[Face::Stinger],
    );
    act(&mut game, 0, A::Poison { attack: 0 });
    act_rolling(
        &mut game,
        0,
        A::Done,
        &[Face::Dodge, Face::Dodge, Face::Dodge],
    );
    act(&mut game, 1, A::Done);
    assert_eq!(
        health(&game, 0, 0),
        Health::Stunned,
        "the Stinger is stunned"
    );
    act(&mut game, 1, A::Suffer { die: 0 });
    act(&mut game, 1, A::Suffer { die: 1 });
    assert_eq!(health(&game, 1, 0), Health::Stunned);
    assert_eq!(health(&game, 1, 1), Health::Wounded);
}

#[test]
fn scenario_10_a_mongrel_with_two_stunned_dice_and_no_plus_still_recovers_one() {
    let mongrel = vec![
        pandemonium_daemon_dice::Die::new(Blood, Part::Leg),
        pandemonium_daemon_dice::Die::new(Death, Part::Leg),
        pandemonium_daemon_dice::Die::new(Fester, Part::Leg),
        pandemonium_daemon_dice::Die::new(Stench, Part::Leg),
        pandemonium_daemon_dice::Die::new(Wraith, Part::Leg),
    ];
    let mut game = start(
        Rigging::new(vec![mongrel, legs(Rot, 5)])
            .stunned(0, 0)
            .stunned(0, 1),
        &[Face::Stun, Face::Stun, Face::Stun],
    );
    assert_eq!(
        view(&game).daemons[0].lineage,
        Some(pandemonium_daemon_dice::Lineage::Mongrel)
    );
    assert_eq!(step(&game), Step::Recover);
    assert_eq!(refused(&game, 0, A::Done), DaemonError::MongrelMustRecover);
    act(&mut game, 0, A::Recover { die: 1 });
    assert_eq!(health(&game, 0, 1), Health::Healthy);
    assert_eq!(health(&game, 0, 0), Health::Stunned, "one per turn");
    assert_eq!(step(&game), Step::Attack);
}

#[test]
fn scenario_10_a_thirteen_die_frost_purebred_turns_the_first_wound_into_a_stun() {
    let mut attacker = daemon(Blood, &[Part::Pincer, Part::Spike]);
    attacker.extend(legs(Blood, 11));
    let mut rolled = vec![Face::Pincer, Face::Spike];
    rolled.extend([Face::Block; 11]);
    let mut game = start(
        Rigging::new(vec![attacker, legs(Frost, 13)]).config(DaemonDiceConfig {
            size: 13,
            ..DaemonDiceConfig::default()
        }),
        &rolled,
    );
    act(&mut game, 0, A::Spike { attack: 0 });
    act_rolling(&mut game, 0, A::Done, &[Face::Dodge; 13]);
    act(&mut game, 1, A::Done);
    act(&mut game, 1, A::Suffer { die: 0 });
    act(&mut game, 1, A::Suffer { die: 1 });
    assert_eq!(
        health(&game, 1, 0),
        Health::Stunned,
        "the first wound became a stun"
    );
    assert_eq!(health(&game, 1, 1), Health::Wounded);
    let _ = (Fire, Viewer::Spectator);
}
