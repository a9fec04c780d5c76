//! The state of a match: the table, each player's hand and figures, and the step the match is
//! at. Everything here is plain data plus the queries the other modules share (sides, order,
//! who sees what); the rules that change it live in `turns`, `resolution` and `finale`.

use pandemonium_game_contract::{Outcome, Seat, SeatSet, Viewer};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::actions::{Declaration, DemosAction, Take};
use crate::cards::{Card, Figure};
use crate::config::{INDEPENDENT, Mode, Rules};
use crate::harmony::{Election, Held, Trio};
use crate::scoring::{Combination, DecidedBy};

/// The three discard turns of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "demos/")]
pub enum Turn {
    Public,
    Secret,
    Unanimous,
}

/// What one player did in one discard turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TurnRecord {
    /// `None`: the player kept their hand.
    pub discard: Option<Card>,
    /// Where the replacement came from; `None` when the hand was kept.
    pub took: Option<Take>,
    /// The visible discard the player asked for but an earlier player took: they received the
    /// top of the pack instead. Told to that player only.
    pub wanted: Option<Card>,
    /// Face up on the table: always for a public discard, after the Unanimous reveal for a
    /// secret one, never for a unanimous one.
    pub revealed: bool,
    /// Who took this card back into a hand.
    pub taken_by: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Player {
    pub hand: Vec<Card>,
    pub points: u16,
    pub round_points: Vec<u8>,
    /// Figures in acquisition order.
    pub figures: Vec<Held>,
    pub declaration: Option<Declaration>,
    /// This round's discard turns, indexed by [`Turn`].
    pub turns: [Option<TurnRecord>; 3],
}

/// Figures a team drew and must hand out to its members during the allocation window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingAllocation {
    pub side: u8,
    pub figures: Vec<Figure>,
    /// The round's winning player of that team: who gets the figures by default.
    pub winner: Seat,
}

/// Where the match stands. Steps that wait on several seats keep them in a set; steps that
/// follow the clockwise order keep a position counted from the dealer's left.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// Creator's Suggestion: simultaneous private declarations before the first round.
    Declaration {
        waiting: SeatSet,
    },
    /// Team modes: the 15 s consultation at the start of a round, before the deal.
    Consultation {
        waiting: SeatSet,
    },
    /// A discard turn: simultaneous (everyone in `waiting` commits) or sequential (`waiting`
    /// is the seat at `position`).
    Discard {
        turn: Turn,
        waiting: SeatSet,
        position: u8,
    },
    /// The side of the seat at `position` decides whether to veto; `passed` holds team members
    /// who already said no.
    VetoPoll {
        position: u8,
        passed: SeatSet,
    },
    /// A team member proposed the team's veto; every teammate must confirm.
    VetoConfirmation {
        position: u8,
        proposer: Seat,
        confirmed: SeatSet,
    },
    Allocation {
        pending: Vec<PendingAllocation>,
    },
    /// The Media holder at `position` (from the left of the last round's dealer) acts.
    Scandal {
        position: u8,
    },
    Over,
}

/// A veto used this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct VetoUsed {
    /// The team (or, in individual games, the seat) whose veto was spent.
    pub side: u8,
    /// The player who vetoed (in a team: who proposed it). A team's consultation is its own
    /// business: outside the team only the team is named, and this is `None`.
    pub by: Option<Seat>,
}

/// A side's figure draw at a resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct Draw {
    pub side: u8,
    pub count: u8,
}

/// The public result of a round's resolution: revealed combinations, points, the winner and
/// the tie-break level that decided it. Unplayed cards and tie-break values stay secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct RoundSummary {
    pub round: u8,
    pub dealer: Seat,
    /// Per seat; `None` for a forfeit.
    pub combinations: Vec<Option<Combination>>,
    /// The round's winning players, in dealing order.
    pub winners: Vec<Seat>,
    /// `None` when everyone forfeited.
    pub decided_by: Option<DecidedBy>,
    pub veto: Option<VetoUsed>,
    pub draws: Vec<Draw>,
    /// Players who had to turn a figure face up after a Harmonious Square.
    pub square_reveals: Vec<Seat>,
    /// Visible discards asked for this round but taken first by an earlier player, so the
    /// player received the pack's top card instead. Private like the turn's own record: each
    /// seat sees its own (everyone's once the match is over). Kept here because the simplified
    /// game deals the next round at once, clearing the turns that carried it.
    #[serde(default)]
    pub missed: Vec<MissedTake>,
}

/// A visible discard a player asked for and did not get.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct MissedTake {
    pub seat: Seat,
    pub turn: Turn,
    pub wanted: Card,
}

/// What happened to a Media in the Scandal Phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[ts(export_to = "demos/")]
pub enum ScandalEvent {
    /// The holder had both Media: they cancel and are discarded.
    Cancelled { holder: Seat },
    /// The Independent holds both: they cancel but stay face up in front of them.
    KeptFaceUp { holder: Seat },
    Targeted {
        holder: Seat,
        target: Seat,
        position: u8,
        suit: crate::cards::Suit,
    },
    /// No other player had a face-down figure: the action is lost.
    Lost { holder: Seat },
}

