/**
 * Reconnect delays: exponential with "equal jitter" (half fixed, half random), so a server
 * restart is not greeted by every browser at the same instant, yet no client waits longer
 * than `maxMs`. A server that hands its rooms on (close 1012) is not failing: there the wait
 * is only a short spread, so a room's clients reach the room's new node at once but not all
 * in the same millisecond.
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 15_000 };

/** How long acts wait before they are offered again while the server's database is down:
 * the first offer again after 0.5-1 s, then up to every 4-8 s. */
export const STORAGE_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 8000 };

/** The spread of reconnects after a server restart or a room's move (close 1012). */
export const RESTART_JITTER_MS = 1000;

/** Delay before reconnect attempt `attempt` (0 for the first retry). */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  { baseMs, maxMs }: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Delay before reconnecting to a server that said it is restarting: anywhere in `[0, jitterMs]`. */
export function restartDelay(
  random: () => number = Math.random,
  jitterMs: number = RESTART_JITTER_MS,
): number {
  return Math.round(random() * jitterMs);
}
