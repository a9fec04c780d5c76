//! The end of the match: the richest survivor wins (proposal 22: wealth is the sum of the
//! treasury's diamonds; a tie goes to fewer stain markers, then the win is shared). Survivors
//! are placed by wealth then stain, and those carried away to hell after them, the last out
//! first. Solitaire is won with at least 20 treasure.

use pandemonium_game_contract::{Outcome, Seat};

use crate::state::{DemonBound, Ending, SOLITAIRE_TARGET, Step};

impl DemonBound {
    pub(crate) fn finish(&mut self, ending: Ending) {
        self.step = Step::Over;
        self.pending.clear();
        self.ending = Some(ending);
        self.outcome = Some(self.result(ending));
    }

    fn result(&self, ending: Ending) -> Outcome {
        let scores: Vec<i64> = self.players.iter().map(|p| p.wealth() as i64).collect();
        if self.solitaire() {
            let wealth = self.player(0).wealth();
            let won = self.alive(0) && wealth >= SOLITAIRE_TARGET;
            let summary = match (ending, won) {
                (Ending::CarriedAway, _) => "Carried away to hell".to_string(),
                (_, true) => format!("Won with {wealth} treasure"),
                (_, false) => format!("Lost with {wealth} treasure (20 needed)"),
            };
            return Outcome {
                winners: if won { vec![0] } else { Vec::new() },
                placements: vec![1],
                scores,
                summary,
            };
        }
        // A survivor's rank key: more wealth first, then fewer stains.
        let key = |s: Seat| {
            let p = self.player(s);
            (std::cmp::Reverse(p.wealth()), p.stain)
        };
        let survivors: Vec<Seat> = (0..self.seats).filter(|&s| self.alive(s)).collect();
        let placements: Vec<u8> = (0..self.seats)
            .map(|s| match self.player(s).out {
                None => 1 + survivors.iter().filter(|&&o| key(o) < key(s)).count() as u8,
                Some(order) => {
                    let later = self
                        .players
                        .iter()
                        .filter(|p| p.out.is_some_and(|o| o > order))
                        .count();
                    1 + survivors.len() as u8 + later as u8
                }
            })
            .collect();
        let winners: Vec<Seat> = survivors
            .iter()
            .copied()
            .filter(|&s| placements[s as usize] == 1)
            .collect();
        let why = match ending {
            Ending::TreasuresClaimed => "All ten treasures are claimed",
            Ending::LastSurvivor => "Only one player remains",
            Ending::RoundCap => "The round cap is reached",
            Ending::ReshuffleCap => "The reshuffle cap is reached",
            Ending::DeckExhausted | Ending::CarriedAway => "The game is over",
        };
        let wealth = winners.first().map_or(0, |&w| self.player(w).wealth());
        let names: Vec<String> = winners.iter().map(|w| format!("seat {}", w + 1)).collect();
        let summary = if winners.len() == 1 {
            format!("{why}: {} wins with {wealth} treasure", names[0])
        } else {
            format!(
                "{why}: {} share the win with {wealth} treasure",
                names.join(" and ")
            )
        };
        Outcome {
            winners,
            placements,
            scores,
            summary,
        }
    }
}
