//! Everyone connected to the room — players at their seats, players not yet seated, and
//! spectators — with each connection's outbox and what it was last told. Delivery never waits:
//! a full outbox means a slow or gone client, which the room then lets go (it reconnects and
//! resyncs).

use std::collections::HashMap;

use pandemonium_game_contract::Viewer;
use pandemonium_protocol::Seat;

use super::deltas::{Patches, Told};
use super::fanout::Recipient;
use super::{ConnId, Frame, Outbox, Outgoing};
use crate::identity::Player;

/// One connection in the room.
#[derive(Debug)]
pub(super) struct Subscriber {
    player: Player,
    /// The seat this connection plays, if any (a seated player who joined as a player).
    seat: Option<Seat>,
    /// Joined to watch, whatever seat the person holds.
    spectator: bool,
    outbox: Outbox,
    /// Whether the connection applies `patch` frames, and which operations.
    patches: Patches,
    /// The last state it was sent, which the next patch would apply to.
    told: Option<Told>,
}

impl Subscriber {
    pub fn new(
        player: Player,
        seat: Option<Seat>,
        spectator: bool,
        outbox: Outbox,
        patches: Patches,
    ) -> Self {
        Subscriber {
            player,
            seat,
            spectator,
            outbox,
            patches,
            told: None,
        }
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// Whether it joined to watch.
    pub fn spectator(&self) -> bool {
        self.spectator
    }

    /// Whose view this connection is sent: its seat's, or the spectators'.
    pub fn viewer(&self) -> Viewer {
        self.seat.map_or(Viewer::Spectator, Viewer::Seat)
    }

    pub fn patches(&self) -> Patches {
        self.patches
    }
}

/// What became of a frame handed to a connection.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Delivery {
    Queued,
    /// The connection is not in the room (any more).
    Gone,
    /// Its outbox is full: the client is too slow (or gone) and must be let go.
    TooSlow,
}

#[derive(Debug, Default)]
pub(super) struct Audience {
    subscribers: HashMap<ConnId, Subscriber>,
}

impl Audience {
    pub fn len(&self) -> usize {
        self.subscribers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.subscribers.is_empty()
    }

    pub fn contains(&self, conn: ConnId) -> bool {
        self.subscribers.contains_key(&conn)
    }

    pub fn get(&self, conn: ConnId) -> Option<&Subscriber> {
        self.subscribers.get(&conn)
    }

    pub fn add(&mut self, conn: ConnId, subscriber: Subscriber) {
        self.subscribers.insert(conn, subscriber);
    }

    pub fn remove(&mut self, conn: ConnId) -> Option<Subscriber> {
        self.subscribers.remove(&conn)
    }

    pub fn conns(&self) -> Vec<ConnId> {
        self.subscribers.keys().copied().collect()
    }

    /// The connections whose subscriber `pick` takes.
    pub fn conns_where(&self, pick: impl Fn(&Subscriber) -> bool) -> Vec<ConnId> {
        self.subscribers
            .iter()
            .filter(|(_, s)| pick(s))
            .map(|(&c, _)| c)
            .collect()
    }

    /// Whose view `conn` is sent (a stranger: the spectators').
    pub fn viewer_of(&self, conn: ConnId) -> Viewer {
        self.get(conn).map_or(Viewer::Spectator, Subscriber::viewer)
    }

