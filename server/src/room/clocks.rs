//! The room's clocks: each seat's decision clock, the rule window's clock and each bot's
//! schedule. All of it is `tokio::time`, so tests pause time.
//!
//! A seat's clock starts when its decision starts (it comes to act, or acts and must act
//! again) and is left alone by other seats' actions; a rule window's clock starts when the
//! window opens and runs out once for all. Real-time games have no per-seat clock. Every bot
//! seat has a schedule of its own, so several bots act side by side, each from its own view.

use std::time::Duration;
use tokio::time::Instant;

use pandemonium_game_contract::{RuleClock, Seat, SeatSet};
use pandemonium_protocol::BotPace;

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

    /// The soonest clock to act: a decision's, a bot's or the rule window's.
    pub fn next(&self) -> Option<Instant> {
        self.turn
            .iter()
            .chain(self.bots.iter())
            .flatten()
            .copied()
            .chain(self.rule.and_then(|r| r.at))
            .min()
    }

    /// Whether the rule window's clock has run out by `now`; it runs out once.
    pub fn rule_runs_out(&mut self, now: Instant) -> bool {
        match self.rule.as_mut() {
            Some(timer) if timer.at.is_some_and(|at| at <= now) => {
                timer.at = None;
                true
            }
            _ => false,
        }
    }

    /// The seats whose decision clock has run out by `now`; their clocks stop.
    pub fn run_out(&mut self, now: Instant) -> Vec<Seat> {
        take_due(&mut self.turn, now)
    }

    /// The bot seats due to act by `now`; their schedules end until the next change.
    pub fn bots_due(&mut self, now: Instant) -> Vec<Seat> {
        take_due(&mut self.bots, now)
    }
}

/// The seats whose time in `times` has come by `now`, their times cleared.
fn take_due(times: &mut [Option<Instant>], now: Instant) -> Vec<Seat> {
    let mut due = Vec::new();
    for (seat, time) in times.iter_mut().enumerate() {
        if time.is_some_and(|at| at <= now) {
            *time = None;
            due.push(seat as Seat);
        }
    }
    due
}

/// How long a bot of this pace takes, from the server's base delay.
fn bot_delay(base: Duration, pace: BotPace) -> Duration {
    match pace {
        BotPace::Slow => base * 3,
        BotPace::Normal => base,
        BotPace::Fast => base / 3,
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
    fn a_clock_runs_out_once_and_only_when_its_time_has_come() {
        let start = Instant::now();
        let mut clocks = Clocks::new(2);
        clocks.update(
            start,
            &position(&[0], None, vec![None, Some(BotPace::Normal)]),
        );
        assert_eq!(clocks.next(), Some(start + LIMIT));
        assert_eq!(clocks.run_out(start + LIMIT / 2), Vec::<Seat>::new());
        assert_eq!(clocks.run_out(start + LIMIT), vec![0]);
        assert_eq!(clocks.run_out(start + LIMIT), Vec::<Seat>::new(), "once");
        assert_eq!(clocks.next(), None);
        let mut window = position(&[0, 1], None, people(2));
        window.rule = Some(RuleClock {
            window: 1,
            seconds: 15,
        });
        clocks.update(start, &window);
        let end = start + Duration::from_secs(15);
        assert!(!clocks.rule_runs_out(end - Duration::from_millis(1)));
        assert!(clocks.rule_runs_out(end));
        assert!(!clocks.rule_runs_out(end), "a window's clock runs out once");
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
