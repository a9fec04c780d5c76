//! What the lobby reads of a room: its summary, its host and who sits at it. The room writes
//! it when its snapshot changes (everything the summary lists is in the snapshot too), under
//! a lock of its own that the lobby takes only to read.

use std::sync::{Arc, Mutex};

use pandemonium_protocol::{RoomCode, RoomStatus, RoomSummary};

use super::Listing;
use super::seating::Seating;

/// What the summary says that the seating does not.
pub(super) struct Facts<'a> {
    pub status: RoomStatus,
    pub spectators: u32,
    pub public: bool,
    /// The host's current name, if the room has a host.
    pub host_name: Option<&'a str>,
}

/// The room's side of its listing.
#[derive(Debug)]
pub(super) struct Listed(Arc<Mutex<Listing>>);

impl Listed {
    pub fn new(code: &RoomCode, game: &str, options: &serde_json::Value) -> Self {
        let listed = Listed(Arc::new(Mutex::new(Listing {
            summary: RoomSummary {
                code: code.clone(),
                game: game.to_owned(),
                seats: 0,
                seated: 0,
                status: RoomStatus::Waiting,
                spectators: 0,
                public: false,
                host: None,
                options: serde_json::Value::Null,
                players: Vec::new(),
            },
            host: None,
            seated: Vec::new(),
        })));
        listed.list_options(options);
        listed
    }

    /// The listing as the lobby holds it.
    pub fn shared(&self) -> Arc<Mutex<Listing>> {
        self.0.clone()
    }

    /// The options change only when a match starts (the engine's complete form of what the
    /// host chose), so they are listed then, not with every change.
    pub fn list_options(&self, options: &serde_json::Value) {
        self.0.lock().expect("listing lock").summary.options = options.clone();
    }

    /// Brings the listing up to date with the seating and `facts`.
    pub fn update(&self, seating: &Seating, facts: Facts<'_>) {
        let seats = seating.seats();
        let mut listing = self.0.lock().expect("listing lock");
        listing.host = seating.host().map(str::to_owned);
        listing.seated = seats
            .iter()
            .map(|s| s.player.as_ref().map(|p| p.id.clone()))
            .collect();
        let summary = &mut listing.summary;
        summary.seats = seats.len() as u8;
        summary.seated = seats.iter().filter(|s| s.is_filled()).count() as u8;
        summary.status = facts.status;
        summary.spectators = facts.spectators;
        summary.public = facts.public;
        summary.host = facts.host_name.map(str::to_owned);
        summary.players = (0..seats.len()).map(|i| seating.shown_name(i)).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::Player;
    use crate::room::SeatState;

    #[test]
    fn the_listing_shows_the_seating_its_host_and_its_bots_by_name() {
        let code = RoomCode("ABCDEFGHJK".into());
        let listed = Listed::new(&code, "demos", &serde_json::json!({"mode": "simplified"}));
        let mut seating = Seating::new(vec![SeatState::default(); 3], None, None, None);
        let ada = Player {
            id: "ada-id".into(),
            name: "Ada".into(),
        };
        seating.take(&ada, 0, 1).unwrap();
        seating.claim_host(&ada);
        seating.set_bot(2, true, None).unwrap();
        listed.update(
            &seating,
            Facts {
                status: RoomStatus::Waiting,
                spectators: 4,
                public: true,
                host_name: Some("Ada"),
            },
        );
        let shared = listed.shared();
        let listing = shared.lock().unwrap();
        assert_eq!(listing.host.as_deref(), Some("ada-id"));
        assert_eq!(listing.seated, vec![Some("ada-id".into()), None, None]);
        let summary = &listing.summary;
        assert_eq!((summary.seats, summary.seated), (3, 2));
        assert_eq!(
            summary.players,
            vec![Some("Ada".into()), None, Some("Bot 3".into())]
        );
        assert_eq!(summary.host.as_deref(), Some("Ada"));
        assert_eq!(summary.options["mode"], "simplified");
        assert_eq!((summary.spectators, summary.public), (4, true));
    }
}