/// The Election as every view shows it once the match is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "demos/")]
pub struct ElectionView {
    pub result: Election,
    /// The trio each seat presents; `None` when it has none.
    pub trios: Vec<Option<Trio>>,
}

/// A match of DēmoS.
#[derive(Debug, Clone, PartialEq)]
pub struct Demos {
    pub(crate) rules: Rules,
    pub(crate) seats: u8,
    pub(crate) dealer: Seat,
    /// The number of the current round (0 before the first).
    pub(crate) round: u8,
    /// The People's Pack, top card last.
    pub(crate) peoples_pack: Vec<Card>,
    /// The Power Pile, top figure last.
    pub(crate) power_pile: Vec<Figure>,
    pub(crate) players: Vec<Player>,
    /// Vetoes left per side.
    pub(crate) vetoes: Vec<u8>,
    pub(crate) step: Step,
    /// Private commits of a simultaneous step, per seat.
    pub(crate) commits: Vec<Option<DemosAction>>,
    pub(crate) veto: Option<VetoUsed>,
    pub(crate) last_round: Option<RoundSummary>,
    pub(crate) scandal: Vec<ScandalEvent>,
    pub(crate) election: Option<ElectionView>,
    pub(crate) outcome: Option<Outcome>,
    /// Test rigging: the People's Pack of each coming round, top card first.
    pub(crate) rigged_decks: Vec<Vec<Card>>,
}

impl Demos {
    pub(crate) fn mode(&self) -> Mode {
        self.rules.mode
    }

    /// The side a seat plays for: its team in team modes, itself otherwise.
    pub(crate) fn side(&self, seat: Seat) -> u8 {
        match &self.rules.teams {
            Some(teams) => teams[seat as usize],
            None => seat,
        }
    }

    pub(crate) fn members(&self, side: u8) -> SeatSet {
        (0..self.seats).filter(|&s| self.side(s) == side).collect()
    }

    pub(crate) fn is_independent(&self, seat: Seat) -> bool {
        self.mode() == Mode::Team2v2Plus1 && self.side(seat) == INDEPENDENT
    }

    /// The seat `position` places clockwise from the dealer's left: every action starts there.
    pub(crate) fn seat_at(&self, position: u8) -> Seat {
        (self.dealer + 1 + position) % self.seats
    }

    pub(crate) fn position_of(&self, seat: Seat) -> u8 {
        (seat + self.seats - self.dealer - 1) % self.seats
    }

    /// Seats in dealing order: clockwise from the dealer's left.
    pub(crate) fn dealing_order(&self) -> impl Iterator<Item = Seat> + use<> {
        let (dealer, seats) = (self.dealer, self.seats);
        (0..seats).map(move |p| (dealer + 1 + p) % seats)
    }

    /// Public discards nobody took and revealed secret discards: the "Visible Discards" a
    /// player may take, in seat then turn order.
    pub(crate) fn visible_discards(&self) -> impl Iterator<Item = Card> + '_ {
        self.players.iter().flat_map(|p| {
            p.turns.iter().flatten().filter_map(|r| {
                (r.revealed && r.taken_by.is_none())
                    .then_some(r.discard)
                    .flatten()
            })
        })
    }

    /// Takes a visible discard into `by`'s hand's record; false if it is no longer there.
    pub(crate) fn take_visible(&mut self, card: Card, by: Seat) -> bool {
        for player in &mut self.players {
            for record in player.turns.iter_mut().flatten() {
                if record.revealed && record.taken_by.is_none() && record.discard == Some(card) {
                    record.taken_by = Some(by);
                    return true;
                }
            }
        }
        false
    }

    /// Once the match is over every view reveals everything; `Omniscient` always does.
    pub(crate) fn sees_all(&self, viewer: Viewer) -> bool {
        viewer == Viewer::Omniscient || self.outcome.is_some()
    }

    /// Hands are never shared, not even with teammates.
    pub(crate) fn sees_hand(&self, viewer: Viewer, seat: Seat) -> bool {
        self.sees_all(viewer) || viewer == Viewer::Seat(seat)
    }

    /// Face-down figures are seen by their owner and, in team modes, by the owner's team
    /// (proposal 16).
    pub(crate) fn sees_figures_of(&self, viewer: Viewer, owner: Seat) -> bool {
        if self.sees_all(viewer) {
            return true;
        }
        match viewer {
            Viewer::Seat(seat) => {
                seat == owner
                    || (self.mode().is_team()
                        && seat < self.seats
                        && self.side(seat) == self.side(owner))
            }
            Viewer::Team(team) => self.mode().is_team() && self.side(owner) == team,
            _ => false,
        }
    }

    /// Whether `viewer` belongs to `side` (and so sees what the side draws).
    pub(crate) fn is_of_side(&self, viewer: Viewer, side: u8) -> bool {
        match viewer {
            Viewer::Seat(seat) => seat < self.seats && self.side(seat) == side,
            Viewer::Team(team) => self.mode().is_team() && team == side,
            _ => false,
        }
    }
}
