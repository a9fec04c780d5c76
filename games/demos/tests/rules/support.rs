//! Rigged tables for the rule tests: packs built so each player ends a round with an exact
//! hand, and a driver that plays the routine steps.

#![allow(dead_code)]

use pandemonium_demos::{
    Card, Demos, DemosAction, DemosConfig, DemosView, Figure, Mode, Phase, Rigging, Take,
};
use pandemonium_game_contract::{Game, Seat, SeededChance, Viewer};

pub fn cards(names: &str) -> Vec<Card> {
    Card::list(names)
}

pub fn card(name: &str) -> Card {
    name.parse().unwrap()
}

pub fn figures(names: &str) -> Vec<Figure> {
    Figure::list(names)
}

pub fn config(mode: Mode) -> DemosConfig {
    DemosConfig {
        mode,
        ..DemosConfig::default()
    }
}

/// How a planned round is played: each player discards two junk cards in the Public and the
/// Secret (simplified) or Unanimous (complete) turn and receives the last two cards of their
/// final hand from the pack; in the complete game the Secret Discard is skipped.
#[derive(Debug, Clone)]
pub struct Plan {
    pub finals: Vec<Vec<Card>>,
    pub junk: Vec<[Card; 2]>,
    pub deck: Vec<Card>,
}

/// A People's Pack (top first) after which seat `p` holds `finals[p]` at the resolution.
pub fn plan(mode: Mode, dealer: Seat, finals: &[&str]) -> Plan {
    let seats = finals.len() as u8;
    let finals: Vec<Vec<Card>> = finals.iter().map(|f| cards(f)).collect();
    let used: Vec<Card> = finals.iter().flatten().copied().collect();
    for (i, c) in used.iter().enumerate() {
        assert!(!used[..i].contains(c), "{c} is planned twice");
    }
    let mut spare = Card::all()
        .filter(|c| mode != Mode::Simplified || c.rank() > 1)
        .filter(|c| !used.contains(c));
    let junk: Vec<[Card; 2]> = (0..seats)
        .map(|_| [spare.next().unwrap(), spare.next().unwrap()])
        .collect();
    let order: Vec<Seat> = (0..seats).map(|p| (dealer + 1 + p) % seats).collect();
    let dealt: Vec<Vec<Card>> = (0..seats as usize)
        .map(|s| {
            let f = &finals[s];
            vec![f[0], f[1], f[2], junk[s][0], junk[s][1]]
        })
        .collect();
    // Dealt one by one: the i-th card of each hand in dealing order, then the next.
    let mut deck: Vec<Card> = (0..5)
        .flat_map(|i| {
            order
                .iter()
                .map(|&s| dealt[s as usize][i])
                .collect::<Vec<_>>()
        })
        .collect();
    for &s in &order {
        deck.push(finals[s as usize][3]);
    }
    for &s in &order {
        deck.push(finals[s as usize][4]);
    }
    deck.extend(spare);
    Plan { finals, junk, deck }
}

pub fn apply(game: &mut Demos, seat: Seat, action: DemosAction) {
    let mut chance = SeededChance::from_u64(1);
    game.apply(seat, &action, &mut chance)
        .unwrap_or_else(|e| panic!("seat {seat}: {action:?} refused: {e}"));
}

pub fn omniscient(game: &Demos) -> DemosView {
    game.view(Viewer::Omniscient)
}

pub fn seat_view(game: &Demos, seat: Seat) -> DemosView {
    game.view(Viewer::Seat(seat))
}

pub fn phase(game: &Demos) -> Phase {
    omniscient(game).phase
}

pub fn hand(game: &Demos, seat: Seat) -> Vec<Card> {
    omniscient(game).players[seat as usize]
        .hand
        .clone()
        .unwrap()
}

/// Every seat to act answers the team consultation.
pub fn consult(game: &mut Demos) {
    while phase(game) == Phase::Consultation {
        let seat = game.to_act().iter().next().unwrap();
        apply(game, seat, DemosAction::Proceed);
    }
}

