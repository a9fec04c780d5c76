//! The recent history a reconnecting client resyncs from: which viewer classes were told a
//! state at each recent version, and the deadline each carried. The states themselves are
//! made again from the match's log when someone needs them.

use std::collections::VecDeque;

use pandemonium_game_contract::{DynGame, GameEntry, Seat, SeededChance, Viewer};

use super::Frame;
use super::fanout::{Deadlines, state_frame_of};
use super::phase::Match;
use super::replay::{self, ReplayError};

/// The versions a rejoining client may be sent one by one, and the bytes they may come to: a
/// client that missed more gets the current state instead.
const HISTORY_VERSIONS: usize = 64;
const HISTORY_BYTES: usize = 256 * 1024;

/// The most frames a room hands a connection at once when it joins: the room snapshot, every
/// kept version of the state (a rejoin that missed them all), the chat history, and a spare.
/// A connection's outbox has room for them beyond its own limit (`Limits::outbox_capacity`).
pub const JOIN_FRAMES: usize = HISTORY_VERSIONS + 3;

/// What the room told each viewer class at each recent version, beside the match itself:
/// which classes were sent a state (every seat; spectators while someone watched) and the
/// deadline each state carried. A rejoin's missed states are made again from the match's log
/// and these (engines are deterministic, so they are the states that went out) rather than
/// kept: kept, they filled their whole byte bound in every room in play and were most of a
/// busy server's memory (docs/performance.md, "Memory").
///
/// A rejoin replays from a checkpoint when it can: the match as it stood at the oldest version
/// kept when the last rejoin was made, so that however often a client rejoins, each costs at
/// most the versions since then, not the whole match again.
#[derive(Debug, Default)]
pub(super) struct History {
    versions: VecDeque<(u64, Deadlines)>,
    checkpoint: Option<Checkpoint>,
}

/// The match after `version` actions, and its RNG as it then stood.
#[derive(Debug)]
struct Checkpoint {
    version: u64,
    game: Box<dyn DynGame>,
    chance: SeededChance,
}

impl History {
    pub fn push(&mut self, version: u64, told: Deadlines) {
        // A version told again (after a rollback) replaces what was kept for it.
        self.forget_after(version.saturating_sub(1));
        if version == 0 {
            self.clear();
        }
        self.versions.push_back((version, told));
        if self.versions.len() > HISTORY_VERSIONS {
            self.versions.pop_front();
        }
    }

    /// The versions `viewer` was told after `version`, in order, each with the deadline its
    /// state carried, if every one of them is still here.
    pub fn since(&self, viewer: Viewer, version: u64) -> Option<Vec<(u64, Option<u64>)>> {
        let oldest = self.oldest()?;
        if version + 1 < oldest {
            return None;
        }
        self.versions
            .iter()
            .filter(|(v, _)| *v > version)
            .map(|(v, told)| {
                let (_, deadline_ms) = told.iter().find(|(w, _)| *w == viewer)?;
                Some((*v, *deadline_ms))
            })
            .collect()
    }

    /// The oldest version kept.
    fn oldest(&self) -> Option<u64> {
        self.versions.front().map(|(v, _)| *v)
    }

    /// Forgets the versions after `version` (rolled back): a checkpoint after it is of actions
    /// undone.
    pub fn forget_after(&mut self, version: u64) {
        while self.versions.back().is_some_and(|(v, _)| *v > version) {
            self.versions.pop_back();
        }
        if self
            .checkpoint
            .as_ref()
            .is_some_and(|c| c.version > version)
        {
            self.checkpoint = None;
        }
    }

    pub fn clear(&mut self) {
        self.versions.clear();
        self.checkpoint = None;
    }
}

