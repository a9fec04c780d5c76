//! The SQL of the lobby's directory: the publisher's one statement per change, what a node
//! finds of its own rows when it starts publishing, and the reload of the other nodes' rows.

use std::collections::HashSet;
use std::time::Duration;

use pandemonium_protocol::{RoomCode, RoomSummary};
use sqlx::{AnyPool, Row};

use super::diff::{Changes, Published};

/// The channel every publishing node notifies, with its name as the payload.
pub(super) const CHANNEL: &str = "pandemonium_lobby";

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Records how long this node's lease lasts (how long after its last heartbeat the others
/// ignore its rows) and returns the rows it has in the database already: a previous run's,
/// or those of a write whose outcome is unknown.
pub(super) async fn claim(
    pool: &AnyPool,
    node: &str,
    lease: Duration,
) -> Result<Published, sqlx::Error> {
    sqlx::query("UPDATE nodes SET lease_ms = $2 WHERE name = $1")
        .bind(node)
        .bind(millis(lease))
        .execute(pool)
        .await?;
    let rows = sqlx::query(
        "SELECT 'room', room_code FROM lobby_rooms WHERE node = $1 \
         UNION ALL SELECT 'person', player_id FROM lobby_people WHERE node = $1",
    )
    .bind(node)
    .fetch_all(pool)
    .await?;
    let (mut rooms, mut people) = (Vec::new(), Vec::new());
    for row in rows {
        let (kind, value): (String, String) = (row.get(0), row.get(1));
        if kind == "room" {
            rooms.push(RoomCode(value));
        } else {
            people.push(value);
        }
    }
    Ok(Published::found(rooms, people))
}

/// Writes `changes` in one statement (one transaction, one round trip) and notifies the
/// other nodes as it commits. A room is written only while its lease is this node's: a node
/// that lost a room without knowing it yet cannot take the row back from the new owner.
pub(super) async fn publish(
    pool: &AnyPool,
    node: &str,
    changes: &Changes,
) -> Result<(), sqlx::Error> {
    let changes = serde_json::to_string(changes).expect("changes serialise");
    sqlx::query(
        "WITH changes AS (SELECT $2::jsonb AS c), \
         closed AS ( \
             DELETE FROM lobby_rooms WHERE node = $1 AND room_code IN \
                 (SELECT jsonb_array_elements_text(c->'closed') FROM changes)), \
         put AS ( \
             INSERT INTO lobby_rooms (room_code, node, summary, updated_at) \
             SELECT s->>'code', $1, s::text, now() \
             FROM changes, jsonb_array_elements(c->'put') AS s \
             WHERE EXISTS (SELECT 1 FROM room_leases l \
                           WHERE l.room_code = s->>'code' AND l.node = $1) \
             ON CONFLICT (room_code) DO UPDATE SET node = excluded.node, \
                 summary = excluded.summary, updated_at = excluded.updated_at), \
         left_ AS ( \
             DELETE FROM lobby_people WHERE node = $1 AND player_id IN \
                 (SELECT jsonb_array_elements_text(c->'left') FROM changes)), \
         arrived AS ( \
             INSERT INTO lobby_people (node, player_id) \
             SELECT $1, jsonb_array_elements_text(c->'arrived') FROM changes \
             ON CONFLICT DO NOTHING) \
         SELECT pg_notify($3, $1)",
    )
    .bind(node)
    .bind(changes)
    .bind(CHANNEL)
    .execute(pool)
    .await
    .map(drop)
}

/// The other nodes' side of the lobby: the rooms whose lease their row's node holds
/// unexpired, and the people connected to a node whose heartbeat is younger than its lease
/// (`lease` for a node that has not said). Rooms whose summary cannot be read are left out.
pub(super) async fn others(
    pool: &AnyPool,
    node: &str,
    lease: Duration,
) -> Result<(Vec<RoomSummary>, HashSet<String>), sqlx::Error> {
    let rows = sqlx::query(
        "SELECT 'room', r.summary FROM lobby_rooms r \
         JOIN room_leases l ON l.room_code = r.room_code AND l.node = r.node \
         WHERE r.node <> $1 AND l.expires_at > now() \
         UNION ALL \
         SELECT 'person', p.player_id FROM lobby_people p JOIN nodes n ON n.name = p.node \
         WHERE p.node <> $1 \
           AND n.heartbeat_at + COALESCE(n.lease_ms, $2) * interval '1 millisecond' > now()",
    )
    .bind(node)
    .bind(millis(lease))
    .fetch_all(pool)
    .await?;
    let (mut rooms, mut people) = (Vec::new(), HashSet::new());
    for row in rows {
        let (kind, value): (String, String) = (row.get(0), row.get(1));
        if kind == "person" {
            people.insert(value);
            continue;
        }
        match serde_json::from_str::<RoomSummary>(&value) {
            Ok(summary) => rooms.push(summary),
            Err(error) => {
                tracing::warn!(%error, "a room summary another node published is unreadable")
            }
        }
    }
    Ok((rooms, people))
}
