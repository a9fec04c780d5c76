import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientMsg } from "../protocol/ClientMsg";
import type { GameState } from "../protocol/GameState";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import type { ServerMsg } from "../protocol/ServerMsg";
import { backoffDelay } from "./backoff";
import { ActError, Connection, type SocketLike } from "./connection";
import { memoryIdentityStore, type IdentityStore } from "./identity";

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket implements SocketLike {
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

function room(overrides: Partial<RoomSnapshot> = {}): RoomSnapshot {
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

function state(version: number, overrides: Partial<GameState> = {}): ServerMsg {
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

let sockets: FakeSocket[];
let identity: IdentityStore;

function connect(options: { token?: string | null; name?: string } = {}): Connection {
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
    random: () => 0.5,
    now: () => Date.now(),
    backoff: { baseMs: 100, maxMs: 1000 },
  });
}

/** Opens the current socket, welcomes it and answers a join of K7QX2M with `snapshot`. */
function welcomeAndJoin(conn: Connection, snapshot = room()): FakeSocket {
  const socket = sockets[sockets.length - 1];
  socket.open();
  socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
  if (conn.state.target) socket.receive({ type: "room", ...snapshot });
  return socket;
}

beforeEach(() => {
  sockets = [];
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("hello and identity", () => {
  it("says hello with the stored token before anything else", () => {
    const conn = connect({ token: "secret" });
    conn.join("K7QX2M");
    const socket = sockets[0];
    expect(socket.url).toBe("ws://test/ws");
    expect(socket.sent).toEqual([]);
    socket.open();
    expect(socket.sent).toEqual([
      { type: "hello", token: "secret", name: null, patches: true, products: true },
    ]);
  });

  it("asks for a new identity by name when there is no token, and keeps the token it is given", () => {
    const conn = connect({ token: null, name: "Beelzebub" });
    conn.start();
    sockets[0].open();
    expect(sockets[0].sent[0]).toEqual({
      type: "hello",
      token: null,
      name: "Beelzebub",
      patches: true,
      products: true,
    });
    sockets[0].receive({ type: "welcome", player_id: "p9", name: "Beelzebub", token: "fresh" });
    expect(identity.load()).toEqual({ token: "fresh", name: "Beelzebub", player_id: "p9" });
    expect(conn.state.status).toBe("online");
    expect(conn.state.me).toEqual({ player_id: "p9", name: "Beelzebub" });
  });

  it("starts a new identity under the same name when the server does not know the token", () => {
    const conn = connect({ token: "stale" });
    conn.start();
    sockets[0].open();
    sockets[0].receive({ type: "error", code: "unknown_token", message: "Unknown token" });
    expect(sockets[0].last()).toEqual({
      type: "hello",
      token: null,
      name: "Ada",
      patches: true,
      products: true,
    });
    expect(identity.load()).toBeNull();
    expect(conn.state.notices).toEqual([]);
  });

  it("joins the target room right after the welcome, with no version the first time", () => {
    const conn = connect();
    conn.join("K7QX2M", "spectator");
    const socket = sockets[0];
    socket.open();
    socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    expect(socket.last()).toEqual({
      type: "join",
      room: "K7QX2M",
      role: "spectator",
      version: null,
    });
  });
});

describe("room and state", () => {
  it("keeps the room snapshot and the newest state", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    expect(conn.state.room?.code).toBe("K7QX2M");
    expect(conn.state.game?.version).toBe(3);
  });

  it("ignores a state whose version is not newer than the last one seen", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(5));
    socket.receive(state(4));
    socket.receive(state(5, { view: { stale: true } }));
    expect(conn.state.game?.version).toBe(5);
    expect(conn.state.game?.view).toEqual({ v: 5 });
    socket.receive(state(6));
    expect(conn.state.game?.version).toBe(6);
  });

  it("applies a patch to the state it was made against", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    socket.receive({
      type: "patch",
      version: 4,
      base: 3,
      ops: [
        { op: "replace", path: "/view/v", value: 4 },
        { op: "remove", path: "/to_act/0" },
      ],
    });
    expect(conn.state.game).toEqual({ ...state(4), to_act: [] } as unknown);
    socket.receive({
      type: "patch",
      version: 4,
      base: 3,
      ops: [{ op: "remove", path: "/to_act/0" }],
    });
    expect(conn.state.game?.version).toBe(4);
  });

  it("joins again from the version it holds when a patch does not fit", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    socket.receive({ type: "patch", version: 5, base: 4, ops: [] });
    expect(conn.state.game?.version).toBe(3);
    expect(socket.last()).toEqual({ type: "join", room: "K7QX2M", role: "player", version: 3 });
  });

  it("counts versions afresh when the room starts a new match (a rematch), never dropping to no game", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(
      state(40, { outcome: { winners: [0], placements: [1], scores: [3], summary: "Ada wins" } }),
    );
    const seen: (number | null)[] = [];
    conn.subscribe((s) => seen.push(s.game ? s.game.version : null));
    socket.receive({ type: "room", ...room({ match_id: "m2", previous_match: "m1" }) });
    // The finished position stays until the rematch's first state replaces it: a page that
    // shows a game never sees it vanish while the room is there.
    expect(conn.state.game?.version).toBe(40);
    socket.receive(state(0));
    expect(conn.state.game?.version).toBe(0);
    expect(conn.state.game?.outcome).toBeNull();
    expect(seen).not.toContain(null);
  });

  it("ignores room snapshots of another room", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive({ type: "room", ...room({ code: "AAAAAA", spectators: 9 }) });
    expect(conn.state.room?.spectators).toBe(0);
  });

  it("reports a room that does not exist as a join error, not a toast", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = sockets[0];
    socket.open();
    socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    socket.receive({ type: "error", code: "room_not_found", message: "No room K7QX2M" });
    expect(conn.state.joinError).toEqual({ code: "room_not_found", message: "No room K7QX2M" });
    expect(conn.state.notices).toEqual([]);
  });

  it("keeps chat lines in order", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive({ type: "chat", id: 1, channel: "players", from: "Ada", text: "hi" });
    socket.receive({ type: "chat", id: 2, channel: "spectators", from: "Bo", text: "go" });
    expect(conn.state.chat.map((c) => [c.channel, c.text])).toEqual([
      ["players", "hi"],
      ["spectators", "go"],
    ]);
  });

  it("keeps the chat over a reconnect and takes each line of the history once", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    first.receive({ type: "chat", id: 10, channel: "players", from: "Ada", text: "hi" });
    first.drop();
    vi.runOnlyPendingTimers();
    const second = welcomeAndJoin(conn);
    expect(second).toBe(sockets[1]);
    expect(conn.state.chat.map((c) => c.text)).toEqual(["hi"]);
    second.receive({
      type: "chat_history",
      lines: [
        { id: 10, channel: "players", from: "Ada", text: "hi" },
        { id: 11, channel: "players", from: "Bo", text: "said while you were away" },
      ],
    });
    second.receive({
      type: "chat",
      id: 11,
      channel: "players",
      from: "Bo",
      text: "said while you were away",
    });
    expect(conn.state.chat.map((c) => [c.id, c.text])).toEqual([
      [10, "hi"],
      [11, "said while you were away"],
    ]);
  });

  it("a fresh page gets the room's chat from the history on join", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive({
      type: "chat_history",
      lines: [{ id: 3, channel: "players", from: "Ada", text: "gg" }],
    });
    expect(conn.state.chat.map((c) => c.text)).toEqual(["gg"]);
  });

  it("asks for a rematch with a rematch message", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    expect(conn.rematch()).toBe(true);
    expect(socket.last()).toEqual({ type: "rematch", accept: true });
  });

  it("switching rooms leaves the old one's state behind", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(7));
    conn.join("AAAAAA", "spectator");
    expect(conn.state.room).toBeNull();
    expect(conn.state.game).toBeNull();
    expect(socket.last()).toEqual({
      type: "join",
      room: "AAAAAA",
      role: "spectator",
      version: null,
    });
  });
});

