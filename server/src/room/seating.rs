//! The table: who holds each seat, who hosts, who has accepted a rematch, and the teams the
//! options fix before the first match. The room asks; the seating checks what the table's
//! own state decides (a seat taken, a seat that does not exist, a host who is not the asker)
//! and changes itself. What depends on the match (may a seat still be taken?) the room decides.

use std::time::Duration;
use tokio::time::Instant;

use pandemonium_protocol::{BotPace, Presence, Seat, SeatInfo, SeatPlayer};

use super::refusal::Refusal;
use super::seats::SeatState;
use crate::identity::Player;
use crate::store::StoredSeat;

#[derive(Debug)]
pub(super) struct Seating {
    seats: Vec<SeatState>,
    /// The host's player id: who opened the room with their token, or claimed it by joining
    /// first, or was handed it.
    host: Option<String>,
    /// The host's name as the lobby had it when the room opened, or as they joined: shown
    /// until the host is in the room, where their current name is read.
    host_name: Option<String>,
    /// Per seat: whether its person has accepted a rematch of the finished match.
    rematch: Vec<bool>,
    /// Before the first match: the teams the options fix, if the game has teams and they are
    /// not drawn at the start.
    waiting_teams: Option<Vec<u8>>,
}

impl Seating {
    pub fn new(
        seats: Vec<SeatState>,
        host: Option<String>,
        host_name: Option<String>,
        waiting_teams: Option<Vec<u8>>,
    ) -> Self {
        let rematch = vec![false; seats.len()];
        Seating {
            seats,
            host,
            host_name,
            rematch,
            waiting_teams,
        }
    }

    pub fn len(&self) -> usize {
        self.seats.len()
    }

    pub fn seats(&self) -> &[SeatState] {
        &self.seats
    }

