//! Daemon construction (secret, simultaneous, each builder saying when it is ready, revealed
//! when everyone is) and the
//! initiative roll that decides who starts and whose minuses count against the first turn.

use pandemonium_game_contract::{Chance, ConfigError, Game, Seat};

use crate::actions::{DaemonAction, DaemonError};
use crate::breeds::{classify, declaration_needed};
use crate::config::DaemonDiceConfig;
use crate::dice::{Breed, Die, Face, Part};
use crate::state::{Array, Daemon, DaemonDice, DieState, Initiative, InitiativeRoll, Step};

/// Rolls before the coin decides a tie.
const INITIATIVE_ROLLS: usize = 3;

impl DaemonDice {
    pub(crate) fn setup(config: &DaemonDiceConfig, seats: u8) -> Result<DaemonDice, ConfigError> {
        ConfigError::check_seats(&DaemonDice::info(), seats)?;
        config.validate()?;
        Ok(DaemonDice {
            config: config.clone(),
            seats,
            daemons: (0..seats).map(|_| Daemon::new()).collect(),
            step: Step::Construction,
            turn: 0,
            active: 0,
            pending: None,
            array: None,
            initiative: None,
            defeated: Vec::new(),
            outcome: None,
            script: None,
        })
    }

    pub(crate) fn check_construction(
        &self,
        seat: Seat,
        action: &DaemonAction,
    ) -> Result<(), DaemonError> {
        let daemon = self.daemon(seat);
        let size = self.config.size as usize;
        match *action {
            DaemonAction::Pick { breed, part } => {
                if daemon.picks.len() >= size {
                    return Err(DaemonError::DaemonComplete);
                }
                let copies = daemon
                    .picks
                    .iter()
                    .filter(|d| d.breed == breed && d.part == part)
                    .count();
                if self.config.max_copies > 0 && copies >= self.config.max_copies as usize {
                    return Err(DaemonError::TooManyCopies);
                }
                Ok(())
            }
            DaemonAction::Ready { breed } => {
                if daemon.picks.len() < size {
                    return Err(DaemonError::DaemonIncomplete);
                }
                match (declaration_needed(&daemon.picks), breed) {
                    (None, None) => Ok(()),
                    (Some(pair), Some(breed)) if pair.contains(&breed) => Ok(()),
                    (Some(_), None) => Err(DaemonError::BreedUndeclared),
                    (_, Some(_)) => Err(DaemonError::NotYourBreed),
                }
            }
            _ => Err(DaemonError::WrongStep),
        }
    }

    pub(crate) fn perform_construction(
        &mut self,
        seat: Seat,
        action: &DaemonAction,
        chance: &mut dyn Chance,
    ) {
        let daemon = self.daemon_mut(seat);
        match *action {
            DaemonAction::Pick { breed, part } => daemon.picks.push(Die::new(breed, part)),
            // Readiness is public, so it waits for this explicit step from every builder:
            // were it set by the last pick, a daemon still owing a declaration would stand out
            // as half-and-half.
            DaemonAction::Ready { breed } => {
                daemon.declared = breed;
                daemon.ready = true;
            }
            _ => unreachable!("checked"),
        }
        if self.daemons.iter().all(|d| d.ready) {
            self.reveal(chance);
        }
    }

    /// The default pick: the parts in rulebook order, all of the first breed; then ready, an
    /// exact half-and-half daemon declaring the first of its two breeds.
    pub(crate) fn default_pick(&self, seat: Seat) -> DaemonAction {
        let daemon = self.daemon(seat);
        if daemon.picks.len() == self.config.size as usize {
            return DaemonAction::Ready {
                breed: declaration_needed(&daemon.picks).map(|pair| pair[0]),
            };
        }
        let part = Part::ALL[daemon.picks.len() % Part::ALL.len()];
        (0..Breed::ALL.len())
            .map(|b| DaemonAction::Pick {
                breed: Breed::ALL[b],
                part,
            })
            .find(|a| self.check_construction(seat, a).is_ok())
            .unwrap_or(DaemonAction::Pick {
                breed: Breed::Blood,
                part,
            })
    }

