//! The game log: what happened, in the order it happened, for people to read ("Bea summoned
//! 9S onto Ari's sacrifice"). The state keeps the latest events; a view shows them to each
//! viewer with what that viewer may not see taken out (which diamonds a scrying took).

use pandemonium_game_contract::Seat;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::Card;

/// How many events the state keeps (and views show).
pub const LOG_LENGTH: usize = 12;

/// One event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[ts(export_to = "demon_bound/")]
pub enum Event {
    /// The setup choices, revealed together: a sacrifice, or the random card discarded.
    SetupRevealed {
        seat: Seat,
        sacrifice: Option<Card>,
        discarded: Option<Card>,
    },
    /// Who goes first; `by_lot` when the high sacrifice was tied or nobody sacrificed.
    FirstPlayer {
        seat: Seat,
        by_lot: bool,
    },
    /// A turn began: the hand was refreshed with `drew` cards.
    TurnBegan {
        seat: Seat,
        drew: u8,
        reshuffled: bool,
    },
    Sacrificed {
        seat: Seat,
        card: Card,
    },
    Summoned {
        seat: Seat,
        demon: Card,
        onto: Seat,
    },
    /// The sacrifice was enough: the demon is appeased and waits for its target.
    AutoAppeased {
        demon: Card,
        sacrificer: Seat,
    },
    /// `seat` appeased `demon` with `card`.
    Appeased {
        seat: Seat,
        demon: Card,
        card: Card,
    },
    /// An appeased or released demon attacks `target` (`None`: discarded, in solitaire).
    Attacks {
        demon: Card,
        by: Seat,
        target: Option<Seat>,
    },
    Bound {
        seat: Seat,
        demon: Card,
        card: Card,
    },
    Banished {
        seat: Seat,
        demon: Card,
        freed: Card,
    },
    Treasure {
        seat: Seat,
        card: Card,
        released: Vec<Card>,
    },
    Cast {
        seat: Seat,
        card: Card,
    },
    /// Demonic Visage: a demon banished from before (or bound to) `from`.
    SpellBanished {
        seat: Seat,
        demon: Card,
        from: Seat,
    },
    /// Royal Sacrifice: a demon sent to attack `onto`.
    SpellSummoned {
        seat: Seat,
        demon: Card,
        onto: Seat,
    },
    /// The Master's Voice: a demon taken from before (or bound to) `from`.
    SpellBound {
        seat: Seat,
        demon: Card,
        from: Seat,
    },
    Scried {
        seat: Seat,
        target: Seat,
    },
    /// Treasure Scrying took `count` diamonds from `from` (`None`: the discard pile). `cards`
    /// is shown to the caster and the victim only (to everyone for the discard pile).
    Stole {
        seat: Seat,
        from: Option<Seat>,
        count: u8,
        cards: Vec<Card>,
    },
    /// The active threat marked `seat`'s soul and was discarded.
    Stained {
        seat: Seat,
        demon: Card,
        stain: u8,
    },
    Discarded {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Hell's Maw: a Joker (or the Marcus King) discarded by `seat` (`None`: turned up in
    /// solitaire) dealt these demons as threats.
    HellsMaw {
        seat: Option<Seat>,
        card: Card,
        dealt: Vec<(Seat, Card)>,
    },
    /// Solitaire: a card turned up after the turn.
    TurnedUp {
        card: Card,
    },
    /// Carried away to hell.
    Eliminated {
        seat: Seat,
    },
}
