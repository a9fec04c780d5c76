/**
 * The app's long-lived state: who this browser is (identity in localStorage), the one
 * protocol connection, and the game list. Pages import from here; nothing here renders.
 */
import type { GameInfo } from "../protocol/GameInfo";
import { api } from "./api";
import { Connection, defaultSocketUrl } from "./connection";
import { localIdentityStore, type Identity } from "./identity";
import { createStore, type Readable } from "./store";

const identityStore = localIdentityStore();
const identityValue = createStore<Identity | null>(identityStore.load());

/** The saved identity, or null until the player picks a display name. */
export const identity: Readable<Identity | null> = identityValue;

/** Same-tab and cross-tab changes to the identity (a token issued on the socket, another tab). */
const watchedIdentityStore = {
  load: () => identityStore.load(),
  save(next: Identity) {
    identityStore.save(next);
    identityValue.set(next);
  },
  clear() {
    identityStore.clear();
    identityValue.set(null);
  },
};

if (typeof window !== "undefined") {
  window.addEventListener("storage", () => identityValue.set(identityStore.load()));
}

/** Registers a guest under `name` (or renames by registering afresh) and keeps the token. */
export async function chooseName(name: string): Promise<Identity> {
  const guest = await api.newGuest(name.trim());
  const next: Identity = { token: guest.token, name: guest.name, player_id: guest.player_id };
  watchedIdentityStore.save(next);
  // A new identity means a new hello: reconnect the socket if it is open.
  if (conn && conn.state.status !== "idle") {
    const target = conn.state.target;
    conn.stop();
    if (target) conn.join(target.room, target.role);
  }
  return next;
}

let conn: Connection | null = null;

/** The one protocol connection (opened lazily by the first page that joins a room). */
export function connection(): Connection {
  if (!conn) {
    conn = new Connection({
      url: defaultSocketUrl(),
      identity: watchedIdentityStore,
      name: () => identityValue.get()?.name ?? null,
    });
    if (typeof window !== "undefined") {
      window.addEventListener("online", () => conn?.retryNow());
    }
  }
  return conn;
}

const gamesValue = createStore<{ games: GameInfo[]; error: string | null; loaded: boolean }>({
  games: [],
  error: null,
  loaded: false,
});
export const games: Readable<{ games: GameInfo[]; error: string | null; loaded: boolean }> =
  gamesValue;

let gamesRequest: Promise<void> | null = null;
export function loadGames(force = false): Promise<void> {
  if (gamesRequest && !force) return gamesRequest;
  gamesRequest = api
    .games()
    .then((list) => gamesValue.set({ games: list, error: null, loaded: true }))
    .catch((e: Error) => {
      gamesRequest = null;
      gamesValue.set({ games: gamesValue.get().games, error: e.message, loaded: true });
    });
  return gamesRequest;
}

export function gameInfo(id: string): GameInfo | undefined {
  return gamesValue.get().games.find((g) => g.id === id);
}

// A handle for browser tests and curious developers (the page's own connection, nothing more):
// `pandemonium.connection().state` in the console shows what the client knows.
if (typeof window !== "undefined") {
  (window as unknown as { pandemonium: unknown }).pandemonium = { connection };
}
