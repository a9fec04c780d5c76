//! The wire protocol of Pandemonium: its message types and the format of its state patches.
//!
//! Everything a browser and the server say to each other is defined here once, as serde types;
//! the TypeScript the web client uses is generated from these types (see `tests/typescript.rs`
//! in `games/registry`), never written by hand. How the server writes its frames small and
//! fast (the text diff that makes patches, the `products` writer) is not part of the language
//! and lives in `pandemonium-wire`.
//!
//! - [`ids`]: seats, viewers, room codes.
//! - [`game`]: what every game shares on the wire — its lobby description and option schema,
//!   the outcome of a match.
//! - [`lobby`]: the HTTP API's request and response bodies.
//! - [`room`]: the WebSocket messages, client to server and server to client.
//! - [`patch`]: the difference between two versions of a state, for clients that ask for it,
//!   and how a client applies it; [`products`]: what a patch's `products` operation stands for.
//! - [`errors`]: the one list of codes every refusal carries.
//!
//! Each game's own `Config`, `Action` and `View` types live with its engine in `games/` and
//! travel inside these messages as JSON values.

pub mod errors;
pub mod game;
pub mod ids;
pub mod lobby;
pub mod patch;
pub mod products;
pub mod room;

pub use errors::ErrorCode;
pub use game::{GameInfo, OptionKind, OptionSpec, Outcome};
pub use ids::{RoomCode, Seat, Viewer};
pub use lobby::*;
pub use patch::PatchOp;
pub use room::*;
