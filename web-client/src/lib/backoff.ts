/**
 * Reconnect delays: exponential with "equal jitter" (half fixed, half random), so a server
 * restart is not greeted by every browser at the same instant, yet no client waits longer
 * than `maxMs`.
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 15_000 };

/** Delay before reconnect attempt `attempt` (0 for the first retry). */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  { baseMs, maxMs }: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
