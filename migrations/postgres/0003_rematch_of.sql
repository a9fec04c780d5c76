-- A rematch is a new match at the same table: it names the match it follows, so the history
-- can link the two.
ALTER TABLE matches ADD COLUMN rematch_of TEXT;
