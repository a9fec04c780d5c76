//! Rigged battles for tests: daemons set up directly (skipping construction and initiative),
//! dice already stunned, wounded or grabbed, and the first turn begun. Rolls still come from
//! the `Chance` the test passes, so tests script them.

use pandemonium_game::{Chance, Seat};

use crate::breeds::classify;
use crate::config::DaemonDiceConfig;
use crate::dice::{Breed, Die};
use crate::state::{Array, Daemon, DaemonDice, DieRef, DieState, Health};

/// A battle set up by hand.
#[derive(Debug, Clone)]
pub struct Rigging {
    config: DaemonDiceConfig,
    daemons: Vec<Vec<Die>>,
    declared: Vec<Option<Breed>>,
    health: Vec<(Seat, u8, Health)>,
    grabs: Vec<(DieRef, DieRef)>,
    first: Seat,
    pending: Option<Array>,
}

impl Rigging {
    /// These daemons (the size is the first daemon's), seat 0 to start, nothing pending.
    pub fn new(daemons: Vec<Vec<Die>>) -> Rigging {
        let size = daemons.first().map_or(0, Vec::len) as u8;
        Rigging {
            config: DaemonDiceConfig {
                size,
                ..DaemonDiceConfig::default()
            },
            declared: vec![None; daemons.len()],
            daemons,
            health: Vec::new(),
            grabs: Vec::new(),
            first: 0,
            pending: None,
        }
    }

    pub fn config(mut self, config: DaemonDiceConfig) -> Rigging {
        self.config = config;
        self
    }

    pub fn declare(mut self, seat: Seat, breed: Breed) -> Rigging {
        self.declared[seat as usize] = Some(breed);
        self
    }

    pub fn stunned(mut self, seat: Seat, die: u8) -> Rigging {
        self.health.push((seat, die, Health::Stunned));
        self
    }

    pub fn wounded(mut self, seat: Seat, die: u8) -> Rigging {
        self.health.push((seat, die, Health::Wounded));
        self
    }

    /// `holder` (a Tentacle) holds `held`.
    pub fn grab(mut self, holder: (Seat, u8), held: (Seat, u8)) -> Rigging {
        let r = |(seat, die)| DieRef { seat, die };
        self.grabs.push((r(holder), r(held)));
        self
    }

    /// The daemon that takes the first turn.
    pub fn first(mut self, seat: Seat) -> Rigging {
        self.first = seat;
        self
    }

    /// Minuses already counting against the first turn (as if the initiative loser's).
    pub fn pending(mut self, array: Array) -> Rigging {
        self.pending = Some(array);
        self
    }

    /// Begins the first turn (rolling with `chance` if no decision comes first).
    pub fn start(self, chance: &mut dyn Chance) -> DaemonDice {
        let seats = self.daemons.len() as u8;
        let mut game = DaemonDice {
            config: self.config.clone(),
            seats,
            daemons: Vec::new(),
            step: crate::state::Step::Construction,
            turn: 0,
            active: self.first,
            pending: None,
            array: None,
            initiative: None,
            defeated: Vec::new(),
            outcome: None,
        };
        for (seat, dice) in self.daemons.into_iter().enumerate() {
            let mut daemon = Daemon::new();
            daemon.lineage = classify(&dice, self.declared[seat]);
            daemon.declared = self.declared[seat];
            daemon.picks = dice.clone();
            daemon.state = vec![DieState::FRESH; dice.len()];
            daemon.dice = dice;
            daemon.ready = true;
            game.daemons.push(daemon);
        }
        for (seat, die, health) in self.health {
            game.daemons[seat as usize].state[die as usize].health = health;
        }
        for (holder, held) in self.grabs {
            game.daemons[holder.seat as usize].state[holder.die as usize].holding = Some(held);
            game.daemons[held.seat as usize].state[held.die as usize].grabbed_by = Some(holder);
        }
        game.begin_turn(self.first, self.pending, chance);
        game
    }
}
