-- Matches by their start, so the guest prune can check cheaply that nobody it is about to delete
-- sat down in a match started since it looked.
CREATE INDEX matches_by_start ON matches (started_at);
