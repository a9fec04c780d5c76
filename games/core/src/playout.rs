//! Random play, for benchmarks: at every step a random seat of those to act plays a random
//! legal action, all drawn from one seeded [`SeededChance`] (the same one the game draws from),
//! so a seed always plays the same match.

use crate::{Chance, Game, Seat, SeededChance};

/// One random step: a seat to act and one of its legal actions. `None` once the match is over.
fn random_step<G: Game>(game: &G, chance: &mut SeededChance) -> Option<(Seat, G::Action)> {
    let to_act: Vec<Seat> = game.to_act().iter().collect();
    if to_act.is_empty() {
        return None;
    }
    let seat = to_act[chance.below(to_act.len() as u32) as usize];
    let legal = game.legal_actions(seat);
    let action = legal[chance.below(legal.len() as u32) as usize].clone();
    Some((seat, action))
}

/// Plays a whole random match with `seats` seats from `seed`; returns how many moves it took.
pub fn random_playout<G: Game>(config: &G::Config, seats: u8, seed: u64) -> usize {
    let mut chance = SeededChance::from_u64(seed);
    let mut game = G::new(config, seats, &mut chance).expect("a valid config");
    let mut moves = 0;
    while game.outcome().is_none() {
        let (seat, action) = random_step(&game, &mut chance).expect("someone acts");
        game.apply(seat, &action, &mut chance)
            .expect("a legal action");
        moves += 1;
    }
    moves
}

/// Every position of one random match, with the seat that moved from it and its move.
pub fn positions<G: Game>(config: &G::Config, seats: u8, seed: u64) -> Vec<(G, Seat, G::Action)> {
    let mut chance = SeededChance::from_u64(seed);
    let mut game = G::new(config, seats, &mut chance).expect("a valid config");
    let mut out = Vec::new();
    while game.outcome().is_none() {
        let (seat, action) = random_step(&game, &mut chance).expect("someone acts");
        out.push((game.clone(), seat, action.clone()));
        game.apply(seat, &action, &mut chance)
            .expect("a legal action");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::TwentyOne;

    #[test]
    fn a_seed_always_plays_the_same_match_and_positions_replay_it() {
        let config = Default::default();
        let moves = random_playout::<TwentyOne>(&config, 2, 9);
        assert_eq!(moves, random_playout::<TwentyOne>(&config, 2, 9));
        let positions = positions::<TwentyOne>(&config, 2, 9);
        assert_eq!(positions.len(), moves);
        let dealt = TwentyOne::new(&config, 2, &mut SeededChance::from_u64(9)).unwrap();
        assert_eq!(
            positions[0].0, dealt,
            "the first position is the deal of that seed"
        );
    }
}
