//! What a viewer may see. During play the face-down Spellboard cards, the 14 cards set aside,
//! the demons below the top of the pile (unless it is spread) and the unused roster are hidden
//! from everyone, player and spectators alike; once the match is over everything is shown.

use pandemonium_game_contract::Viewer;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::cards::{Card, Demon, Face, Suit, Symbol};
use crate::config::{Config, DemonPileVisibility};
use crate::data::SUITS;
use crate::outcome::Title;
use crate::state::{COLUMNS, Layer, Soulitaire, Status, Top};

/// One viewer's picture of a match.
#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq)]
#[ts(rename = "SoulitaireView", export_to = "soulitaire/")]
pub struct View {
    pub config: Config,
    /// The house names and glyphs of the suits.
    pub suits: Vec<SuitView>,
    /// Six columns, each from the top row down; the last card of a column is the exposed one
    /// (face down only while a sacrifice that uncovered it is under way).
    pub spellboard: Vec<Vec<SpellboardCard>>,
    pub foundations: Vec<FoundationView>,
    /// The Demon Pile, top first. `None` is a demon this viewer cannot see.
    pub demon_pile: Vec<Option<DemonView>>,
    /// Demons discarded so far, in order.
    pub discarded: Vec<DemonView>,
    /// How many cards were set aside unseen.
    pub set_aside_count: u8,
    /// The set-aside cards themselves: shown only once the match is over.
    pub set_aside: Option<Vec<Card>>,
    /// The demons not drawn for this match: shown only once the match is over.
    pub unused_demons: Option<Vec<DemonView>>,
    /// The sacrifice under way, if any: until it ends only offers, ending it and conceding
    /// are legal.
    pub sacrifice: Option<SacrificeView>,
    pub status: StatusView,
}

/// A sacrifice under way: the demon already lies on `foundation`, under the cards offered
/// to it since.
#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq)]
#[ts(rename = "SoulitaireSacrifice", export_to = "soulitaire/")]
pub struct SacrificeView {
    pub foundation: u8,
    pub demon: DemonView,
    /// The symbols still to be satisfied, with repeats, in the demon's order: one card each.
    pub remaining: Vec<Symbol>,
    /// Columns whose visible card was visible when the demon was placed and may still be
    /// offered (whether it matches a remaining symbol is another matter).
    pub eligible: Vec<u8>,
    /// How many cards have been offered so far.
    pub offered: u8,
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq)]
#[ts(rename = "SoulitaireSuitView", export_to = "soulitaire/")]
pub struct SuitView {
    pub suit: Suit,
    pub name: String,
    pub glyph: String,
}

/// A card on the Spellboard: face up (the exposed bottom of its column) or face down.
/// `card` is `None` when this viewer may not see it.
#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq)]
#[ts(rename = "SoulitaireSpellboardCard", export_to = "soulitaire/")]
pub struct SpellboardCard {
    pub face_up: bool,
    pub card: Option<Card>,
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq)]
#[ts(rename = "SoulitaireFoundationView", export_to = "soulitaire/")]
pub struct FoundationView {
    /// From the starting card up; the last layer is the physical top.
    pub layers: Vec<LayerView>,
    /// What the stack accepts now (a bare demon is `dead` or looked through, by the config).
    pub top: Top,
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "SoulitaireLayer", export_to = "soulitaire/")]
pub enum LayerView {
    Ritual(Face),
    /// A Mimic and the card it was declared as; `None` for a starting Mimic (wild rank).
    Mimic {
        declared: Option<Face>,
    },
    Demon(DemonView),
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, PartialEq)]
#[ts(rename = "SoulitaireDemon", export_to = "soulitaire/")]
pub struct DemonView {
    pub name: String,
    pub symbols: Vec<Symbol>,
}

impl From<&Demon> for DemonView {
    fn from(demon: &Demon) -> DemonView {
        DemonView {
            name: demon.name.to_string(),
            symbols: demon.symbols.to_vec(),
        }
    }
}

#[derive(Serialize, Deserialize, TS, Debug, Clone, Copy, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(rename = "SoulitaireStatus", export_to = "soulitaire/")]
pub enum StatusView {
    Playing,
    Won { demons_left: u8, title: Title },
    Lost,
    Conceded,
}

impl Soulitaire {
    pub(crate) fn build_view(&self, viewer: Viewer) -> View {
        let everything = viewer == Viewer::Omniscient || !self.is_playing();
        let whole_pile = everything || self.config.demon_pile == DemonPileVisibility::Spread;
        let spellboard = self
            .spellboard
            .iter()
            .enumerate()
            .map(|(c, column)| {
                let cards = column.cards();
                let veiled = self.is_veiled(c);
                cards
                    .iter()
                    .enumerate()
                    .map(|(row, &card)| {
                        let face_up = row + 1 == cards.len() && !veiled;
                        SpellboardCard {
                            face_up,
                            card: (face_up || everything).then_some(card),
                        }
                    })
                    .collect()
            })
            .collect();
        let foundations = self
            .foundations
            .iter()
            .map(|stack| FoundationView {
                layers: stack
                    .layers
                    .iter()
                    .map(|layer| match *layer {
                        Layer::Ritual(face) => LayerView::Ritual(face),
                        Layer::Mimic(declared) => LayerView::Mimic { declared },
                        Layer::Demon(i) => LayerView::Demon((&self.demons[i as usize]).into()),
                    })
                    .collect(),
                top: stack.top(self.config.demon_on_top),
            })
            .collect();
        let demon_pile = self
            .remaining_demons()
            .iter()
            .enumerate()
            .map(|(depth, demon)| (depth == 0 || whole_pile).then(|| demon.into()))
            .collect();
        let status = match self.status {
            Status::Playing => StatusView::Playing,
            Status::Won => {
                let left = self.remaining_demons().len();
                StatusView::Won {
                    demons_left: left as u8,
                    title: Title::for_demons_left(left),
                }
            }
            Status::Lost => StatusView::Lost,
            Status::Conceded => StatusView::Conceded,
        };
        View {
            config: self.config,
            suits: SUITS
                .iter()
                .map(|data| SuitView {
                    suit: data.suit,
                    name: data.name.into(),
                    glyph: data.glyph.into(),
                })
                .collect(),
            spellboard,
            foundations,
            demon_pile,
            discarded: self
                .discarded
                .iter()
                .map(|&i| (&self.demons[i as usize]).into())
                .collect(),
            set_aside_count: self.set_aside.len() as u8,
            set_aside: everything.then(|| self.set_aside.clone()),
            unused_demons: everything
                .then(|| self.unused_demons.iter().map(DemonView::from).collect()),
            sacrifice: self
                .sacrificed_demon()
                .map(|(pending, demon)| SacrificeView {
                    foundation: pending.foundation,
                    demon: demon.into(),
                    remaining: demon
                        .symbols
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| pending.unused & 1 << i != 0)
                        .map(|(_, &symbol)| symbol)
                        .collect(),
                    eligible: (0..COLUMNS as u8)
                        .filter(|&c| pending.eligible & 1 << c != 0)
                        .collect(),
                    offered: pending.offered.count_ones() as u8,
                }),
            status,
        }
    }
}
