//! Bots: strategies that see exactly what a person in their seat would see.

use crate::{Chance, Game};

/// A strategy for game `G`. It is given its seat's view and the legal actions, nothing else;
/// all its randomness comes from the [`Chance`] the room passes in.
pub trait Bot<G: Game>: Send + Sync {
    fn choose(&self, view: &G::View, legal: &[G::Action], chance: &mut dyn Chance) -> G::Action;
}

/// Picks a legal action uniformly at random. Plays every game; the yardstick other bots beat.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn choose(&self, _view: &G::View, legal: &[G::Action], chance: &mut dyn Chance) -> G::Action {
        assert!(
            !legal.is_empty(),
            "a bot is only asked to act when it has a legal action"
        );
        legal[chance.below(legal.len() as u32) as usize].clone()
    }
}