describe("act, ack and reject", () => {
  it("numbers acts and resolves each promise with the ack of its own sequence number", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const first = conn.act({ move: "a" });
    const second = conn.act({ move: "b" });
    const acts = socket.sent.filter((m) => m.type === "act");
    expect(acts).toEqual([
      { type: "act", seq: 1, action: { move: "a" } },
      { type: "act", seq: 2, action: { move: "b" } },
    ]);
    expect(conn.state.pendingActs).toBe(2);
    // Answers arrive out of order; each goes to its own promise.
    socket.receive({ type: "ack", seq: 2, version: 11 });
    socket.receive({ type: "ack", seq: 1, version: 10 });
    await expect(first).resolves.toEqual({ seq: 1, version: 10 });
    await expect(second).resolves.toEqual({ seq: 2, version: 11 });
    expect(conn.state.pendingActs).toBe(0);
  });

  it("rejects the matching promise with the server's code and message, and shows it", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const good = conn.act("good");
    const bad = conn.act("bad");
    socket.receive({
      type: "reject",
      seq: 2,
      code: "illegal_action",
      rule: "not_adjacent",
      message: "A 9 does not go on a 7.",
    });
    socket.receive({ type: "ack", seq: 1, version: 4 });
    await expect(good).resolves.toEqual({ seq: 1, version: 4 });
    const error = await bad.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActError);
    expect(error).toMatchObject({
      code: "illegal_action",
      rule: "not_adjacent",
      message: "A 9 does not go on a 7.",
      seq: 2,
    });
    expect(conn.state.notices).toMatchObject([{ kind: "reject", code: "illegal_action" }]);
  });

  it("sends an act refused as rate_limited again after a pause, with the same seq, and shows nothing", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const promise = conn.act({ move: "a" });
    const acts = () => socket.sent.filter((m) => m.type === "act");
    socket.receive({ type: "reject", seq: 1, code: "rate_limited", message: "Slow down." });
    expect(acts()).toHaveLength(1);
    expect(conn.state.pendingActs).toBe(1);
    vi.advanceTimersByTime(249);
    expect(acts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(acts()).toEqual([
      { type: "act", seq: 1, action: { move: "a" } },
      { type: "act", seq: 1, action: { move: "a" } },
    ]);
    // Refused again: the pause doubles.
    socket.receive({ type: "reject", seq: 1, code: "rate_limited", message: "Slow down." });
    vi.advanceTimersByTime(499);
    expect(acts()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(acts()).toHaveLength(3);
    socket.receive({ type: "ack", seq: 1, version: 7 });
    await expect(promise).resolves.toEqual({ seq: 1, version: 7 });
    expect(conn.state.notices).toEqual([]);
  });

  it("gives up on an act refused as rate_limited too many times and shows the refusal", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const promise = conn.act("x");
    for (let retry = 0; retry < 5; retry++) {
      socket.receive({ type: "reject", seq: 1, code: "rate_limited", message: "Slow down." });
      vi.advanceTimersByTime(250 * 2 ** retry);
    }
    expect(socket.sent.filter((m) => m.type === "act")).toHaveLength(6);
    socket.receive({ type: "reject", seq: 1, code: "rate_limited", message: "Slow down." });
    await expect(promise).rejects.toMatchObject({ code: "rate_limited", seq: 1 });
    expect(conn.state.notices).toMatchObject([{ kind: "reject", code: "rate_limited" }]);
  });

  it("an act waiting out rate_limited when the connection drops goes once, after the rejoin", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    void conn.act("x");
    first.receive({ type: "reject", seq: 1, code: "rate_limited", message: "Slow down." });
    first.drop();
    vi.advanceTimersByTime(100);
    const second = welcomeAndJoin(conn);
    expect(second.sent.filter((m) => m.type === "act")).toEqual([
      { type: "act", seq: 1, action: "x" },
    ]);
    vi.advanceTimersByTime(1000);
    expect(second.sent.filter((m) => m.type === "act")).toHaveLength(1);
  });

  it("ignores an ack or reject for a sequence number it never sent", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    void conn.act("x");
    socket.receive({ type: "ack", seq: 99, version: 1 });
    expect(conn.state.pendingActs).toBe(1);
  });

  it("queues acts made before the room answered and sends them after the join", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const promise = conn.act("early");
    const socket = sockets[0];
    socket.open();
    socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    expect(socket.sent.some((m) => m.type === "act")).toBe(false);
    socket.receive({ type: "room", ...room() });
    expect(socket.last()).toEqual({ type: "act", seq: 1, action: "early" });
    socket.receive({ type: "ack", seq: 1, version: 1 });
    await expect(promise).resolves.toEqual({ seq: 1, version: 1 });
  });

  it("leaving says leave; leaving while keeping the seat only closes the socket", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    conn.leave();
    expect(socket.last()).toEqual({ type: "leave" });
    expect(conn.state.target).toBeNull();
    conn.join("K7QX2M");
    socket.receive({ type: "room", ...room() });
    conn.leave({ keepSeat: true });
    expect(socket.sent.filter((m) => m.type === "leave")).toHaveLength(1);
    expect(socket.closedByClient).toBe(1000);
    expect(conn.state.status).toBe("idle");
    vi.runAllTimers();
    expect(sockets).toHaveLength(1);
    // Coming back reconnects and rejoins.
    conn.join("K7QX2M");
    expect(sockets).toHaveLength(2);
  });

  it("leaving the room fails acts still waiting, clearly", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn);
    const promise = conn.act("x");
    conn.leave();
    await expect(promise).rejects.toMatchObject({ code: "left_room" });
  });
});

