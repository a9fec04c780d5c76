//! What people ask of the room: the dispatch of client messages, starting a match, chat and
//! hints. Game actions go on to [`super::actions`].

use pandemonium_game_contract::{Chance, SeededChance};
use pandemonium_protocol::{ChatChannel, ChatLine, ClientMsg, ErrorCode, ServerMsg};

use super::ConnId;
use super::actor::{Match, Phase, Room, RoomRefusal, seed_hash};
use super::chat_log::Audience;
use super::seats::SeatState;
use super::wire;
use crate::identity::Player;
use crate::limiter::{Rate, TokenBucket};
use crate::store::{NewMatch, now_ms};

/// Longest chat line, in characters.
const MAX_CHAT: usize = 500;

/// Lines per second the spectators' chat of one room carries, and its burst. Every line goes
/// to every spectator, so an audience chatting freely would cost the square of its size; the
/// room's budget keeps the fan-out linear in the audience.
const SPECTATOR_LINES_PER_SECOND: u32 = 4;
const SPECTATOR_LINES_BURST: u32 = 8;

/// The spectators' chat budget of one room.
#[derive(Debug)]
pub(super) struct ChatBudget(TokenBucket);

impl Default for ChatBudget {
    fn default() -> Self {
        ChatBudget(TokenBucket::full(Rate::per_second(
            SPECTATOR_LINES_PER_SECOND,
            SPECTATOR_LINES_BURST,
        )))
    }
}

impl ChatBudget {
    /// Takes one line from the budget, if there is one left.
    fn take(&mut self) -> bool {
        self.0.take()
    }
}

impl Room {
    pub(super) async fn client(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        let player = sub.player.clone();
        let spectator = sub.spectator;
        let result = match msg {
            ClientMsg::TakeSeat { .. } if spectator => Err(RoomRefusal::new(
                ErrorCode::Spectator,
                "Spectators watch; join the room as a player to take a seat.",
            )),
            ClientMsg::TakeSeat { seat } => self.take_seat(&player, seat),
            ClientMsg::LeaveSeat => self.leave_seat(&player),
            ClientMsg::SetBot { seat, bot, pace } => self.set_bot(&player, seat, bot, pace),
            ClientMsg::Ready { ready } => self.ready(&player, ready),
            ClientMsg::Start => self.start(&player).await,
            ClientMsg::Act { seq, action } => {
                self.act(conn, seq, &action.to_string()).await;
                Ok(())
            }
            ClientMsg::Chat { channel, text } => self.chat(conn, channel, text),
            ClientMsg::Hint => self.hint(conn),
            ClientMsg::Rematch { accept } => self.rematch(conn, accept.unwrap_or(true)).await,
            ClientMsg::Leave => {
                self.leave_for_good(conn, &player);
                // A bot now plays the seat of who left, and bots always accept a rematch.
                self.start_rematch_if_agreed().await.map(|_| ())
            }
            ClientMsg::Hello { .. } | ClientMsg::Join { .. } => Err(RoomRefusal::new(
                ErrorCode::BadRequest,
                "That message is not for a room.",
            )),
        };
        if let Err(refusal) = result {
            self.send(conn, wire::error(refusal.code, refusal.message));
        }
    }

    async fn start(&mut self, player: &Player) -> Result<(), RoomRefusal> {
        self.require_host(player)?;
        self.require_waiting()?;
        if !self.seats.iter().all(SeatState::is_filled) {
            return Err(RoomRefusal::new(
                ErrorCode::SeatsEmpty,
                "Every seat needs a player or a bot before the match can start.",
            ));
        }
        let unready = self
            .seats
            .iter()
            .any(|s| s.player.as_ref().is_some_and(|p| p.id != player.id) && !s.ready);
        if unready {
            return Err(RoomRefusal::new(
                ErrorCode::PlayersNotReady,
                "Everyone seated must be ready before the match can start.",
            ));
        }
        self.begin_match(None).await
    }

    /// Starts a match at this table with its seats and options; `previous` is the match it is
    /// a rematch of.
    pub(super) async fn begin_match(
        &mut self,
        previous: Option<String>,
    ) -> Result<(), RoomRefusal> {
        let seed = SeededChance::fresh_seed();
        let mut chance = SeededChance::from_seed(seed);
        let seats = self.seats.len() as u8;
        let (game, config) = (self.entry.create)(&self.options, seats, &mut chance)
            .map_err(|e| RoomRefusal::new(ErrorCode::BadConfig, e.to_string()))?;
        let id = uuid::Uuid::new_v4().to_string();
        let record = NewMatch {
            id: id.clone(),
            room_code: self.code.0.clone(),
            game: self.game_id.clone(),
            config: config.clone(),
            seats: self.stored_seats(),
            room: self.settings.clone(),
            seed: hex::encode(seed),
            seed_hash: seed_hash(&seed),
            started_at: now_ms(),
            rematch_of: previous.clone(),
        };
        if let Err(error) = self.services.store.start_match(&record).await {
            self.in_span(|| tracing::error!(%error, "could not record a match start"));
            return Err(RoomRefusal::new(
                ErrorCode::StorageUnavailable,
                "The match could not be saved, so it did not start. Try again.",
            ));
        }
        self.options = config;
        self.list_options();
        self.phase = Phase::Playing(Match {
            id,
            seed,
            game,
            chance,
            log: Vec::new(),
        });
        self.phase.settle();
        self.answers.reset(self.seats.len());
        self.pipeline.restart_at(0);
        self.history.clear();
        self.chat_windows = self.team_chat_windows();
        self.rematch = vec![false; self.seats.len()];
        self.previous_match = previous;
        self.chat_log.forget_team_talk();
        self.in_span(|| tracing::info!(rematch_of = ?self.previous_match, "match started"));
        self.reclock(None);
        self.broadcast_room();
        self.broadcast_state();
        Ok(())
    }

