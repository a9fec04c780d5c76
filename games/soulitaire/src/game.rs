//! The `Game` contract, wired to the modules that do the work.

use pandemonium_game_contract::{
    Chance, ConfigError, Conformance, Game, GameInfo, Outcome, Seat, SeatSet, Viewer,
};

use crate::action::Action;
use crate::config::Config;
use crate::error::Error;
use crate::state::{COLUMNS, Deal, PILE, ROWS, Soulitaire};
use crate::view::View;

impl Game for Soulitaire {
    type Config = Config;
    type Action = Action;
    type View = View;
    type Error = Error;

    const RULES_PAGE: &'static str = include_str!("../RULES.md");

    fn info() -> GameInfo {
        GameInfo {
            id: "soulitaire".into(),
            name: "Pixel Demon's Realm: Soulitaire".into(),
            short_name: "Soulitaire".into(),
            min_seats: 1,
            max_seats: 1,
            description: "Clear the Spellboard onto four Foundation Stacks, sacrificing as few \
                          demons as you can."
                .into(),
            options: Config::specs(),
            teams: false,
            real_time: false,
            board: None,
            score_unit:
                "demons left in the Demon Pile at the win (more is a better title; a loss scores 0)"
                    .into(),
            glyph: "☥".into(),
            hue: 275,
        }
    }

    fn new(config: &Config, seats: u8, chance: &mut dyn Chance) -> Result<Self, ConfigError> {
        ConfigError::check_seats(&Self::info(), seats)?;
        Ok(Soulitaire::rigged(*config, Deal::shuffled(chance)))
    }

    fn to_act(&self) -> SeatSet {
        if self.is_playing() {
            SeatSet::only(0)
        } else {
            SeatSet::EMPTY
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat == 0 { self.legal() } else { Vec::new() }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        _chance: &mut dyn Chance,
    ) -> Result<(), Error> {
        self.perform(seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finished()
    }

    /// A solitaire player is never hurried: there is no default to apply.
    fn default_action(&self, _seat: Seat) -> Option<Action> {
        None
    }
}

impl Conformance for Soulitaire {
    fn redeal_hidden(&self, viewer: Viewer, chance: &mut dyn Chance) -> Self {
        self.redealt(viewer, chance)
    }

    fn arbitrary_action(&self, chance: &mut dyn Chance) -> Action {
        self.arbitrary(chance)
    }

    /// Every Ritual move and every offer takes a card off the Spellboard (36); every demon
    /// leaves the pile once, by a discard or by a sacrifice that may need an explicit end
    /// (2 × 6); a concession ends the match.
    fn max_actions(_config: &Config, _seats: u8) -> usize {
        COLUMNS * ROWS + 2 * PILE + 1
    }

    fn conformance_configs() -> Vec<(Config, u8)> {
        Config::all()
            .into_iter()
            .map(|config| (config, 1))
            .collect()
    }
}