describe("reconnect and resync", () => {
  it("reconnects with exponential backoff and says so while it waits", () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn);
    sockets[0].drop();
    expect(conn.state.status).toBe("reconnecting");
    expect(conn.state.attempt).toBe(1);
    // random() = 0.5, base 100: attempt 0 waits 50 + 25 = 75 ms.
    vi.advanceTimersByTime(74);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // That attempt fails too: the next waits twice as long (150 ms).
    sockets[1].drop();
    expect(conn.state.attempt).toBe(2);
    vi.advanceTimersByTime(149);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
  });

  it("rejoins with the last version seen after a reconnect and resets the backoff", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    first.receive(state(1));
    first.receive(state(2));
    first.drop();
    vi.runOnlyPendingTimers();
    const second = sockets[1];
    second.open();
    expect(second.sent[0]).toEqual({
      type: "hello",
      token: "tok-1",
      name: null,
      patches: true,
      products: true,
    });
    second.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    expect(second.last()).toEqual({ type: "join", room: "K7QX2M", role: "player", version: 2 });
    expect(conn.state.status).toBe("online");
    expect(conn.state.attempt).toBe(0);
    // The server is ahead: it sends the newer state, which replaces ours.
    second.receive({ type: "room", ...room() });
    second.receive(state(5));
    expect(conn.state.game?.version).toBe(5);
  });

  it("keeps showing the last state while reconnecting", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    socket.drop();
    expect(conn.state.game?.version).toBe(3);
    expect(conn.state.room?.code).toBe("K7QX2M");
  });

  it("resends acts that were on the wire when the connection dropped, in order, with their seqs", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const first = conn.act("in flight");
    const second = conn.act("also in flight");
    socket.drop();
    expect(conn.state.pendingActs).toBe(2);
    vi.runOnlyPendingTimers();
    const again = sockets[1];
    again.open();
    again.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    again.receive({ type: "room", ...room({ last_seq: 1 }) });
    const acts = again.sent.filter((m) => m.type === "act");
    expect(acts).toEqual([
      { type: "act", seq: 1, action: "in flight" },
      { type: "act", seq: 2, action: "also in flight" },
    ]);
    // The server answers the resent seq 1 with its original ack: it was applied once.
    again.receive({ type: "ack", seq: 1, version: 4 });
    again.receive({ type: "reject", seq: 2, code: "not_your_turn", message: "Not now." });
    await expect(first).resolves.toEqual({ seq: 1, version: 4 });
    await expect(second).rejects.toMatchObject({ code: "not_your_turn" });
    expect(conn.state.pendingActs).toBe(0);
  });

  it("numbers new acts above the last seq the room answered for the seat", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive({ type: "room", ...room({ last_seq: 41 }) });
    void conn.act("after a reload");
    expect(socket.last()).toEqual({ type: "act", seq: 42, action: "after a reload" });
  });

  it("sends acts made while offline once the room is rejoined", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop();
    const promise = conn.act("while offline");
    expect(conn.state.pendingActs).toBe(1);
    vi.runOnlyPendingTimers();
    const second = sockets[1];
    second.open();
    second.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    expect(second.sent.some((m) => m.type === "act")).toBe(false);
    second.receive({ type: "room", ...room() });
    expect(second.last()).toEqual({ type: "act", seq: 1, action: "while offline" });
    second.receive({ type: "ack", seq: 1, version: 9 });
    await expect(promise).resolves.toEqual({ seq: 1, version: 9 });
  });

  it("never reuses a sequence number across reconnects", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    void conn.act("a").catch(() => undefined);
    first.drop();
    vi.runOnlyPendingTimers();
    welcomeAndJoin(conn);
    void conn.act("b");
    expect(sockets[1].last()).toEqual({ type: "act", seq: 2, action: "b" });
  });

  it("ignores events from a socket it has replaced", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    const onmessage = first.onmessage;
    first.drop();
    vi.runOnlyPendingTimers();
    welcomeAndJoin(conn);
    onmessage?.({ data: JSON.stringify(state(50)) });
    expect(conn.state.game).toBeNull();
  });

  it("retry now skips the wait", () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop();
    conn.retryNow();
    expect(sockets).toHaveLength(2);
    vi.runOnlyPendingTimers();
    expect(sockets).toHaveLength(2);
  });

  it("stop closes for good: no reconnect", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const promise = conn.act("x");
    conn.stop();
    expect(socket.closedByClient).toBe(1000);
    await expect(promise).rejects.toMatchObject({ code: "stopped" });
    vi.runAllTimers();
    expect(sockets).toHaveLength(1);
    expect(conn.state.status).toBe("idle");
  });

  it("a refused room command while offline becomes a short notice, not silence", () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop();
    expect(conn.ready(true)).toBe(false);
    expect(conn.state.notices.at(-1)).toMatchObject({ kind: "info", code: "offline" });
  });

  it("server errors become notices that can be dismissed", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive({ type: "error", code: "not_host", message: "Only the host can start." });
    const [notice] = conn.state.notices;
    expect(notice).toMatchObject({ kind: "error", code: "not_host" });
    conn.dismiss(notice.id);
    expect(conn.state.notices).toEqual([]);
  });
});

