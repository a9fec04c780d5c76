-- The lobby across nodes (cluster mode): every node publishes its rooms' summaries and who is
-- connected to it, so that any node can list every public room, answer for any room by its
-- code and count the people online once. Only the rows that changed are written, at most
-- four times a second per node, each write followed by a NOTIFY on `pandemonium_lobby`
-- whose payload is the node's name; the other nodes LISTEN and reload.
--
-- A node's rows go with its row in `nodes` (it left). A node that died keeps its rows, but
-- readers ignore them once its heartbeat is older than its lease: a room's row counts only
-- while the room's lease is the same node's and unexpired, a person's while the node's
-- heartbeat is younger than `lease_ms`.

-- How long this node's leases last: how long after its last heartbeat it counts as gone.
-- Written by the node when it starts publishing; NULL until then (readers use their own).
ALTER TABLE nodes ADD COLUMN lease_ms BIGINT;

-- Every open room of every node, public or private (a private room is never listed, but
-- `GET /api/rooms/{code}` answers for it on any node). `summary` is the RoomSummary as JSON
-- text. When a room moves to another node, the new owner's write takes the row over.
CREATE TABLE lobby_rooms (
    room_code   TEXT PRIMARY KEY,
    node        TEXT NOT NULL REFERENCES nodes (name) ON DELETE CASCADE,
    summary     TEXT NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX lobby_rooms_by_node ON lobby_rooms (node);

-- The people with at least one connection open on a node, once each per node: a person with
-- tabs on two nodes has two rows, and is counted once by the readers.
CREATE TABLE lobby_people (
    node       TEXT NOT NULL REFERENCES nodes (name) ON DELETE CASCADE,
    player_id  TEXT NOT NULL,
    PRIMARY KEY (node, player_id)
);