    /// The seat `player_id` holds, if any.
    pub fn seat_of(&self, player_id: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.holds(player_id))
            .map(|s| s as Seat)
    }

    /// Whether the room's bot decides for `seat`.
    pub fn bot_plays(&self, seat: Seat) -> bool {
        self.seats[seat as usize].bot_plays()
    }

    /// Per seat: the pace of the bot that plays it, if a bot does.
    pub fn bot_paces(&self) -> Vec<Option<BotPace>> {
        self.seats
            .iter()
            .map(|s| s.bot_plays().then_some(s.pace))
            .collect()
    }

    pub fn all_filled(&self) -> bool {
        self.seats.iter().all(SeatState::is_filled)
    }

    /// Whether someone seated other than `player_id` has not said they are ready (the host
    /// starts the match, so they never need to).
    pub fn anyone_unready_but(&self, player_id: &str) -> bool {
        self.seats
            .iter()
            .any(|s| s.player.as_ref().is_some_and(|p| p.id != player_id) && !s.ready)
    }

    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    pub fn host_name(&self) -> Option<&str> {
        self.host_name.as_deref()
    }

    pub fn require_host(&self, player: &Player) -> Result<(), Refusal> {
        if self.host() == Some(player.id.as_str()) {
            Ok(())
        } else {
            Err(Refusal::NotHost)
        }
    }

    /// A room nobody hosts is hosted by the first person who joins it to play.
    pub fn claim_host(&mut self, player: &Player) {
        if self.host.is_none() {
            self.hand_host_to(Some(player));
        }
    }

    pub fn hand_host_to(&mut self, player: Option<&Player>) {
        self.host = player.map(|p| p.id.clone());
        self.host_name = player.map(|p| p.name.clone());
    }

    /// The player in the first seat whose player is here, if any.
    pub fn first_present_player(&self) -> Option<&Player> {
        self.seats
            .iter()
            .filter(|s| s.online > 0)
            .find_map(|s| s.player.as_ref())
    }

    /// A connection of `seat`'s person arrived; they may have renamed themselves since they
    /// sat down.
    pub fn connect(&mut self, seat: Seat, player: Player) {
        let state = &mut self.seats[seat as usize];
        state.connect();
        state.player = Some(player);
    }

    pub fn disconnect(&mut self, seat: Seat, now: Instant) {
        self.seats[seat as usize].disconnect(now);
    }

    /// `player` sits in `seat`, leaving the one they held; `online` is how many connections
    /// they have here to play.
    pub fn take(&mut self, player: &Player, seat: Seat, online: u32) -> Result<(), Refusal> {
        let index = seat as usize;
        if index >= self.seats.len() {
            return Err(Refusal::NoSuchSeat);
        }
        if self.seats[index].is_filled() {
            return Err(Refusal::SeatTaken);
        }
        if let Some(old) = self.seat_of(&player.id) {
            self.seats[old as usize].clear();
        }
        let state = &mut self.seats[index];
        state.player = Some(player.clone());
        state.online = online.max(1);
        Ok(())
    }

    /// The seat is free for someone else.
    pub fn free(&mut self, seat: Seat) {
        self.seats[seat as usize].clear();
    }

    /// A bot plays the seat until its person is back.
    pub fn cover(&mut self, seat: Seat) {
        let state = &mut self.seats[seat as usize];
        state.covered = true;
        state.away_since = None;
    }

    pub fn set_bot(&mut self, seat: Seat, bot: bool, pace: Option<BotPace>) -> Result<(), Refusal> {
        let Some(state) = self.seats.get_mut(seat as usize) else {
            return Err(Refusal::NoSuchSeat);
        };
        if bot && state.player.is_some() {
            return Err(Refusal::PlayerHoldsSeat);
        }
        state.bot = bot;
        if let Some(pace) = pace {
            state.pace = pace;
        }
        Ok(())
    }

    pub fn set_ready(&mut self, player_id: &str, ready: bool) -> Result<(), Refusal> {
        let seat = self.seat_of(player_id).ok_or(Refusal::TakeASeatFirst)?;
        self.seats[seat as usize].ready = ready;
        Ok(())
    }

    /// When each away person's grace period ends (a seat a bot already covers waits for
    /// nothing).
    pub fn grace_ends(&self, grace: Duration) -> impl Iterator<Item = Instant> + '_ {
        self.seats
            .iter()
            .filter(|s| !s.covered && !s.bot)
            .filter_map(move |s| s.away_since.map(|t| t + grace))
    }

    /// The seats whose person has been away longer than `grace` at `now`.
    pub fn away_too_long(&self, now: Instant, grace: Duration) -> Vec<Seat> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.bot && !s.covered && s.online == 0)
            .filter(|(_, s)| s.away_since.is_some_and(|t| t + grace <= now))
            .map(|(i, _)| i as Seat)
            .collect()
    }

    pub fn accept_rematch(&mut self, seat: Seat, accept: bool) {
        self.rematch[seat as usize] = accept;
    }

    /// The seats that have accepted a rematch: their person said so, or a bot plays them.
    pub fn rematch_seats(&self) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&i| self.rematch[i] || self.seats[i].bot_plays())
            .map(|i| i as Seat)
            .collect()
    }

    /// Every seat has accepted and at least one person asked (a table left to bots does not
    /// play on by itself).
    pub fn rematch_agreed(&self) -> bool {
        self.rematch.iter().any(|&a| a) && self.rematch_seats().len() == self.seats.len()
    }

    /// A new match: nobody has asked for the next one yet.
    pub fn forget_rematch(&mut self) {
        self.rematch = vec![false; self.seats.len()];
    }

    pub fn waiting_teams(&self) -> Option<&[u8]> {
        self.waiting_teams.as_deref()
    }

    /// What the lobby and the history call whoever sits in seat `index`.
    pub fn shown_name(&self, index: usize) -> Option<String> {
        let seat = &self.seats[index];
        match (&seat.player, seat.bot) {
            (Some(p), _) => Some(p.name.clone()),
            (None, true) => Some(bot_name(index)),
            (None, false) => None,
        }
    }

    /// The seats as a match record keeps them.
    pub fn stored(&self) -> Vec<StoredSeat> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| StoredSeat {
                player_id: s.player.as_ref().map(|p| p.id.clone()),
                name: s
                    .player
                    .as_ref()
                    .map_or_else(|| bot_name(i), |p| p.name.clone()),
                bot: s.bot,
            })
            .collect()
    }

    /// The seats as the room snapshot shows them at `now`: `teams` from the match (or the
    /// options), and how long each away person has left of `grace`.
    pub fn infos(&self, teams: Option<&[u8]>, now: Instant, grace: Duration) -> Vec<SeatInfo> {
        self.seats
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
                team: teams.and_then(|t| t.get(i).copied()),
                pace: s.bot.then_some(s.pace),
                away_ms: s
                    .away_since
                    .filter(|_| s.presence() == Presence::Reconnecting)
                    .map(|t| (t + grace).saturating_duration_since(now).as_millis() as u64),
            })
            .collect()
    }
}

