//! Every legal action, complete, and the check of one action with the reason for a refusal.
//! `check` accepts exactly what `legal_actions` lists (the conformance harness holds them to
//! it).

use pandemonium_game_contract::{Chance, Seat, SharedRefusal};

use crate::action::{DemonBoundAction as A, DemonBoundError as E};
use crate::cards::{Card, Suit, total};
use crate::state::{DemonBound, Step};

impl DemonBound {
    pub(crate) fn legal(&self, seat: Seat) -> Vec<A> {
        if !self.waiting().contains(seat) {
            return Vec::new();
        }
        if !self.pending.is_empty() {
            return self
                .opponents(seat)
                .into_iter()
                .map(|target| A::Attack { target })
                .collect();
        }
        match self.step {
            Step::Setup => {
                let mut actions = vec![A::SetupDiscard];
                actions.extend(
                    self.hand_cards(seat, |c| c.is_numbered_of(Suit::Hearts))
                        .map(|card| A::SetupSacrifice { card }),
                );
                actions
            }
            Step::Play { played } => {
                let mut actions = Vec::new();
                if !played {
                    self.card_plays(seat, &mut actions);
                }
                self.banishes(&mut actions);
                actions.push(A::EndPlay);
                actions
            }
            Step::Spell { .. } => {
                let mut actions = self.spell_actions(seat);
                actions.push(A::EndSpell);
                actions
            }
            Step::Discard => self.discards(seat),
            Step::Releasing | Step::Over => Vec::new(),
        }
    }

    /// Distinct cards of `seat`'s hand that pass `filter`, in ascending order.
    fn hand_cards(&self, seat: Seat, filter: impl Fn(Card) -> bool) -> impl Iterator<Item = Card> {
        let mut cards: Vec<Card> = self
            .player(seat)
            .hand
            .iter()
            .copied()
            .filter(|&c| filter(c))
            .collect();
        cards.sort();
        cards.dedup();
        cards.into_iter()
    }

    /// Where an appeased demon may go: an opponent, or nowhere in solitaire.
    fn appease_targets(&self, seat: Seat) -> Vec<Option<Seat>> {
        if self.solitaire() {
            vec![None]
        } else {
            self.opponents(seat).into_iter().map(Some).collect()
        }
    }

    fn card_plays(&self, seat: Seat, actions: &mut Vec<A>) {
        let player = self.player(seat);
        let answerable: Vec<Card> = self.answerable().collect();
        for card in self.hand_cards(seat, |c| c.is_numbered() || c.spell_power().is_some()) {
            match (card.suit().expect("not a Joker"), card.spell_power()) {
                (_, Some(_)) => actions.push(A::Cast { card }),
                (Suit::Hearts, None) => {
                    actions.push(A::Sacrifice { card });
                    let after = player.sacrifice_total() + card.value() as u32;
                    for &demon in &answerable {
                        if after >= demon.value() as u32 {
                            for target in self.appease_targets(seat) {
                                actions.push(A::Appease {
                                    card,
                                    demon,
                                    target,
                                });
                            }
                        }
                    }
                }
                (Suit::Spades, None) => {
                    for onto in self.clockwise_from(0) {
                        if !self.player(onto).sacrifice.is_empty() {
                            actions.push(A::Summon { card, onto });
                        }
                    }
                }
                (Suit::Clubs, None) => {
                    for &demon in &answerable {
                        if card.value() >= demon.value() {
                            actions.push(A::Bind { card, demon });
                        }
                    }
                }
                (Suit::Diamonds, None) => {
                    for release in releases(&player.bound, card.value() as u32) {
                        actions.push(A::Treasure {
                            card,
                            release: release.into(),
                        });
                    }
                }
            }
        }
    }

    fn banishes(&self, actions: &mut Vec<A>) {
        let mut bound = self.player(self.turn).bound.clone();
        bound.sort();
        for demon in self.answerable() {
            for &freed in &bound {
                actions.push(A::Banish { demon, freed });
            }
        }
    }

    /// Every effect the spell being cast can still have (not counting ending it).
    pub(crate) fn spell_actions(&self, seat: Seat) -> Vec<A> {
        let Step::Spell {
            card,
            left,
            scrying,
            scried,
        } = self.step
        else {
            return Vec::new();
        };
        let mut actions = Vec::new();
        if left == 0 {
            return actions;
        }
        let alive: Vec<Seat> = self.clockwise_from(0).collect();
        match card.suit().expect("a face card") {
            Suit::Spades => {
                for &s in &alive {
                    let p = self.player(s);
                    for &demon in p.threats.iter().chain(&p.bound) {
                        actions.push(A::SpellBanish { demon });
                    }
                }
            }
            Suit::Hearts => {
                for card in self.hand_cards(seat, Card::is_demon) {
                    for &onto in &alive {
                        actions.push(A::SpellSummon { card, onto });
                    }
                }
            }
            Suit::Clubs => {
                for &s in &alive {
                    let p = self.player(s);
                    actions.extend(p.threats.iter().map(|&demon| A::SpellBind { demon }));
                    if s != seat {
                        actions.extend(p.bound.iter().map(|&demon| A::SpellBind { demon }));
                    }
                }
            }
            Suit::Diamonds if self.solitaire() => {
                let mut cards: Vec<Card> = DemonBound::numbered_diamonds(&self.discard).collect();
                cards.sort();
                actions.extend(cards.into_iter().map(|card| A::Steal { card }));
            }
            Suit::Diamonds => {
                if let Some(target) = scrying {
                    actions.extend(
                        self.hand_cards(target, |c| c.is_numbered_of(Suit::Diamonds))
                            .map(|card| A::Steal { card }),
                    );
                }
                if scrying.is_none_or(|t| !self.has_diamonds(t)) {
                    for &s in &alive {
                        if s != seat && !scried.contains(s) {
                            actions.push(A::Scry { seat: s });
                        }
                    }
                }
            }
        }
        actions
    }

