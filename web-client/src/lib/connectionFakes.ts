/**
 * The fakes the connection's tests drive: a WebSocket stand-in, room snapshots and states, and a
 * connection wired to them with a small backoff.
 */
import { afterEach, beforeEach, vi } from "vitest";
import type { ClientMsg } from "../protocol/ClientMsg";
import type { GameState } from "../protocol/GameState";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import type { ServerMsg } from "../protocol/ServerMsg";
import { RESTART_JITTER_MS, STORAGE_BACKOFF } from "./backoff";
import { Connection, type ConnectionOptions, type SocketLike } from "./connection";
import { memoryIdentityStore, type IdentityStore } from "./identity";

/** A WebSocket stand-in the test drives by hand. */
export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  readonly sent: ClientMsg[] = [];
  closedByClient: number | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error("send on a socket that is not open");
    this.sent.push(JSON.parse(data) as ClientMsg);
  }
  close(code = 1000): void {
    this.closedByClient = code;
    this.readyState = 3;
  }

  // Test helpers.
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: ServerMsg): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  last(): ClientMsg | undefined {
    return this.sent[this.sent.length - 1];
  }
}

export function room(overrides: Partial<RoomSnapshot> = {}): RoomSnapshot {
  return {
    code: "K7QX2M",
    game: "soulitaire",
    options: {},
    seats: [
      {
        seat: 0,
        player: { id: "p1", name: "Ada" },
        presence: "online",
        ready: false,
        team: null,
        pace: null,
        away_ms: null,
      },
    ],
    host: "p1",
    status: "playing",
    spectators: 0,
    public: false,
    you: 0,
    match_id: "m1",
    seed_hash: "abc",
    team_chat_open: false,
    last_seq: null,
    turn_seconds: null,
    grace_seconds: 60,
    rematch: [],
    previous_match: null,
    ...overrides,
  };
}

export function state(version: number, overrides: Partial<GameState> = {}): ServerMsg {
  return {
    type: "state",
    version,
    view: { v: version },
    to_act: [0],
    legal: [],
    deadline_ms: null,
    outcome: null,
    ...overrides,
  };
}

/** Every socket the connections made, newest last; emptied before each test. */
export const sockets: FakeSocket[] = [];
/** The identity store of the last connection made (a live binding). */
export let identity: IdentityStore;

/** What a test may change of the connection it makes: who it is, and its timings. */
export interface FakeConnectOptions extends Pick<
  ConnectionOptions,
  "random" | "backoff" | "restartJitterMs" | "storageBackoff"
> {
  token?: string | null;
  name?: string;
}

export function connect(options: FakeConnectOptions = {}): Connection {
  identity = memoryIdentityStore(
    options.token === null ? null : { token: options.token ?? "tok-1", name: "Ada" },
  );
  return new Connection({
    url: "ws://test/ws",
    identity,
    name: () => options.name ?? null,
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    random: options.random ?? (() => 0.5),
    now: () => Date.now(),
    backoff: options.backoff ?? { baseMs: 100, maxMs: 1000 },
    restartJitterMs: options.restartJitterMs ?? RESTART_JITTER_MS,
    storageBackoff: options.storageBackoff ?? STORAGE_BACKOFF,
  });
}

/** Opens the current socket, welcomes it and answers a join of K7QX2M with `snapshot`. */
export function welcomeAndJoin(conn: Connection, snapshot = room()): FakeSocket {
  const socket = sockets[sockets.length - 1];
  socket.open();
  socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
  if (conn.state.target) socket.receive({ type: "room", ...snapshot });
  return socket;
}

/** Fresh sockets and fake timers for each test of the file that calls it. */
export function useFakes(): void {
  beforeEach(() => {
    sockets.length = 0;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
