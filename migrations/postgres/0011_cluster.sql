-- Cluster mode: several servers share this database. Each server (node) keeps a row here,
-- refreshed by its heartbeat every second; other nodes reach it at `internal_address`.
-- Times are the database's own clock (`now()`), never a node's: the nodes' clocks may differ.
CREATE TABLE nodes (
    name              TEXT PRIMARY KEY,
    internal_address  TEXT NOT NULL,
    started_at        TIMESTAMPTZ NOT NULL,
    heartbeat_at      TIMESTAMPTZ NOT NULL
);

-- Which node owns each room, until when. A room belongs to one node at a time: its lease is
-- renewed by the owner's heartbeat, and taken by another node only once it has expired (or
-- was released: `node` is then NULL). Every takeover raises `epoch`, and every append of the
-- room's actions is checked against (node, epoch) in the transaction that writes it, so a
-- node that lost the lease can never write again. Rows are kept when released, so a room
-- code's epochs only ever grow.
CREATE TABLE room_leases (
    room_code   TEXT PRIMARY KEY,
    node        TEXT,
    epoch       BIGINT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
-- The heartbeat renews every lease of its node.
CREATE INDEX room_leases_by_node ON room_leases (node);
