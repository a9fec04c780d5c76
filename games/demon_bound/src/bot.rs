//! The Demon Bound! bot. It sees its seat's view and the legal actions, nothing else, and plays
//! by rules of thumb: deal with the demon that would mark its soul (bind it, else appease it at
//! the leader, else banish it), buy the richest treasure it can afford, aim demons and spells
//! at the leader, and keep a hand that survives its stain, discarding what it values least.

use pandemonium_game_contract::{Bot, Chance, Seat, Viewer};

use crate::action::DemonBoundAction as A;
use crate::cards::{Card, Suit, total};
use crate::view::{DemonBoundView, Phase};

/// The heuristic bot (also the source of hints).
#[derive(Debug, Clone, Copy, Default)]
pub struct DemonBoundBot;

impl Bot<crate::DemonBound> for DemonBoundBot {
    fn choose(&self, view: &DemonBoundView, legal: &[A], chance: &mut dyn Chance) -> A {
        assert!(!legal.is_empty(), "the bot is asked only when it can act");
        let Viewer::Seat(me) = view.viewer else {
            return legal[0].clone();
        };
        let table = Table { view, me, legal };
        table
            .decide()
            .filter(|a| legal.contains(a))
            .unwrap_or_else(|| table.fallback(chance))
    }
}

/// The bot's choice, as a hint for a person in that seat.
pub fn hint(view: &DemonBoundView, legal: &[A], chance: &mut dyn Chance) -> A {
    DemonBoundBot.choose(view, legal, chance)
}

/// Wealth, bound strength, fewer stains: how an opponent is ranked.
type Menace = (u32, u32, std::cmp::Reverse<u8>);

struct Table<'a> {
    view: &'a DemonBoundView,
    me: Seat,
    legal: &'a [A],
}

