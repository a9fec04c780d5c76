//! The `Game` contract: dispatching actions to the step under way, who is to act, legal
//! actions, defaults and the consultation windows' deadlines.

use pandemonium_game_contract::{
    Chance, ConfigError, Conformance, Game, GameInfo, Outcome, RuleClock, Seat, SeatSet,
    SharedRefusal, Viewer,
};

use crate::actions::{AllocationTargets, Declaration, DemosAction, DemosError, Take};
use crate::cards::{Card, Suit};
use crate::config::{DemosConfig, DiscardOrder, MAX_ROUND_CAP, Mode, Rules, option_specs};
use crate::state::{Demos, Step};
use crate::view::DemosView;
use crate::view_json::ViewJson;

/// The rules' consultation windows: 15 seconds.
pub const CONSULTATION_SECONDS: u32 = 15;

impl Demos {
    /// The seats that must act in the current step.
    pub(crate) fn waiting(&self) -> SeatSet {
        match &self.step {
            Step::Declaration { waiting }
            | Step::Consultation { waiting }
            | Step::Discard { waiting, .. } => *waiting,
            Step::VetoPoll { .. } | Step::VetoConfirmation { .. } => self.poll_to_act(),
            Step::Allocation { pending } => pending
                .iter()
                .flat_map(|p| self.members(p.side).iter())
                .collect(),
            Step::Scandal { position } => SeatSet::only(self.seat_at(*position)),
            Step::Over => SeatSet::EMPTY,
        }
    }

    /// Whether `seat` has a decision to make now: the match is on and the step waits for it.
    fn deciding(&self, seat: Seat) -> bool {
        self.outcome.is_none() && self.waiting().contains(seat)
    }

    /// The side deciding in the current step through a team consultation window, if any.
    fn consulting(&self, side: u8) -> bool {
        let team = |s: u8| self.members(s).len() > 1;
        match &self.step {
            Step::Consultation { .. } => team(side),
            Step::VetoPoll { position, .. } | Step::VetoConfirmation { position, .. } => {
                self.side(self.seat_at(*position)) == side && team(side)
            }
            Step::Allocation { pending } => pending.iter().any(|p| p.side == side),
            _ => false,
        }
    }

    /// Names the current window of play: the round, the kind of step and whose position it
    /// is. A veto poll and its confirmation are one window (one collective decision), so a
    /// proposal does not give the team a fresh 15 seconds.
    fn window(&self) -> u64 {
        let (kind, position) = match &self.step {
            Step::Declaration { .. } => (1, 0),
            Step::Consultation { .. } => (2, 0),
            Step::Discard { turn, position, .. } => (3 + *turn as u64, *position),
            Step::VetoPoll { position, .. } | Step::VetoConfirmation { position, .. } => {
                (6, *position)
            }
            Step::Allocation { .. } => (7, 0),
            Step::Scandal { position } => (8, *position),
            Step::Over => (9, 0),
        };
        (self.round as u64) << 16 | kind << 8 | position as u64
    }

    pub(crate) fn team_chat(&self, side: u8) -> bool {
        self.mode().is_team() && self.consulting(side)
    }

    fn check(&self, seat: Seat, action: &DemosAction) -> Result<(), DemosError> {
        if self.outcome.is_some() {
            return Err(DemosError::Shared(SharedRefusal::MatchOver));
        }
        if !self.waiting().contains(seat) || seat >= self.seats {
            return Err(DemosError::Shared(SharedRefusal::NotYourTurn));
        }
        match (&self.step, action) {
            (Step::Declaration { .. }, DemosAction::Declare { .. }) => Ok(()),
            (Step::Consultation { .. }, DemosAction::Proceed) => Ok(()),
            (Step::Discard { turn, .. }, _) => self.check_discard(seat, *turn, action),
            (Step::VetoPoll { .. }, DemosAction::Veto | DemosAction::Pass) => Ok(()),
            (
                Step::VetoConfirmation { .. },
                DemosAction::ConfirmVeto | DemosAction::DeclineVeto,
            ) => Ok(()),
            (Step::Allocation { .. }, DemosAction::Allocate { to }) => {
                self.check_allocation(seat, to)
            }
            (
                Step::Scandal { .. },
                DemosAction::Media {
                    target, position, ..
                },
            ) => self.check_media(seat, *target, *position),
            _ => Err(DemosError::WrongStep),
        }
    }

    fn perform(&mut self, seat: Seat, action: DemosAction, chance: &mut dyn Chance) {
        match (&mut self.step, action) {
            (Step::Declaration { waiting }, _) => {
                waiting.remove(seat);
                let done = waiting.is_empty();
                self.commits[seat as usize] = Some(action);
                if done {
                    // Everyone has declared: the declarations are announced together.
                    for (player, commit) in self.players.iter_mut().zip(&mut self.commits) {
                        if let Some(DemosAction::Declare { declaration }) = commit.take() {
                            player.declaration = Some(declaration);
                        }
                    }
                    self.start_round(chance);
                }
            }
            (Step::Consultation { waiting }, _) => {
                waiting.remove(seat);
                if waiting.is_empty() {
                    self.deal(chance);
                }
            }
            (Step::Discard { .. }, _) => self.perform_discard(seat, action, chance),
            (Step::VetoPoll { .. } | Step::VetoConfirmation { .. }, _) => {
                self.perform_poll(seat, action, chance)
            }
            (Step::Allocation { .. }, DemosAction::Allocate { to }) => {
                self.perform_allocation(seat, &to, chance)
            }
            (
                Step::Scandal { .. },
                DemosAction::Media {
                    target,
                    position,
                    suit,
                },
            ) => self.perform_media(seat, target, position, suit),
            _ => unreachable!("checked before performing"),
        }
    }

