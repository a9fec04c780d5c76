//! What people ask of the room: the dispatch of client messages, starting a match, chat,
//! hints and rematches. Game actions go on to [`super::acting`].

use pandemonium_game_contract::{Chance, SeededChance};
use pandemonium_protocol::{ChatChannel, ChatLine, ClientMsg, Seat, ServerMsg};

use super::{Room, seed_hash};
use crate::identity::Player;
use crate::room::chat::Readers;
use crate::room::phase::{Match, Phase};
use crate::room::refusal::Refusal;
use crate::room::{ConnId, wire};
use crate::store::{NewMatch, now_ms};

/// Longest chat line, in characters.
const MAX_CHAT: usize = 500;

impl Room {
    pub(super) async fn client(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(sub) = self.audience.get(conn) else {
            return;
        };
        let player = sub.player().clone();
        let spectator = sub.spectator();
        let result = match msg {
            ClientMsg::TakeSeat { .. } if spectator => Err(Refusal::SpectatorsWatch),
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
            ClientMsg::Hello { .. } | ClientMsg::Join { .. } => Err(Refusal::NotForARoom),
        };
        if let Err(refusal) = result {
            self.send(conn, wire::error(refusal.code(), refusal.to_string()));
        }
    }

    async fn start(&mut self, player: &Player) -> Result<(), Refusal> {
        self.seating.require_host(player)?;
        self.require_waiting()?;
        if !self.seating.all_filled() {
            return Err(Refusal::SeatsEmpty);
        }
        if self.seating.anyone_unready_but(&player.id) {
            return Err(Refusal::PlayersNotReady);
        }
        self.begin_match(None).await
    }

    /// Starts a match at this table with its seats and options; `previous` is the match it is
    /// a rematch of.
    async fn begin_match(&mut self, previous: Option<String>) -> Result<(), Refusal> {
        let seed = SeededChance::fresh_seed();
        let mut chance = SeededChance::from_seed(seed);
        let seats = self.seating.len() as u8;
        let (game, config) = (self.entry.create)(&self.options, seats, &mut chance)
            .map_err(|e| Refusal::BadConfig(e.to_string()))?;
        let id = uuid::Uuid::new_v4().to_string();
        let record = NewMatch {
            id: id.clone(),
            room_code: self.code.0.clone(),
            game: self.game_id.clone(),
            config: config.clone(),
            seats: self.seating.stored(),
            room: self.settings(),
            seed: hex::encode(seed),
            seed_hash: seed_hash(&seed),
            started_at: now_ms(),
            rematch_of: previous.clone(),
        };
        if let Err(error) = self
            .services
            .log
            .start_match(&record, self.lease.as_ref())
            .await
        {
            self.in_span(|| tracing::error!(%error, "could not record a match start"));
            return Err(Refusal::MatchNotSaved);
        }
        self.options = config;
        self.listed.list_options(&self.options);
        self.phase = Phase::Playing(Match {
            id,
            seed,
            game,
            chance,
            log: Vec::new(),
        });
        self.phase.settle();
        self.answers.reset(self.seating.len());
        self.pipeline.restart_at(0);
        self.history.clear();
        self.chat_windows = self.team_chat_windows();
        self.seating.forget_rematch();
        self.previous_match = previous;
        self.chat_log.forget_team_talk();
        self.in_span(|| tracing::info!(rematch_of = ?self.previous_match, "match started"));
        self.reclock(None);
        self.broadcast_room();
        self.broadcast_state();
        Ok(())
    }

    async fn rematch(&mut self, conn: ConnId, accept: bool) -> Result<(), Refusal> {
        if self.phase.finished().is_none() {
            return Err(Refusal::MatchNotOver);
        }
        let seat = self
            .audience
            .seat_of(conn)
            .ok_or(Refusal::RematchIsForPlayers)?;
        self.seating.accept_rematch(seat, accept);
        if !self.start_rematch_if_agreed().await? {
            self.broadcast_room();
        }
        Ok(())
    }

