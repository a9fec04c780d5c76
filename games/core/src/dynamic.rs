//! The game contract with its types erased to JSON.
//!
//! The server hosts "some game" chosen at run time, so it holds a `Box<dyn DynGame>`. Actions
//! arrive as JSON and are parsed into the game's typed `Action` here, at the edge of the engine;
//! views leave as serialised bytes, computed once per viewer and version.

use serde_json::Value;
use std::fmt::Debug;
use std::marker::PhantomData;

use crate::{
    Bot, Chance, ErrorCode, Game, GameInfo, Outcome, RuleClock, RuleError, Seat, SeatSet, Viewer,
};

/// Why a configuration cannot start a match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{game} is played by {min} to {max} players, not {got}")]
    SeatCount {
        game: String,
        min: u8,
        max: u8,
        got: u8,
    },
    #[error("option `{option}`: {reason}")]
    Option { option: String, reason: String },
    #[error("the options could not be read: {0}")]
    Malformed(String),
}

impl ConfigError {
    pub fn option(option: &str, reason: impl Into<String>) -> Self {
        ConfigError::Option {
            option: option.into(),
            reason: reason.into(),
        }
    }

    /// Checks `seats` against the game's range.
    pub fn check_seats(info: &GameInfo, seats: u8) -> Result<(), ConfigError> {
        if (info.min_seats..=info.max_seats).contains(&seats) {
            Ok(())
        } else {
            Err(ConfigError::SeatCount {
                game: info.name.clone(),
                min: info.min_seats,
                max: info.max_seats,
                got: seats,
            })
        }
    }
}

/// An action the engine refused: the protocol's code, the game's rule (for
/// `illegal_action`) and a sentence for the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub code: ErrorCode,
    pub rule: Option<&'static str>,
    pub message: String,
}

/// A running match of some game, as the server holds it.
pub trait DynGame: Debug + Send + Sync {
    fn to_act(&self) -> SeatSet;
    /// The seats `viewer` is shown as still to act (see [`Game::to_act_seen_by`]).
    fn to_act_seen_by(&self, viewer: Viewer) -> SeatSet;
    /// Writes `seat`'s legal actions now as a JSON array at the end of `out` (it goes
    /// straight into a frame).
    fn write_legal_json(&self, seat: Seat, out: &mut Vec<u8>);
    /// Parses and applies one action. On success returns the action in its canonical JSON form
    /// (what goes into the log).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Value,
        chance: &mut dyn Chance,
    ) -> Result<Value, Rejection>;
    /// [`DynGame::apply`] to an action as the JSON text it was sent in; returns its canonical
    /// text. A player's action goes from the message's text to the game's type and back to
    /// text, without the two JSON trees `apply` reads and returns.
    fn apply_json(
        &mut self,
        seat: Seat,
        action: &str,
        chance: &mut dyn Chance,
    ) -> Result<String, Rejection>;
    /// Writes the view for `viewer` as JSON at the end of `out` (it goes straight into a
    /// frame).
    fn write_view_json(&self, viewer: Viewer, out: &mut Vec<u8>);
    /// The view for `viewer` as a JSON tree (what a patch is computed on).
    fn view_value(&self, viewer: Viewer) -> Value;
    /// `seat`'s legal actions now, as a JSON tree.
    fn legal_value(&self, seat: Seat) -> Value;
    fn outcome(&self) -> Option<Outcome>;
    /// The rules' default action for `seat` when its time runs out, as canonical JSON text
    /// (what [`DynGame::apply_json`] reads without a second look, and what goes into the log).
    fn default_action(&self, seat: Seat) -> Option<String>;
    fn rule_deadline(&self) -> Option<RuleClock>;
    fn teams(&self) -> Option<Vec<u8>>;
    fn team_chat_open(&self, team: u8) -> bool;
    /// What this game's bot would do in `seat`, seeing only that seat's view, as canonical
    /// JSON text.
    fn bot_action(&self, seat: Seat, chance: &mut dyn Chance) -> Option<String>;
    /// A copy of the match as it stands.
    fn boxed_clone(&self) -> Box<dyn DynGame>;
}

/// A game `G` played by bot `B`, behind the [`DynGame`] interface.
pub struct Engine<G: Game, B> {
    game: G,
    bot: PhantomData<fn() -> B>,
}

impl<G: Game, B: Bot<G> + Default + 'static> Engine<G, B> {
    /// Wraps a game set up by other means than `Game::new`: a rigged deal for a test.
    pub fn boxed(game: G) -> Box<dyn DynGame> {
        Box::new(Engine::<G, B> {
            game,
            bot: PhantomData,
        })
    }
}

impl<G: Game, B> Engine<G, B> {
    /// Applies a parsed action, with the refusal in the protocol's terms.
    fn play(
        &mut self,
        seat: Seat,
        action: &G::Action,
        chance: &mut dyn Chance,
    ) -> Result<(), Rejection> {
        self.game.apply(seat, action, chance).map_err(|e| {
            let code = e.code();
            Rejection {
                code,
                // Only a rule of the game needs naming; the shared codes say it all.
                rule: (code == ErrorCode::IllegalAction).then(|| e.rule()),
                message: e.to_string(),
            }
        })
    }
}

