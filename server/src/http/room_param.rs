//! The room a request names in its URL (`?room=CODE`): what a balancer hashes on, so that a
//! room's sockets (`/ws?room=CODE`) and its creation (`POST /api/rooms?room=CODE`) reach the
//! same node.

use pandemonium_protocol::RoomCode;

/// The room code the query names, if it names a well-formed one.
pub fn room_in(query: Option<&str>) -> Option<RoomCode> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("room="))
        .and_then(RoomCode::parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_room_is_read_from_the_url_s_query() {
        let code = |query| room_in(query).map(|c: RoomCode| c.0);
        assert_eq!(code(Some("room=ACDEFGHJKM")), Some("ACDEFGHJKM".into()));
        assert_eq!(code(Some("x=1&room=ACDEFGHJKM")), Some("ACDEFGHJKM".into()));
        assert_eq!(code(Some("room=")), None);
        assert_eq!(code(Some("room=NOT-A-CODE")), None);
        assert_eq!(code(Some("rooms=ACDEFGHJKM")), None);
        assert_eq!(code(None), None);
    }
}
