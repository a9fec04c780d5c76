//! How the server makes its state frames small: each new version of a viewer's state goes as
//! a patch against the one before, worked out on the two frames' JSON text, and a new array
//! of objects (a list of legal actions) goes as its products when that is shorter. The
//! formats are `pandemonium_protocol`'s (`patch`, `products`); this crate only writes them,
//! fast, from text a serialiser wrote. See the README for why and what it saves.
//!
//! - [`json_text`]: one scan that finds every value of a JSON text ([`Outline`]), without
//!   parsing it.
//! - [`text_diff`]: the patch that turns one outlined text into another ([`TextDiff`]).
//! - [`products`]: an outlined array of objects written as products ([`write_products`]).

pub mod json_text;
pub mod products;
pub mod text_diff;

pub use json_text::{Kind, Outline, Part};
pub use products::write_products;
pub use text_diff::TextDiff;
