import { describe, expect, it } from "vitest";
import { databaseWords, reconnectWords } from "./connectionWords";

describe("the reconnect banner's words", () => {
  it("says a restart or a room's move is routine, and when it reconnects", () => {
    const words = reconnectWords(
      { reconnectReason: "server_restart", attempt: 1, retryAt: 10_600 },
      10_000,
    );
    expect(words.title).toBe("Back in a moment…");
    expect(words.detail).toBe("The server is restarting or moving this room; reconnecting in 1 s");
    expect(words.title).not.toMatch(/lost|error/i);
    expect(
      reconnectWords({ reconnectReason: "server_restart", attempt: 1, retryAt: 9000 }, 10_000)
        .detail,
    ).toMatch(/reconnecting now$/);
  });

  it("says a lost connection is being retried, with the attempt and the time to the next", () => {
    expect(
      reconnectWords({ reconnectReason: "connection_lost", attempt: 3, retryAt: 14_100 }, 10_000),
    ).toEqual({ title: "Reconnecting…", detail: "next try in 5 s (attempt 3)" });
    expect(
      reconnectWords({ reconnectReason: "connection_lost", attempt: 3, retryAt: null }, 10_000)
        .detail,
    ).toBe("trying now");
  });
});

describe("the database notice's words", () => {
  it("says the server waits for its database and that nothing is lost", () => {
    const waiting = databaseWords({ pendingActs: 1 });
    expect(waiting.title).toBe("The server is waiting for its database");
    expect(waiting.detail).toMatch(/^Nothing was lost: your move goes through by itself/);
    expect(databaseWords({ pendingActs: 0 }).detail).toMatch(/play goes on by itself/);
  });
});
