//! Time in a room: each seat's decision clock, the rules' windows, each bot's schedule, grace
//! periods and the empty-room timeout. All of it is `tokio::time`, so tests pause time.
//!
//! A seat's clock starts when its decision starts (it comes to act, or acts and must act
//! again) and is left alone by other seats' actions; a rule window's clock starts when the
//! window opens and runs out once for all. Real-time games have no per-seat clock. Every bot
//! seat has a schedule of its own, so several bots act side by side, each from its own view.

use std::time::Duration;
use tokio::time::Instant;

use pandemonium_game_contract::{Chance, RuleClock, Seat, SeatSet};
use pandemonium_protocol::{ActionSource, BotPace};

use super::actor::{Phase, Room};

/// How long an empty room whose match is over stays open, at most.
const FINISHED_EMPTY_ROOM: Duration = Duration::from_secs(30);

/// A rule window's clock.
#[derive(Debug, Clone, Copy)]
struct RuleTimer {
    window: u64,
    /// `None` once it has run out: the same window never gets a second clock.
    at: Option<Instant>,
}

#[derive(Debug, Default)]
pub(super) struct Clocks {
    /// Per seat: when its current decision times out.
    turn: Vec<Option<Instant>>,
    /// Per seat: when its bot acts next.
    bots: Vec<Option<Instant>>,
    rule: Option<RuleTimer>,
    /// Who could act after the last change, to tell a decision that starts from one that goes on.
    to_act: SeatSet,
}

/// What the clocks are set from: the position after a change.
#[derive(Debug, Clone)]
pub(super) struct Position {
    pub to_act: SeatSet,
    /// The seat whose action led here, if any.
    pub acted: Option<Seat>,
    /// Per seat: the pace of the bot that plays it, if a bot does.
    pub bots: Vec<Option<BotPace>>,
    /// The room's per-decision clock (none in real-time games).
    pub turn_limit: Option<Duration>,
    pub bot_delay: Duration,
    pub rule: Option<RuleClock>,
}

impl Clocks {
    pub fn new(seats: usize) -> Self {
        Clocks {
            turn: vec![None; seats],
            bots: vec![None; seats],
            rule: None,
            to_act: SeatSet::EMPTY,
        }
    }

    /// Sets every clock for `position` at `now`. A seat's decision starts when it comes to act
    /// or acts and must act again; otherwise its clock (or its bot's schedule) is left alone,
    /// whatever other seats do. A rule window keeps its clock for as long as it stays open.
    pub fn update(&mut self, now: Instant, position: &Position) {
        for (seat, bot) in position.bots.iter().enumerate() {
            let s = seat as Seat;
            if !position.to_act.contains(s) {
                self.turn[seat] = None;
                self.bots[seat] = None;
                continue;
            }
            let starts = !self.to_act.contains(s) || position.acted == Some(s);
            match bot {
                Some(pace) => {
                    self.turn[seat] = None;
                    if starts || self.bots[seat].is_none() {
                        self.bots[seat] = Some(now + bot_delay(position.bot_delay, *pace));
                    }
                }
                None => {
                    self.bots[seat] = None;
                    if starts || self.turn[seat].is_none() {
                        self.turn[seat] = position.turn_limit.map(|limit| now + limit);
                    }
                }
            }
        }
        self.rule = match position.rule {
            Some(clock) => match self.rule {
                Some(timer) if timer.window == clock.window => Some(timer),
                _ => Some(RuleTimer {
                    window: clock.window,
                    at: Some(now + Duration::from_secs(clock.seconds as u64)),
                }),
            },
            None => None,
        };
        self.to_act = position.to_act;
    }

    /// When `seat`'s clock acts, if one runs for it: its own, or the rule window's if sooner.
    pub fn deadline(&self, seat: Option<Seat>) -> Option<Instant> {
        let rule = self.rule.and_then(|r| r.at);
        let turn = match seat {
            Some(seat) => self.turn.get(seat as usize).copied().flatten(),
            // Someone watching sees the soonest clock at the table.
            None => self.turn.iter().flatten().min().copied(),
        };
        [rule, turn].into_iter().flatten().min()
    }
}

/// How long a bot of this pace takes, from the server's base delay.
fn bot_delay(base: Duration, pace: BotPace) -> Duration {
    match pace {
        BotPace::Slow => base * 3,
        BotPace::Normal => base,
        BotPace::Fast => base / 3,
    }
}