/// How the lobby names the bot in seat `index` (counted from 0).
pub(super) fn bot_name(index: usize) -> String {
    format!("Bot {}", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: &str) -> Player {
        Player {
            id: id.into(),
            name: id.to_uppercase(),
        }
    }

    fn table(seats: usize) -> Seating {
        Seating::new(vec![SeatState::default(); seats], None, None, None)
    }

    #[test]
    fn taking_a_seat_leaves_the_one_held_and_never_a_taken_one() {
        let mut seating = table(3);
        seating.take(&player("ada"), 0, 1).unwrap();
        seating.take(&player("ada"), 2, 1).unwrap();
        assert_eq!(seating.seat_of("ada"), Some(2));
        assert!(!seating.seats()[0].is_filled());
        assert!(matches!(
            seating.take(&player("bo"), 2, 1),
            Err(Refusal::SeatTaken)
        ));
        assert!(matches!(
            seating.take(&player("bo"), 3, 1),
            Err(Refusal::NoSuchSeat)
        ));
        assert!(matches!(
            seating.set_bot(2, true, None),
            Err(Refusal::PlayerHoldsSeat)
        ));
    }

    #[test]
    fn a_rematch_needs_every_seat_and_one_person_asking() {
        let mut seating = table(2);
        seating.take(&player("ada"), 0, 1).unwrap();
        seating.set_bot(1, true, None).unwrap();
        assert_eq!(seating.rematch_seats(), vec![1], "a bot always accepts");
        assert!(!seating.rematch_agreed(), "bots alone do not play on");
        seating.accept_rematch(0, true);
        assert!(seating.rematch_agreed());
        seating.forget_rematch();
        assert!(!seating.rematch_agreed());
    }

    #[test]
    fn only_people_away_past_their_grace_lose_their_seat() {
        let mut seating = table(3);
        let start = Instant::now();
        let grace = Duration::from_secs(30);
        for (seat, id) in ["ada", "bo", "cy"].iter().enumerate() {
            seating.take(&player(id), seat as Seat, 1).unwrap();
        }
        seating.disconnect(0, start);
        seating.disconnect(1, start + Duration::from_secs(20));
        let later = start + grace;
        assert_eq!(seating.away_too_long(later, grace), vec![0]);
        seating.cover(0);
        assert_eq!(seating.away_too_long(later, grace), Vec::<Seat>::new());
        assert_eq!(
            seating.grace_ends(grace).collect::<Vec<_>>(),
            vec![start + Duration::from_secs(50)]
        );
    }

    #[test]
    fn a_bot_and_a_person_are_recorded_by_their_shown_names() {
        let mut seating = table(2);
        seating.take(&player("ada"), 0, 1).unwrap();
        seating.set_bot(1, true, None).unwrap();
        let stored = seating.stored();
        assert_eq!(stored[0].name, "ADA");
        assert_eq!(stored[1].name, "Bot 2");
        assert_eq!(seating.shown_name(1).as_deref(), Some("Bot 2"));
    }
}
