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
-- there are in all, and counting them was a walk over every one. Kept by the trigger below
-- whichever statement changes a match's status (matches are never deleted).
CREATE TABLE history_counts (
    game      TEXT PRIMARY KEY,
    finished  BIGINT NOT NULL
);
INSERT INTO history_counts (game, finished)
    SELECT game, COUNT(*) FROM matches WHERE status = 'finished' GROUP BY game;
CREATE FUNCTION count_finished_matches() RETURNS trigger AS $$
DECLARE
    was_finished BOOLEAN := TG_OP = 'UPDATE' AND OLD.status = 'finished';
    is_finished BOOLEAN := NEW.status = 'finished';
BEGIN
    IF is_finished AND NOT was_finished THEN
        INSERT INTO history_counts (game, finished) VALUES (NEW.game, 1)
            ON CONFLICT (game) DO UPDATE SET finished = history_counts.finished + 1;
    ELSIF was_finished AND NOT is_finished THEN
        UPDATE history_counts SET finished = finished - 1 WHERE game = OLD.game;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER history_counts AFTER INSERT OR UPDATE OF status ON matches
    FOR EACH ROW EXECUTE FUNCTION count_finished_matches();