impl Room {
    /// Sets the clocks for the current position. `acted` is the seat whose action led here,
    /// if any: its decision starts again if it must act again.
    pub(super) fn reclock(&mut self, acted: Option<Seat>) {
        let Some(current) = self.phase.current().filter(|_| self.phase_is_playing()) else {
            self.clocks = Clocks::new(self.seats.len());
            return;
        };
        let game = current.game.as_ref();
        let position = Position {
            to_act: game.to_act(),
            acted,
            bots: self
                .seats
                .iter()
                .map(|s| s.bot_plays().then_some(s.pace))
                .collect(),
            turn_limit: self
                .settings
                .turn_seconds
                .filter(|_| !self.info.real_time)
                .map(|s| Duration::from_secs(s as u64)),
            bot_delay: self.services.bot_delay,
            rule: game.rule_deadline(),
        };
        self.clocks.update(Instant::now(), &position);
    }

    fn phase_is_playing(&self) -> bool {
        matches!(self.phase, Phase::Playing(_))
    }

    /// How long the room stays open with nobody in it. A finished match has nothing left to
    /// wait for (it is in the history, and a rematch needs its players in the room): its room
    /// closes sooner, so tables that play match after match do not pile up empty rooms.
    fn empty_room_wait(&self) -> Duration {
        match self.phase {
            Phase::Finished(_) => self.services.empty_room.min(FINISHED_EMPTY_ROOM),
            _ => self.services.empty_room,
        }
    }

    pub(super) fn next_wake(&self) -> Option<Instant> {
        let grace = self.grace();
        let graces = self
            .seats
            .iter()
            .filter(|s| !s.covered && !s.bot)
            .filter_map(|s| s.away_since.map(|t| t + grace));
        let empty = self.empty_since.map(|t| t + self.empty_room_wait());
        let clocks = &self.clocks;
        clocks
            .turn
            .iter()
            .chain(clocks.bots.iter())
            .flatten()
            .copied()
            .chain(clocks.rule.and_then(|r| r.at))
            .chain(empty)
            .chain(graces)
            .min()
    }

