//! Re-dealing what a viewer cannot see, for the conformance harness's no-leak check: the hands
//! the viewer may not look at and the draw pile are shuffled together and dealt back in the
//! same sizes, and the secret setup choices of others are chosen afresh from their new hands.

use pandemonium_game_contract::{Chance, Seat, Viewer, shuffle};

use crate::cards::Suit;
use crate::state::{DemonBound, SetupChoice, Step};

impl DemonBound {
    pub(crate) fn redealt(&self, viewer: Viewer, chance: &mut dyn Chance) -> DemonBound {
        let mut game = self.clone();
        if self.sees_all(viewer) {
            return game;
        }
        let hidden: Vec<Seat> = (0..self.seats)
            .filter(|&s| !self.sees_hand(viewer, s))
            .collect();
        let mut pool = game.draw.clone();
        for &s in &hidden {
            pool.extend_from_slice(&game.player(s).hand);
        }
        shuffle(&mut pool, chance);
        let mut pool = pool.into_iter();
        for &s in &hidden {
            for card in game.player_mut(s).hand.iter_mut() {
                *card = pool.next().expect("as many cards as taken");
            }
        }
        for card in game.draw.iter_mut() {
            *card = pool.next().expect("as many cards as taken");
        }
        if game.step == Step::Setup {
            for &s in &hidden {
                let player = game.player_mut(s);
                if player.commit.is_some() {
                    let hearts: Vec<_> = player
                        .hand
                        .iter()
                        .copied()
                        .filter(|c| c.is_numbered_of(Suit::Hearts))
                        .collect();
                    let pick = chance.below(hearts.len() as u32 + 1) as usize;
                    player.commit = Some(match hearts.get(pick) {
                        Some(&card) => SetupChoice::Sacrifice { card },
                        None => SetupChoice::Discard,
                    });
                }
            }
        }
        game
    }
}
