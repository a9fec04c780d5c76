//! The DēmoS bot. It sees its seat's view and the legal actions, nothing else, and plays a
//! greedy one-turn look-ahead: each discard is judged by the hand it leaves, averaging over
//! the cards it has not seen when the replacement comes from the pack.

use pandemonium_game_contract::{Bot, Chance, Seat, Viewer};

use crate::actions::{AllocationTargets, DemosAction, Take};
use crate::cards::{Card, Figure, Suit};
use crate::harmony::{Harmony, Held, best_trio};
use crate::scoring::{best_combination, suit_count};
use crate::view::{DemosView, DiscardView, FigureView, Phase};

/// A bot that keeps the cards that make its best sequence or square likely, takes visible
/// discards that help, vetoes when the Unanimous Discard would help the others more than
/// itself, aims its Media at the strongest rival and gives team figures where they make the
/// best trio.
#[derive(Debug, Clone, Copy, Default)]
pub struct DemosBot;

/// A hand's worth to the bot: its points, with the tie-breaks as fractions.
fn worth(hand: &[Card], squares: bool, favourite: Option<Suit>) -> f32 {
    match best_combination(hand, squares, favourite) {
        Some(scored) => {
            scored.combination.points as f32
                + suit_count(hand) as f32 * 0.05
                + scored.unplayed as f32 * 0.002
        }
        None => suit_count(hand) as f32 * 0.05,
    }
}

struct Table<'a> {
    view: &'a DemosView,
    me: Seat,
    hand: Vec<Card>,
    unseen: Vec<Card>,
    squares: bool,
    favourite: Option<Suit>,
}