    /// Everyone is ready: the daemons are revealed together and initiative is rolled.
    pub(crate) fn reveal(&mut self, chance: &mut dyn Chance) {
        for daemon in &mut self.daemons {
            daemon.dice = daemon.picks.clone();
            daemon.state = vec![DieState::FRESH; daemon.dice.len()];
            daemon.lineage = classify(&daemon.dice, daemon.declared);
        }
        self.roll_initiative(chance);
    }

    fn initiative_roll(&mut self, seat: Seat, chance: &mut dyn Chance) -> Vec<Face> {
        let script = self.scripted_roll(seat);
        self.daemon(seat)
            .dice
            .iter()
            .enumerate()
            .map(|(i, die)| die.face(script.as_ref().map_or_else(|| chance.d6(), |s| s.d6(i))))
            .collect()
    }

    /// Everyone rolls; the highest total starts. Only the tied leaders roll again, and only
    /// their new totals compete, up to three rolls in all; then a coin decides among those
    /// tied in the last roll (proposal 14). The loser's minuses (in multiplayer, those of the
    /// non-starter with the most, ties drawn at random) count against the first turn, each
    /// daemon's minuses read from its own last roll.
    fn roll_initiative(&mut self, chance: &mut dyn Chance) {
        let lungs = self.config.lungs_initiative;
        let seats = self.seats as usize;
        let mut latest: Vec<Vec<Face>> = vec![Vec::new(); seats];
        let mut totals = vec![0u32; seats];
        let mut rolling: Vec<Seat> = (0..self.seats).collect();
        let mut rolls = Vec::new();
        let mut coin = false;
        let winner = loop {
            let mut roll = InitiativeRoll {
                faces: vec![None; seats],
                totals: vec![None; seats],
            };
            for &seat in &rolling {
                let faces = self.initiative_roll(seat, chance);
                let total = faces.iter().map(|f| f.initiative(lungs)).sum();
                totals[seat as usize] = total;
                roll.faces[seat as usize] = Some(faces.clone());
                roll.totals[seat as usize] = Some(total);
                latest[seat as usize] = faces;
            }
            rolls.push(roll);
            // Only this roll's new totals compete: a seat that dropped out of the running
            // keeps its old total (for its minuses) but can no longer start.
            let best = rolling
                .iter()
                .map(|&s| totals[s as usize])
                .max()
                .expect("at least two seats roll");
            let tied: Vec<Seat> = rolling
                .iter()
                .copied()
                .filter(|&s| totals[s as usize] == best)
                .collect();
            if tied.len() == 1 {
                break tied[0];
            }
            if rolls.len() == INITIATIVE_ROLLS {
                coin = true;
                break tied[chance.below(tied.len() as u32) as usize];
            }
            rolling = tied;
        };

        let minus_count = |faces: &[Face]| -> u32 {
            faces
                .iter()
                .map(|f| f.minuses() as u32 + (*f == Face::Wings) as u32)
                .sum()
        };
        let others: Vec<Seat> = (0..self.seats).filter(|&s| s != winner).collect();
        let most = others
            .iter()
            .map(|&s| minus_count(&latest[s as usize]))
            .max()
            .unwrap_or(0);
        let candidates: Vec<Seat> = others
            .into_iter()
            .filter(|&s| minus_count(&latest[s as usize]) == most)
            .collect();
        let minuses_from = match candidates.len() {
            _ if most == 0 => None,
            1 => Some(candidates[0]),
            n => Some(candidates[chance.below(n as u32) as usize]),
        };
        let pending = minuses_from.map(|loser| {
            let mut array = Array::new(loser, winner);
            for (die, &face) in latest[loser as usize].iter().enumerate() {
                if face.minuses() > 0 {
                    array.minuses.push((die as u8, face));
                } else if face == Face::Wings {
                    array.wings.push(die as u8);
                }
            }
            array
        });
        self.initiative = Some(Initiative {
            rolls,
            coin,
            winner,
            minuses_from,
        });
        self.begin_turn(winner, pending, chance);
    }
}
