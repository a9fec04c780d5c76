//! The DēmoS bot.

use pandemonium_game::{Bot, Chance};

use crate::actions::DemosAction;
use crate::state::Demos;
use crate::view::DemosView;

/// A bot that plays from its seat's view only.
#[derive(Debug, Clone, Copy, Default)]
pub struct DemosBot;

impl Bot<Demos> for DemosBot {
    fn choose(&self, _view: &DemosView, legal: &[DemosAction], chance: &mut dyn Chance) -> DemosAction {
        legal[chance.below(legal.len() as u32) as usize]
    }
}