impl<'a> Table<'a> {
    fn new(view: &'a DemosView, me: Seat) -> Table<'a> {
        let hand = view.players[me as usize].hand.clone().unwrap_or_default();
        let squares = view.mode.is_complete();
        let mut known: Vec<Card> = hand.clone();
        for player in &view.players {
            for turn in &player.turns {
                match turn.discard {
                    DiscardView::FaceUp { card } | DiscardView::FaceDown { card: Some(card) } => {
                        known.push(card)
                    }
                    _ => {}
                }
            }
        }
        let unseen = Card::all()
            .filter(|c| squares || c.rank() > 1)
            .filter(|c| !known.contains(c))
            .collect();
        Table {
            view,
            me,
            hand,
            unseen,
            squares,
            favourite: view.players[me as usize].declaration.map(|d| d.favourite),
        }
    }

    fn worth(&self, hand: &[Card]) -> f32 {
        worth(hand, self.squares, self.favourite)
    }

    /// The expected worth of the hand without `card` once a card arrives from the pack.
    fn expected_from_pack(&self, card: Card) -> f32 {
        let mut hand: Vec<Card> = self.hand.clone();
        let slot = hand
            .iter()
            .position(|&c| c == card)
            .expect("a card in hand");
        if self.unseen.is_empty() {
            return 0.0;
        }
        let mut total = 0.0;
        for &new in &self.unseen {
            hand[slot] = new;
            total += self.worth(&hand);
        }
        total / self.unseen.len() as f32
    }

    fn after_taking(&self, card: Card, new: Card) -> f32 {
        let mut hand = self.hand.clone();
        let slot = hand
            .iter()
            .position(|&c| c == card)
            .expect("a card in hand");
        hand[slot] = new;
        self.worth(&hand)
    }

    /// The worth of a discard-turn action.
    fn judge(&self, action: &DemosAction) -> f32 {
        match *action {
            DemosAction::KeepHand => self.worth(&self.hand),
            DemosAction::PublicDiscard { card } => self.expected_from_pack(card),
            DemosAction::SecretDiscard { card, take }
            | DemosAction::UnanimousDiscard { card, take } => match take {
                Take::Pack => self.expected_from_pack(card),
                Take::Discard(new) => self.after_taking(card, new),
            },
            _ => f32::MIN,
        }
    }

    fn best_discard(&self, legal: &[DemosAction]) -> DemosAction {
        let mut best = legal[0];
        let mut best_worth = f32::MIN;
        for action in legal {
            let w = self.judge(action);
            if w > best_worth {
                best = *action;
                best_worth = w;
            }
        }
        best
    }

    /// Veto when the hand is already strong and the Unanimous Discard would do little for it:
    /// then the turn mostly helps the others.
    fn wants_veto(&self) -> bool {
        let now = self.worth(&self.hand);
        let mut after = now;
        for &card in &self.hand {
            after = after.max(self.expected_from_pack(card));
            for &visible in &self.view.visible_discards {
                after = after.max(self.after_taking(card, visible));
            }
        }
        // Figures still to come: a veto is worth spending only on a good hand.
        now >= 17.0 && after - now < 1.5
    }

    fn side(&self, seat: Seat) -> Option<u8> {
        self.view.players[seat as usize].team
    }

    fn teammate(&self, seat: Seat) -> bool {
        seat == self.me || (self.side(seat).is_some() && self.side(seat) == self.side(self.me))
    }
}

/// The figures the bot knows a player holds, as they would count in a trio.
fn known_figures(figures: &[FigureView]) -> Vec<Held> {
    figures
        .iter()
        .filter_map(|f| {
            f.figure.map(|figure| Held {
                figure,
                face_up: f.face_up,
                media: f.media,
            })
        })
        .collect()
}

/// How promising a set of figures is: its best trio, then how many powers and suits it covers.
fn promise(figures: &[Held]) -> (Harmony, usize) {
    let harmony = best_trio(figures, None).map_or(Harmony::NoTrio, |t| t.harmony);
    let mut powers = [false; 3];
    let mut suits = [false; 4];
    for held in figures {
        if let (Some(power), Some(suit)) = (held.figure.power(), held.suit()) {
            powers[power as usize] = true;
            suits[suit.index()] = true;
        }
    }
    let spread = powers.iter().filter(|&&p| p).count() * 2 + suits.iter().filter(|&&s| s).count();
    (harmony, spread)
}

fn allocate(table: &Table, legal: &[DemosAction]) -> DemosAction {
    let drawn: &[Figure] = &table.view.drawn;
    let mut best = legal[0];
    let mut best_key = (Harmony::NoTrio, 0usize);
    for action in legal {
        let DemosAction::Allocate { to } = action else {
            continue;
        };
        let to: &AllocationTargets = to;
        let mut key = (Harmony::NoTrio, 0);
        let members: Vec<Seat> = to.as_slice().to_vec();
        for seat in 0..table.view.players.len() as Seat {
            if !table.teammate(seat) {
                continue;
            }
            let mut figures = known_figures(&table.view.players[seat as usize].figures);
            for (figure, _) in drawn.iter().zip(&members).filter(|(_, m)| **m == seat) {
                figures.push(Held::face_down(*figure));
            }
            let (harmony, spread) = promise(&figures);
            key = (key.0.max(harmony), key.1 + spread);
        }
        if key > best_key {
            best_key = key;
            best = *action;
        }
    }
    best
}

/// Aim at the strongest rival (most figures, then most points): the first hidden figure,
/// given the suit its owner already shows most, to spoil a tricolour. A teammate's figure is
/// aimed at only when it completes a better trio.
fn media(table: &Table, legal: &[DemosAction]) -> DemosAction {
    let view = table.view;
    // Help a teammate whose figures the bot sees, if that improves their trio.
    let mut best_help: Option<(DemosAction, Harmony)> = None;
    for action in legal {
        let DemosAction::Media {
            target,
            position,
            suit,
        } = *action
        else {
            continue;
        };
        if !table.teammate(target) {
            continue;
        }
        let mut figures = known_figures(&view.players[target as usize].figures);
        let before = promise(&figures).0;
        if let Some(held) = figures.get_mut(position as usize) {
            held.media = Some(suit);
        }
        let after = promise(&figures).0;
        if after > before && best_help.is_none_or(|(_, h)| after > h) {
            best_help = Some((*action, after));
        }
    }
    if let Some((action, _)) = best_help {
        return action;
    }
    let rival = legal
        .iter()
        .filter_map(|a| match *a {
            DemosAction::Media { target, .. } if !table.teammate(target) => Some(target),
            _ => None,
        })
        .max_by_key(|&t| {
            let p = &view.players[t as usize];
            (p.figures.len(), p.points)
        });
    let Some(rival) = rival else {
        return legal[0];
    };
    let mut counts = [0u8; 4];
    for f in &view.players[rival as usize].figures {
        if let Some(suit) = f.media.or(f.figure.and_then(|g| g.suit())) {
            counts[suit.index()] += 1;
        }
    }
    let suit = Suit::ALL[(0..4).max_by_key(|&i| (counts[i], 4 - i)).unwrap_or(0)];
    legal
        .iter()
        .copied()
        .find(|a| matches!(*a, DemosAction::Media { target, suit: s, .. } if target == rival && s == suit))
        .unwrap_or(legal[0])
}

impl Bot<crate::Demos> for DemosBot {
    fn choose(
        &self,
        view: &DemosView,
        legal: &[DemosAction],
        chance: &mut dyn Chance,
    ) -> DemosAction {
        assert!(
            !legal.is_empty(),
            "a bot is only asked to act when it has a legal action"
        );
        let Viewer::Seat(me) = view.viewer else {
            return legal[chance.below(legal.len() as u32) as usize];
        };
        let table = Table::new(view, me);
        match view.phase {
            Phase::PublicDiscard | Phase::SecretDiscard | Phase::UnanimousDiscard => {
                table.best_discard(legal)
            }
            Phase::VetoPoll {
                proposer: Some(proposer),
                ..
            } => {
                // Trust the teammate who proposed.
                let confirm = DemosAction::ConfirmVeto;
                if table.teammate(proposer) && legal.contains(&confirm) {
                    confirm
                } else {
                    legal[0]
                }
            }
            Phase::VetoPoll { .. } if table.wants_veto() && legal.contains(&DemosAction::Veto) => {
                DemosAction::Veto
            }
            Phase::Allocation { .. } => allocate(&table, legal),
            Phase::Scandal { .. } => media(&table, legal),
            _ => legal[0],
        }
    }
}