    fn declarations() -> impl Iterator<Item = Declaration> {
        Suit::ALL.into_iter().flat_map(|favourite| {
            (0..64).map(move |i| Declaration {
                favourite,
                trio: [Suit::ALL[i / 16], Suit::ALL[i / 4 % 4], Suit::ALL[i % 4]],
            })
        })
    }

    /// The default declaration: spades, and the tricolour trio E♠ L♥ J♦.
    fn default_declaration() -> Declaration {
        Declaration {
            favourite: Suit::Spades,
            trio: [Suit::Spades, Suit::Hearts, Suit::Diamonds],
        }
    }
}

impl Game for Demos {
    type Config = DemosConfig;
    type Action = DemosAction;
    type View = DemosView;
    type Error = DemosError;

    const RULES_PAGE: &'static str = include_str!("../RULES.md");

    fn info() -> GameInfo {
        GameInfo {
            id: "demos".into(),
            name: "DēmoS".into(),
            short_name: "DēmoS".into(),
            min_seats: 3,
            max_seats: 5,
            description: "Win rounds with sequences of the People's Pack, collect the figures \
                          of power and present the most harmonious E-L-J trio."
                .into(),
            options: option_specs(),
            teams: true,
            real_time: false,
            board: None,
            score_unit: "cumulative points from the rounds".into(),
            glyph: "⚖".into(),
            hue: 205,
        }
    }

    fn new(config: &DemosConfig, seats: u8, chance: &mut dyn Chance) -> Result<Demos, ConfigError> {
        Demos::shuffled(config, seats, chance)
    }

