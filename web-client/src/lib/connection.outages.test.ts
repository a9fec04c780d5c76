// The protocol client through the server's restarts and its database's outages (connection.ts,
// outbox.ts): close 1012 reconnects at once, within a second's jitter; acts refused
// `storage_unavailable` wait under one calm notice and are offered again under fresh seqs while
// their position stands; and twenty drops in a row leave no listener or timer behind.
import { describe, expect, it, vi } from "vitest";
import type { ClientMsg } from "../protocol/ClientMsg";
import { ActError } from "./connection";
import { connect, room, sockets, state, useFakes, welcomeAndJoin } from "./connectionFakes";
import { MOVED_ON } from "./outbox";

useFakes();

/** The acts a socket sent, as `[seq, action]`. */
const actsOf = (socket: { sent: ClientMsg[] }): [number, unknown][] =>
  socket.sent.flatMap((m) => (m.type === "act" ? [[m.seq, m.action] as [number, unknown]] : []));

const notSaved = (seq: number) =>
  ({
    type: "reject",
    seq,
    code: "storage_unavailable",
    message: "The action could not be saved, so it was not played.",
  }) as const;

describe("a server that restarts or moves the room (close 1012)", () => {
  // A long backoff, so that a reconnect at once cannot be mistaken for one after the backoff.
  const slow = { backoff: { baseMs: 5000, maxMs: 30_000 } };

  it("reconnects within the jitter bound, not after the backoff", () => {
    const conn = connect({ ...slow, random: () => 0.3 });
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop(1012);
    expect(conn.state.status).toBe("reconnecting");
    expect(conn.state.reconnectReason).toBe("server_restart");
    // random() = 0.3 of a 1000 ms spread: 300 ms, where the backoff would wait 3250 ms.
    vi.advanceTimersByTime(299);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
  });

  it("spreads a room's clients over the whole second and no further", () => {
    for (const r of [0, 0.999999]) {
      sockets.length = 0;
      const conn = connect({ ...slow, random: () => r });
      conn.join("K7QX2M");
      welcomeAndJoin(conn).drop(1012);
      vi.advanceTimersByTime(1000);
      expect(sockets, `random() = ${r}`).toHaveLength(2);
      conn.stop();
    }
  });

  it("other closes still back off with jitter", () => {
    for (const code of [1006, 1011, 1013, 1001]) {
      sockets.length = 0;
      const conn = connect({ ...slow, random: () => 0.3 });
      conn.join("K7QX2M");
      welcomeAndJoin(conn).drop(code);
      expect(conn.state.reconnectReason, `close ${code}`).toBe("connection_lost");
      // 2500 ms fixed + 0.3 of 2500 ms.
      vi.advanceTimersByTime(3249);
      expect(sockets, `close ${code}`).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(sockets, `close ${code}`).toHaveLength(2);
      conn.stop();
    }
  });

  it("rejoins the room with its version and resends its unanswered acts under their seqs", async () => {
    const conn = connect(slow);
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    first.receive(state(7));
    const move = conn.act("in flight");
    first.drop(1012);
    vi.advanceTimersByTime(1000);
    const second = sockets[1];
    second.open();
    second.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    expect(second.last()).toEqual({ type: "join", room: "K7QX2M", role: "player", version: 7 });
    expect(conn.state.reconnectReason).toBeNull();
    // The new node knows the seq from the log: the resent act gets its original answer.
    second.receive({ type: "room", ...room({ last_seq: 1 }) });
    expect(actsOf(second)).toEqual([[1, "in flight"]]);
    second.receive({ type: "ack", seq: 1, version: 8 });
    await expect(move).resolves.toEqual({ seq: 1, version: 8 });
  });

  it("backs off when the server closes 1012 before the session began (it is not ready yet)", () => {
    const conn = connect({ ...slow, random: () => 0.3 });
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop(1012);
    vi.advanceTimersByTime(300);
    // The new socket opens, and is closed at once: the server is still restarting.
    sockets[1].open();
    sockets[1].drop(1012);
    expect(conn.state.reconnectReason).toBe("server_restart");
    expect(conn.state.attempt).toBe(2);
    // The second attempt's backoff (5000 ms fixed + 0.3 of 5000 ms), not another quick try.
    vi.advanceTimersByTime(6499);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
  });

  it("a failed attempt after a restart is still the restart; a running session that drops is lost", () => {
    const conn = connect({ ...slow, random: () => 0 });
    conn.join("K7QX2M");
    welcomeAndJoin(conn).drop(1012);
    vi.advanceTimersByTime(0);
    sockets[1].drop(1006);
    expect(conn.state.reconnectReason).toBe("server_restart");
    vi.runOnlyPendingTimers();
    welcomeAndJoin(conn);
    expect(conn.state.status).toBe("online");
    expect(conn.state.reconnectReason).toBeNull();
    sockets[2].drop(1006);
    expect(conn.state.reconnectReason).toBe("connection_lost");
  });
});

