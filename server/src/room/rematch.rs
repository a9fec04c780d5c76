//! Playing again at the same table: once a match is over, each seated person says whether they
//! want a rematch; seats a bot plays always do. When everyone has, the room starts a new match
//! with the same seats and options (spectators stay and watch it), linked to the one before.

use pandemonium_protocol::{ErrorCode, Seat};

use super::ConnId;
use super::actor::{Phase, Room, RoomRefusal};

impl Room {
    pub(super) async fn rematch(&mut self, conn: ConnId, accept: bool) -> Result<(), RoomRefusal> {
        let Phase::Finished(_) = &self.phase else {
            return Err(RoomRefusal::new(
                ErrorCode::MatchNotOver,
                "A rematch can be asked for once the match is over.",
            ));
        };
        let Some(seat) = self.subscribers.get(&conn).and_then(|s| s.seat) else {
            return Err(RoomRefusal::new(
                ErrorCode::NotSeated,
                "Only the players of this match can ask for a rematch; you are watching.",
            ));
        };
        self.rematch[seat as usize] = accept;
        if !self.start_rematch_if_agreed().await? {
            self.broadcast_room();
        }
        Ok(())
    }

    /// The seats that have accepted a rematch: their person said so, or a bot plays them.
    pub(super) fn rematch_seats(&self) -> Vec<Seat> {
        if !matches!(self.phase, Phase::Finished(_)) {
            return Vec::new();
        }
        (0..self.seats.len())
            .filter(|&i| self.rematch[i] || self.seats[i].bot_plays())
            .map(|i| i as Seat)
            .collect()
    }

    /// Starts the rematch when every seat has accepted and at least one person asked for it
    /// (a table left to bots does not play on by itself). Returns whether it started.
    pub(super) async fn start_rematch_if_agreed(&mut self) -> Result<bool, RoomRefusal> {
        let Phase::Finished(finished) = &self.phase else {
            return Ok(false);
        };
        let asked = self.rematch.iter().any(|&a| a);
        if !asked || self.rematch_seats().len() < self.seats.len() {
            return Ok(false);
        }
        let previous = finished.id.clone();
        // The finished match's last appends are told before the new match counts from zero.
        self.drain_commits().await;
        self.begin_match(Some(previous)).await?;
        Ok(true)
    }
}
