-- One log model. A running match's actions are appended to `running_actions`, in arrival
-- order; when the match ends (finished or abandoned), the transaction that ends it writes
-- its whole log into `matches.log`, one JSON array, and that is where an ended match's log
-- is read from. The rows it leaves in `running_actions` are garbage from then on: the writer
-- deletes them from the front of the table, in bulk, once no running match can have rows
-- among them (every running match's rows are at or above its `log_from`).
--
-- On SQLite `running_actions` has no index: an append writes the table's last page and
-- nothing else. The writer keeps each running match's rowids and next index, so that it can
-- refuse an index already taken and gather the log at the end by rowid.
--
-- Until now a log had three homes here (`actions`, `actions_by_arrival`, found through
-- `log_rows`); their rows are moved below.
CREATE TABLE running_actions (
    match_id  TEXT NOT NULL,
    idx       BIGINT NOT NULL,
    seat      BIGINT NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL,
    seq       BIGINT,
    at        BIGINT NOT NULL
);
ALTER TABLE matches ADD COLUMN log TEXT;

-- Every action from both old homes once (a row copied into `actions` and left behind in
-- `actions_by_arrival` is the same row twice), ordered by match for the moves below.
CREATE TABLE old_log AS
    SELECT match_id, idx, seat, action, source, seq, at FROM actions
    UNION
    SELECT match_id, idx, seat, action, source, seq, at FROM actions_by_arrival;
CREATE INDEX old_log_by_match ON old_log (match_id, idx);

UPDATE matches SET log = (
    SELECT json_group_array(
        json_object('seat', seat, 'action', json(action), 'by', source, 'seq', seq)
        ORDER BY idx)
    FROM old_log WHERE old_log.match_id = matches.id)
WHERE status <> 'running';

INSERT INTO running_actions (match_id, idx, seat, action, source, seq, at)
    SELECT o.match_id, o.idx, o.seat, o.action, o.source, o.seq, o.at
    FROM old_log o JOIN matches m ON m.id = o.match_id
    WHERE m.status = 'running'
    ORDER BY o.match_id, o.idx;
UPDATE matches SET log_from = 1 WHERE status = 'running';
UPDATE matches SET log_from = NULL WHERE status <> 'running';

DROP TABLE old_log;
DROP TABLE actions;
DROP TABLE actions_by_arrival;
ALTER TABLE matches DROP COLUMN log_rows;