    fn to_act(&self) -> SeatSet {
        self.waiting()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<DemosAction> {
        if !self.deciding(seat) {
            return Vec::new();
        }
        match &self.step {
            Step::Declaration { .. } => {
                let default = Demos::default_declaration();
                std::iter::once(default)
                    .chain(Demos::declarations().filter(|d| *d != default))
                    .map(|declaration| DemosAction::Declare { declaration })
                    .collect()
            }
            Step::Consultation { .. } => vec![DemosAction::Proceed],
            Step::Discard { turn, .. } => self.discard_actions(seat, *turn),
            Step::VetoPoll { .. } => vec![DemosAction::Pass, DemosAction::Veto],
            Step::VetoConfirmation { .. } => {
                vec![DemosAction::DeclineVeto, DemosAction::ConfirmVeto]
            }
            Step::Allocation { .. } => self
                .allocation_actions(seat)
                .into_iter()
                .map(|to| DemosAction::Allocate { to })
                .collect(),
            Step::Scandal { .. } => self.media_actions(seat),
            Step::Over => Vec::new(),
        }
    }

    fn write_legal(&self, seat: Seat, out: &mut Vec<u8>) {
        match self.step {
            // The discard turns' long lists are written; the others are short.
            Step::Discard { turn, .. } if self.deciding(seat) => {
                self.write_discard_actions(seat, turn, out);
            }
            _ => serde_json::to_writer(out, &self.legal_actions(seat)).expect("actions serialise"),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &DemosAction,
        chance: &mut dyn Chance,
    ) -> Result<(), DemosError> {
        self.check(seat, action)?;
        self.perform(seat, *action, chance);
        Ok(())
    }

    /// Outside a team consulting on a veto, the whole team is shown as deciding: who proposed
    /// it (or already passed) is the team's own business.
    fn to_act_seen_by(&self, viewer: Viewer) -> SeatSet {
        self.waiting_seen_by(viewer)
    }

    fn view(&self, viewer: Viewer) -> DemosView {
        self.build_view(viewer)
    }

    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>) {
        ViewJson { game: self, viewer }.write(out);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// The rules' defaults: no veto, decline a proposal, figures to the round's winning
    /// player, end the consultation. Discard turns default to the first card in hand and the
    /// pack, or keeping the hand where the complete game allows it.
    fn default_action(&self, seat: Seat) -> Option<DemosAction> {
        if let Step::Allocation { .. } = self.step {
            return self
                .default_allocation(seat)
                .map(|to| DemosAction::Allocate { to });
        }
        if let Step::Declaration { .. } = self.step {
            return self.waiting().contains(seat).then(|| DemosAction::Declare {
                declaration: Demos::default_declaration(),
            });
        }
        self.legal_actions(seat).first().copied()
    }

    fn rule_deadline(&self) -> Option<RuleClock> {
        let consulting = (0..self.seats).any(|s| self.team_chat(self.side(s)));
        consulting.then(|| RuleClock {
            window: self.window(),
            seconds: CONSULTATION_SECONDS,
        })
    }

    fn teams(&self) -> Option<Vec<u8>> {
        self.rules.teams.clone()
    }

    fn team_chat_open(&self, team: u8) -> bool {
        self.team_chat(team)
    }
}

impl Conformance for Demos {
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> Demos {
        self.redealt(viewer, chance)
    }

    fn arbitrary_action(&self, chance: &mut dyn Chance) -> DemosAction {
        // Half the time a legal action of some seat to act (so acceptance is exercised), half
        // the time anything at all.
        let to_act: Vec<Seat> = self.waiting().iter().collect();
        if !to_act.is_empty() && chance.below(2) == 0 {
            let seat = to_act[chance.below(to_act.len() as u32) as usize];
            let legal = self.legal_actions(seat);
            if !legal.is_empty() {
                return legal[chance.below(legal.len() as u32) as usize];
            }
        }
        let card =
            |chance: &mut dyn Chance| Card::all().nth(chance.below(40) as usize).expect("40");
        let suit = |chance: &mut dyn Chance| Suit::ALL[chance.below(4) as usize];
        let take = |chance: &mut dyn Chance| {
            if chance.below(2) == 0 {
                Take::Pack
            } else {
                Take::Discard(card(chance))
            }
        };
        match chance.below(12) {
            0 => DemosAction::Proceed,
            1 => DemosAction::Declare {
                declaration: Declaration {
                    favourite: suit(chance),
                    trio: [suit(chance), suit(chance), suit(chance)],
                },
            },
            2 => DemosAction::PublicDiscard { card: card(chance) },
            3 => DemosAction::SecretDiscard {
                card: card(chance),
                take: take(chance),
            },
            4 => DemosAction::UnanimousDiscard {
                card: card(chance),
                take: take(chance),
            },
            5 => DemosAction::KeepHand,
            6 => DemosAction::Veto,
            7 => DemosAction::Pass,
            8 => DemosAction::ConfirmVeto,
            9 => DemosAction::DeclineVeto,
            10 => {
                let len = chance.below(3) as usize;
                let seats: Vec<Seat> = (0..len).map(|_| chance.below(6) as Seat).collect();
                DemosAction::Allocate {
                    to: AllocationTargets::new(&seats),
                }
            }
            _ => DemosAction::Media {
                target: chance.below(6) as Seat,
                position: chance.below(8) as u8,
                suit: suit(chance),
            },
        }
    }

    /// Per round: a consultation, three discard turns, a veto poll in which each seat answers
    /// at most twice (a pass or a proposal, then a confirmation), up to three allocations;
    /// plus the declarations and the Media.
    fn max_actions(config: &DemosConfig, seats: u8) -> usize {
        let rounds = Rules::new(config, seats).map_or(MAX_ROUND_CAP, |r| r.round_cap) as usize;
        let n = seats as usize;
        n + rounds * (4 * n + 2 * n + 3) + 2 + 1
    }

    fn conformance_configs() -> Vec<(DemosConfig, u8)> {
        let mut configs = Vec::new();
        let orders = [DiscardOrder::Simultaneous, DiscardOrder::Sequential];
        for order in orders {
            for mode in [Mode::Simplified, Mode::Complete] {
                for seats in 3..=5 {
                    configs.push((
                        DemosConfig {
                            mode,
                            discard_order: order,
                            ..DemosConfig::default()
                        },
                        seats,
                    ));
                }
            }
            for (mode, seats) in [
                (Mode::Team2v2, 4),
                (Mode::Team2v3, 5),
                (Mode::Team2v2Plus1, 5),
            ] {
                configs.push((
                    DemosConfig {
                        mode,
                        discard_order: order,
                        ..DemosConfig::default()
                    },
                    seats,
                ));
            }
        }
        let suggestion = |mode, seats, teams: Option<Vec<u8>>| {
            (
                DemosConfig {
                    mode,
                    creators_suggestion: true,
                    teams,
                    ..DemosConfig::default()
                },
                seats,
            )
        };
        for (mode, seats) in [(Mode::Team2v3, 5), (Mode::Team2v2Plus1, 5)] {
            configs.push((
                DemosConfig {
                    mode,
                    seating: crate::config::Seating::Drawn,
                    ..DemosConfig::default()
                },
                seats,
            ));
        }
        configs.push(suggestion(Mode::Complete, 4, None));
        configs.push(suggestion(Mode::Simplified, 3, None));
        configs.push(suggestion(Mode::Team2v2Plus1, 5, Some(vec![2, 0, 0, 1, 1])));
        configs.push(suggestion(Mode::Team2v3, 5, Some(vec![1, 1, 0, 0, 0])));
        configs.push((
            DemosConfig {
                mode: Mode::Team2v2,
                teams: Some(vec![0, 0, 1, 1]),
                round_cap: Some(3),
                ..DemosConfig::default()
            },
            4,
        ));
        configs
    }
}