describe("backoff", () => {
  it("grows exponentially, is capped, and is jittered within half of its ceiling", () => {
    const opts = { baseMs: 500, maxMs: 15_000 };
    expect(backoffDelay(0, () => 0, opts)).toBe(250);
    expect(backoffDelay(0, () => 1, opts)).toBe(500);
    expect(backoffDelay(3, () => 1, opts)).toBe(4000);
    expect(backoffDelay(10, () => 1, opts)).toBe(15_000);
    expect(backoffDelay(10, () => 0, opts)).toBe(7500);
    expect(backoffDelay(1000, () => 0.5, opts)).toBeLessThanOrEqual(15_000);
  });
});

describe("hints", () => {
  it("asks for a hint and resolves with the server's answer", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const asked = conn.hint();
    expect(socket.last()).toEqual({ type: "hint" });
    socket.receive({ type: "hint", version: 7, action: { kind: "discard" } });
    await expect(asked).resolves.toEqual({ version: 7, action: { kind: "discard" } });
  });

  it("resolves with null when the server refuses or never answers", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    const refused = conn.hint();
    socket.receive({
      type: "error",
      code: "no_hint",
      message: "Hints are for players in a match.",
    });
    await expect(refused).resolves.toBeNull();
    expect(conn.state.notices).toEqual([]);
    const silent = conn.hint(1000);
    vi.advanceTimersByTime(1000);
    await expect(silent).resolves.toBeNull();
  });
});
