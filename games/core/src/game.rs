//! The `Game` trait: what an engine must provide to be hosted.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

use crate::{Chance, ErrorCode, GameInfo, Outcome, Seat, SeatSet, Viewer};

/// A time limit set by the rules for one window of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleClock {
    /// Identifies the window: the same number for as long as one window lasts, a different
    /// one for the next (a step counter does). The room keeps one deadline per window.
    pub window: u64,
    /// How long the window lasts from when it opens.
    pub seconds: u32,
}

/// The refusals every game shares. The protocol gives them codes of their own
/// ([`ErrorCode::MatchOver`], [`ErrorCode::NotYourTurn`]) so that clients handle them the same
/// way in every game; a game's rule error holds one as its `Shared` variant rather than
/// declaring them again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SharedRefusal {
    #[error("The match is over.")]
    MatchOver,
    #[error("It is not your move: you have nothing to decide now.")]
    NotYourTurn,
}

impl SharedRefusal {
    /// The rule names, in the order of the variants: each is also its code's name.
    const NAMES: [&'static str; 2] = ["match_over", "not_your_turn"];

    pub fn code(self) -> ErrorCode {
        match self {
            SharedRefusal::MatchOver => ErrorCode::MatchOver,
            SharedRefusal::NotYourTurn => ErrorCode::NotYourTurn,
        }
    }

    pub fn rule(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// A game whose only refusals are the shared ones (the test fixture Twenty-One).
impl RuleError for SharedRefusal {
    fn shared(&self) -> Option<SharedRefusal> {
        Some(*self)
    }

    fn rule(&self) -> &'static str {
        SharedRefusal::rule(*self)
    }

    const RULES: &'static [&'static str] = &Self::NAMES;
}

/// A rule error: why an action was refused. Small enums, one per game; `Display` is the
/// sentence a player reads.
pub trait RuleError: std::error::Error + Send + Sync + 'static {
    /// The refusal every game shares that this is, if it is one.
    fn shared(&self) -> Option<SharedRefusal> {
        None
    }

    /// The protocol's code for the refusal: [`ErrorCode::IllegalAction`] for a rule of this
    /// game, or a [`SharedRefusal`]'s own.
    fn code(&self) -> ErrorCode {
        self.shared()
            .map_or(ErrorCode::IllegalAction, SharedRefusal::code)
    }

    /// The game's own stable snake_case name for the rule, such as `not_adjacent`: sent
    /// beside `illegal_action` as the reject's `rule`, and what the game's tests match on.
    /// One of [`RuleError::RULES`].
    fn rule(&self) -> &'static str;

    /// Every name [`RuleError::rule`] can return: the web client's type of the game's rule
    /// names is generated from it (`make typescript`), and the conformance harness refuses a
    /// rule missing from it.
    const RULES: &'static [&'static str];
}

