-- One log model. A running match's actions are appended to `running_actions`, in arrival
-- order; when the match ends (finished or abandoned), the transaction that ends it writes
-- its whole log into `matches.log`, one JSON array, and deletes its rows: an ended match's
-- log is read from there alone. Here the table keeps its primary key: PostgreSQL refuses an
-- index already taken, and finds a match's rows by it when the match ends. A trigger, in
-- place of the foreign key (the same lookup), refuses an action for a match that has no row
-- or has ended: an ended match's log is sealed in its row.
--
-- Until now an ended match's log stayed in `actions`; `actions_by_arrival` and `log_rows`
-- (SQLite's) were always empty here.
CREATE TABLE running_actions (
    match_id  TEXT NOT NULL,
    idx       BIGINT NOT NULL,
    seat      BIGINT NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL,
    seq       BIGINT,
    at        BIGINT NOT NULL,
    PRIMARY KEY (match_id, idx)
);
ALTER TABLE matches ADD COLUMN log TEXT;

CREATE FUNCTION refuse_actions_of_matches_not_running() RETURNS trigger AS $$
BEGIN
    IF (SELECT status FROM matches WHERE id = NEW.match_id) IS DISTINCT FROM 'running' THEN
        RAISE EXCEPTION 'match % is not running: its log is closed', NEW.match_id
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

UPDATE matches SET log = COALESCE((
    SELECT json_agg(
        json_build_object('seat', a.seat, 'action', a.action::json, 'by', a.source, 'seq', a.seq)
        ORDER BY a.idx)::text
    FROM actions a WHERE a.match_id = matches.id), '[]')
WHERE status <> 'running';

INSERT INTO running_actions (match_id, idx, seat, action, source, seq, at)
    SELECT a.match_id, a.idx, a.seat, a.action, a.source, a.seq, a.at
    FROM actions a JOIN matches m ON m.id = a.match_id
    WHERE m.status = 'running';

DROP TABLE actions;
DROP TABLE actions_by_arrival;
ALTER TABLE matches DROP COLUMN log_rows;
ALTER TABLE matches DROP COLUMN log_from;

-- After the move: the rows moved above belong to running matches.
CREATE TRIGGER actions_of_running_matches_only BEFORE INSERT ON running_actions
    FOR EACH ROW EXECUTE FUNCTION refuse_actions_of_matches_not_running();
