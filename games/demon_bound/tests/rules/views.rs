//! What each viewer sees (the rules page's "Hidden information").

use pandemonium_demon_bound::{DemonBoundAction as Act, Rigging};
use pandemonium_game_contract::{Game, Viewer};

use super::support::*;

fn game() -> pandemonium_demon_bound::DemonBound {
    table(
        3,
        Rigging {
            hands: lists(&[JUNK[0], JUNK[1], JUNK[2]]),
            sacrifices: lists(&["", "7H", ""]),
            threats: lists(&["", "", "9S"]),
            bound: lists(&["4S", "", ""]),
            treasuries: lists(&["", "", "5H"]),
            discard: cards("AH 2H"),
            turn: A,
            ..Rigging::default()
        },
    )
}

#[test]
fn a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() {
    let game = game();
    let view = game.view(Viewer::Seat(B));
    assert_eq!(view.players[B as usize].hand, Some(cards(JUNK[1])));
    assert_eq!(view.players[A as usize].hand, None);
    assert_eq!(view.players[A as usize].hand_size, 6);
    assert!(view.draw_pile > 0);
    assert_eq!(view.draw_pile, omniscient(&game).draw_pile);
}

#[test]
fn everyone_sees_the_whole_table_and_the_whole_discard_pile() {
    for viewer in [Viewer::Seat(A), Viewer::Seat(C), Viewer::Spectator] {
        let view = game().view(viewer);
        assert_eq!(view.players[B as usize].sacrifice, cards("7H"));
        assert_eq!(view.players[C as usize].threats, cards("9S"));
        assert_eq!(view.players[A as usize].bound, cards("4S"));
        assert_eq!(view.players[C as usize].stain, 1);
        assert_eq!(view.discard_pile, cards("AH 2H"));
    }
}

#[test]
fn spectators_see_the_table_only() {
    let view = game().view(Viewer::Spectator);
    assert!(view.players.iter().all(|p| p.hand.is_none()));
    assert!(view.peeks.is_empty() && view.my_setup.is_none());
    assert!(view.revealed_draw_pile.is_none());
}

#[test]
fn the_log_says_what_happened_in_order() {
    let mut game = game();
    apply(&mut game, A, Act::EndPlay);
    apply(&mut game, A, Act::Discard { cards: set("2C") });
    let log = omniscient(&game).log;
    use pandemonium_demon_bound::Event;
    assert_eq!(
        &log[..],
        &[
            Event::TurnBegan {
                seat: A,
                drew: 0,
                reshuffled: false
            },
            Event::Discarded {
                seat: A,
                cards: cards("2C")
            },
            Event::TurnBegan {
                seat: B,
                drew: 0,
                reshuffled: false
            },
        ]
    );
}
