//! How a match ends: the title earned by the demons brought through the portal.

use pandemonium_game_contract::Outcome;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::state::{Soulitaire, Status};

/// The role earned by clearing the Spellboard, by the number of demons still in the pile
/// (not sacrificed or discarded).
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SoulitaireTitle", export_to = "soulitaire/")]
pub enum Title {
    WandererOfTheRealms,
    AdeptRitualist,
    DarkSavant,
    GreaterDemon,
    MasterOfTheRealm,
}

impl Title {
    /// 0: Wanderer of the Realms, 1: Adept Ritualist, 2: Dark Savant, 3: Greater Demon, 4 or
    /// more: Master of the Realm.
    pub fn for_demons_left(demons: usize) -> Title {
        match demons {
            0 => Title::WandererOfTheRealms,
            1 => Title::AdeptRitualist,
            2 => Title::DarkSavant,
            3 => Title::GreaterDemon,
            _ => Title::MasterOfTheRealm,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Title::WandererOfTheRealms => "Wanderer of the Realms",
            Title::AdeptRitualist => "Adept Ritualist",
            Title::DarkSavant => "Dark Savant",
            Title::GreaterDemon => "Greater Demon",
            Title::MasterOfTheRealm => "Master of the Realm",
        }
    }
}

impl Soulitaire {
    /// The title earned, once the Spellboard is cleared.
    pub fn title(&self) -> Option<Title> {
        (self.status == Status::Won).then(|| Title::for_demons_left(self.remaining_demons().len()))
    }

    pub(crate) fn finished(&self) -> Option<Outcome> {
        let (won, score, summary) = match self.status {
            Status::Playing => return None,
            Status::Won => {
                let left = self.remaining_demons().len();
                let title = Title::for_demons_left(left);
                let plural = if left == 1 { "demon" } else { "demons" };
                (
                    true,
                    left as i64,
                    format!("{}: {left} {plural} left", title.name()),
                )
            }
            Status::Lost => (
                false,
                0,
                "Lost: no card or demon could reach a Foundation Stack".to_string(),
            ),
            Status::Conceded => (false, 0, "Conceded".to_string()),
        };
        Some(Outcome {
            winners: if won { vec![0] } else { vec![] },
            placements: vec![1],
            scores: vec![score],
            summary,
        })
    }
}
