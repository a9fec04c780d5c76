//! The bot: sensible Klondike from its own seat's view, nothing else.
//!
//! It plays progress first — a card to a foundation (lowest first), a run that turns up a
//! face-down card (from the pile with most of them), a move that exposes a card the
//! foundations take, a waste card to a pile — and otherwise turns the stock. It never shuffles
//! cards between piles for nothing. Once it has been through its whole stock twice with no
//! progress by anyone, it says "we're stuck". Its pace is the room's business: it only
//! chooses the next move.

use pandemonium_game_contract::{Bot, Chance};

use crate::action::Action;
use crate::cards::Card;
use crate::view::{FoundationView, PhaseView, PlayerView, View};

/// Whole passes through the stock with no progress by anyone before the bot says it is stuck.
const PASSES_BEFORE_STUCK: u8 = 2;

#[derive(Debug, Clone, Copy, Default)]
pub struct KlondikeBot;

impl Bot<crate::DemonKlondike> for KlondikeBot {
    fn choose(&self, view: &View, legal: &[Action], chance: &mut dyn Chance) -> Action {
        assert!(!legal.is_empty(), "a bot is only asked when it can act");
        let me = match (view.phase, view.you) {
            (PhaseView::Racing, Some(seat)) => &view.players[seat as usize],
            _ => return legal[0],
        };
        let scored: Vec<(i32, Action)> = legal
            .iter()
            .map(|&action| (score(action, me, &view.foundations), action))
            .collect();
        let best = scored.iter().map(|(s, _)| *s).max().expect("not empty");
        let candidates: Vec<Action> = scored
            .into_iter()
            .filter(|(s, _)| *s == best)
            .map(|(_, a)| a)
            .collect();
        candidates[chance.below(candidates.len() as u32) as usize]
    }
}

/// How much the bot wants `action`; the highest wins, ties are broken at random. Negative:
/// never (a pointless shuffle, or saying stuck too early).
fn score(action: Action, me: &PlayerView, foundations: &[FoundationView]) -> i32 {
    match action {
        Action::Ready => 1,
        Action::ToFoundation { card, .. } => 1000 - card.rank() as i32,
        Action::ToPile { card, .. } => match locate(me, card) {
            Some(Source::Waste) => 300,
            Some(Source::Pile { down, index, .. }) if index == 0 && down > 0 => 500 + down as i32,
            Some(Source::Pile { index, up, .. })
                if index > 0 && takes(foundations, up[index - 1]) =>
            {
                400
            }
            _ => -1,
        },
        Action::Draw | Action::Recycle => 10,
        Action::Stuck if me.idle_passes >= PASSES_BEFORE_STUCK => 20,
        Action::Stuck => -1,
    }
}

enum Source<'a> {
    Waste,
    Pile {
        down: u8,
        index: usize,
        up: &'a [Card],
    },
}

fn locate(me: &PlayerView, card: Card) -> Option<Source<'_>> {
    if me.fan.last() == Some(&card) {
        return Some(Source::Waste);
    }
    me.piles.iter().find_map(|pile| {
        pile.up
            .iter()
            .position(|&c| c == card)
            .map(|index| Source::Pile {
                down: pile.down,
                index,
                up: &pile.up,
            })
    })
}

fn takes(foundations: &[FoundationView], card: Card) -> bool {
    card.rank() == crate::cards::ACE
        || foundations
            .iter()
            .any(|f| f.suit == card.suit() && f.owners.len() as u8 + 1 == card.rank())
}
