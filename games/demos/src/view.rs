//! What one viewer may see. Hands are their owner's alone; commits are private until applied;
//! secret discards stay face down until the Unanimous reveal; face-down figures are seen by
//! their owner and teammates. Everything shown here is either public or belongs to the viewer,
//! which is what the conformance harness checks by re-dealing the rest.
//!
//! A team's consultation (a veto proposal and its confirmations) is visible to the team only:
//! the other teams and spectators see that the team is deciding (all its members waiting, its
//! window and deadline) and then the team's veto or pass, never which teammate proposed,
//! passed or confirmed.

use pandemonium_game_contract::{Seat, SeatSet, Viewer};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::actions::{Declaration, DemosAction, Take};
use crate::cards::{Card, Figure, Suit};
use crate::config::{DiscardOrder, Mode};
use crate::state::{
    Demos, ElectionView, MissedTake, RoundSummary, ScandalEvent, Step, Turn, VetoUsed,
};

/// The view of one seat, team, spectator or the omniscient replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct DemosView {
    pub viewer: Viewer,
    pub mode: Mode,
    pub discard_order: DiscardOrder,
    pub round_cap: u8,
    pub creators_suggestion: bool,
    /// The current round (0 before the first).
    pub round: u8,
    pub dealer: Seat,
    pub phase: Phase,
    /// Seats that still have to act in this step.
    pub waiting_for: Vec<Seat>,
    /// Cards left in the People's Pack.
    pub peoples_pack: u8,
    /// Figures left in the Power Pile.
    pub power_pile: u8,
    /// Vetoes left, per team (per seat in individual games).
    pub vetoes: Vec<u8>,
    /// The discards that may be taken now.
    pub visible_discards: Vec<Card>,
    pub players: Vec<PlayerView>,
    /// Your own commit in this simultaneous step, until it is applied.
    pub my_commit: Option<DemosAction>,
    /// Figures your team drew and is allocating now.
    pub drawn: Vec<Figure>,
    /// The veto used this round, if any.
    pub veto: Option<VetoUsed>,
    pub last_round: Option<RoundSummary>,
    pub scandal: Vec<ScandalEvent>,
    pub election: Option<ElectionView>,
    /// Whether your team's consultation window is open.
    pub team_chat_open: bool,
    /// Once the match is over (or for an omniscient replay): the pack and Power Pile, in order
    /// from the top.
    pub revealed: Option<Revealed>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct Revealed {
    pub peoples_pack: Vec<Card>,
    pub power_pile: Vec<Figure>,
}

