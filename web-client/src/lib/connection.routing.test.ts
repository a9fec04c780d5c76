// The protocol client's socket names its room in its URL (connection.ts), so that a load
// balancer in front of a cluster can send it to the node that owns the room: the URL it opens,
// the quiet reopen when the room changes, and the URL and timing of its reconnects.
import { describe, expect, it, vi } from "vitest";
import type { ClientMsg } from "../protocol/ClientMsg";
import { backoffDelay } from "./backoff";
import type { ConnectionStatus } from "./connection";
import { connect, room, sockets, state, useFakes, welcomeAndJoin } from "./connectionFakes";

useFakes();

const BASE = "ws://test/ws";
const welcome = { type: "welcome", player_id: "p1", name: "Ada" } as const;

/** The acts a socket sent, as `[seq, action]`. */
const actsOf = (socket: { sent: ClientMsg[] }): [number, unknown][] =>
  socket.sent.flatMap((m) => (m.type === "act" ? [[m.seq, m.action] as [number, unknown]] : []));

/** Every status the connection passes through from now on. */
function statuses(conn: ReturnType<typeof connect>): ConnectionStatus[] {
  const seen: ConnectionStatus[] = [];
  conn.subscribe((s) => seen.push(s.status));
  return seen;
}

describe("the socket's URL", () => {
  it("names the target room, URL-encoded, and is plain without one", () => {
    connect().join("K7QX2M");
    expect(sockets[0].url).toBe(`${BASE}?room=K7QX2M`);
    connect().join("a b/&c=d");
    expect(sockets[1].url).toBe(`${BASE}?room=a%20b%2F%26c%3Dd`);
    connect().start();
    expect(sockets[2].url).toBe(BASE);
  });
});

describe("joining another room", () => {
  it("closes the old socket quietly and rejoins on one opened for the new room", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const old = welcomeAndJoin(conn);
    old.receive(state(7));
    const seen = statuses(conn);
    conn.join("AAAAAA", "spectator");
    // Closed as a tab closes, deaf to its own events, and nothing more said on it.
    expect(old.closedByClient).toBe(1000);
    expect([old.onopen, old.onmessage, old.onclose, old.onerror]).toEqual([null, null, null, null]);
    expect(old.sent.filter((m) => m.type === "join")).toHaveLength(1);
    // At once, with no backoff and no banner.
    expect(sockets).toHaveLength(2);
    expect(sockets[1].url).toBe(`${BASE}?room=AAAAAA`);
    expect(conn.state).toMatchObject({
      status: "connecting",
      attempt: 0,
      retryAt: null,
      reconnectReason: null,
    });
    expect(vi.getTimerCount()).toBe(0);
    const next = sockets[1];
    next.open();
    expect(next.sent[0]).toMatchObject({ type: "hello", token: "tok-1" });
    next.receive(welcome);
    expect(next.last()).toEqual({
      type: "join",
      room: "AAAAAA",
      role: "spectator",
      version: null,
    });
    next.receive({ type: "room", ...room({ code: "AAAAAA", you: null }) });
    expect(conn.state.room?.code).toBe("AAAAAA");
    expect(seen).not.toContain("reconnecting");
    expect(seen.at(-1)).toBe("online");
  });

  it("replaces a socket still opening for the old room too, and ignores its late events", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const old = sockets[0];
    const lateOpen = old.onopen;
    conn.join("AAAAAA");
    expect(old.closedByClient).toBe(1000);
    expect(sockets[1].url).toBe(`${BASE}?room=AAAAAA`);
    lateOpen?.({});
    expect(old.sent).toEqual([]);
    expect(conn.state.status).toBe("connecting");
  });

  it("acts made while the new socket opens go after its rejoin", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn);
    conn.join("AAAAAA");
    const move = conn.act("first move here");
    expect(conn.state.pendingActs).toBe(1);
    const next = sockets[1];
    next.open();
    next.receive(welcome);
    expect(actsOf(next)).toEqual([]);
    next.receive({ type: "room", ...room({ code: "AAAAAA" }) });
    expect(actsOf(next)).toEqual([[1, "first move here"]]);
    next.receive({ type: "ack", seq: 1, version: 2 });
    await expect(move).resolves.toEqual({ seq: 1, version: 2 });
    expect(actsOf(sockets[0])).toEqual([]);
  });

  it("stays on the socket for the same room in another role", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    conn.join("K7QX2M", "spectator");
    expect(sockets).toHaveLength(1);
    expect(socket.closedByClient).toBeNull();
    expect(socket.last()).toEqual({
      type: "join",
      room: "K7QX2M",
      role: "spectator",
      version: null,
    });
  });

  it("after leaving, stays on the socket to come back and reopens to go elsewhere", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    conn.leave();
    expect(socket.last()).toEqual({ type: "leave" });
    conn.join("K7QX2M");
    expect(sockets).toHaveLength(1);
    expect(socket.last()).toMatchObject({ type: "join", room: "K7QX2M" });
    conn.leave();
    conn.join("AAAAAA");
    expect(socket.closedByClient).toBe(1000);
    expect(sockets[1].url).toBe(`${BASE}?room=AAAAAA`);
  });

  it("a socket opened without a room reopens on the room's URL once it has one", () => {
    const conn = connect();
    conn.start();
    const lobby = sockets[0];
    lobby.open();
    lobby.receive(welcome);
    expect(conn.state.status).toBe("online");
    conn.join("K7QX2M");
    expect(lobby.closedByClient).toBe(1000);
    expect(lobby.sent.some((m) => m.type === "join")).toBe(false);
    expect(sockets[1].url).toBe(`${BASE}?room=K7QX2M`);
    expect(conn.state.status).toBe("connecting");
    welcomeAndJoin(conn);
    expect(sockets[1].sent.at(-1)).toMatchObject({ type: "join", room: "K7QX2M" });
    expect(conn.state.room?.code).toBe("K7QX2M");
  });

  it("joining the room again after a stop opens a socket for it", () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn);
    // A new identity: the page stops the connection and joins the same room again.
    conn.stop();
    conn.join("K7QX2M");
    expect(sockets).toHaveLength(2);
    expect(sockets[1].url).toBe(`${BASE}?room=K7QX2M`);
    welcomeAndJoin(conn);
    expect(conn.state.status).toBe("online");
  });

  it("a room chosen while waiting to reconnect is the one the retry opens on", () => {
    const conn = connect();
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop(1006);
    conn.join("AAAAAA");
    expect(sockets).toHaveLength(1);
    expect(conn.state.status).toBe("reconnecting");
    vi.runOnlyPendingTimers();
    expect(sockets[1].url).toBe(`${BASE}?room=AAAAAA`);
  });
});