describe("a database that is down (storage_unavailable)", () => {
  // STORAGE_BACKOFF with random() = 0.5: the first wait is 750 ms, the next 1500, then 3000.

  it("offers the act again under a fresh seq once the database answers, and clears the notice", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    const move = conn.act({ move: "a" });
    socket.receive(notSaved(1));
    expect(conn.state.waitingForDatabase).toBe(true);
    expect(conn.state.notices).toEqual([]);
    expect(conn.state.pendingActs).toBe(1);
    vi.advanceTimersByTime(749);
    expect(actsOf(socket)).toEqual([[1, { move: "a" }]]);
    vi.advanceTimersByTime(1);
    // Seq 1 is answered for good (the server would give the same refusal again): a new seq.
    expect(actsOf(socket)).toEqual([
      [1, { move: "a" }],
      [2, { move: "a" }],
    ]);
    // Still down: the wait doubles.
    socket.receive(notSaved(2));
    vi.advanceTimersByTime(1499);
    expect(actsOf(socket)).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(actsOf(socket)).toHaveLength(3);
    // The database is back.
    socket.receive({ type: "ack", seq: 3, version: 4 });
    await expect(move).resolves.toEqual({ seq: 3, version: 4 });
    expect(conn.state.waitingForDatabase).toBe(false);
    expect(conn.state.pendingActs).toBe(0);
    expect(conn.state.notices).toEqual([]);
    const seqs = actsOf(socket).map(([seq]) => seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("keeps offering for as long as the outage lasts, never reusing a seq", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    const move = conn.act("x");
    // A minute of refusals, each offer refused as it comes: the waits grow to at most 8 s.
    let refused = 0;
    for (let t = 0; t < 60_000; t += 250) {
      const acts = actsOf(socket);
      if (acts.length > refused) socket.receive(notSaved(acts[acts.length - 1][0]));
      refused = acts.length;
      vi.advanceTimersByTime(250);
    }
    const offers = actsOf(socket).length;
    expect(offers).toBeGreaterThan(7);
    expect(offers).toBeLessThan(20);
    expect(conn.state.waitingForDatabase).toBe(true);
    const seqs = actsOf(socket).map(([seq]) => seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    vi.advanceTimersByTime(8000);
    const last = socket.last() as Extract<ClientMsg, { type: "act" }>;
    socket.receive({ type: "ack", seq: last.seq, version: 4 });
    await expect(move).resolves.toMatchObject({ version: 4 });
    expect(conn.state.waitingForDatabase).toBe(false);
  });

  it("gives the act up once the game has moved on, and says so once", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    const move = conn.act("chosen at 3");
    socket.receive(notSaved(1));
    // Another player's move was saved: the position the act was chosen against is gone.
    socket.receive(state(4));
    const error = await move.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActError);
    expect(error).toMatchObject({ code: "storage_unavailable", message: MOVED_ON });
    expect(conn.state.waitingForDatabase).toBe(false);
    expect(conn.state.pendingActs).toBe(0);
    expect(conn.state.notices).toMatchObject([{ kind: "info", code: "storage_unavailable" }]);
    vi.runAllTimers();
    expect(actsOf(socket)).toHaveLength(1);
  });

  it("gives up at once an act refused after the position moved", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    const move = conn.act("chosen at 3");
    socket.receive(state(4));
    socket.receive(notSaved(1));
    await expect(move).rejects.toMatchObject({ code: "storage_unavailable" });
    vi.runAllTimers();
    expect(actsOf(socket)).toHaveLength(1);
  });

  it("holds acts made during the wait with the refused ones, and sends them in order", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    const first = conn.act("a");
    const second = conn.act("b");
    socket.receive(notSaved(1));
    socket.receive(notSaved(2));
    const third = conn.act("c");
    // Made during the wait: it waits too rather than overtaking a and b.
    expect(actsOf(socket)).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(conn.state.pendingActs).toBe(3);
    vi.advanceTimersByTime(750);
    // One wait for all, then every held act under a fresh seq, in the order they were made.
    expect(actsOf(socket).slice(2)).toEqual([
      [4, "a"],
      [5, "b"],
      [6, "c"],
    ]);
    socket.receive({ type: "ack", seq: 4, version: 4 });
    socket.receive(state(4));
    socket.receive({ type: "ack", seq: 5, version: 5 });
    socket.receive({ type: "ack", seq: 6, version: 6 });
    await expect(first).resolves.toEqual({ seq: 4, version: 4 });
    await expect(second).resolves.toEqual({ seq: 5, version: 5 });
    await expect(third).resolves.toEqual({ seq: 6, version: 6 });
  });

  it("a held act waits through a reconnect and never goes under its answered seq", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    first.receive(state(3));
    const move = conn.act("x");
    first.receive(notSaved(1));
    // The node hands the room over while the act waits (the restart spread is 500 ms here).
    first.drop(1012);
    vi.advanceTimersByTime(500);
    const second = welcomeAndJoin(conn, room({ last_seq: 1 }));
    expect(actsOf(second)).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(actsOf(second)).toEqual([[2, "x"]]);
    second.receive({ type: "ack", seq: 2, version: 4 });
    await expect(move).resolves.toEqual({ seq: 2, version: 4 });
  });

  it("a held act whose wait ends while offline goes after the rejoin's own wait", () => {
    const conn = connect({ random: () => 0.5 });
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    first.receive(state(3));
    void conn.act("x");
    first.receive(notSaved(1));
    first.drop(1006);
    vi.advanceTimersByTime(75);
    // The new socket does not open before the wait ends: the act waits another round.
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    const second = welcomeAndJoin(conn);
    expect(actsOf(second)).toEqual([]);
    vi.advanceTimersByTime(1500);
    expect(actsOf(second)).toEqual([[2, "x"]]);
  });

  it("a command the server could not save shows the same notice, not an error toast", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn, room({ status: "waiting", match_id: null }));
    expect(conn.startMatch()).toBe(true);
    socket.receive({
      type: "error",
      code: "storage_unavailable",
      message: "The match could not be saved, so it was not started.",
    });
    expect(conn.state.waitingForDatabase).toBe(true);
    expect(conn.state.notices).toEqual([]);
    // The start goes through later: its first state clears the notice.
    socket.receive({ type: "room", ...room({ match_id: "m1" }) });
    socket.receive(state(0));
    expect(conn.state.waitingForDatabase).toBe(false);
  });

  it("a join the server cannot serve without its database goes again after a growing pause", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const first = welcomeAndJoin(conn);
    first.receive(state(3));
    first.drop(1012);
    vi.advanceTimersByTime(500);
    const socket = sockets[1];
    socket.open();
    socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    const joins = () => socket.sent.filter((m) => m.type === "join");
    const refusal = {
      type: "error",
      code: "storage_unavailable",
      message: "The room cannot be resumed while the database is away.",
    } as const;
    socket.receive(refusal);
    expect(conn.state.waitingForDatabase).toBe(true);
    expect(conn.state.notices).toEqual([]);
    vi.advanceTimersByTime(749);
    expect(joins()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(joins()).toEqual([
      { type: "join", room: "K7QX2M", role: "player", version: 3 },
      { type: "join", room: "K7QX2M", role: "player", version: 3 },
    ]);
    socket.receive(refusal);
    vi.advanceTimersByTime(1499);
    expect(joins()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(joins()).toHaveLength(3);
    socket.receive({ type: "room", ...room() });
    socket.receive(state(4));
    expect(conn.state.waitingForDatabase).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a join waiting for the database is forgotten when the socket drops", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = sockets[0];
    socket.open();
    socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    socket.receive({ type: "error", code: "storage_unavailable", message: "Not now." });
    socket.drop(1006);
    // Only the reconnect waits; the new socket joins after its own welcome.
    expect(vi.getTimerCount()).toBe(1);
  });

  it("leaving or stopping ends the wait", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    socket.receive(state(3));
    const move = conn.act("x");
    socket.receive(notSaved(1));
    conn.leave();
    await expect(move).rejects.toMatchObject({ code: "left_room" });
    expect(conn.state.waitingForDatabase).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("many reconnects", () => {
  it("twenty closes in a row leave one live socket, no stale listener and no stray timer", async () => {
    const conn = connect();
    conn.join("K7QX2M");
    let updates = 0;
    const unsubscribe = conn.subscribe(() => (updates += 1));
    let socket = welcomeAndJoin(conn);
    const moves: Promise<unknown>[] = [];
    for (let round = 0; round < 20; round++) {
      socket.receive(state(round + 1));
      moves.push(conn.act(`move ${round}`));
      void conn.hint();
      socket.drop(round % 2 ? 1012 : 1006);
      // Only the reconnect is waiting: the hint asked on the dead socket was answered (null).
      expect(vi.getTimerCount()).toBe(1);
      expect([socket.onopen, socket.onmessage, socket.onclose, socket.onerror]).toEqual([
        null,
        null,
        null,
        null,
      ]);
      vi.runOnlyPendingTimers();
      expect(sockets).toHaveLength(round + 2);
      socket = sockets[round + 1];
      socket.open();
      socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
      expect(socket.last()).toEqual({
        type: "join",
        room: "K7QX2M",
        role: "player",
        version: round + 1,
      });
      socket.receive({ type: "room", ...room({ last_seq: round }) });
      // The act of this round goes once on the new socket, with its own seq.
      expect(actsOf(socket)).toEqual([[round + 1, `move ${round}`]]);
      socket.receive({ type: "ack", seq: round + 1, version: round + 2 });
    }
    await Promise.all(moves);
    expect(conn.state).toMatchObject({ status: "online", attempt: 0, pendingActs: 0 });
    expect(vi.getTimerCount()).toBe(0);
    // Every old socket is deaf: a message on one changes nothing.
    const before = updates;
    for (const old of sockets.slice(0, -1)) {
      expect(old.onmessage).toBeNull();
      expect(old.onclose).toBeNull();
    }
    // One store update per change, whatever the number of sockets there were.
    socket.receive(state(50));
    expect(updates).toBe(before + 1);
    expect(conn.state.game?.version).toBe(50);
    unsubscribe();
  });
});
