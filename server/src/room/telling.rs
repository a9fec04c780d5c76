//! Telling people: state frames (one per viewer class and version, serialised once and shared),
//! the recent history a reconnecting client resyncs from (its states made again from the
//! match's log), room snapshots, and the ordered delivery of frames to connections.

use std::collections::{HashMap, VecDeque};
use tokio::time::Instant;

use pandemonium_game_contract::{DynGame, SeededChance, Viewer};
use pandemonium_protocol::{Presence, RoomSnapshot, Seat, SeatInfo, SeatPlayer, ServerMsg};

use super::actor::{Room, Subscriber, seed_hash};
use super::deltas::{Patches, Told};
use super::wire::{self, OutlinedFrame};
use super::{ConnId, Frame, Listing, Outgoing};
use crate::store::StoredSeat;

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

/// The viewer classes a version's state was made for, each with the deadline it carried.
type Deadlines = Vec<(Viewer, Option<u64>)>;

/// The match after `version` actions, and its RNG as it then stood.
#[derive(Debug)]
struct Checkpoint {
    version: u64,
    game: Box<dyn DynGame>,
    chance: SeededChance,
}

impl History {
    fn push(&mut self, version: u64, told: Deadlines) {
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
    fn since(&self, viewer: Viewer, version: u64) -> Option<Vec<(u64, Option<u64>)>> {
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

/// The `state` frame `viewer` is sent of `game` at `version`.
fn state_frame_of(
    game: &dyn DynGame,
    version: u64,
    viewer: Viewer,
    deadline_ms: Option<u64>,
) -> Frame {
    let seat = viewer.seat();
    let to_act: Vec<Seat> = game.to_act_seen_by(viewer).iter().collect();
    wire::state_frame(
        version,
        |out| game.write_view_json(viewer, out),
        &to_act,
        |out| match seat {
            Some(seat) => game.write_legal_json(seat, out),
            None => out.extend_from_slice(b"[]"),
        },
        deadline_ms,
        game.outcome().as_ref(),
    )
}

impl Room {
    pub(super) fn viewer_of(&self, conn: ConnId) -> Viewer {
        self.subscribers
            .get(&conn)
            .map_or(Viewer::Spectator, Subscriber::viewer)
    }

    /// How long the clock of `viewer`'s seat has left, as its state says.
    fn deadline_ms(&self, viewer: Viewer) -> Option<u64> {
        let now = Instant::now();
        self.clocks
            .deadline(viewer.seat())
            .map(|t| t.saturating_duration_since(now).as_millis() as u64)
    }

    fn state_frame(&self, viewer: Viewer) -> Frame {
        self.state_frame_told(viewer, self.deadline_ms(viewer))
    }

    fn state_frame_told(&self, viewer: Viewer, deadline_ms: Option<u64>) -> Frame {
        let current = self.phase.current().expect("a match");
        state_frame_of(
            current.game.as_ref(),
            current.version(),
            viewer,
            deadline_ms,
        )
    }

    /// The states `viewer` was told at the versions of `told` (in order, each with the
    /// deadline it carried), made again by replaying the match's log from the history's
    /// checkpoint, or from the start: `None` when they would come to more than
    /// [`HISTORY_BYTES`], or (never, engines being deterministic) when the log does not
    /// replay. Leaves a checkpoint at the oldest version kept, for the next rejoin.
    fn states_again(
        &mut self,
        viewer: Viewer,
        told: &[(u64, Option<u64>)],
    ) -> Option<Vec<(u64, Frame)>> {
        let (Some(&(first, _)), Some(&(last, _))) = (told.first(), told.last()) else {
            return Some(Vec::new());
        };
        let current = self.phase.current()?;
        let from = self
            .history
            .checkpoint
            .as_ref()
            .filter(|c| c.version <= first);
        let started = match from {
            Some(c) => Ok((c.game.boxed_clone(), c.chance.clone(), c.version)),
            None => super::replay::set_up(
                self.entry,
                &self.options,
                self.seats.len() as Seat,
                current.seed,
            )
            .map(|(game, chance)| (game, chance, 0)),
        };
        let keep = self.history.oldest().filter(|&oldest| oldest <= last);
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
        let replayed = started.and_then(|(mut game, mut chance, start)| {
            at(start, game.as_ref(), &chance);
            let actions = current.log[start as usize..last as usize]
                .iter()
                .map(|a| (a.seat, a.action()));
            super::replay::replay_from(
                game.as_mut(),
                &mut chance,
                start as usize,
                actions,
                |index, game, chance| at(index as u64, game, chance),
            )
        });
        if let Err(error) = replayed {
            self.in_span(
                || tracing::error!(%error, "a rejoin's missed states could not be made again"),
            );
            return None;
        }
        if checkpoint.is_some() {
            self.history.checkpoint = checkpoint;
        }
        (bytes <= HISTORY_BYTES).then_some(frames)
    }

    /// The new position to everyone: one frame per viewer class (every seat, and spectators
    /// when there are any), serialised once and shared by every subscriber who sees the same
    /// thing, and noted for resync. A connection that takes patches and was told the version
    /// before gets the class's patch instead, when it is smaller. Frames go out once the
    /// version is durable.
    ///
    /// Frames are made for the viewer classes someone is connected as. The history notes
    /// every seat's version (its player resyncs from it when they come back) and the
    /// spectators' only while someone watches (a spectator arriving later gets the current
    /// state whole).
    pub(super) fn broadcast_state(&mut self) {
        let version = self.version();
        let watched = self.audience() > 0;
        let told: Deadlines = (0..self.seats.len() as Seat)
            .map(Viewer::Seat)
            .chain(watched.then_some(Viewer::Spectator))
            .map(|viewer| (viewer, self.deadline_ms(viewer)))
            .collect();
        let mut frames: Vec<(Viewer, Frame)> = Vec::with_capacity(told.len());
        let mut patches: Vec<(Viewer, Patches, Frame)> = Vec::new();
        let mut bases: Vec<(Viewer, OutlinedFrame)> = Vec::new();
        // Who is connected as each viewer class, and who takes patches, of which kind (a
        // viewer class's connections may differ).
        let mut connected: Vec<Viewer> = Vec::with_capacity(told.len());
        let mut patched: Vec<(Viewer, Patches)> = Vec::new();
        for sub in self.subscribers.values() {
            let viewer = sub.viewer();
            if !connected.contains(&viewer) {
                connected.push(viewer);
            }
            let wanted = (viewer, sub.patches);
            if sub.patches.on() && !patched.contains(&wanted) {
                patched.push(wanted);
            }
        }
        for &(viewer, deadline_ms) in &told {
            if !connected.contains(&viewer) {
                continue;
            }
            let full = self.state_frame_told(viewer, deadline_ms);
            let kinds: Vec<Patches> = patched
                .iter()
                .filter(|(v, _)| *v == viewer)
                .map(|(_, kind)| *kind)
                .collect();
            if !kinds.is_empty() {
                let outlined = OutlinedFrame::new(full.clone());
                if let Some(base) = version
                    .checked_sub(1)
                    .and_then(|base| self.bases.at(viewer, base))
                {
                    for kind in kinds {
                        let patch =
                            wire::patch_frame(base, &outlined, kind == Patches::WithProducts);
                        if patch.len() < full.len() {
                            patches.push((viewer, kind, patch));
                        }
                    }
                }
                bases.push((viewer, outlined));
            }
            frames.push((viewer, full));
        }
        self.bases.replace(version, bases);
        let conns: Vec<(ConnId, Viewer)> = self
            .subscribers
            .iter()
            .map(|(&conn, sub)| (conn, sub.viewer()))
            .collect();
        for (conn, viewer) in conns {
            let Some(sub) = self.subscribers.get_mut(&conn) else {
                continue;
            };
            let on_base = version > 0
                && sub.told
                    == Some(Told {
                        viewer,
                        version: version - 1,
                    });
            sub.told = Some(Told { viewer, version });
            let patch = patches
                .iter()
                .find(|(v, kind, _)| on_base && *v == viewer && *kind == sub.patches);
            let frame = match patch {
                Some((_, _, patch)) => patch.clone(),
                None => match frames.iter().find(|(v, _)| *v == viewer) {
                    Some((_, full)) => full.clone(),
                    None => continue,
                },
            };
            self.send_after(version, conn, frame, None);
        }
        self.history.push(version, told);
    }

    /// Drops the frames kept for resync and the bases of patches.
    pub(super) fn forget_told(&mut self) {
        self.history.clear();
        self.bases.clear();
    }

    /// A connection (re)joining: the states it missed since `version` if the history still
    /// holds them all, otherwise the current state.
    pub(super) fn resync(&mut self, conn: ConnId, version: Option<u64>) {
        let Some(current) = self.phase.current() else {
            return;
        };
        let now = current.version();
        let viewer = self.viewer_of(conn);
        let missed = version
            .filter(|&v| v <= now)
            .and_then(|v| self.history.since(viewer, v))
            .and_then(|told| self.states_again(viewer, &told));
        let Some(sub) = self.subscribers.get_mut(&conn) else {
            return;
        };
        sub.told = Some(Told {
            viewer,
            version: now,
        });
        let patches = sub.patches;
        let frames = missed.unwrap_or_else(|| vec![(now, self.state_frame(viewer))]);
        if patches.on()
            && let Some((_, last)) = frames.last()
        {
            // The next version goes as a patch against exactly what this connection holds.
            self.bases.insert(now, viewer, last.clone());
        }
        for (version, frame) in frames {
            self.send_after(version, conn, frame, None);
        }
    }

    /// The room snapshot of whoever sits in `seat` (`None`: the watchers). The seat is all
    /// that sets one subscriber's snapshot apart from another's: `you`, `last_seq` and
    /// `team_chat_open` follow from it.
    fn snapshot_of(&self, seat: Option<Seat>) -> RoomSnapshot {
        let current = self.phase.current();
        let teams = match current {
            Some(m) => m.game.teams(),
            None => self.waiting_teams.clone(),
        };
        let now = Instant::now();
        let grace = self.grace();
        RoomSnapshot {
            code: self.code.clone(),
            game: self.game_id.clone(),
            options: self.options.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatInfo {
                    seat: i as Seat,
                    player: s.player.as_ref().map(|p| SeatPlayer {
                        id: p.id.clone(),
                        name: p.name.clone(),
                    }),
                    presence: s.presence(),
                    ready: s.ready,
                    team: teams.as_ref().and_then(|t| t.get(i).copied()),
                    pace: s.bot.then_some(s.pace),
                    away_ms: s
                        .away_since
                        .filter(|_| s.presence() == Presence::Reconnecting)
                        .map(|t| (t + grace).saturating_duration_since(now).as_millis() as u64),
                })
                .collect(),
            host: self.settings.host.clone(),
            status: self.phase.status(),
            spectators: self.spectator_count(),
            public: self.settings.public,
            you: seat,
            last_seq: seat.and_then(|seat| self.answers.highest(seat)),
            match_id: current.map(|m| m.id.clone()),
            seed_hash: current.map(|m| seed_hash(&m.seed)),
            team_chat_open: self
                .team_of(seat)
                .is_some_and(|t| current.is_some_and(|m| m.game.team_chat_open(t))),
            turn_seconds: self.settings.turn_seconds,
            grace_seconds: self.settings.grace_seconds,
            rematch: self.rematch_seats(),
            previous_match: self.previous_match.clone(),
        }
    }

    /// The room snapshot changed: every subscriber is sent it before the next frame anyone
    /// gets, or once the room has handled everything queued for it. Changes made together
    /// (four players joining, sitting down and saying ready at once) go out as one snapshot
    /// instead of one per change to every subscriber.
    pub(super) fn broadcast_room(&mut self) {
        self.room_changed = true;
    }

    /// Sends the room snapshot now if it changed since it last went out. The lobby's summary
    /// is brought up to date first, so whoever has seen a snapshot finds the room list agreeing
    /// with it. This is the only place it is, after the room opens: everything the summary
    /// lists (seats, names, host, status, spectators, public) is in the snapshot too, so no
    /// change to it goes without one. Bringing it up to date after every event instead read
    /// its strings, scattered over the heap, for each action and each commit: work on the
    /// action path for a list that changes only with the room.
    pub(super) fn tell_room_change(&mut self) {
        if std::mem::take(&mut self.room_changed) {
            self.update_summary();
            self.tell_room();
        }
    }

    /// Sends every subscriber the room snapshot. Subscribers who see the same snapshot (all
    /// spectators, say) share one frame, made once: a crowd of watchers costs one snapshot,
    /// not one each (each counting the crowd again).
    fn tell_room(&mut self) {
        let mut frames: HashMap<Option<Seat>, Frame> = HashMap::new();
        let conns: Vec<ConnId> = self.subscribers.keys().copied().collect();
        for conn in conns {
            // An earlier send may have dropped this subscriber as too slow.
            if !self.subscribers.contains_key(&conn) {
                continue;
            }
            let seat = self.subscribers[&conn].seat;
            let frame = frames
                .entry(seat)
                .or_insert_with(|| wire::frame(&ServerMsg::Room(self.snapshot_of(seat))))
                .clone();
            self.send(conn, frame);
        }
    }

    /// Sends one subscriber the room snapshot.
    pub(super) fn send_room(&mut self, conn: ConnId) {
        if self.room_changed {
            // The snapshot everyone is due includes this subscriber.
            self.tell_room_change();
            return;
        }
        let seat = self.subscribers[&conn].seat;
        let frame = wire::frame(&ServerMsg::Room(self.snapshot_of(seat)));
        self.send(conn, frame);
    }

    /// Queues a frame for one connection, behind anything still waiting for a commit.
    pub(super) fn send(&mut self, conn: ConnId, frame: Frame) {
        self.send_after(0, conn, frame, None);
    }

    /// Queues a frame that may go out only once version `after` is durable (and after
    /// everything queued before it). `ack_of` marks the ack of that act.
    pub(super) fn send_after(
        &mut self,
        after: u64,
        conn: ConnId,
        frame: Frame,
        ack_of: Option<u64>,
    ) {
        // Whatever follows a room change is sent after the snapshot that shows it.
        self.tell_room_change();
        if self.pipeline.clear_for(after) {
            self.deliver(conn, frame);
        } else {
            self.pipeline.hold(after, conn, frame, ack_of);
        }
    }

    /// Puts a frame in a connection's outbox; a full outbox drops the subscriber (it
    /// reconnects and resyncs).
    pub(super) fn deliver(&mut self, conn: ConnId, frame: Frame) {
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        if sub.outbox.try_send(Outgoing::Frame(frame)).is_err() {
            self.services
                .metrics
                .dropped_slow_clients
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.in_span(|| tracing::info!(conn, "dropping a slow or gone client"));
            // Dropping our sender ends the connection's outbox: it closes and the client
            // resyncs on reconnect. Presence is updated as for any departure.
            self.leave(conn);
        }
    }

    pub(super) fn close_all(&mut self, code: u16, reason: &'static str) {
        for sub in self.subscribers.values() {
            let _ = sub.outbox.try_send(Outgoing::Close(code, reason));
        }
        self.subscribers.clear();
    }

    fn spectator_count(&self) -> u32 {
        self.audience() as u32
    }

    /// Everyone in the room without a seat.
    pub(super) fn audience(&self) -> usize {
        self.subscribers
            .values()
            .filter(|s| s.seat.is_none())
            .count()
    }

    /// The summary's code, game and options. The first two never change and the options only
    /// when a match starts (the engine's complete form of what the host chose), so they are
    /// listed then, not compared after every event by [`Room::update_summary`].
    pub(super) fn list_options(&self) {
        let mut listing = self.listing.lock().expect("listing lock");
        let summary = &mut listing.summary;
        summary.code.clone_from(&self.code);
        summary.game.clone_from(&self.game_id);
        summary.options.clone_from(&self.options);
    }

    /// Brings the lobby's summary of this room up to date. It runs after every event the room
    /// handles (each action among them), and almost none changes what the lobby shows, so it
    /// writes only the fields that differ and allocates nothing when none does.
    pub(super) fn update_summary(&self) {
        let mut listing = self.listing.lock().expect("listing lock");
        let Listing {
            summary,
            host: host_id,
            seated,
        } = &mut *listing;
        if *host_id != self.settings.host {
            host_id.clone_from(&self.settings.host);
        }
        seated.resize(self.seats.len(), None);
        for (id, seat) in seated.iter_mut().zip(&self.seats) {
            let holder = seat.player.as_ref().map(|p| p.id.as_str());
            if id.as_deref() != holder {
                *id = holder.map(str::to_owned);
            }
        }
        summary.seats = self.seats.len() as u8;
        summary.seated = self.seats.iter().filter(|s| s.is_filled()).count() as u8;
        summary.status = self.phase.status();
        summary.spectators = self.spectator_count();
        summary.public = self.settings.public;
        let host = self
            .settings
            .host
            .as_ref()
            .and_then(|host| self.name_of(host).or(self.host_name.as_deref()));
        if summary.host.as_deref() != host {
            summary.host = host.map(str::to_owned);
        }
        summary.players.resize(self.seats.len(), None);
        for (i, (shown, seat)) in summary.players.iter_mut().zip(&self.seats).enumerate() {
            match (&seat.player, seat.bot) {
                (Some(p), _) => {
                    if shown.as_deref() != Some(p.name.as_str()) {
                        *shown = Some(p.name.clone());
                    }
                }
                (None, true) => {
                    if !shown.as_deref().is_some_and(|name| is_bot_name(name, i)) {
                        *shown = Some(bot_name(i));
                    }
                }
                (None, false) => *shown = None,
            }
        }
    }

    /// A person's display name, if they sit here or are in the room.
    fn name_of(&self, player_id: &str) -> Option<&str> {
        self.seats
            .iter()
            .filter_map(|s| s.player.as_ref())
            .chain(self.subscribers.values().map(|s| &s.player))
            .find(|p| p.id == player_id)
            .map(|p| p.name.as_str())
    }

    pub(super) fn stored_seats(&self) -> Vec<StoredSeat> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| StoredSeat {
                player_id: s.player.as_ref().map(|p| p.id.clone()),
                name: match (&s.player, s.bot) {
                    (Some(p), _) => p.name.clone(),
                    (None, _) => bot_name(i),
                },
                bot: s.bot,
            })
            .collect()
    }
}

/// How the lobby names the bot in seat `index` (counted from 0).
fn bot_name(index: usize) -> String {
    format!("Bot {}", index + 1)
}

/// Whether `name` is exactly [`bot_name`]`(index)`, without building that name.
fn is_bot_name(name: &str, index: usize) -> bool {
    name.strip_prefix("Bot ").is_some_and(|n| {
        !n.starts_with('0')
            && n.bytes().all(|b| b.is_ascii_digit())
            && n.parse::<usize>() == Ok(index + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_name_is_recognised_exactly() {
        for index in [0, 1, 7, 11] {
            assert!(is_bot_name(&bot_name(index), index));
        }
        assert!(!is_bot_name("Bot 2", 0));
        assert!(!is_bot_name("Bot 02", 1));
        assert!(!is_bot_name("Bot +2", 1));
        assert!(!is_bot_name("Bot", 0));
        assert!(!is_bot_name("Ada", 0));
    }

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
