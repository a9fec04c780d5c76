//! Scripted rolls: a whole battle whose dice follow a script instead of the `Chance`, for
//! tests that play through the server (the test server's `daemon_dice_rigged`).

use pandemonium_daemon_dice::{Breed, DaemonDice, Face, Part, ScriptedRolls, Step};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

fn faces(game: &DaemonDice, seat: u8) -> Vec<Option<Face>> {
    game.view(Viewer::Spectator).daemons[seat as usize]
        .dice
        .iter()
        .map(|d| d.face)
        .collect()
}

#[test]
fn scripted_rolls_fix_the_initiative_and_every_turn_without_consulting_chance() {
    // Seat 0 rolls two Pluses for initiative, then Pincer + Block, then Stun + Stun for ever;
    // seat 1 rolls Stuns for initiative and Blocks afterwards.
    let script = ScriptedRolls::new(vec![
        vec![vec![5, 5], vec![1, 3], vec![2]],
        vec![vec![2, 2], vec![3]],
    ]);
    let mut game = DaemonDice::scripted(&sized(2), 2, script).unwrap();
    for seat in [0, 1] {
        act(
            &mut game,
            seat,
            A::Pick {
                breed: Breed::Frost,
                part: Part::Pincer,
            },
        );
        act(
            &mut game,
            seat,
            A::Pick {
                breed: Breed::Frost,
                part: Part::Leg,
            },
        );
        // `act` rolls with a chance that holds no numbers: any roll not scripted would panic.
        act(&mut game, seat, A::Ready { breed: None });
    }
    let initiative = view(&game).initiative.expect("rolled");
    assert_eq!(initiative.winner, 0, "two Pluses beat two Stuns");
    assert_eq!(
        initiative.rolls[0].faces[1],
        Some(vec![Face::Stun, Face::Stun])
    );
    assert_eq!(view(&game).active, Some(0));
    assert_eq!(faces(&game, 0), vec![Some(Face::Pincer), Some(Face::Block)]);

    act(&mut game, 0, A::Done);
    assert_eq!(step(&game), Step::Defend);
    assert_eq!(faces(&game, 1), vec![Some(Face::Block), Some(Face::Block)]);
    act(&mut game, 1, A::Defend { attack: 0, die: 0 });
    act(&mut game, 1, A::Done);
    act(&mut game, 1, A::Done);

    // Seat 0's last pattern (a single Stun) repeats for every die and every later roll.
    assert_eq!(faces(&game, 0), vec![Some(Face::Stun), Some(Face::Stun)]);
}

#[test]
#[should_panic(expected = "each 1 to 6")]
fn a_scripted_roll_outside_one_to_six_is_a_mistake_in_the_test() {
    ScriptedRolls::new(vec![vec![vec![0]]]);
}