/// Everyone asked in the veto poll passes, until the poll is over.
pub fn pass_poll(game: &mut Demos) {
    while let Phase::VetoPoll { .. } = phase(game) {
        let seat = game.to_act().iter().next().unwrap();
        apply(game, seat, DemosAction::Pass);
    }
}

/// Plays a planned round from its Public Discard to its resolution (the veto poll passes).
pub fn play_discards(game: &mut Demos, plan: &Plan) {
    consult(game);
    let mode = omniscient(game).mode;
    assert_eq!(phase(game), Phase::PublicDiscard);
    while phase(game) == Phase::PublicDiscard {
        let seat = game.to_act().iter().next().unwrap();
        apply(
            game,
            seat,
            DemosAction::PublicDiscard {
                card: plan.junk[seat as usize][0],
            },
        );
    }
    while phase(game) == Phase::SecretDiscard {
        let seat = game.to_act().iter().next().unwrap();
        let action = if mode == Mode::Simplified {
            DemosAction::SecretDiscard {
                card: plan.junk[seat as usize][1],
                take: Take::Pack,
            }
        } else {
            DemosAction::KeepHand
        };
        apply(game, seat, action);
    }
    pass_poll(game);
    while phase(game) == Phase::UnanimousDiscard {
        let seat = game.to_act().iter().next().unwrap();
        apply(
            game,
            seat,
            DemosAction::UnanimousDiscard {
                card: plan.junk[seat as usize][1],
                take: Take::Pack,
            },
        );
    }
}

/// Plays a planned round through, allocations at their defaults.
pub fn play_round(game: &mut Demos, plan: &Plan) {
    play_discards(game, plan);
    allocate_defaults(game);
}

pub fn allocate_defaults(game: &mut Demos) {
    while let Phase::Allocation { .. } = phase(game) {
        let seat = game.to_act().iter().next().unwrap();
        let action = game.default_action(seat).unwrap();
        apply(game, seat, action);
    }
}

/// A rigged match of the planned rounds (dealers rotating from `dealer`).
pub fn rigged(
    mode: Mode,
    dealer: Seat,
    rounds: &[&[&str]],
    power_pile: &str,
) -> (Demos, Vec<Plan>) {
    rigged_with(config(mode), dealer, rounds, power_pile, |_| {})
}

pub fn rigged_with(
    config: DemosConfig,
    dealer: Seat,
    rounds: &[&[&str]],
    power_pile: &str,
    adjust: impl FnOnce(&mut Rigging),
) -> (Demos, Vec<Plan>) {
    let seats = rounds[0].len() as u8;
    let plans: Vec<Plan> = rounds
        .iter()
        .enumerate()
        .map(|(r, finals)| plan(config.mode, (dealer + r as u8) % seats, finals))
        .collect();
    let mut rigging = Rigging {
        dealer,
        decks: plans.iter().map(|p| p.deck.clone()).collect(),
        power_pile: figures(power_pile),
        ..Rigging::default()
    };
    adjust(&mut rigging);
    let game = Demos::from_rigging(&config, seats, rigging).expect("a valid rigging");
    (game, plans)
}

/// Hands with no sequence and no square, for players who should forfeit.
pub const FORFEIT: [&str; 5] = [
    "1S 3H 5D 7C 9S",
    "1H 3D 5C 7S 9H",
    "1D 3C 5S 7H 9D",
    "1C 3S 5H 7D 9C",
    "10S 10H 2D 4C 6S",
];

/// The same without aces, for the simplified game.
pub const FORFEIT_NO_ACES: [&str; 4] = [
    "2S 4H 6D 8C 10S",
    "2H 4D 6C 8S 10H",
    "2D 4C 6S 8H 10D",
    "2C 4S 6H 8D 10C",
];
