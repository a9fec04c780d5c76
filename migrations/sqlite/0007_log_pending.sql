-- 1 while an ended match's actions are still in `pending_actions`, to be moved into `actions`.
-- SQLite's writer used to move them in the transaction that ended the match; when many tables
-- ended together, those moves (a millisecond or so each) held every room's actions behind
-- them. It now moves them after the end has committed, one match at a time; until then the
-- match's log is read from both tables. PostgreSQL appends to `actions` directly: always 0.
ALTER TABLE matches ADD COLUMN log_pending BIGINT NOT NULL DEFAULT 0;