    /// The seats that have accepted a rematch of the finished match (none before it ends).
    pub(super) fn rematch_seats(&self) -> Vec<Seat> {
        match self.phase.finished() {
            Some(_) => self.seating.rematch_seats(),
            None => Vec::new(),
        }
    }

    /// Starts the rematch when every seat has accepted and at least one person asked for it
    /// (a table left to bots does not play on by itself). Returns whether it started.
    pub(super) async fn start_rematch_if_agreed(&mut self) -> Result<bool, Refusal> {
        let Some(finished) = self.phase.finished() else {
            return Ok(false);
        };
        if !self.seating.rematch_agreed() {
            return Ok(false);
        }
        let previous = finished.id.clone();
        // The finished match's last appends are told before the new match counts from zero.
        self.drain_commits().await;
        self.begin_match(Some(previous)).await?;
        Ok(true)
    }

    fn chat(&mut self, conn: ConnId, channel: ChatChannel, text: String) -> Result<(), Refusal> {
        let text = crate::text::clean(&text);
        if text.is_empty() || text.chars().count() > MAX_CHAT {
            return Err(Refusal::BadChat);
        }
        let sub = self.audience.get(conn).expect("a connection in the room");
        let line = ChatLine {
            id: 0,
            channel,
            from: sub.player().name.clone(),
            text,
        };
        let team = self.team_of(sub.seat());
        // A person is a player in every connection they have here, watching ones included.
        let seated = self.seating.seat_of(&sub.player().id).is_some();
        let recipients: Vec<ConnId> = match channel {
            // Players talk in the open: everyone in the room reads it.
            ChatChannel::Players => {
                if !seated {
                    return Err(Refusal::PlayersChatIsForPlayers);
                }
                self.audience.conns()
            }
            // Spectators among themselves, so they cannot coach the players.
            ChatChannel::Spectators => {
                if seated {
                    return Err(Refusal::SpectatorsChatIsForSpectators);
                }
                if !self.spectator_chat.take() {
                    return Err(Refusal::SpectatorsChatBusy);
                }
                let seating = &self.seating;
                self.audience
                    .conns_where(|s| seating.seat_of(&s.player().id).is_none())
            }
            ChatChannel::Team => {
                let team = team.ok_or(Refusal::NoTeam)?;
                if !self
                    .phase
                    .current()
                    .is_some_and(|m| m.game.team_chat_open(team))
                {
                    return Err(Refusal::TeamChatClosed);
                }
                self.audience
                    .conns_where(|s| self.team_of(s.seat()) == Some(team))
            }
        };
        if let Some(readers) = Readers::of(channel, team) {
            let line = self.chat_log.add(readers, line);
            let frame = wire::frame(&ServerMsg::Chat(line));
            for conn in recipients {
                self.send(conn, frame.clone());
            }
        }
        Ok(())
    }

    /// The recent chat this connection may read, on joining.
    pub(super) fn send_chat_history(&mut self, conn: ConnId) {
        let Some(sub) = self.audience.get(conn) else {
            return;
        };
        let lines = self.chat_log.readable(
            self.seating.seat_of(&sub.player().id).is_some(),
            self.team_of(sub.seat()),
        );
        if !lines.is_empty() {
            self.send(conn, wire::frame(&ServerMsg::ChatHistory { lines }));
        }
    }

    /// What the game's bot would do in the asker's seat, from that seat's view alone.
    fn hint(&mut self, conn: ConnId) -> Result<(), Refusal> {
        let seat = self.audience.seat_of(conn);
        let (Some(current), Some(seat)) = (self.phase.current(), seat) else {
            return Err(Refusal::NoHint);
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

    pub(super) fn team_of(&self, seat: Option<Seat>) -> Option<u8> {
        let teams = self.phase.teams()?;
        teams.get(seat? as usize).copied()
    }
}
