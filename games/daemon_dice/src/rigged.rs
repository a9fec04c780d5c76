//! Rigged battles for tests: daemons set up directly (skipping construction and initiative),
//! dice already stunned, wounded or grabbed, and the first turn begun. Rolls still come from
//! the `Chance` the test passes, so tests script them.

use pandemonium_game_contract::{Chance, ConfigError, Seat};

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
            script: None,
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

/// Fixed rolls for a whole battle, for tests that cannot script a `Chance` call by call (a
/// browser test playing the bot through the server). Each time a seat rolls — for initiative
/// or in its turn — it takes its next pattern, the last one repeating for ever; die `i` then
/// shows the face at `pattern[i % len]` (1 to 6, counted along the die's faces in the house
/// table, so 1 is its body part). A seat without patterns rolls with the `Chance`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedRolls {
    patterns: Vec<Vec<Vec<u8>>>,
    taken: Vec<usize>,
}

/// One roll's d6 results, die by die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern(Vec<u8>);

impl Pattern {
    pub(crate) fn d6(&self, die: usize) -> u8 {
        self.0[die % self.0.len()]
    }
}

impl ScriptedRolls {
    /// `patterns[seat]` lists that seat's rolls in order.
    ///
    /// # Panics
    /// If a pattern is empty or holds a number outside 1 to 6: a mistake in a test's script.
    pub fn new(patterns: Vec<Vec<Vec<u8>>>) -> ScriptedRolls {
        for pattern in patterns.iter().flatten() {
            assert!(
                !pattern.is_empty() && pattern.iter().all(|d| (1..=6).contains(d)),
                "a scripted roll is one to six d6 results, each 1 to 6: {pattern:?}"
            );
        }
        let taken = vec![0; patterns.len()];
        ScriptedRolls { patterns, taken }
    }

    fn next(&mut self, seat: Seat) -> Option<Pattern> {
        let patterns = self.patterns.get(seat as usize).filter(|p| !p.is_empty())?;
        let taken = &mut self.taken[seat as usize];
        let pattern = patterns[(*taken).min(patterns.len() - 1)].clone();
        *taken += 1;
        Some(Pattern(pattern))
    }
}

impl DaemonDice {
    /// A battle (from construction on, as `Game::new` starts one) whose rolls follow
    /// `script` instead of the `Chance`.
    pub fn scripted(
        config: &DaemonDiceConfig,
        seats: u8,
        script: ScriptedRolls,
    ) -> Result<DaemonDice, ConfigError> {
        let mut game = DaemonDice::setup(config, seats)?;
        game.script = Some(script);
        Ok(game)
    }

    /// The scripted results of `seat`'s next roll, if the battle is scripted.
    pub(crate) fn scripted_roll(&mut self, seat: Seat) -> Option<Pattern> {
        self.script.as_mut().and_then(|s| s.next(seat))
    }
}
