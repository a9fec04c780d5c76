//! Rigged tables for tests: exact hands, piles and table cards, so no test depends on what a
//! seed happens to shuffle.

use pandemonium_game_contract::{ConfigError, Seat, SeededChance};

use crate::cards::Card;
use crate::config::DemonBoundConfig;
use crate::state::{DemonBound, Step};

/// A table set up exactly. Lists are per seat; a missing entry is empty (stain: 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rigging {
    pub hands: Vec<Vec<Card>>,
    /// The draw pile, top card first.
    pub draw: Vec<Card>,
    /// The discard pile, bottom card first.
    pub discard: Vec<Card>,
    pub sacrifices: Vec<Vec<Card>>,
    /// Demons before each player, in arrival order.
    pub threats: Vec<Vec<Card>>,
    pub bound: Vec<Vec<Card>>,
    pub treasuries: Vec<Vec<Card>>,
    pub stains: Vec<u8>,
    /// Whose turn begins (with its refresh from the rigged draw pile).
    pub turn: Seat,
    /// The seat that went first (rounds are counted from it); `None`: `turn`.
    pub first: Option<Seat>,
}

impl DemonBound {
    /// A match at the start of `rigging.turn`'s turn, the table set up as rigged.
    pub fn rigged(
        config: &DemonBoundConfig,
        seats: u8,
        rigging: Rigging,
    ) -> Result<DemonBound, ConfigError> {
        let mut game = DemonBound::table(config, seats, &rigging)?;
        if rigging.turn >= seats {
            return Err(ConfigError::option("rigging", "no such seat"));
        }
        game.first = rigging.first.unwrap_or(rigging.turn);
        // The refresh never reshuffles a rigged draw pile that covers it.
        game.begin_turn(rigging.turn, &mut SeededChance::from_u64(0));
        Ok(game)
    }

    /// A match at the secret setup choice, with the rigged hands and piles.
    pub fn rigged_setup(
        config: &DemonBoundConfig,
        seats: u8,
        rigging: Rigging,
    ) -> Result<DemonBound, ConfigError> {
        let mut game = DemonBound::table(config, seats, &rigging)?;
        game.step = Step::Setup;
        Ok(game)
    }

    fn table(
        config: &DemonBoundConfig,
        seats: u8,
        rigging: &Rigging,
    ) -> Result<DemonBound, ConfigError> {
        let mut game = DemonBound::blank(config, seats)?;
        let mut all: Vec<Card> = rigging.draw.clone();
        all.extend(&rigging.discard);
        for (s, player) in game.players.iter_mut().enumerate() {
            let get = |lists: &Vec<Vec<Card>>| lists.get(s).cloned().unwrap_or_default();
            player.hand = get(&rigging.hands);
            player.sacrifice = get(&rigging.sacrifices);
            player.threats = get(&rigging.threats);
            player.bound = get(&rigging.bound);
            player.treasury = get(&rigging.treasuries);
            player.stain = rigging.stains.get(s).copied().unwrap_or(1);
            for list in [
                &player.hand,
                &player.sacrifice,
                &player.threats,
                &player.bound,
                &player.treasury,
            ] {
                all.extend(list);
            }
        }
        let numbered: Vec<Card> = all.iter().copied().filter(|c| !c.is_maw()).collect();
        let mut distinct = numbered.clone();
        distinct.sort();
        distinct.dedup();
        if distinct.len() != numbered.len() {
            return Err(ConfigError::option(
                "rigging",
                "a card appears twice on the rigged table",
            ));
        }
        game.draw = rigging.draw.iter().rev().copied().collect();
        game.discard = rigging.discard.clone();
        Ok(game)
    }
}
