//! Who sits where, and whether they are here.

use tokio::time::Instant;

use crate::identity::Player;
use pandemonium_protocol::{BotPace, Presence};

#[derive(Debug, Clone, Default)]
pub struct SeatState {
    /// The person who holds the seat (kept while they are away, so they can come back).
    pub player: Option<Player>,
    /// A bot seat from the start.
    pub bot: bool,
    /// How quickly this seat's bot acts.
    pub pace: BotPace,
    pub ready: bool,
    /// Open connections of the seat's player in this room.
    pub online: u32,
    /// When the player's last connection went; the grace period runs from here.
    pub away_since: Option<Instant>,
    /// A bot is playing for a player who is away (or left mid-match) until they return.
    pub covered: bool,
}

impl SeatState {
    pub fn presence(&self) -> Presence {
        if self.bot || self.covered {
            Presence::Bot
        } else if self.player.is_none() {
            Presence::Empty
        } else if self.online > 0 {
            Presence::Online
        } else {
            Presence::Reconnecting
        }
    }

    /// Whether the room's bot decides for this seat.
    pub fn bot_plays(&self) -> bool {
        self.bot || self.covered
    }

    pub fn is_filled(&self) -> bool {
        self.bot || self.player.is_some()
    }

    pub fn holds(&self, player_id: &str) -> bool {
        self.player.as_ref().is_some_and(|p| p.id == player_id)
    }

    pub fn connect(&mut self) {
        self.online += 1;
        self.away_since = None;
        self.covered = false;
    }

    pub fn disconnect(&mut self, now: Instant) {
        self.online = self.online.saturating_sub(1);
        if self.online == 0 {
            self.away_since = Some(now);
        }
    }

    pub fn clear(&mut self) {
        *self = SeatState::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player() -> Player {
        Player {
            id: "p".into(),
            name: "Lilith".into(),
        }
    }

    #[test]
    fn presence_follows_connections_and_bot_cover() {
        let mut seat = SeatState::default();
        assert_eq!(seat.presence(), Presence::Empty);
        seat.player = Some(player());
        seat.connect();
        assert_eq!(seat.presence(), Presence::Online);
        seat.disconnect(Instant::now());
        assert_eq!(seat.presence(), Presence::Reconnecting);
        seat.covered = true;
        assert_eq!(seat.presence(), Presence::Bot);
        seat.connect();
        assert_eq!(
            seat.presence(),
            Presence::Online,
            "a returning player takes the seat back"
        );
    }
}
