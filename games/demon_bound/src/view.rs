//! What one viewer may see: their own hand (and, while their Treasure Scrying lasts, the hand
//! it peeks at), everything on the table, hand and draw pile sizes, the whole discard pile, the
//! peeks their scrying made, and the log with other people's stolen diamonds left out.
//! Spectators see the table only. Once the match is over everyone sees everything.

use pandemonium_game_contract::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::Card;
use crate::log::Event;
use crate::state::{DemonBound, Ending, Peek, Pending, SetupChoice, Step};

/// The view of one seat, a spectator or the omniscient replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demon_bound/")]
pub struct DemonBoundView {
    pub viewer: Viewer,
    /// One seat: the solitaire rules.
    pub solitaire: bool,
    pub jokers: u8,
    pub marcus_king: bool,
    pub round_cap: Option<u16>,
    pub reshuffle_cap: Option<u8>,
    pub phase: Phase,
    /// Whose turn it is (after the setup).
    pub turn: Option<Seat>,
    /// Seats that must act now.
    pub to_act: Vec<Seat>,
    /// Full rounds played.
    pub rounds: u16,
    pub reshuffles: u8,
    pub draw_pile: u8,
    /// The whole discard pile, bottom first (it is public).
    pub discard_pile: Vec<Card>,
    pub players: Vec<PlayerView>,
    /// Your own secret setup choice, until the reveal.
    pub my_setup: Option<SetupChoice>,
    /// The demons before the player in turn when the turn began: the ones they may bind,
    /// appease or banish this turn.
    pub turn_start_threats: Vec<Card>,
    /// The strongest of those, if still there: it marks the soul unless dealt with.
    pub active_threat: Option<Card>,
    /// Demons waiting for their target, first to be sent first.
    pub pending: Vec<Pending>,
    /// Yours only: what your Treasure Scrying showed you this turn.
    pub peeks: Vec<Peek>,
    /// The latest events, oldest first; `first_event` is the number of the first one shown.
    pub log: Vec<Event>,
    pub first_event: u32,
    pub ending: Option<Ending>,
    /// Once the match is over (or in an omniscient replay): the draw pile, top first.
    pub revealed_draw_pile: Option<Vec<Card>>,
}

/// The step of the match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "step")]
#[ts(export_to = "demon_bound/")]
pub enum Phase {
    /// Everyone chooses a sacrifice or a random discard in secret.
    Setup,
    /// The player in turn may play a card (if `card_played` is false) and banish.
    Play {
        card_played: bool,
    },
    /// A spell is being cast: `left` effects remain. Treasure Scrying: `scrying` is the hand
    /// being peeked at, `scried` every hand peeked at.
    Spell {
        card: Card,
        left: u8,
        scrying: Option<Seat>,
        scried: Vec<Seat>,
    },
    /// The player in turn discards at least `at_least` cards.
    Discard {
        at_least: u8,
    },
    /// Someone must choose the target of the first pending demon.
    Decision {
        decider: Seat,
    },
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "demon_bound/")]
pub struct PlayerView {
    /// Only a hand you may see.
    pub hand: Option<Vec<Card>>,
    pub hand_size: u8,
    pub sacrifice: Vec<Card>,
    pub sacrifice_total: u32,
    /// Demons before this player, in arrival order.
    pub threats: Vec<Card>,
    /// Bound demons (to the player's right).
    pub bound: Vec<Card>,
    /// Diamonds (to the player's left).
    pub treasury: Vec<Card>,
    pub wealth: u32,
    pub stain: u8,
    /// Carried away to hell.
    pub out: bool,
    /// Setup: whether this player has made their secret choice.
    pub chosen: bool,
}

impl DemonBound {
    pub(crate) fn build_view(&self, viewer: Viewer) -> DemonBoundView {
        let all = self.sees_all(viewer);
        let players = (0..self.seats)
            .map(|s| {
                let p = self.player(s);
                PlayerView {
                    hand: self.sees_hand(viewer, s).then(|| p.hand.clone()),
                    hand_size: p.hand.len() as u8,
                    sacrifice: p.sacrifice.clone(),
                    sacrifice_total: p.sacrifice_total(),
                    threats: p.threats.clone(),
                    bound: p.bound.clone(),
                    treasury: p.treasury.clone(),
                    wealth: p.wealth(),
                    stain: p.stain,
                    out: p.out.is_some(),
                    chosen: self.step == Step::Setup && p.commit.is_some(),
                }
            })
            .collect();
        let me = match viewer {
            Viewer::Seat(s) if s < self.seats => Some(s),
            _ => None,
        };
        let in_turn = !matches!(self.step, Step::Setup | Step::Over) && self.outcome.is_none();
        DemonBoundView {
            viewer,
            solitaire: self.solitaire(),
            jokers: self.config.jokers,
            marcus_king: self.config.marcus_king,
            round_cap: self.config.round_cap,
            reshuffle_cap: self.config.reshuffle_cap,
            phase: self.phase(),
            turn: in_turn.then_some(self.turn),
            to_act: self.waiting().iter().collect(),
            rounds: self.rounds,
            reshuffles: self.reshuffles,
            draw_pile: self.draw.len() as u8,
            discard_pile: self.discard.clone(),
            players,
            my_setup: me.and_then(|s| self.player(s).commit),
            turn_start_threats: if in_turn {
                self.turn_start.clone()
            } else {
                Vec::new()
            },
            active_threat: self
                .active
                .filter(|d| in_turn && self.player(self.turn).threats.contains(d)),
            pending: self.pending.clone(),
            peeks: me.map_or_else(Vec::new, |s| self.player(s).peeks.clone()),
            log: self
                .log
                .iter()
                .map(|event| redact(event, viewer, all))
                .collect(),
            first_event: self.logged - self.log.len() as u32,
            ending: self.ending,
            revealed_draw_pile: all.then(|| self.draw.iter().rev().copied().collect()),
        }
    }

    fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            return Phase::Over;
        }
        if let Some(p) = self.pending.first() {
            return Phase::Decision { decider: p.decider };
        }
        match &self.step {
            Step::Setup => Phase::Setup,
            Step::Play { played } => Phase::Play {
                card_played: *played,
            },
            Step::Spell {
                card,
                left,
                scrying,
                scried,
            } => Phase::Spell {
                card: *card,
                left: *left,
                scrying: *scrying,
                scried: scried.iter().collect(),
            },
            Step::Discard => Phase::Discard {
                at_least: self.required_discards(self.turn) as u8,
            },
            Step::Releasing | Step::Over => Phase::Over,
        }
    }
}

/// An event as `viewer` may read it: diamonds stolen from a hand are named to the thief and
/// the victim only.
fn redact(event: &Event, viewer: Viewer, all: bool) -> Event {
    match event {
        Event::Stole {
            seat,
            from: Some(victim),
            count,
            ..
        } if !all && viewer != Viewer::Seat(*seat) && viewer != Viewer::Seat(*victim) => {
            Event::Stole {
                seat: *seat,
                from: Some(*victim),
                count: *count,
                cards: Vec::new(),
            }
        }
        other => other.clone(),
    }
}
