// The protocol client's acts (each answered exactly once, resent on reconnect and after a
// rate limit, never reusing a seq) and its reconnects and resyncs (connection.ts, outbox.ts).
import { describe, expect, it, vi } from "vitest";
import { ActError } from "./connection";
import { connect, room, sockets, state, useFakes, welcomeAndJoin } from "./connectionFakes";

useFakes();

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

  it("renumbers an act made before the room's first answer above the seat's last seq", async () => {
    // A page loaded again: its count starts at 1, but the seat has answered up to 41 (the
    // last page's acts). An act made before the room says so must not go as seq 1, which the
    // server would answer with its old answer, unplayed.
    const conn = connect();
    conn.join("K7QX2M");
    const socket = sockets[0];
    socket.open();
    socket.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    const early = conn.act("before the room answered");
    expect(socket.sent.some((m) => m.type === "act")).toBe(false);
    socket.receive({ type: "room", ...room({ last_seq: 41 }) });
    expect(socket.last()).toEqual({ type: "act", seq: 42, action: "before the room answered" });
    void conn.act("then another");
    expect(socket.last()).toEqual({ type: "act", seq: 43, action: "then another" });
    socket.receive({ type: "ack", seq: 42, version: 12 });
    await expect(early).resolves.toEqual({ seq: 42, version: 12 });
  });

  it("keeps the seq of an act already sent when the rejoin says the seat answered past it", () => {
    const conn = connect();
    conn.join("K7QX2M");
    const socket = welcomeAndJoin(conn);
    void conn.act("on the wire");
    socket.drop();
    vi.runOnlyPendingTimers();
    const again = sockets[1];
    again.open();
    again.receive({ type: "welcome", player_id: "p1", name: "Ada" });
    // The server applied it before the drop: the same seq gets its original answer.
    again.receive({ type: "room", ...room({ last_seq: 1 }) });
    expect(again.last()).toEqual({ type: "act", seq: 1, action: "on the wire" });
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
