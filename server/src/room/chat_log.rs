//! The room's recent chat: the last lines of every channel, told again to whoever joins (a
//! reload, a reconnect, a latecomer) — each only the lines they would have been sent live.

use std::collections::VecDeque;

use pandemonium_protocol::{ChatChannel, ChatLine};

/// Lines the room remembers.
pub(super) const CHAT_HISTORY: usize = 100;

/// Who may read a line again: the audience it was sent to live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Audience {
    /// Players' chat: everyone in the room.
    Everyone,
    /// Spectators' chat: only those without a seat.
    Spectators,
    /// A team's consultation: only that team, and only during the match it was said in.
    Team(u8),
}

impl Audience {
    pub fn of(channel: ChatChannel, team: Option<u8>) -> Option<Audience> {
        match channel {
            ChatChannel::Players => Some(Audience::Everyone),
            ChatChannel::Spectators => Some(Audience::Spectators),
            ChatChannel::Team => team.map(Audience::Team),
        }
    }

    /// Whether a reader with this seat (none: watching) and team may read the line.
    fn admits(self, seated: bool, team: Option<u8>) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Spectators => !seated,
            Audience::Team(t) => team == Some(t),
        }
    }
}

#[derive(Debug, Default)]
pub(super) struct ChatLog {
    lines: VecDeque<(Audience, ChatLine)>,
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
    pub fn add(&mut self, audience: Audience, mut line: ChatLine) -> ChatLine {
        self.next_id += 1;
        line.id = self.next_id;
        self.lines.push_back((audience, line.clone()));
        while self.lines.len() > CHAT_HISTORY {
            self.lines.pop_front();
        }
        line
    }

    /// The lines a reader may read, oldest first.
    pub fn readable(&self, seated: bool, team: Option<u8>) -> Vec<ChatLine> {
        self.lines
            .iter()
            .filter(|(audience, _)| audience.admits(seated, team))
            .map(|(_, line)| line.clone())
            .collect()
    }

    /// A new match forms new teams: what teams said among themselves stays with the old one.
    pub fn forget_team_talk(&mut self) {
        self.lines
            .retain(|(audience, _)| !matches!(audience, Audience::Team(_)));
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
        log.add(Audience::Everyone, line(ChatChannel::Players, "hello all"));
        log.add(Audience::Spectators, line(ChatChannel::Spectators, "psst"));
        log.add(Audience::Team(1), line(ChatChannel::Team, "veto it"));
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
                Audience::Everyone,
                line(ChatChannel::Players, &i.to_string()),
            );
        }
        let kept = log.readable(true, None);
        assert_eq!(kept.len(), CHAT_HISTORY);
        assert_eq!(kept[0].text, "50");
        assert_eq!(kept[0].id, kept[99].id - 99);
        assert!(kept.windows(2).all(|w| w[0].id + 1 == w[1].id));
    }
}
