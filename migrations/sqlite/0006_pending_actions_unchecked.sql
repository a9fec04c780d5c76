-- `pending_actions` without its foreign key: SQLite checked every appended row against the
-- primary key of `matches` (an index lookup per move, inside the commit), while the writer
-- needs to know only once per match that its row exists; it now checks that itself, with
-- the first action of each match it appends. A match's rows are read back by their index
-- (`idx`), so their new rowids need not keep any order across matches.
CREATE TABLE pending_actions_unchecked (
    match_id  TEXT NOT NULL,
    idx       BIGINT NOT NULL,
    seat      BIGINT NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL,
    seq       BIGINT,
    at        BIGINT NOT NULL
);
INSERT INTO pending_actions_unchecked (match_id, idx, seat, action, source, seq, at)
    SELECT match_id, idx, seat, action, source, seq, at FROM pending_actions;
DROP TABLE pending_actions;
ALTER TABLE pending_actions_unchecked RENAME TO pending_actions;
