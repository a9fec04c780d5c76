-- SQLite's action log stays where it was appended. Since 0005 its writer appended a running
-- match's actions to `pending_actions` (arrival order, no index) and, once the match had
-- ended, copied them into `actions` (ordered by match) and later deleted them: with many
-- short matches (the kit's closed loop) those copies and deletes were a tenth of the server's
-- CPU. Now the rows stay, in a table renamed for what it holds. An ended match records the
-- rowids of its rows in index order (`log_rows`, a JSON array), so reading its log looks up
-- just those; every match records a rowid at or below all of its rows (`log_from`, the
-- table's next rowid when the match starts), so finding a running match's rows after a
-- restart scans from there, not the whole table. PostgreSQL appends to `actions` as before:
-- its new columns stay NULL and the renamed table empty.
ALTER TABLE matches ADD COLUMN log_rows TEXT;
ALTER TABLE matches ADD COLUMN log_from BIGINT;
-- Ended matches whose rows were still to be copied: copied now, as the writer would have.
INSERT INTO actions (match_id, idx, seat, action, source, seq, at)
    SELECT p.match_id, p.idx, p.seat, p.action, p.source, p.seq, p.at
    FROM pending_actions p JOIN matches m ON m.id = p.match_id
    WHERE m.status <> 'running' AND m.log_pending = 1
    AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.match_id = p.match_id AND a.idx = p.idx);
-- Every ended match's log is in `actions` now; what is left of them here are copies.
DELETE FROM pending_actions WHERE match_id IN (SELECT id FROM matches WHERE status <> 'running');
-- The rows left are running matches': each is found by a scan from the table's start.
UPDATE matches SET log_from = 0 WHERE status = 'running';
ALTER TABLE matches DROP COLUMN log_pending;
ALTER TABLE pending_actions RENAME TO actions_by_arrival;
