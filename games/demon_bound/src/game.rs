//! The `Game` contract on top of the rules.

use pandemonium_game_contract::{
    Chance, ConfigError, Conformance, Game, GameInfo, Outcome, Seat, SeatSet, Viewer,
};

use crate::action::{DemonBoundAction as A, DemonBoundError};
use crate::config::{DemonBoundConfig, MAX_ROUND_CAP, option_specs};
use crate::state::{DemonBound, SetupChoice};
use crate::view::DemonBoundView;

impl DemonBound {
    fn perform(&mut self, seat: Seat, action: &A, chance: &mut dyn Chance) {
        match action {
            A::SetupSacrifice { card } => {
                self.commit(seat, SetupChoice::Sacrifice { card: *card }, chance)
            }
            A::SetupDiscard => self.commit(seat, SetupChoice::Discard, chance),
            A::Sacrifice { card } => self.sacrifice(*card),
            A::Appease {
                card,
                demon,
                target,
            } => self.appease(*card, *demon, *target),
            A::Summon { card, onto } => self.summon(*card, *onto),
            A::Bind { card, demon } => self.bind(*card, *demon),
            A::Treasure { card, release } => self.treasure(*card, release),
            A::Banish { demon, freed } => self.banish(*demon, *freed),
            A::Cast { card } => self.cast(*card),
            A::SpellBanish { demon } => self.spell_banish(*demon),
            A::SpellSummon { card, onto } => self.spell_summon(*card, *onto),
            A::SpellBind { demon } => self.spell_bind(*demon),
            A::Scry { seat } => self.scry(*seat),
            A::Steal { card } => self.steal(*card),
            A::EndSpell => self.step = crate::state::Step::Play { played: true },
            A::EndPlay => self.end_play(),
            A::Discard { cards } => self.discard_cards(cards, chance),
            A::Attack { target } => self.resolve_pending(Some(*target)),
        }
        self.settle(chance);
    }
}

/// The most actions one turn can take: banishes (one per bound demon, at most ten), the card
/// play, a King's three effects and its scrying peeks, ending the play, the discard, and ten
/// released demons sent one by one.
const ACTIONS_PER_TURN: usize = 40;
/// Without a cap the rules set no bound on a match; this many rounds is far beyond any real
/// one (stains only grow, and a sixth is fatal).
const UNCAPPED_ROUNDS: usize = 1_000;

impl Game for DemonBound {
    type Config = DemonBoundConfig;
    type Action = A;
    type View = DemonBoundView;
    type Error = DemonBoundError;

    const RULES_PAGE: &'static str = include_str!("../RULES.md");

    fn info() -> GameInfo {
        GameInfo {
            id: "demon_bound".into(),
            name: "Demon Bound!".into(),
            short_name: "Demon Bound!".into(),
            min_seats: 1,
            max_seats: 4,
            description: "Sacrifice, summon and bind demons to fill your treasury before they \
                          carry you away to hell. One seat plays the solitaire rules."
                .into(),
            options: option_specs(),
            teams: false,
            real_time: false,
            board: None,
            score_unit: "treasure (wealth) held at the end".into(),
            glyph: "♠".into(),
            hue: 350,
        }
    }

    fn new(
        config: &DemonBoundConfig,
        seats: u8,
        chance: &mut dyn Chance,
    ) -> Result<DemonBound, ConfigError> {
        DemonBound::shuffled(config, seats, chance)
    }

    fn to_act(&self) -> SeatSet {
        self.waiting()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<A> {
        self.legal(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &A,
        chance: &mut dyn Chance,
    ) -> Result<(), DemonBoundError> {
        self.check(seat, action)?;
        self.perform(seat, action, chance);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> DemonBoundView {
        self.build_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// The documented defaults: a pending demon attacks the first eligible opponent clockwise;
    /// the setup choice is a random discard; a turn plays nothing, a spell stops, and the
    /// discard step discards the fewest cards allowed, from the lowest.
    fn default_action(&self, seat: Seat) -> Option<A> {
        let legal = self.legal(seat);
        if legal.is_empty() {
            return None;
        }
        if !self.pending.is_empty() || matches!(legal[0], A::SetupDiscard | A::Discard { .. }) {
            return legal.into_iter().next();
        }
        legal
            .into_iter()
            .find(|a| matches!(a, A::EndPlay | A::EndSpell))
    }
}

impl Conformance for DemonBound {
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> DemonBound {
        self.redealt(viewer, chance)
    }

    fn arbitrary_action(&self, chance: &mut dyn Chance) -> A {
        self.arbitrary(chance)
    }

    fn max_actions(config: &DemonBoundConfig, seats: u8) -> usize {
        let rounds = config
            .round_cap
            .map_or(UNCAPPED_ROUNDS, |cap| cap.min(MAX_ROUND_CAP) as usize);
        seats as usize + (rounds + 1) * seats as usize * ACTIONS_PER_TURN
    }

    fn conformance_configs() -> Vec<(DemonBoundConfig, u8)> {
        let mut configs = Vec::new();
        for seats in 1..=4 {
            for marcus_king in [false, true] {
                configs.push((
                    DemonBoundConfig {
                        marcus_king,
                        ..DemonBoundConfig::default()
                    },
                    seats,
                ));
            }
        }
        for seats in [1, 3] {
            configs.push((
                DemonBoundConfig {
                    jokers: 0,
                    ..DemonBoundConfig::default()
                },
                seats,
            ));
        }
        configs.push((
            DemonBoundConfig {
                jokers: 1,
                marcus_king: true,
                round_cap: Some(3),
                ..DemonBoundConfig::default()
            },
            4,
        ));
        configs.push((
            DemonBoundConfig {
                reshuffle_cap: Some(0),
                ..DemonBoundConfig::default()
            },
            2,
        ));
        configs
    }
}