    pub fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.get(conn).and_then(Subscriber::seat)
    }

    /// Everyone in the room without a seat.
    pub fn without_seat(&self) -> usize {
        self.subscribers
            .values()
            .filter(|s| s.seat.is_none())
            .count()
    }

    /// `player_id`'s person, if they are here.
    pub fn player(&self, player_id: &str) -> Option<&Player> {
        self.subscribers
            .values()
            .map(|s| &s.player)
            .find(|p| p.id == player_id)
    }

    /// How many connections `player_id` has here to play (not to watch).
    pub fn playing_connections(&self, player_id: &str) -> u32 {
        self.subscribers
            .values()
            .filter(|s| s.player.id == player_id && !s.spectator)
            .count() as u32
    }

    /// The person here to play who came in first, if any.
    pub fn earliest_player(&self) -> Option<&Player> {
        self.subscribers
            .iter()
            .filter(|(_, s)| !s.spectator)
            .min_by_key(|(conn, _)| **conn)
            .map(|(_, s)| &s.player)
    }

    /// `player_id` sat down in `seat`: every connection they have here to play plays it.
    pub fn sit(&mut self, player_id: &str, seat: Seat) {
        for sub in self.subscribers.values_mut() {
            if sub.player.id == player_id && !sub.spectator {
                sub.seat = Some(seat);
            }
        }
    }

    /// `seat` was freed: whoever played it from here now has none.
    pub fn unseat(&mut self, seat: Seat) {
        for sub in self.subscribers.values_mut() {
            if sub.seat == Some(seat) {
                sub.seat = None;
            }
        }
    }

    /// Every connection as the state fan-out needs it: whose view, whether it takes patches,
    /// and whether it holds exactly `viewer`'s state at `version - 1` (a patch applies to it).
    pub fn recipients(&self, version: u64) -> Vec<Recipient> {
        self.subscribers
            .iter()
            .map(|(&conn, sub)| {
                let viewer = sub.viewer();
                let on_base = version > 0
                    && sub.told
                        == Some(Told {
                            viewer,
                            version: version - 1,
                        });
                Recipient {
                    conn,
                    viewer,
                    patches: sub.patches,
                    on_base,
                }
            })
            .collect()
    }

    /// Every connection now holds its viewer's state at `version`.
    pub fn all_told(&mut self, version: u64) {
        for sub in self.subscribers.values_mut() {
            sub.told = Some(Told {
                viewer: sub.viewer(),
                version,
            });
        }
    }

    pub fn told(&mut self, conn: ConnId, told: Option<Told>) {
        if let Some(sub) = self.subscribers.get_mut(&conn) {
            sub.told = told;
        }
    }

    /// What connections were last told may never have gone out: whole states from here.
    pub fn forget_told(&mut self) {
        for sub in self.subscribers.values_mut() {
            sub.told = None;
        }
    }

    /// Puts a frame in `conn`'s outbox, without waiting.
    pub fn deliver(&self, conn: ConnId, frame: Frame) -> Delivery {
        match self.subscribers.get(&conn) {
            None => Delivery::Gone,
            Some(sub) => match sub.outbox.try_send(Outgoing::Frame(frame)) {
                Ok(()) => Delivery::Queued,
                Err(_) => Delivery::TooSlow,
            },
        }
    }

    /// Closes every connection with `code` and `reason`, and forgets them.
    pub fn close_all(&mut self, code: u16, reason: &'static str) {
        for sub in self.subscribers.values() {
            let _ = sub.outbox.try_send(Outgoing::Close(code, reason));
        }
        self.subscribers.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    fn person(id: &str) -> Player {
        Player {
            id: id.into(),
            name: id.into(),
        }
    }

    fn subscriber(
        id: &str,
        seat: Option<Seat>,
        spectator: bool,
    ) -> (Subscriber, mpsc::Receiver<Outgoing>) {
        let (tx, rx) = mpsc::channel(1);
        (
            Subscriber::new(person(id), seat, spectator, tx, Patches::Json),
            rx,
        )
    }

    #[test]
    fn a_full_outbox_is_a_client_too_slow_to_keep() {
        let mut audience = Audience::default();
        let (sub, _rx) = subscriber("ada", Some(0), false);
        audience.add(1, sub);
        assert_eq!(audience.deliver(1, "a".into()), Delivery::Queued);
        assert_eq!(audience.deliver(1, "b".into()), Delivery::TooSlow);
        assert_eq!(audience.deliver(2, "c".into()), Delivery::Gone);
    }

    #[test]
    fn sitting_down_seats_every_playing_connection_but_not_a_watching_one() {
        let mut audience = Audience::default();
        let (playing, _a) = subscriber("ada", None, false);
        let (watching, _b) = subscriber("ada", None, true);
        audience.add(1, playing);
        audience.add(2, watching);
        assert_eq!(audience.playing_connections("ada"), 1);
        audience.sit("ada", 3);
        assert_eq!(audience.seat_of(1), Some(3));
        assert_eq!(audience.seat_of(2), None);
        assert_eq!(audience.without_seat(), 1);
        audience.unseat(3);
        assert_eq!(audience.seat_of(1), None);
    }

    #[test]
    fn a_connection_is_on_the_patch_base_only_after_being_told_the_version_before() {
        let mut audience = Audience::default();
        let (sub, _rx) = subscriber("ada", Some(0), false);
        audience.add(1, sub);
        assert!(!audience.recipients(5)[0].on_base, "told nothing yet");
        audience.all_told(4);
        assert!(audience.recipients(5)[0].on_base);
        assert!(!audience.recipients(6)[0].on_base);
        audience.forget_told();
        assert!(!audience.recipients(5)[0].on_base);
    }
}
