-- The history at any size. The rematch that followed a match is found through this index: it
-- was a scan of every match for each row the history showed, which made one page of a long
-- history take seconds.
CREATE INDEX matches_by_rematch_of ON matches (rematch_of);
-- Ended matches in the order the history lists them (newest first, then by id), of every
-- game or of one: a page is read off an index, with no sort of the whole history.
DROP INDEX matches_by_status;
CREATE INDEX matches_by_finish ON matches (status, finished_at, id);
CREATE INDEX matches_by_game_finish ON matches (status, game, finished_at, id);

-- How many finished matches the history holds, per game: a page of the history says how many
-- there are in all, and counting them was a walk over every one. Kept by the triggers below
-- whichever statement changes a match's status (matches are never deleted).
CREATE TABLE history_counts (
    game      TEXT PRIMARY KEY,
    finished  BIGINT NOT NULL
);
INSERT INTO history_counts (game, finished)
    SELECT game, COUNT(*) FROM matches WHERE status = 'finished' GROUP BY game;
CREATE TRIGGER history_counts_insert AFTER INSERT ON matches
    WHEN NEW.status = 'finished'
BEGIN
    INSERT OR IGNORE INTO history_counts (game, finished) VALUES (NEW.game, 0);
    UPDATE history_counts SET finished = finished + 1 WHERE game = NEW.game;
END;
CREATE TRIGGER history_counts_finish AFTER UPDATE OF status ON matches
    WHEN NEW.status = 'finished' AND OLD.status <> 'finished'
BEGIN
    INSERT OR IGNORE INTO history_counts (game, finished) VALUES (NEW.game, 0);
    UPDATE history_counts SET finished = finished + 1 WHERE game = NEW.game;
END;
CREATE TRIGGER history_counts_unfinish AFTER UPDATE OF status ON matches
    WHEN OLD.status = 'finished' AND NEW.status <> 'finished'
BEGIN
    UPDATE history_counts SET finished = finished - 1 WHERE game = OLD.game;
END;
