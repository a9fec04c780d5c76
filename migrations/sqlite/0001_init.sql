-- Guests: a display name and the SHA-256 of their secret token (the token itself is never stored).
CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);

-- One row per match, from its start. `seats` and `room` are JSON; `seed` stays secret (never
-- served) until `status` is 'finished'.
CREATE TABLE matches (
    id           TEXT PRIMARY KEY,
    room_code    TEXT NOT NULL,
    game         TEXT NOT NULL,
    config       TEXT NOT NULL,
    seats        TEXT NOT NULL,
    room         TEXT NOT NULL,
    seed         TEXT NOT NULL,
    seed_hash    TEXT NOT NULL,
    status       TEXT NOT NULL,
    outcome      TEXT,
    started_at   BIGINT NOT NULL,
    finished_at  BIGINT
);
CREATE INDEX matches_by_status ON matches (status, game, finished_at);

-- The action log: every accepted action, appended before anyone is told of it.
CREATE TABLE actions (
    match_id  TEXT NOT NULL REFERENCES matches (id),
    idx       BIGINT NOT NULL,
    seat      BIGINT NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (match_id, idx)
);
