//! Beginning the game: the deal, the secret setup choice revealed together (proposal 4), any
//! Joker discarded by it (proposal 6) and who goes first (proposal 5).

use pandemonium_game_contract::{Chance, ConfigError, Game, Seat, shuffle};

use crate::cards::Card;
use crate::config::DemonBoundConfig;
use crate::log::Event;
use crate::state::{DemonBound, HAND, Player, SetupChoice, Step};

impl DemonBound {
    /// An empty table: no cards anywhere yet.
    pub(crate) fn blank(config: &DemonBoundConfig, seats: u8) -> Result<DemonBound, ConfigError> {
        ConfigError::check_seats(&DemonBound::info(), seats)?;
        config.validate()?;
        Ok(DemonBound {
            config: config.clone(),
            seats,
            draw: Vec::new(),
            discard: Vec::new(),
            players: (0..seats).map(|_| Player::new()).collect(),
            turn: 0,
            first: 0,
            rounds: 0,
            reshuffles: 0,
            step: Step::Setup,
            pending: Vec::new(),
            turn_start: Vec::new(),
            active: None,
            eliminated: 0,
            log: Vec::new(),
            logged: 0,
            ending: None,
            outcome: None,
        })
    }

    /// A shuffled deck, six cards each, one card turned up to start the discard pile (a Joker
    /// turned up there does nothing: nobody discarded it).
    pub(crate) fn shuffled(
        config: &DemonBoundConfig,
        seats: u8,
        chance: &mut dyn Chance,
    ) -> Result<DemonBound, ConfigError> {
        let mut game = DemonBound::blank(config, seats)?;
        let mut deck = Card::deck(config.jokers, config.marcus_king);
        shuffle(&mut deck, chance);
        game.draw = deck;
        for _ in 0..HAND {
            for seat in 0..seats {
                let card = game.draw.pop().expect("the deck covers four hands");
                game.player_mut(seat).hand.push(card);
            }
        }
        let up = game.draw.pop().expect("cards remain after the deal");
        game.discard.push(up);
        Ok(game)
    }

    /// Records `seat`'s secret setup choice; once everyone has chosen, all are revealed.
    pub(crate) fn commit(&mut self, seat: Seat, choice: SetupChoice, chance: &mut dyn Chance) {
        self.player_mut(seat).commit = Some(choice);
        if self.players.iter().all(|p| p.commit.is_some()) {
            self.reveal(chance);
        }
    }

    /// The reveal: sacrifices go before their players, random discards to the discard pile
    /// (chosen uniformly from the player's own hand); then any Joker so discarded opens
    /// Hell's Maw, and the high sacrifice goes first.
    fn reveal(&mut self, chance: &mut dyn Chance) {
        let mut maws: Vec<(Seat, Card)> = Vec::new();
        for seat in 0..self.seats {
            let choice = self.player_mut(seat).commit.take().expect("everyone chose");
            let (sacrifice, discarded) = match choice {
                SetupChoice::Sacrifice { card } => {
                    let player = self.player_mut(seat);
                    player.take(card);
                    player.sacrifice.push(card);
                    (Some(card), None)
                }
                SetupChoice::Discard => {
                    let hand = &mut self.player_mut(seat).hand;
                    let card = hand.remove(chance.below(hand.len() as u32) as usize);
                    self.discard.push(card);
                    if card.is_maw() {
                        maws.push((seat, card));
                    }
                    (None, Some(card))
                }
            };
            self.record(Event::SetupRevealed {
                seat,
                sacrifice,
                discarded,
            });
        }
        for (seat, card) in maws {
            self.hells_maw(Some(seat), card, chance);
        }
        let best = (0..self.seats)
            .map(|s| self.player(s).sacrifice_total())
            .max()
            .unwrap_or(0);
        let tied: Vec<Seat> = (0..self.seats)
            .filter(|&s| self.player(s).sacrifice_total() == best)
            .collect();
        let first = if tied.len() == 1 {
            tied[0]
        } else {
            tied[chance.below(tied.len() as u32) as usize]
        };
        self.record(Event::FirstPlayer {
            seat: first,
            by_lot: tied.len() > 1 && self.seats > 1,
        });
        self.first = first;
        self.begin_turn(first, chance);
    }
}
