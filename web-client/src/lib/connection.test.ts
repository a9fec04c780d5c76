// The protocol client's hello, identity, room, state, chat and hints (connection.ts); its acts
// and its reconnects are in connection.acts.test.ts.
import { describe, expect, it, vi } from "vitest";
import { backoffDelay, retryAfter } from "./backoff";
import {
  connect,
  identity,
  room,
  sockets,
  state,
  useFakes,
  welcomeAndJoin,
} from "./connectionFakes";

useFakes();

describe("hello and identity", () => {
  it("says hello with the stored token before anything else", () => {
    const conn = connect({ token: "secret" });
    conn.join("K7QX2M");
    const socket = sockets[0];
    // The room is in the URL, for a balancer in front of a cluster (connection.routing.test.ts).
    expect(socket.url).toBe("ws://test/ws?room=K7QX2M");
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
    // The join goes on a socket opened for the new room (connection.routing.test.ts).
    const next = sockets[1];
    next.open();
    next.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    expect(next.last()).toEqual({
      type: "join",
      room: "AAAAAA",
      role: "spectator",
      version: null,
    });
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

  it("after a restart (1012) of a running session waits only the jitter; otherwise backs off", () => {
    const timing = { backoff: { baseMs: 500, maxMs: 15_000 }, restartJitterMs: 1000 };
    const closed = { welcomed: true, attempt: 0, reason: null };
    expect(retryAfter({ ...closed, code: 1012 }, () => 0.25, timing)).toEqual({
      wait: 250,
      reason: "server_restart",
    });
    expect(retryAfter({ ...closed, code: 1006 }, () => 0.25, timing)).toEqual({
      wait: 313,
      reason: "connection_lost",
    });
    // Closed at the handshake: the server is not ready, so back off, still for the restart.
    const early = { code: 1012, welcomed: false, attempt: 3, reason: null };
    expect(retryAfter(early, () => 0, timing)).toEqual({ wait: 2000, reason: "server_restart" });
    const failed = { code: 1006, welcomed: false, attempt: 4, reason: "server_restart" as const };
    expect(retryAfter(failed, () => 0, timing).reason).toBe("server_restart");
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