describe("reconnects go to the room's URL", () => {
  it("after an abnormal close, backs off within the backoff's bounds, then rejoins from the last version", () => {
    const backoff = { baseMs: 400, maxMs: 10_000 };
    // The first retry waits within [baseMs / 2, baseMs], as random() says.
    for (const r of [0, 0.37, 0.999999]) {
      sockets.length = 0;
      const conn = connect({ backoff, random: () => r });
      conn.join("K7QX2M");
      const first = welcomeAndJoin(conn);
      first.receive(state(9));
      const droppedAt = Date.now();
      first.drop(1006);
      const wait = conn.state.retryAt! - droppedAt;
      expect(wait, `random() = ${r}`).toBe(backoffDelay(0, () => r, backoff));
      expect(wait).toBeGreaterThanOrEqual(200);
      expect(wait).toBeLessThanOrEqual(400);
      expect(conn.state.reconnectReason).toBe("connection_lost");
      vi.advanceTimersByTime(wait - 1);
      expect(sockets, `random() = ${r}`).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(sockets, `random() = ${r}`).toHaveLength(2);
      const second = sockets[1];
      expect(second.url).toBe(`${BASE}?room=K7QX2M`);
      second.open();
      second.receive(welcome);
      expect(second.last()).toEqual({
        type: "join",
        room: "K7QX2M",
        role: "player",
        version: 9,
      });
      conn.stop();
    }
  });

  it("after 1012, reconnects within the restart jitter on the room's URL", () => {
    for (const r of [0, 0.999999]) {
      sockets.length = 0;
      const conn = connect({ backoff: { baseMs: 5000, maxMs: 30_000 }, random: () => r });
      conn.join("K7QX2M");
      welcomeAndJoin(conn).drop(1012);
      expect(conn.state.reconnectReason).toBe("server_restart");
      vi.advanceTimersByTime(1000);
      expect(sockets, `random() = ${r}`).toHaveLength(2);
      expect(sockets[1].url).toBe(`${BASE}?room=K7QX2M`);
      conn.stop();
    }
  });

  it("an act on the wire when the socket dropped is sent again under its seq and settled once", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    let settled = 0;
    const move = conn.act("in flight").finally(() => (settled += 1));
    expect(actsOf(first)).toEqual([[1, "in flight"]]);
    first.drop(1006);
    vi.runOnlyPendingTimers();
    const second = sockets[1];
    expect(second.url).toBe(`${BASE}?room=K7QX2M`);
    second.open();
    second.receive(welcome);
    // Not before the room has answered the rejoin.
    expect(actsOf(second)).toEqual([]);
    second.receive({ type: "room", ...room({ last_seq: 1 }) });
    expect(actsOf(second)).toEqual([[1, "in flight"]]);
    // The server answers the resent seq with its original answer; a second copy changes nothing.
    second.receive({ type: "ack", seq: 1, version: 4 });
    second.receive({ type: "ack", seq: 1, version: 4 });
    await expect(move).resolves.toEqual({ seq: 1, version: 4 });
    expect(settled).toBe(1);
    expect(conn.state.pendingActs).toBe(0);
    expect(conn.state.notices).toEqual([]);
    expect(actsOf(second)).toHaveLength(1);
  });
});
