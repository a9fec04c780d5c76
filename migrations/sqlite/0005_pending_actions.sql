-- The actions of matches still being played, in the order they were accepted, with no index:
-- appending a move writes the table's last page and nothing else, where `actions` (ordered by
-- match) writes a page of its index per match in every commit, and splits them often. SQLite's
-- writer appends here and moves a match's actions into `actions` in the transaction that ends
-- the match; rows of ended matches are deleted from the front of the table in bulk. The
-- PostgreSQL writer appends to `actions` directly and leaves this table empty.
CREATE TABLE pending_actions (
    match_id  TEXT NOT NULL REFERENCES matches (id),
    idx       BIGINT NOT NULL,
    seat      BIGINT NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL,
    seq       BIGINT,
    at        BIGINT NOT NULL
);
