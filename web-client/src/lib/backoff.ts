import type { ReconnectReason } from "./connectionState";

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

/** The close code of a server that restarts or hands the room to another node. */
export const SERVICE_RESTART = 1012;

/** What a client knows when its socket closes. */
export interface Closed {
  /** The close code, or null when no socket could be made at all. */
  code: number | null;
  /** Whether the server had welcomed that socket: a session was running on it. */
  welcomed: boolean;
  /** Failed attempts since the last welcome. */
  attempt: number;
  /** Why the client was reconnecting already, if it was. */
  reason: ReconnectReason | null;
}

/** When to try again after a close, and why the client is reconnecting. */
export function retryAfter(
  { code, welcomed, attempt, reason }: Closed,
  random: () => number,
  { backoff, restartJitterMs }: { backoff: BackoffOptions; restartJitterMs: number },
): { wait: number; reason: ReconnectReason } {
  const backingOff = () => backoffDelay(attempt, random, backoff);
  if (code === SERVICE_RESTART) {
    // Restarting, or the room moved: nothing is wrong, so no backoff for a session that was
    // running. A socket closed at the handshake means the server is not ready yet: back off.
    const wait = welcomed ? restartDelay(random, restartJitterMs) : backingOff();
    return { wait, reason: "server_restart" };
  }
  // A failed attempt after a restart is still part of the restart.
  return {
    wait: backingOff(),
    reason: welcomed ? "connection_lost" : (reason ?? "connection_lost"),
  };
}