impl Table<'_> {
    fn hand(&self) -> &[Card] {
        self.view.players[self.me as usize]
            .hand
            .as_deref()
            .unwrap_or(&[])
    }

    fn stain(&self) -> usize {
        self.view.players[self.me as usize].stain as usize
    }

    /// Opponents still in the game.
    fn opponents(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.view.players.len() as Seat)
            .filter(move |&s| s != self.me && !self.view.players[s as usize].out)
    }

    /// How threatening an opponent is: wealth first, then the demons bound to pay for more,
    /// then fewer stains.
    fn menace(&self, seat: Seat) -> Menace {
        let p = &self.view.players[seat as usize];
        (p.wealth, total(&p.bound), std::cmp::Reverse(p.stain))
    }

    /// The leader among `seats`.
    fn leader_of(&self, seats: impl Iterator<Item = Seat>) -> Option<Seat> {
        seats.max_by_key(|&s| (self.menace(s), std::cmp::Reverse(s)))
    }

    fn leader(&self) -> Option<Seat> {
        self.leader_of(self.opponents())
    }

    fn has(&self, action: &A) -> bool {
        self.legal.contains(action)
    }

    fn decide(&self) -> Option<A> {
        if let Phase::Decision { .. } = self.view.phase {
            let targets = self.legal.iter().filter_map(|a| match a {
                A::Attack { target } => Some(*target),
                _ => None,
            });
            return self.leader_of(targets).map(|target| A::Attack { target });
        }
        match &self.view.phase {
            Phase::Setup => Some(self.setup()),
            Phase::Play { card_played } => Some(self.play(*card_played)),
            Phase::Spell { card, .. } => Some(self.spell(*card)),
            Phase::Discard { at_least } => Some(self.discard(*at_least as usize)),
            _ => None,
        }
    }

    /// Sacrifice the highest heart: it goes first and appeases demons summoned onto it.
    fn setup(&self) -> A {
        self.legal
            .iter()
            .filter_map(|a| match a {
                A::SetupSacrifice { card } => Some(*card),
                _ => None,
            })
            .max_by_key(|c| c.value())
            .map_or(A::SetupDiscard, |card| A::SetupSacrifice { card })
    }

    fn cards_of(&self, suit: Suit) -> Vec<Card> {
        let mut cards: Vec<Card> = self
            .hand()
            .iter()
            .copied()
            .filter(|c| c.is_numbered_of(suit))
            .collect();
        cards.sort_by_key(|c| c.value());
        cards
    }

    fn face(&self, suit: Suit) -> Option<Card> {
        self.hand()
            .iter()
            .copied()
            .filter(|c| c.suit() == Some(suit) && c.spell_power().is_some())
            .max_by_key(|c| c.spell_power())
    }

    fn play(&self, card_played: bool) -> A {
        let me = &self.view.players[self.me as usize];
        let active = self.view.active_threat;
        // Playing a card costs a card: never play one that leaves the discard step fatal.
        let after_play = self.hand().len().saturating_sub(1);
        let safe_to_play = after_play > self.stain();
        if let Some(demon) = active {
            if !card_played
                && safe_to_play
                && let Some(action) = self.answer(demon)
            {
                return action;
            }
            // Banishing costs no card play: free the weakest bound demon.
            if let Some(&freed) = me.bound.iter().min_by_key(|c| c.value()) {
                let banish = A::Banish { demon, freed };
                if self.has(&banish) {
                    return banish;
                }
            }
        }
        if card_played || !safe_to_play {
            return A::EndPlay;
        }
        self.best_play().unwrap_or(A::EndPlay)
    }

    /// A card play that deals with the active threat: bind it, appease it at the leader, or a
    /// spell that binds or banishes it.
    fn answer(&self, demon: Card) -> Option<A> {
        for card in self.cards_of(Suit::Clubs) {
            let bind = A::Bind { card, demon };
            if self.has(&bind) {
                return Some(bind);
            }
        }
        if let Some(card) = self.face(Suit::Clubs) {
            return Some(A::Cast { card });
        }
        let target = if self.view.solitaire {
            None
        } else {
            self.leader()
        };
        for card in self.cards_of(Suit::Hearts) {
            let appease = A::Appease {
                card,
                demon,
                target,
            };
            if self.has(&appease) {
                return Some(appease);
            }
        }
        self.face(Suit::Spades).map(|card| A::Cast { card })
    }

    fn best_play(&self) -> Option<A> {
        // Treasure: the richest diamond affordable, paid with the least strength.
        let treasure = self
            .legal
            .iter()
            .filter_map(|a| match a {
                A::Treasure { card, release } => Some((card.value(), total(release), a)),
                _ => None,
            })
            .max_by_key(|(value, paid, _)| (*value, std::cmp::Reverse(*paid)));
        if let Some((_, _, action)) = treasure {
            return Some(action.clone());
        }
        let others_bound = self
            .opponents()
            .any(|s| !self.view.players[s as usize].bound.is_empty());
        if others_bound && let Some(card) = self.face(Suit::Clubs) {
            return Some(A::Cast { card });
        }
        if let Some(card) = self.face(Suit::Diamonds) {
            let diamonds_out = self.view.solitaire
                && self
                    .view
                    .discard_pile
                    .iter()
                    .any(|c| c.is_numbered_of(Suit::Diamonds));
            if !self.view.solitaire || diamonds_out {
                return Some(A::Cast { card });
            }
        }
        if let Some(summon) = self.summon() {
            return Some(summon);
        }
        let spades = !self.cards_of(Suit::Spades).is_empty();
        if spades
            && !self.view.solitaire
            && let Some(card) = self.face(Suit::Hearts)
        {
            return Some(A::Cast { card });
        }
        if others_bound && let Some(card) = self.face(Suit::Spades) {
            return Some(A::Cast { card });
        }
        // A heart builds the sacrifice that appeases what is summoned onto it.
        self.cards_of(Suit::Hearts)
            .last()
            .map(|&card| A::Sacrifice { card })
    }

    /// The strongest spade onto the leader's sacrifice, where it will not be appeased at once.
    fn summon(&self) -> Option<A> {
        let mut best: Option<((u32, Menace), A)> = None;
        for action in self.legal {
            if let A::Summon { card, onto } = action {
                let target = &self.view.players[*onto as usize];
                if *onto == self.me || target.sacrifice_total >= card.value() as u32 {
                    continue;
                }
                let key = (card.value() as u32, self.menace(*onto));
                if best.as_ref().is_none_or(|(k, _)| key > *k) {
                    best = Some((key, action.clone()));
                }
            }
        }
        best.map(|(_, action)| action)
    }

    fn spell(&self, card: Card) -> A {
        let mine = &self.view.players[self.me as usize];
        let pick = match card.suit().expect("a face card") {
            Suit::Spades => {
                // Demons before me first (the strongest), then the leader's bound demons.
                let before_me = mine.threats.iter().copied().max_by_key(|c| c.value());
                before_me
                    .or_else(|| self.rival_bound())
                    .map(|demon| A::SpellBanish { demon })
            }
            Suit::Clubs => {
                let before_me = mine.threats.iter().copied().max_by_key(|c| c.value());
                before_me
                    .or_else(|| self.rival_bound())
                    .map(|demon| A::SpellBind { demon })
            }
            Suit::Hearts => {
                let spade = self.cards_of(Suit::Spades).last().copied();
                match (spade, self.leader()) {
                    (Some(card), Some(onto)) => Some(A::SpellSummon { card, onto }),
                    _ => None,
                }
            }
            Suit::Diamonds => self.scry(),
        };
        pick.filter(|a| self.has(a)).unwrap_or(A::EndSpell)
    }

    /// The strongest demon bound to the richest opponent.
    fn rival_bound(&self) -> Option<Card> {
        let rival = self.leader_of(
            self.opponents()
                .filter(|&s| !self.view.players[s as usize].bound.is_empty()),
        )?;
        self.view.players[rival as usize]
            .bound
            .iter()
            .copied()
            .max_by_key(|c| c.value())
    }

    fn scry(&self) -> Option<A> {
        let steal = self
            .legal
            .iter()
            .filter_map(|a| match a {
                A::Steal { card } => Some(*card),
                _ => None,
            })
            .max_by_key(|c| c.value());
        if let Some(card) = steal {
            return Some(A::Steal { card });
        }
        // Peek at the fullest hand: the likeliest to hold diamonds.
        self.legal
            .iter()
            .filter_map(|a| match a {
                A::Scry { seat } => Some(*seat),
                _ => None,
            })
            .max_by_key(|&s| self.view.players[s as usize].hand_size)
            .map(|seat| A::Scry { seat })
    }

    /// How much the bot wants to keep a card.
    fn keep(&self, card: Card) -> i32 {
        let bound = total(&self.view.players[self.me as usize].bound) as i32;
        match (card.suit(), card.spell_power()) {
            (None, _) => -10,
            (Some(Suit::Clubs), Some(_)) => 30,
            (Some(Suit::Diamonds), Some(_)) => 26,
            (Some(Suit::Spades), Some(_)) => 24,
            (Some(Suit::Hearts), Some(_)) => 14,
            (Some(Suit::Diamonds), None) => {
                let v = card.value() as i32;
                // A diamond the bound demons can already pay for is worth the most.
                if v <= bound { 40 + v } else { 10 + v }
            }
            (Some(Suit::Clubs), None) => 8 + card.value() as i32,
            (Some(Suit::Hearts), None) => 4 + card.value() as i32 / 2,
            (Some(Suit::Spades), None) => 2 + card.value() as i32 / 2,
        }
    }

    /// Discards exactly the required number, the least wanted cards.
    fn discard(&self, at_least: usize) -> A {
        let mut hand = self.hand().to_vec();
        hand.sort_by_key(|&c| (self.keep(c), c));
        A::Discard {
            cards: hand[..at_least.min(hand.len())].to_vec().into(),
        }
    }

    fn fallback(&self, chance: &mut dyn Chance) -> A {
        for safe in [A::EndSpell, A::EndPlay] {
            if self.has(&safe) {
                return safe;
            }
        }
        self.legal[chance.below(self.legal.len() as u32) as usize].clone()
    }
}