    /// Handles whatever timers are due. Returns true when the room should close.
    pub(super) async fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self
            .empty_since
            .is_some_and(|t| t + self.empty_room_wait() <= now)
        {
            self.drain_commits().await;
            if let Phase::Playing(current) = &self.phase
                && let Err(error) = self.services.store.abandon(&current.id).await
            {
                self.in_span(|| tracing::error!(%error, "could not mark a match abandoned"));
            }
            self.in_span(|| tracing::info!("room closed: nobody in it"));
            return true;
        }
        if self.expire_graces(now)
            && let Err(refusal) = self.start_rematch_if_agreed().await
        {
            // A bot now plays for someone who left: the rematch they had agreed to without
            // them could not be saved. It is asked for again by the next acceptance.
            self.in_span(|| {
                tracing::error!(code = refusal.code.as_str(), "a rematch could not start")
            });
        }
        if let Some(timer) = self.clocks.rule.as_mut()
            && timer.at.is_some_and(|at| at <= now)
        {
            timer.at = None;
            let seats = self.seats_to_act();
            self.apply_defaults(seats).await;
        }
        let late: Vec<Seat> = (0..self.seats.len() as Seat)
            .filter(|&s| self.clocks.turn[s as usize].is_some_and(|at| at <= now))
            .collect();
        for &seat in &late {
            self.clocks.turn[seat as usize] = None;
        }
        self.apply_defaults(late).await;
        let due: Vec<Seat> = (0..self.seats.len() as Seat)
            .filter(|&s| self.clocks.bots[s as usize].is_some_and(|at| at <= now))
            .collect();
        for seat in due {
            self.clocks.bots[seat as usize] = None;
            self.bot_move(seat).await;
        }
        // A clock that ran out without a move to make starts again rather than firing at once.
        self.reclock(None);
        false
    }

    fn seats_to_act(&self) -> Vec<Seat> {
        self.phase
            .current()
            .map(|m| m.game.to_act().iter().collect())
            .unwrap_or_default()
    }

    /// The clock ran out: each of `seats` still to act (and played by a person) gets the
    /// rules' default action.
    async fn apply_defaults(&mut self, seats: Vec<Seat>) {
        for seat in seats {
            let Some(current) = self.phase.current() else {
                return;
            };
            if !current.game.to_act().contains(seat) || self.seats[seat as usize].bot_plays() {
                continue;
            }
            let Some(action) = current.game.default_action(seat) else {
                continue;
            };
            if let Err(refusal) = self.apply(seat, &action, ActionSource::Timeout, None).await {
                self.in_span(|| tracing::warn!(seat, code = %refusal.code, rule = ?refusal.rule, "default action refused"));
            }
        }
    }

    async fn bot_move(&mut self, seat: Seat) {
        let Some(current) = self.phase.current() else {
            return;
        };
        if !current.game.to_act().contains(seat) || !self.seats[seat as usize].bot_plays() {
            return;
        }
        let Some(action) = current
            .game
            .bot_action(seat, &mut self.bot_chance as &mut dyn Chance)
        else {
            return;
        };
        if let Err(refusal) = self.apply(seat, &action, ActionSource::Bot, None).await {
            self.in_span(|| tracing::error!(seat, code = %refusal.code, rule = ?refusal.rule, message = %refusal.message, "a bot chose an illegal action"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_secs(30);
    const BOT: Duration = Duration::from_millis(600);

    fn position(to_act: &[Seat], acted: Option<Seat>, bots: Vec<Option<BotPace>>) -> Position {
        Position {
            to_act: to_act.iter().copied().collect(),
            acted,
            bots,
            turn_limit: Some(LIMIT),
            bot_delay: BOT,
            rule: None,
        }
    }

    fn people(seats: usize) -> Vec<Option<BotPace>> {
        vec![None; seats]
    }

    #[test]
    fn a_seats_clock_is_left_alone_when_another_seat_acts() {
        let start = Instant::now();
        let mut clocks = Clocks::new(3);
        clocks.update(start, &position(&[0, 1, 2], None, people(3)));
        assert_eq!(clocks.deadline(Some(0)), Some(start + LIMIT));
        // Ten seconds later seat 1 commits; seats 0 and 2 still decide on the same clock.
        let later = start + Duration::from_secs(10);
        clocks.update(later, &position(&[0, 2], Some(1), people(3)));
        assert_eq!(clocks.deadline(Some(0)), Some(start + LIMIT));
        assert_eq!(clocks.deadline(Some(2)), Some(start + LIMIT));
        assert_eq!(
            clocks.deadline(Some(1)),
            None,
            "seat 1 has nothing to decide"
        );
    }

    #[test]
    fn a_seat_that_acts_and_must_act_again_starts_a_new_decision() {
        let start = Instant::now();
        let mut clocks = Clocks::new(1);
        clocks.update(start, &position(&[0], None, people(1)));
        let later = start + Duration::from_secs(5);
        clocks.update(later, &position(&[0], Some(0), people(1)));
        assert_eq!(clocks.deadline(Some(0)), Some(later + LIMIT));
    }

    #[test]
    fn a_rule_window_keeps_its_deadline_until_a_new_window_opens() {
        let start = Instant::now();
        let mut clocks = Clocks::new(4);
        let window = |window| {
            let mut p = position(&[0, 1, 2, 3], None, people(4));
            p.turn_limit = None;
            p.rule = Some(RuleClock {
                window,
                seconds: 15,
            });
            p
        };
        clocks.update(start, &window(7));
        let fifteen = Duration::from_secs(15);
        assert_eq!(clocks.deadline(Some(2)), Some(start + fifteen));
        let later = start + Duration::from_secs(6);
        let mut teammate_acted = window(7);
        teammate_acted.acted = Some(1);
        teammate_acted.to_act = [0, 2, 3].into_iter().collect();
        clocks.update(later, &teammate_acted);
        assert_eq!(
            clocks.deadline(Some(0)),
            Some(start + fifteen),
            "a teammate's action does not stretch the window"
        );
        clocks.update(later, &window(8));
        assert_eq!(clocks.deadline(Some(0)), Some(later + fifteen));
    }

    #[test]
    fn every_bot_seat_to_act_has_its_own_schedule_at_its_own_pace() {
        let start = Instant::now();
        let mut clocks = Clocks::new(3);
        let bots = vec![
            Some(BotPace::Normal),
            Some(BotPace::Slow),
            Some(BotPace::Fast),
        ];
        clocks.update(start, &position(&[0, 1, 2], None, bots.clone()));
        assert_eq!(
            clocks.bots,
            vec![
                Some(start + BOT),
                Some(start + BOT * 3),
                Some(start + BOT / 3),
            ]
        );
        // The fast bot acts; the others keep their schedules.
        let later = start + BOT / 3;
        clocks.update(later, &position(&[0, 1, 2], Some(2), bots));
        assert_eq!(
            clocks.bots,
            vec![
                Some(start + BOT),
                Some(start + BOT * 3),
                Some(later + BOT / 3),
            ]
        );
        assert_eq!(
            clocks.deadline(Some(0)),
            None,
            "bots have no decision clock"
        );
    }

    #[test]
    fn a_real_time_game_runs_no_decision_clock() {
        let start = Instant::now();
        let mut clocks = Clocks::new(2);
        let mut p = position(&[0, 1], None, people(2));
        p.turn_limit = None;
        clocks.update(start, &p);
        assert_eq!(clocks.deadline(Some(0)), None);
        assert_eq!(clocks.deadline(None), None);
    }
}
