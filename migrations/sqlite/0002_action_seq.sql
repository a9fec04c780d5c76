-- The client's sequence number of each action a player sent (NULL for bots and timeouts), so a
-- resent action is recognised after a restart and answered with its original outcome.
ALTER TABLE actions ADD COLUMN seq BIGINT;