impl History {
    /// The states `viewer` missed after `version`, in order: `None` when the history no
    /// longer holds every one of them, or they would come to more than [`HISTORY_BYTES`]
    /// (the client then gets the current state whole). They are made again by replaying
    /// `current`'s log from the checkpoint, or from the start, and a checkpoint is left at the
    /// oldest version kept, for the next rejoin. Fails (never, engines being deterministic)
    /// when the log does not replay.
    pub fn missed(
        &mut self,
        entry: &GameEntry,
        options: &serde_json::Value,
        seats: Seat,
        current: &Match,
        viewer: Viewer,
        version: u64,
    ) -> Result<Option<Vec<(u64, Frame)>>, ReplayError> {
        let Some(told) = self.since(viewer, version) else {
            return Ok(None);
        };
        let (Some(&(first, _)), Some(&(last, _))) = (told.first(), told.last()) else {
            return Ok(Some(Vec::new()));
        };
        let from = self.checkpoint.as_ref().filter(|c| c.version <= first);
        let started = match from {
            Some(c) => Ok((c.game.boxed_clone(), c.chance.clone(), c.version)),
            None => replay::set_up(entry, options, seats, current.seed)
                .map(|(game, chance)| (game, chance, 0)),
        };
        let keep = self.oldest().filter(|&oldest| oldest <= last);
        let mut checkpoint = None;
        let mut frames = Vec::with_capacity(told.len());
        let mut bytes = 0;
        let mut at = |version: u64, game: &dyn DynGame, chance: &SeededChance| {
            if keep == Some(version) {
                checkpoint = Some(Checkpoint {
                    version,
                    game: game.boxed_clone(),
                    chance: chance.clone(),
                });
            }
            if let Ok(i) = told.binary_search_by_key(&version, |(v, _)| *v)
                && bytes <= HISTORY_BYTES
            {
                let frame = state_frame_of(game, version, viewer, told[i].1);
                bytes += frame.len();
                frames.push((version, frame));
            }
        };
        started.and_then(|(mut game, mut chance, start)| {
            at(start, game.as_ref(), &chance);
            let actions = current.log[start as usize..last as usize]
                .iter()
                .map(|a| (a.seat, a.action()));
            replay::replay_from(
                game.as_mut(),
                &mut chance,
                start as usize,
                actions,
                |index, game, chance| at(index as u64, game, chance),
            )
        })?;
        if checkpoint.is_some() {
            self.checkpoint = checkpoint;
        }
        Ok((bytes <= HISTORY_BYTES).then_some(frames))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a version told seat 0 and the spectators: `deadline` as seat 0's deadline.
    fn told(deadline: u64) -> Deadlines {
        vec![(Viewer::Seat(0), Some(deadline)), (Viewer::Spectator, None)]
    }

    fn versions(missed: Option<Vec<(u64, Option<u64>)>>) -> Option<Vec<u64>> {
        missed.map(|told| told.into_iter().map(|(v, _)| v).collect())
    }

    #[test]
    fn a_rejoining_viewer_gets_exactly_what_it_missed_or_nothing_to_resume_from() {
        let mut history = History::default();
        for version in 0..=3 {
            history.push(version, told(version));
        }
        assert_eq!(
            versions(history.since(Viewer::Seat(0), 1)),
            Some(vec![2, 3])
        );
        assert_eq!(versions(history.since(Viewer::Spectator, 3)), Some(vec![]));
        assert_eq!(history.since(Viewer::Seat(1), 1), None, "never told");
        // Rolled back to version 1, then version 2 told again: it replaces the undone one.
        history.forget_after(1);
        history.push(2, told(20));
        assert_eq!(history.since(Viewer::Seat(0), 1), Some(vec![(2, Some(20))]));
        // Beyond what is kept: no states to resume from.
        for version in 3..200 {
            history.push(version, told(version));
        }
        assert_eq!(history.since(Viewer::Seat(0), 1), None);
        assert_eq!(
            versions(history.since(Viewer::Seat(0), 199 - HISTORY_VERSIONS as u64)),
            Some((200 - HISTORY_VERSIONS as u64..200).collect())
        );
    }

    fn checkpoint(version: u64) -> Checkpoint {
        use pandemonium_game_contract::fixture::TwentyOne;
        use pandemonium_game_contract::{Engine, Game, RandomBot};
        let mut chance = SeededChance::from_u64(7);
        let game = TwentyOne::new(&Default::default(), 1, &mut chance).expect("a table of one");
        Checkpoint {
            version,
            game: Engine::<TwentyOne, RandomBot>::boxed(game),
            chance,
        }
    }

    #[test]
    fn a_checkpoint_of_undone_or_ended_play_is_dropped() {
        let mut history = History::default();
        for version in 0..=5 {
            history.push(version, told(version));
        }
        history.checkpoint = Some(checkpoint(3));
        // Rolled back to version 4, then version 5 told again: the play before 4 stands.
        history.forget_after(4);
        history.push(5, told(5));
        assert_eq!(history.checkpoint.as_ref().map(|c| c.version), Some(3));
        // Rolled back past it: its play was undone.
        history.forget_after(2);
        assert!(history.checkpoint.is_none());
        // A new match.
        history.checkpoint = Some(checkpoint(1));
        history.push(0, told(0));
        assert!(history.checkpoint.is_none());
    }
}