/// A pure, deterministic rules engine.
///
/// The state is the engine value itself. Every method is a function of the state (plus the
/// [`Chance`] passed in, for `new` and `apply`): no clock, no I/O, no global randomness. That is
/// what lets `(config, seed, action log)` replay a match exactly.
///
/// The engine never decides *who is sitting where* or *when time runs out*; the room does, and
/// turns a timeout into an ordinary action from [`Game::default_action`].
pub trait Game: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// Lobby options. `{}` must deserialise to the defaults (use `#[serde(default)]`), and
    /// unknown keys must be refused (`#[serde(deny_unknown_fields)]`).
    type Config: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Default + Send + Sync;
    /// Everything a seat can ask the engine to do, including answers to pending decisions.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// What one viewer may see. Serialising it is the only way state leaves the engine.
    type View: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    type Error: RuleError;

    /// How the lobby lists the game: id, name, seat range, option schema.
    fn info() -> GameInfo;

    /// The game's rules as this project plays them (house choices included): the Markdown
    /// page beside its crate, `RULES.md`, which the engine's comments cite by proposal and
    /// scenario number and the web client's rules page renders. Empty for the test fixtures.
    const RULES_PAGE: &'static str = "";

    /// Sets up a new match. Validates the config against the seat count; a bad option is a
    /// [`crate::ConfigError`] naming it.
    fn new(
        config: &Self::Config,
        seats: u8,
        chance: &mut dyn Chance,
    ) -> Result<Self, crate::ConfigError>;

    /// The seats that may act now: one on an ordinary turn, several at simultaneous steps,
    /// and possibly a seat whose turn it is not (a pending decision). Empty once the match is
    /// over.
    fn to_act(&self) -> SeatSet;

    /// The seats `viewer` is shown as still to act: [`Game::to_act`], unless who is still
    /// deciding would give away a secret (which teammate proposed a DēmoS team veto). The
    /// conformance harness holds it to the same no-leak test as views.
    fn to_act_seen_by(&self, _viewer: Viewer) -> SeatSet {
        self.to_act()
    }

    /// Every action `seat` may take now, complete: an action is accepted by [`Game::apply`]
    /// if and only if it is in this list. Empty for seats not in [`Game::to_act`].
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// Writes [`Game::legal_actions`]'s JSON array at the end of `out`: what the server puts
    /// in the frames of the seats to act. A game may write it without building the list; the
    /// conformance harness holds the text to the list's, byte for byte.
    fn write_legal(&self, seat: Seat, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.legal_actions(seat)).expect("actions serialise");
    }

    /// Applies one action. On error the state is exactly as it was.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        chance: &mut dyn Chance,
    ) -> Result<(), Self::Error>;

    /// The state as `viewer` may see it. Once the match is over every viewer may see
    /// everything; before that, [`Viewer::Omniscient`] is for replays of finished matches only.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Writes [`Game::view`]'s JSON at the end of `out`: what the server puts in every frame.
    /// A game may write it without building the view (it is made for every seat after every
    /// action); the conformance harness holds the text to the view's, byte for byte.
    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.view(viewer)).expect("views serialise");
    }

    /// `Some` once the match is over.
    fn outcome(&self) -> Option<Outcome>;

    /// What the room applies for `seat` when its time runs out (the rules' documented
    /// default), or `None` if the seat has nothing to decide. Must be a legal action.
    fn default_action(&self, seat: Seat) -> Option<Self::Action>;

    /// The time the rules themselves allow for the current window (DēmoS's 15 s team
    /// consultations, Demon's idle time with no progress). When it runs out the room applies
    /// [`Game::default_action`] for every seat still to act. `None` when the rules set no limit.
    ///
    /// The room starts the clock when a window with a new [`RuleClock::window`] opens and
    /// leaves it alone while the same window stays open, whoever acts in it.
    fn rule_deadline(&self) -> Option<RuleClock> {
        None
    }

    /// Team number of each seat, for games with teams.
    fn teams(&self) -> Option<Vec<u8>> {
        None
    }

    /// Whether `team`'s private chat is open now (the rules' consultation windows).
    fn team_chat_open(&self, _team: u8) -> bool {
        false
    }
}

/// What the conformance harness needs of a game beyond playing it: ways to attack it. Kept off
/// [`Game`] because the server plays games and never attacks them; the harness itself
/// (`conformance`, behind this crate's `conformance` feature) is built only into tests.
pub trait Conformance: Game {
    /// A copy of this state in which everything hidden from `viewer` is dealt again at random
    /// (other hands, deck and stock order, face-down cards, secret discards) while everything
    /// `viewer` may see stays put. The conformance harness checks that `viewer`'s serialised
    /// view does not change: that is what "no leak" means.
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> Self;

    /// Any action at all, legal or not, for the harness to throw at the engine.
    fn arbitrary_action(&self, chance: &mut dyn Chance) -> Self::Action;

    /// An upper bound on the number of actions any match of this config can take; the harness
    /// fails a match that runs longer.
    fn max_actions(config: &Self::Config, seats: u8) -> usize;

    /// The configurations the conformance harness plays: every mode and every seat count the
    /// game allows, so no combination goes untested.
    fn conformance_configs() -> Vec<(Self::Config, u8)>;
}