    /// Every discard: a set of at least the required size, as a sorted multiset of the hand.
    fn discards(&self, seat: Seat) -> Vec<A> {
        let mut hand = self.player(seat).hand.clone();
        hand.sort();
        let least = self.required_discards(seat);
        let mut sets: Vec<Vec<Card>> = Vec::new();
        for mask in 0u32..(1 << hand.len()) {
            if (mask.count_ones() as usize) < least {
                continue;
            }
            let set: Vec<Card> = (0..hand.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| hand[i])
                .collect();
            sets.push(set);
        }
        // Two Jokers in hand would spell some sets twice.
        sets.sort();
        sets.dedup();
        sets.sort_by_key(|s| s.len());
        sets.into_iter()
            .map(|cards| A::Discard {
                cards: cards.into(),
            })
            .collect()
    }

    /// Whether `seat` may take `action` now, and why not.
    pub(crate) fn check(&self, seat: Seat, action: &A) -> Result<(), E> {
        if self.outcome.is_some() {
            return Err(E::Shared(SharedRefusal::MatchOver));
        }
        if !self.waiting().contains(seat) {
            return Err(E::Shared(SharedRefusal::NotYourTurn));
        }
        let player = self.player(seat);
        let holds = |card: Card| {
            if player.holds(card) {
                Ok(())
            } else {
                Err(E::NotInHand)
            }
        };
        let answerable = |demon: Card| {
            if self.answerable().any(|d| d == demon) {
                Ok(())
            } else {
                Err(E::NotAThreat)
            }
        };
        if !self.pending.is_empty() {
            return match action {
                A::Attack { target } if self.opponents(seat).contains(target) => Ok(()),
                A::Attack { .. } => Err(E::BadTarget),
                _ => Err(E::WrongStep),
            };
        }
        match (&self.step, action) {
            (Step::Setup, A::SetupDiscard) => Ok(()),
            (Step::Setup, A::SetupSacrifice { card }) => {
                holds(*card)?;
                numbered_of(*card, Suit::Hearts)
            }
            (Step::Play { played }, A::Banish { demon, freed }) => {
                let _ = played;
                answerable(*demon)?;
                if player.bound.contains(freed) {
                    Ok(())
                } else {
                    Err(E::NotBound)
                }
            }
            (Step::Play { played: false }, A::EndPlay)
            | (Step::Play { played: true }, A::EndPlay) => Ok(()),
            (Step::Play { played: true }, play) if is_card_play(play) => Err(E::AlreadyPlayed),
            (Step::Play { played: false }, play) if is_card_play(play) => {
                self.check_card_play(seat, play, holds, answerable)
            }
            (Step::Spell { .. }, A::EndSpell) => Ok(()),
            (Step::Spell { .. }, effect) if is_spell_effect(effect) => {
                if self.spell_actions(seat).contains(effect) {
                    Ok(())
                } else {
                    Err(E::SpellSpent)
                }
            }
            (Step::Discard, A::Discard { cards }) => {
                let mut hand = player.hand.clone();
                for &card in cards.iter() {
                    if !crate::state::take(&mut hand, card) {
                        return Err(E::NotInHand);
                    }
                }
                if cards.len() < self.required_discards(seat) {
                    return Err(E::TooFewDiscards);
                }
                Ok(())
            }
            _ => Err(E::WrongStep),
        }
    }