/// The step of the match, with its public details.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "step")]
#[ts(export_to = "demos/")]
pub enum Phase {
    Declaration,
    Consultation,
    PublicDiscard,
    SecretDiscard,
    UnanimousDiscard,
    /// The side of `seat` decides whether to veto; `proposer` once a team member proposed.
    VetoPoll {
        seat: Seat,
        side: u8,
        proposer: Option<Seat>,
    },
    /// These sides are allocating this many figures.
    Allocation {
        sides: Vec<u8>,
        figures: Vec<u8>,
    },
    Scandal {
        holder: Seat,
    },
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct PlayerView {
    pub team: Option<u8>,
    pub points: u16,
    /// Points of each round played.
    pub round_points: Vec<u8>,
    /// Only your own hand (everyone's once the match is over).
    pub hand: Option<Vec<Card>>,
    /// This round's discard turns so far.
    pub turns: Vec<TurnView>,
    /// In acquisition order.
    pub figures: Vec<FigureView>,
    /// Creator's Suggestion, once everyone has declared.
    pub declaration: Option<Declaration>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct TurnView {
    pub turn: Turn,
    pub discard: DiscardView,
    /// The pack or the visible discard taken; `None` when the hand was kept.
    pub took: Option<Take>,
    /// Yours only: the visible discard you asked for, already taken by an earlier player, so
    /// you received the top card of the pack instead.
    pub wanted: Option<Card>,
    /// Who took this discard into their hand.
    pub taken_by: Option<Seat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[ts(export_to = "demos/")]
pub enum DiscardView {
    /// No discard: the hand was kept.
    Kept,
    FaceUp {
        card: Card,
    },
    /// `card` is shown to its owner only.
    FaceDown {
        card: Option<Card>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct FigureView {
    /// `None` when it is face down and not yours (or your team's) to see.
    pub figure: Option<Figure>,
    pub face_up: bool,
    /// The suit a Media gave it.
    pub media: Option<Suit>,
}

impl Demos {
    /// The view as a value. The server writes the same JSON without building it
    /// (`view_json.rs`); both take every field from the methods below.
    pub(crate) fn build_view(&self, viewer: Viewer) -> DemosView {
        DemosView {
            viewer,
            mode: self.mode(),
            discard_order: self.discard_order(),
            round_cap: self.rules.round_cap,
            creators_suggestion: self.rules.suggestion,
            round: self.round,
            dealer: self.dealer,
            phase: self.phase(viewer),
            waiting_for: self.waiting_seen_by(viewer).into(),
            peoples_pack: self.peoples_pack.len() as u8,
            power_pile: self.power_pile.len() as u8,
            vetoes: self.vetoes.clone(),
            visible_discards: self.visible_discards().collect(),
            players: (0..self.seats)
                .map(|seat| self.player_view(viewer, seat))
                .collect(),
            my_commit: self.commit_seen_by(viewer),
            drawn: self.drawn_seen_by(viewer).collect(),
            veto: self.veto.map(|v| self.veto_seen_by(viewer, v)),
            last_round: self.last_round.clone().map(|mut round| {
                round.veto = round.veto.map(|v| self.veto_seen_by(viewer, v));
                round.missed.retain(|m| self.sees_missed(viewer, m));
                round
            }),
            scandal: self.scandal.clone(),
            election: self.election.clone(),
            team_chat_open: self.team_chat_open_for(viewer),
            revealed: self.revealed_to(viewer),
        }
    }

    pub(crate) fn discard_order(&self) -> DiscardOrder {
        if self.rules.sequential {
            DiscardOrder::Sequential
        } else {
            DiscardOrder::Simultaneous
        }
    }

    /// Your own commit in this simultaneous step, until it is applied.
    pub(crate) fn commit_seen_by(&self, viewer: Viewer) -> Option<DemosAction> {
        match viewer {
            Viewer::Seat(seat) if seat < self.seats => self.commits[seat as usize],
            _ => None,
        }
    }

    /// The figures being allocated, to the sides allocating them.
    pub(crate) fn drawn_seen_by(&self, viewer: Viewer) -> impl Iterator<Item = Figure> + '_ {
        let all = self.sees_all(viewer);
        let pending = match &self.step {
            Step::Allocation { pending } => &pending[..],
            _ => &[],
        };
        pending
            .iter()
            .filter(move |p| all || self.is_of_side(viewer, p.side))
            .flat_map(|p| p.figures.iter().copied())
    }

    /// What someone asked for and did not get is theirs alone, like the turn's own record.
    pub(crate) fn sees_missed(&self, viewer: Viewer, missed: &MissedTake) -> bool {
        self.sees_hand(viewer, missed.seat)
    }

    pub(crate) fn team_chat_open_for(&self, viewer: Viewer) -> bool {
        match viewer {
            Viewer::Seat(seat) if seat < self.seats => {
                self.mode().is_team() && self.team_chat(self.side(seat))
            }
            Viewer::Team(team) => self.mode().is_team() && self.team_chat(team),
            _ => false,
        }
    }

    pub(crate) fn revealed_to(&self, viewer: Viewer) -> Option<Revealed> {
        self.sees_all(viewer).then(|| Revealed {
            peoples_pack: self.peoples_pack.iter().rev().copied().collect(),
            power_pile: self.power_pile.iter().rev().copied().collect(),
        })
    }

    /// Whether `side` consults as a team out of `viewer`'s sight: a team of two or more
    /// deciding together, seen by someone outside it while the match runs.
    pub(crate) fn discreet_from(&self, viewer: Viewer, side: u8) -> bool {
        self.mode().is_team()
            && self.members(side).len() > 1
            && !self.sees_all(viewer)
            && !self.is_of_side(viewer, side)
    }

    /// The side consulting in a veto poll or on a proposal, if the current step is one.
    fn polled_side(&self) -> Option<u8> {
        match &self.step {
            Step::VetoPoll { position, .. } | Step::VetoConfirmation { position, .. } => {
                Some(self.side(self.seat_at(*position)))
            }
            _ => None,
        }
    }

    /// Who is still to act. Outside a consulting team, the whole team is deciding until it
    /// has decided: who passed, proposed or confirmed is the team's business.
    pub(crate) fn waiting_seen_by(&self, viewer: Viewer) -> SeatSet {
        match self.polled_side() {
            Some(side) if self.discreet_from(viewer, side) => self.members(side),
            _ => self.waiting(),
        }
    }

    /// A spent veto names its proposer only inside the team (and always for individuals).
    pub(crate) fn veto_seen_by(&self, viewer: Viewer, veto: VetoUsed) -> VetoUsed {
        VetoUsed {
            by: veto.by.filter(|_| !self.discreet_from(viewer, veto.side)),
            ..veto
        }
    }

    pub(crate) fn phase(&self, viewer: Viewer) -> Phase {
        match &self.step {
            Step::Declaration { .. } => Phase::Declaration,
            Step::Consultation { .. } => Phase::Consultation,
            Step::Discard { turn, .. } => match turn {
                Turn::Public => Phase::PublicDiscard,
                Turn::Secret => Phase::SecretDiscard,
                Turn::Unanimous => Phase::UnanimousDiscard,
            },
            Step::VetoPoll { position, .. } => {
                let seat = self.seat_at(*position);
                Phase::VetoPoll {
                    seat,
                    side: self.side(seat),
                    proposer: None,
                }
            }
            Step::VetoConfirmation {
                position, proposer, ..
            } => {
                let seat = self.seat_at(*position);
                let side = self.side(seat);
                Phase::VetoPoll {
                    seat,
                    side,
                    proposer: (!self.discreet_from(viewer, side)).then_some(*proposer),
                }
            }
            Step::Allocation { pending } => Phase::Allocation {
                sides: pending.iter().map(|p| p.side).collect(),
                figures: pending.iter().map(|p| p.figures.len() as u8).collect(),
            },
            Step::Scandal { position } => Phase::Scandal {
                holder: self.seat_at(*position),
            },
            Step::Over => Phase::Over,
        }
    }

    fn player_view(&self, viewer: Viewer, seat: Seat) -> PlayerView {
        let player = &self.players[seat as usize];
        PlayerView {
            team: self.team_of(seat),
            points: player.points,
            round_points: player.round_points.clone(),
            hand: self.hand_seen_by(viewer, seat).map(<[Card]>::to_vec),
            turns: self.turns_seen_by(viewer, seat).collect(),
            figures: self.figures_seen_by(viewer, seat).collect(),
            declaration: player.declaration,
        }
    }

    pub(crate) fn team_of(&self, seat: Seat) -> Option<u8> {
        self.rules.teams.as_ref().map(|t| t[seat as usize])
    }

    /// Only your own hand (everyone's once the match is over).
    pub(crate) fn hand_seen_by(&self, viewer: Viewer, seat: Seat) -> Option<&[Card]> {
        self.sees_hand(viewer, seat)
            .then(|| &self.players[seat as usize].hand[..])
    }

    /// This round's discard turns of `seat` so far; a face-down card is shown to its owner.
    pub(crate) fn turns_seen_by(
        &self,
        viewer: Viewer,
        seat: Seat,
    ) -> impl Iterator<Item = TurnView> + '_ {
        let player = &self.players[seat as usize];
        let own = self.sees_hand(viewer, seat);
        [Turn::Public, Turn::Secret, Turn::Unanimous]
            .into_iter()
            .filter_map(move |turn| {
                let record = player.turns[turn as usize]?;
                let discard = match record.discard {
                    None => DiscardView::Kept,
                    Some(card) if record.revealed => DiscardView::FaceUp { card },
                    Some(card) => DiscardView::FaceDown {
                        card: own.then_some(card),
                    },
                };
                Some(TurnView {
                    turn,
                    discard,
                    took: record.took,
                    wanted: record.wanted.filter(|_| own),
                    taken_by: record.taken_by,
                })
            })
    }

    /// `seat`'s figures in acquisition order, face-down ones hidden from outside its side.
    pub(crate) fn figures_seen_by(
        &self,
        viewer: Viewer,
        seat: Seat,
    ) -> impl Iterator<Item = FigureView> + '_ {
        let seen = self.sees_figures_of(viewer, seat);
        self.players[seat as usize]
            .figures
            .iter()
            .map(move |held| FigureView {
                figure: (held.face_up || seen).then_some(held.figure),
                face_up: held.face_up,
                media: held.media,
            })
    }
}
