//! The room's chat: its recent lines, told again to whoever joins (a reload, a reconnect, a
//! latecomer) — each only the lines they would have been sent live — and the spectators'
//! budget of lines.

use std::collections::VecDeque;

use pandemonium_protocol::{ChatChannel, ChatLine};

use crate::limiter::{Rate, TokenBucket};

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
    pub fn take(&mut self) -> bool {
        self.0.take()
    }
}

/// Lines the room remembers.
pub(super) const CHAT_HISTORY: usize = 100;

/// Who may read a line again: the readers it was sent to live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Readers {
    /// Players' chat: everyone in the room.
    Everyone,
    /// Spectators' chat: only those without a seat.
    Spectators,
    /// A team's consultation: only that team, and only during the match it was said in.
    Team(u8),
}

impl Readers {
    pub fn of(channel: ChatChannel, team: Option<u8>) -> Option<Readers> {
        match channel {
            ChatChannel::Players => Some(Readers::Everyone),
            ChatChannel::Spectators => Some(Readers::Spectators),
            ChatChannel::Team => team.map(Readers::Team),
        }
    }

    /// Whether a reader with this seat (none: watching) and team may read the line.
    fn admits(self, seated: bool, team: Option<u8>) -> bool {
        match self {
            Readers::Everyone => true,
            Readers::Spectators => !seated,
            Readers::Team(t) => team == Some(t),
        }
    }
}

#[derive(Debug, Default)]
pub(super) struct ChatLog {
    lines: VecDeque<(Readers, ChatLine)>,
    next_id: u64,
}

impl ChatLog {
    /// A log whose ids start above `first`. A room rebuilt after a restart starts from the
    /// clock (in microseconds), so its lines never reuse the ids a client still holds from
    /// before, which it would take for lines it already has.
    pub fn starting_at(first: u64) -> Self {
        ChatLog {
            lines: VecDeque::new(),
            next_id: first,
        }
    }

    /// Numbers a new line and keeps it; returns it numbered.
    pub fn add(&mut self, readers: Readers, mut line: ChatLine) -> ChatLine {
        self.next_id += 1;
        line.id = self.next_id;
        self.lines.push_back((readers, line.clone()));
        while self.lines.len() > CHAT_HISTORY {
            self.lines.pop_front();
        }
        line
    }

    /// The lines a reader may read, oldest first.
    pub fn readable(&self, seated: bool, team: Option<u8>) -> Vec<ChatLine> {
        self.lines
            .iter()
            .filter(|(readers, _)| readers.admits(seated, team))
            .map(|(_, line)| line.clone())
            .collect()
    }

    /// A new match forms new teams: what teams said among themselves stays with the old one.
    pub fn forget_team_talk(&mut self) {
        self.lines
            .retain(|(readers, _)| !matches!(readers, Readers::Team(_)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(channel: ChatChannel, text: &str) -> ChatLine {
        ChatLine {
            id: 0,
            channel,
            from: "Lilith".into(),
            text: text.into(),
        }
    }

    fn texts(lines: Vec<ChatLine>) -> Vec<String> {
        lines.into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn a_reader_gets_again_only_what_they_could_read_live() {
        let mut log = ChatLog::default();
        log.add(Readers::Everyone, line(ChatChannel::Players, "hello all"));
        log.add(Readers::Spectators, line(ChatChannel::Spectators, "psst"));
        log.add(Readers::Team(1), line(ChatChannel::Team, "veto it"));
        assert_eq!(texts(log.readable(false, None)), ["hello all", "psst"]);
        assert_eq!(texts(log.readable(true, Some(0))), ["hello all"]);
        assert_eq!(texts(log.readable(true, Some(1))), ["hello all", "veto it"]);
        log.forget_team_talk();
        assert_eq!(texts(log.readable(true, Some(1))), ["hello all"]);
    }

    #[test]
    fn the_log_keeps_the_last_hundred_lines_numbered_in_order() {
        let mut log = ChatLog::default();
        for i in 0..150 {
            log.add(
                Readers::Everyone,
                line(ChatChannel::Players, &i.to_string()),
            );
        }
        let kept = log.readable(true, None);
        assert_eq!(kept.len(), CHAT_HISTORY);
        assert_eq!(kept[0].text, "50");
        assert_eq!(kept[0].id, kept[99].id - 99);
        assert!(kept.windows(2).all(|w| w[0].id + 1 == w[1].id));
    }

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
