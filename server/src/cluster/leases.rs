//! The SQL of nodes and room leases. Every expiry is computed and compared by PostgreSQL
//! (`now()`), so the nodes' own clocks never have to agree.

use std::collections::HashSet;
use std::time::Duration;

use sqlx::{AnyPool, Row};

/// A lease just taken: its epoch, and whether another node held the room before.
pub(super) struct Taken {
    pub epoch: i64,
    pub from_another_node: bool,
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Writes (or rewrites, on a restart under the same name) this node's row.
pub(super) async fn join(pool: &AnyPool, node: &str, address: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO nodes (name, internal_address, started_at, heartbeat_at) \
         VALUES ($1, $2, now(), now()) \
         ON CONFLICT (name) DO UPDATE SET internal_address = excluded.internal_address, \
             started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at",
    )
    .bind(node)
    .bind(address)
    .execute(pool)
    .await
    .map(drop)
}

pub(super) async fn remove_node(pool: &AnyPool, node: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM nodes WHERE name = $1")
        .bind(node)
        .execute(pool)
        .await
        .map(drop)
}

/// Takes `room` for `node` for `lease`: a new room's row is inserted at epoch 1; an existing
/// one is taken only if it was released, has expired, or is `node`'s already, and its epoch
/// goes up by one. The update waits for any writer's transaction that holds the row `FOR
/// SHARE` (an append being checked against the old epoch) to commit. `None`: another node
/// holds the room.
pub(super) async fn take(
    pool: &AnyPool,
    room: &str,
    node: &str,
    lease: Duration,
) -> Result<Option<Taken>, sqlx::Error> {
    let row = sqlx::query(
        "WITH before AS (SELECT node FROM room_leases WHERE room_code = $1) \
         INSERT INTO room_leases (room_code, node, epoch, expires_at) \
         VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond') \
         ON CONFLICT (room_code) DO UPDATE \
             SET node = excluded.node, epoch = room_leases.epoch + 1, \
                 expires_at = excluded.expires_at \
             WHERE room_leases.node IS NULL OR room_leases.node = excluded.node \
                OR room_leases.expires_at <= now() \
         RETURNING epoch, COALESCE((SELECT node FROM before), '')",
    )
    .bind(room)
    .bind(node)
    .bind(millis(lease))
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| {
        let before: String = row.get(1);
        Taken {
            epoch: row.get(0),
            from_another_node: !before.is_empty() && before != node,
        }
    }))
}

/// Takes `room` for `node` only if no node ever held it (no row): a code a client proposed
/// for a new room. A code that has a row, even released, may still have a match in the log
/// waiting to be taken over, and is not given to a new room.
pub(super) async fn take_unused(
    pool: &AnyPool,
    room: &str,
    node: &str,
    lease: Duration,
) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "INSERT INTO room_leases (room_code, node, epoch, expires_at) \
         VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond') \
         ON CONFLICT (room_code) DO NOTHING RETURNING epoch",
    )
    .bind(room)
    .bind(node)
    .bind(millis(lease))
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| row.get(0)))
}

/// Gives a lease back, if it is still `node`'s at `epoch`: the room is free at once. The row
/// stays, so the room's next epoch is higher than any before.
pub(super) async fn release(
    pool: &AnyPool,
    room: &str,
    node: &str,
    epoch: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE room_leases SET node = NULL, expires_at = now() \
         WHERE room_code = $1 AND node = $2 AND epoch = $3",
    )
    .bind(room)
    .bind(node)
    .bind(epoch)
    .execute(pool)
    .await
    .map(drop)
}

/// Gives back every lease of `node`; returns how many.
pub(super) async fn release_all(pool: &AnyPool, node: &str) -> Result<u64, sqlx::Error> {
    let done =
        sqlx::query("UPDATE room_leases SET node = NULL, expires_at = now() WHERE node = $1")
            .bind(node)
            .execute(pool)
            .await?;
    Ok(done.rows_affected())
}

/// The heartbeat, in one statement (so one transaction and one round trip): refreshes the
/// node's row and renews every lease it still holds, and returns those as (room, epoch). A
/// lease this node held and does not get back was taken by another node.
pub(super) async fn renew(
    pool: &AnyPool,
    node: &str,
    lease: Duration,
) -> Result<HashSet<(String, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "WITH beat AS (UPDATE nodes SET heartbeat_at = now() WHERE name = $1) \
         UPDATE room_leases SET expires_at = now() + $2 * interval '1 millisecond' \
         WHERE node = $1 RETURNING room_code, epoch",
    )
    .bind(node)
    .bind(millis(lease))
    .fetch_all(pool)
    .await?;
    Ok(rows
        .iter()
        .map(|row| (row.get::<String, _>(0), row.get::<i64, _>(1)))
        .collect())
}

/// Who holds `room` now, as the database sees it: `None` when no row exists (no node ever
/// opened the room) or when its lease is free (released, or expired by the database's clock).
pub(super) async fn holder(
    pool: &AnyPool,
    room: &str,
) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT l.node, n.internal_address FROM room_leases l \
         LEFT JOIN nodes n ON n.name = l.node \
         WHERE l.room_code = $1 AND l.node IS NOT NULL AND l.expires_at > now()",
    )
    .bind(room)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| (row.get(0), row.get(1))))
}