    fn check_card_play(
        &self,
        seat: Seat,
        play: &A,
        holds: impl Fn(Card) -> Result<(), E>,
        answerable: impl Fn(Card) -> Result<(), E>,
    ) -> Result<(), E> {
        let player = self.player(seat);
        match play {
            A::Sacrifice { card } => {
                holds(*card)?;
                numbered_of(*card, Suit::Hearts)
            }
            A::Appease {
                card,
                demon,
                target,
            } => {
                holds(*card)?;
                numbered_of(*card, Suit::Hearts)?;
                answerable(*demon)?;
                if !self.appease_targets(seat).contains(target) {
                    return Err(E::BadTarget);
                }
                if player.sacrifice_total() + (card.value() as u32) < demon.value() as u32 {
                    return Err(E::SacrificeTooSmall);
                }
                Ok(())
            }
            A::Summon { card, onto } => {
                holds(*card)?;
                numbered_of(*card, Suit::Spades)?;
                if !self.alive(*onto) {
                    return Err(E::BadTarget);
                }
                if self.player(*onto).sacrifice.is_empty() {
                    return Err(E::NoSacrifice);
                }
                Ok(())
            }
            A::Bind { card, demon } => {
                holds(*card)?;
                numbered_of(*card, Suit::Clubs)?;
                answerable(*demon)?;
                if card.value() < demon.value() {
                    return Err(E::BindingTooWeak);
                }
                Ok(())
            }
            A::Treasure { card, release } => {
                holds(*card)?;
                numbered_of(*card, Suit::Diamonds)?;
                if release.iter().any(|d| !player.bound.contains(d)) {
                    return Err(E::NotBound);
                }
                if is_minimal_release(release, card.value() as u32) {
                    Ok(())
                } else {
                    Err(E::BadRelease)
                }
            }
            A::Cast { card } => {
                holds(*card)?;
                if card.spell_power().is_some() {
                    Ok(())
                } else {
                    Err(E::WrongCard)
                }
            }
            _ => unreachable!("only card plays are checked here"),
        }
    }

    /// Any action, legal or not, for the conformance harness.
    pub(crate) fn arbitrary(&self, chance: &mut dyn Chance) -> A {
        let to_act: Vec<Seat> = self.waiting().iter().collect();
        if !to_act.is_empty() && chance.below(2) == 0 {
            let seat = to_act[chance.below(to_act.len() as u32) as usize];
            let legal = self.legal(seat);
            if !legal.is_empty() {
                return legal[chance.below(legal.len() as u32) as usize].clone();
            }
        }
        let deck = Card::deck(2, true);
        let card = |chance: &mut dyn Chance| deck[chance.below(deck.len() as u32) as usize];
        let seat = |chance: &mut dyn Chance| chance.below(5) as Seat;
        let cards = |chance: &mut dyn Chance| {
            let n = chance.below(4);
            let cards: Vec<Card> = (0..n).map(|_| card(chance)).collect();
            cards.into()
        };
        match chance.below(18) {
            0 => A::SetupSacrifice { card: card(chance) },
            1 => A::SetupDiscard,
            2 => A::Sacrifice { card: card(chance) },
            3 => A::Appease {
                card: card(chance),
                demon: card(chance),
                target: (chance.below(3) > 0).then(|| seat(chance)),
            },
            4 => A::Summon {
                card: card(chance),
                onto: seat(chance),
            },
            5 => A::Bind {
                card: card(chance),
                demon: card(chance),
            },
            6 => A::Treasure {
                card: card(chance),
                release: cards(chance),
            },
            7 => A::Banish {
                demon: card(chance),
                freed: card(chance),
            },
            8 => A::Cast { card: card(chance) },
            9 => A::SpellBanish {
                demon: card(chance),
            },
            10 => A::SpellSummon {
                card: card(chance),
                onto: seat(chance),
            },
            11 => A::SpellBind {
                demon: card(chance),
            },
            12 => A::Scry { seat: seat(chance) },
            13 => A::Steal { card: card(chance) },
            14 => A::EndSpell,
            15 => A::EndPlay,
            16 => A::Discard {
                cards: cards(chance),
            },
            _ => A::Attack {
                target: seat(chance),
            },
        }
    }
}

fn numbered_of(card: Card, suit: Suit) -> Result<(), E> {
    if card.is_numbered_of(suit) {
        Ok(())
    } else {
        Err(E::WrongCard)
    }
}

fn is_card_play(action: &A) -> bool {
    matches!(
        action,
        A::Sacrifice { .. }
            | A::Appease { .. }
            | A::Summon { .. }
            | A::Bind { .. }
            | A::Treasure { .. }
            | A::Cast { .. }
    )
}

fn is_spell_effect(action: &A) -> bool {
    matches!(
        action,
        A::SpellBanish { .. }
            | A::SpellSummon { .. }
            | A::SpellBind { .. }
            | A::Scry { .. }
            | A::Steal { .. }
    )
}

/// A release pays for a treasure of `value` when its demons (no demon twice) total at least `value` and each one is needed (leaving any out would fall short): paying
/// with a demon that is not needed only throws it away.
pub(crate) fn is_minimal_release(release: &[Card], value: u32) -> bool {
    let sum = total(release);
    !release.is_empty()
        && release.windows(2).all(|w| w[0] < w[1])
        && sum >= value
        && release.iter().all(|d| sum - (d.value() as u32) < value)
}

/// Every release of `bound` demons that pays for a treasure of `value`.
pub(crate) fn releases(bound: &[Card], value: u32) -> Vec<Vec<Card>> {
    let mut bound = bound.to_vec();
    bound.sort();
    if total(&bound) < value {
        return Vec::new();
    }
    let mut out = Vec::new();
    // Bound demons are few: rarely more than four, at most ten.
    for mask in 1u32..(1 << bound.len()) {
        let set: Vec<Card> = (0..bound.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| bound[i])
            .collect();
        if is_minimal_release(&set, value) {
            out.push(set);
        }
    }
    out
}