/// What could not be read as an action of the game.
fn not_an_action(error: serde_json::Error) -> Rejection {
    Rejection {
        code: ErrorCode::MalformedAction,
        rule: None,
        message: format!("That is not an action of this game: {error}"),
    }
}

/// Refuses an action `sent` with a field its `canonical` form (every field the type knows)
/// does not have ([`unknown_field`]).
fn refuse_unknown_fields(sent: &Value, canonical: &Value) -> Result<(), Rejection> {
    match unknown_field(sent, canonical) {
        None => Ok(()),
        Some(field) => Err(Rejection {
            code: ErrorCode::MalformedAction,
            rule: None,
            message: format!("That action has no field `{field}`."),
        }),
    }
}

impl<G: Game, B> Debug for Engine<G, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the state: it holds hidden information, and logs are not views.
        f.debug_struct("Engine")
            .field("game", &G::info().id)
            .finish()
    }
}

impl<G: Game, B: Bot<G> + Default + 'static> DynGame for Engine<G, B> {
    fn to_act(&self) -> SeatSet {
        self.game.to_act()
    }

    fn to_act_seen_by(&self, viewer: Viewer) -> SeatSet {
        self.game.to_act_seen_by(viewer)
    }

    fn write_legal_json(&self, seat: Seat, out: &mut Vec<u8>) {
        self.game.write_legal(seat, out);
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Value,
        chance: &mut dyn Chance,
    ) -> Result<Value, Rejection> {
        let typed = G::Action::deserialize(action).map_err(not_an_action)?;
        let canonical = to_json(&typed);
        refuse_unknown_fields(action, &canonical)?;
        self.play(seat, &typed, chance)?;
        Ok(canonical)
    }

    fn apply_json(
        &mut self,
        seat: Seat,
        action: &str,
        chance: &mut dyn Chance,
    ) -> Result<String, Rejection> {
        let typed: G::Action = serde_json::from_str(action).map_err(not_an_action)?;
        let canonical = canonical_text(&typed);
        // Sent as the server writes it (as its clients do), it has every field the action has
        // and no other; anything else is read again as trees to find a field the type passed
        // over.
        if canonical != action {
            let sent: Value = serde_json::from_str(action).map_err(not_an_action)?;
            let known: Value = serde_json::from_str(&canonical).expect("canonical actions read");
            refuse_unknown_fields(&sent, &known)?;
        }
        self.play(seat, &typed, chance)?;
        Ok(canonical)
    }

    fn write_view_json(&self, viewer: Viewer, out: &mut Vec<u8>) {
        self.game.write_view(viewer, out);
    }

    fn view_value(&self, viewer: Viewer) -> Value {
        to_json(&self.game.view(viewer))
    }

    fn legal_value(&self, seat: Seat) -> Value {
        to_json(&self.game.legal_actions(seat))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn default_action(&self, seat: Seat) -> Option<String> {
        self.game.default_action(seat).as_ref().map(canonical_text)
    }

    fn rule_deadline(&self) -> Option<RuleClock> {
        self.game.rule_deadline()
    }

    fn teams(&self) -> Option<Vec<u8>> {
        self.game.teams()
    }

    fn team_chat_open(&self, team: u8) -> bool {
        self.game.team_chat_open(team)
    }

    fn bot_action(&self, seat: Seat, chance: &mut dyn Chance) -> Option<String> {
        let legal = self.game.legal_actions(seat);
        if legal.is_empty() {
            return None;
        }
        let view = self.game.view(Viewer::Seat(seat));
        Some(canonical_text(&B::default().choose(&view, &legal, chance)))
    }

    fn boxed_clone(&self) -> Box<dyn DynGame> {
        Box::new(Engine::<G, B> {
            game: self.game.clone(),
            bot: PhantomData,
        })
    }
}

use serde::Deserialize;

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("game types serialise to JSON")
}

/// An action as JSON text, its fields in the order of its type. A tree
/// (`serde_json::Value`) would sort them, and [`DynGame::apply_json`] reads text that differs
/// from the canonical form twice more to look for unknown fields.
fn canonical_text<T: serde::Serialize>(action: &T) -> String {
    serde_json::to_string(action).expect("game types serialise to JSON")
}

/// A new match and its options with every default filled in.
pub type Created = (Box<dyn DynGame>, Value);

/// One game in the registry: how to describe it and start it.
#[derive(Clone, Copy)]
pub struct GameEntry {
    pub info: fn() -> GameInfo,
    /// Starts a match from JSON options; returns the engine and the options with every
    /// default filled in (what is stored with the match).
    pub create: fn(&Value, u8, &mut dyn Chance) -> Result<Created, ConfigError>,
}

impl Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry")
            .field("id", &(self.info)().id)
            .finish()
    }
}

impl GameEntry {
    /// The entry for game `G` played by bot `B`.
    pub fn of<G: Game, B: Bot<G> + Default + 'static>() -> GameEntry {
        GameEntry {
            info: G::info,
            create: create::<G, B>,
        }
    }
}