    fn chat(
        &mut self,
        conn: ConnId,
        channel: ChatChannel,
        text: String,
    ) -> Result<(), RoomRefusal> {
        let text = crate::text::clean(&text);
        if text.is_empty() || text.chars().count() > MAX_CHAT {
            return Err(RoomRefusal::new(
                ErrorCode::BadChat,
                "A chat line is 1 to 500 characters.",
            ));
        }
        let sub = &self.subscribers[&conn];
        let line = ChatLine {
            id: 0,
            channel,
            from: sub.player.name.clone(),
            text,
        };
        let team = self.team_of(sub.seat);
        // A person is a player in every connection they have here, watching ones included.
        let seated = self.seat_of(&sub.player.id).is_some();
        let recipients: Vec<ConnId> = match channel {
            // Players talk in the open: everyone in the room reads it.
            ChatChannel::Players => {
                if !seated {
                    return Err(RoomRefusal::new(
                        ErrorCode::NotSeated,
                        "Only players write in the players' chat; spectators have their own.",
                    ));
                }
                self.subscribers.keys().copied().collect()
            }
            // Spectators among themselves, so they cannot coach the players.
            ChatChannel::Spectators => {
                if seated {
                    return Err(RoomRefusal::new(
                        ErrorCode::NotSpectator,
                        "Players cannot write in the spectators' chat.",
                    ));
                }
                if !self.spectator_chat.take() {
                    return Err(RoomRefusal::new(
                        ErrorCode::RateLimited,
                        "The spectators' chat is busy; try again in a moment.",
                    ));
                }
                self.subscribers
                    .iter()
                    .filter(|(_, s)| self.seat_of(&s.player.id).is_none())
                    .map(|(c, _)| *c)
                    .collect()
            }
            ChatChannel::Team => {
                let team = self.team_of(sub.seat).ok_or_else(|| {
                    RoomRefusal::new(
                        ErrorCode::NoTeam,
                        "This game has no teams, or you have no seat.",
                    )
                })?;
                if !self
                    .phase
                    .current()
                    .is_some_and(|m| m.game.team_chat_open(team))
                {
                    return Err(RoomRefusal::new(
                        ErrorCode::TeamChatClosed,
                        "Team talk is only allowed during the rules' consultation windows.",
                    ));
                }
                self.subscribers
                    .iter()
                    .filter(|(_, s)| self.team_of(s.seat) == Some(team))
                    .map(|(c, _)| *c)
                    .collect()
            }
        };
        if let Some(audience) = Audience::of(channel, team) {
            let line = self.chat_log.add(audience, line);
            let frame = wire::frame(&ServerMsg::Chat(line));
            for conn in recipients {
                self.send(conn, frame.clone());
            }
        }
        Ok(())
    }

    /// The recent chat this connection may read, on joining.
    pub(super) fn send_chat_history(&mut self, conn: ConnId) {
        let Some(sub) = self.subscribers.get(&conn) else {
            return;
        };
        let lines = self.chat_log.readable(
            self.seat_of(&sub.player.id).is_some(),
            self.team_of(sub.seat),
        );
        if !lines.is_empty() {
            self.send(conn, wire::frame(&ServerMsg::ChatHistory { lines }));
        }
    }

    /// What the game's bot would do in the asker's seat, from that seat's view alone.
    fn hint(&mut self, conn: ConnId) -> Result<(), RoomRefusal> {
        let seat = self.subscribers.get(&conn).and_then(|s| s.seat);
        let (Some(current), Some(seat)) = (self.phase.current(), seat) else {
            return Err(RoomRefusal::new(
                ErrorCode::NoHint,
                "Hints are for players in a match.",
            ));
        };
        let action = current
            .game
            .bot_action(seat, &mut self.bot_chance as &mut dyn Chance)
            .map(|text| serde_json::from_str(&text).expect("a bot's action is JSON"));
        let version = current.version();
        self.send(conn, wire::frame(&ServerMsg::Hint { version, action }));
        Ok(())
    }

    /// Which teams' chat windows are open now (empty without a match or teams).
    pub(super) fn team_chat_windows(&self) -> Vec<bool> {
        let Some(current) = self.phase.current() else {
            return Vec::new();
        };
        let teams = current.game.teams().unwrap_or_default();
        let count = teams.iter().max().map_or(0, |&t| t + 1);
        (0..count).map(|t| current.game.team_chat_open(t)).collect()
    }

    pub(super) fn team_of(&self, seat: Option<pandemonium_protocol::Seat>) -> Option<u8> {
        let teams = self.phase.current()?.game.teams()?;
        teams.get(seat? as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_spectators_chat_carries_a_burst_then_its_rate() {
        let mut budget = ChatBudget::default();
        let burst = (0..20).filter(|_| budget.take()).count();
        assert_eq!(burst, SPECTATOR_LINES_BURST as usize);
        tokio::time::advance(std::time::Duration::from_secs(1)).await;
        let next = (0..20).filter(|_| budget.take()).count();
        assert_eq!(next, SPECTATOR_LINES_PER_SECOND as usize);
    }
}
