//! The Demon Bound! bot.

use pandemonium_game::{Bot, Chance};

use crate::action::DemonBoundAction;
use crate::state::DemonBound;
use crate::view::DemonBoundView;

/// A heuristic bot that plays from its view only.
#[derive(Debug, Clone, Copy, Default)]
pub struct DemonBoundBot;

impl Bot<DemonBound> for DemonBoundBot {
    fn choose(
        &self,
        _view: &DemonBoundView,
        legal: &[DemonBoundAction],
        chance: &mut dyn Chance,
    ) -> DemonBoundAction {
        legal[chance.below(legal.len() as u32) as usize].clone()
    }
}

/// The bot's choice, as a hint for a person in that seat.
pub fn hint(
    view: &DemonBoundView,
    legal: &[DemonBoundAction],
    chance: &mut dyn Chance,
) -> DemonBoundAction {
    DemonBoundBot.choose(view, legal, chance)
}