fn create<G: Game, B: Bot<G> + Default + 'static>(
    options: &Value,
    seats: u8,
    chance: &mut dyn Chance,
) -> Result<Created, ConfigError> {
    let config: G::Config =
        G::Config::deserialize(options).map_err(|e| ConfigError::Malformed(e.to_string()))?;
    ConfigError::check_seats(&G::info(), seats)?;
    let game = G::new(&config, seats, chance)?;
    Ok((Engine::<G, B>::boxed(game), to_json(&config)))
}

/// The first field of `sent` (a path such as `take.discard`) that the action it was read as
/// does not have: serde passes over fields a type does not know, and an action read with a
/// misspelt field left out would be applied in silence as something the client did not mean.
/// `canonical` is the action written back, which has every field the type knows.
pub fn unknown_field(sent: &Value, canonical: &Value) -> Option<String> {
    match (sent, canonical) {
        (Value::Object(sent), Value::Object(known)) => {
            sent.iter().find_map(|(key, value)| match known.get(key) {
                None => Some(key.clone()),
                Some(known) => unknown_field(value, known).map(|inner| format!("{key}.{inner}")),
            })
        }
        (Value::Array(sent), Value::Array(known)) => {
            sent.iter()
                .zip(known)
                .enumerate()
                .find_map(|(i, (sent, known))| {
                    unknown_field(sent, known).map(|inner| format!("{i}.{inner}"))
                })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SeededChance;
    use crate::bot::RandomBot;
    use crate::fixture::{Action, TwentyOne};
    use serde_json::json;

    /// A two-seat TwentyOne match behind the dynamic interface, dealt the same every time, and
    /// the chance that goes on from its deal.
    fn fresh_match() -> (Box<dyn DynGame>, SeededChance) {
        let mut chance = SeededChance::from_u64(1);
        let game = TwentyOne::new(&Default::default(), 2, &mut chance).unwrap();
        (Engine::<TwentyOne, RandomBot>::boxed(game), chance)
    }

    #[test]
    fn a_field_the_action_does_not_have_is_named_wherever_it_is() {
        let canonical = json!({"type": "take", "take": {"discard": "7S"}, "cards": [{"a": 1}]});
        assert_eq!(unknown_field(&canonical, &canonical), None);
        let cases = [
            (json!({"type": "take", "extra": 0}), "extra"),
            (
                json!({"type": "take", "take": {"discard": "7S", "x": 1}}),
                "take.x",
            ),
            (
                json!({"type": "take", "cards": [{"a": 1, "b": 2}]}),
                "cards.0.b",
            ),
        ];
        for (sent, field) in cases {
            assert_eq!(unknown_field(&sent, &canonical).as_deref(), Some(field));
        }
    }

    #[test]
    fn an_action_sent_with_an_unknown_field_is_refused_as_malformed_and_changes_nothing() {
        let (mut engine, mut chance) = fresh_match();
        let before = engine.view_value(crate::Viewer::Omniscient);
        let refused = engine
            .apply(0, &json!({"type": "draw", "cards": 2}), &mut chance)
            .unwrap_err();
        assert_eq!(refused.code, ErrorCode::MalformedAction);
        assert!(refused.message.contains("`cards`"), "{}", refused.message);
        assert_eq!(engine.view_value(crate::Viewer::Omniscient), before);
        let applied = engine.apply(0, &json!({"type": "draw"}), &mut chance);
        assert_eq!(
            applied.unwrap(),
            serde_json::to_value(Action::Draw).unwrap()
        );
    }

    #[test]
    fn an_action_sent_as_text_is_refused_or_applied_as_its_tree_is() {
        let (mut engine, mut chance) = fresh_match();
        let before = engine.view_value(crate::Viewer::Omniscient);
        for (sent, code, says) in [
            (
                r#"{"type":"draw","cards":2}"#,
                ErrorCode::MalformedAction,
                "`cards`",
            ),
            (
                r#"{"cards":2,"type":"draw"}"#,
                ErrorCode::MalformedAction,
                "`cards`",
            ),
            (
                r#"{"type":"fly"}"#,
                ErrorCode::MalformedAction,
                "not an action",
            ),
            (
                r#"{"type":"draw""#,
                ErrorCode::MalformedAction,
                "not an action",
            ),
            ("[]", ErrorCode::MalformedAction, "not an action"),
        ] {
            let refused = engine.apply_json(0, sent, &mut chance).unwrap_err();
            assert_eq!(refused.code, code, "{sent}");
            assert!(
                refused.message.contains(says),
                "{sent}: {}",
                refused.message
            );
            assert_eq!(engine.view_value(crate::Viewer::Omniscient), before);
        }
        let canonical = serde_json::to_string(&Action::Draw).unwrap();
        for sent in [canonical.as_str(), " { \"type\" : \"draw\" } "] {
            let (mut engine, mut chance) = fresh_match();
            assert_eq!(
                engine.apply_json(0, sent, &mut chance),
                Ok(canonical.clone()),
                "{sent}: logged as the server writes it"
            );
            assert_ne!(engine.view_value(crate::Viewer::Omniscient), before);
        }
    }
}
