import { describe, expect, it } from "vitest";
import { ApiFailure, createApi } from "./api";

function respond(status: number, body: unknown) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const api = createApi(async (url, init) => {
    calls.push({ url, init });
    return new Response(body === undefined ? "" : JSON.stringify(body), { status });
  });
  return { api, calls };
}

describe("api", () => {
  it("sends the bearer token when creating a room", async () => {
    const { api, calls } = respond(201, { code: "K7QX2M" });
    await api.createRoom(
      {
        game: "demos",
        options: {},
        seats: 4,
        bots: [1],
        public: true,
        turn_seconds: null,
        grace_seconds: null,
      },
      "tok",
    );
    // A code of the client's proposing rides in the URL, where a balancer can hash on it.
    expect(calls[0].url).toMatch(/^\/api\/rooms\?room=[ACDEFGHJKMNPQRTUVWXY2345679]{10}$/);
    expect((calls[0].init?.headers as Record<string, string>).Authorization).toBe("Bearer tok");
    expect(JSON.parse(String(calls[0].init?.body))).toMatchObject({
      game: "demos",
      seats: 4,
      bots: [1],
    });
  });

  it("turns an ApiError body into an ApiFailure with its code and message", async () => {
    const { api } = respond(404, { code: "room_not_found", message: "No such room." });
    const error = await api.room("AAAAAA").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error).toMatchObject({ code: "room_not_found", message: "No such room.", status: 404 });
  });

  it("gives a sentence even when the body is not an ApiError", async () => {
    const { api } = respond(502, undefined);
    await expect(api.games()).rejects.toMatchObject({ code: "http_502", status: 502 });
  });

  it("builds the replay and match-page queries", async () => {
    const { api, calls } = respond(200, {});
    await api.replay("m 1", "seat:2");
    await api.matches({ game: "demos", page: 3 });
    expect(calls.map((c) => c.url)).toEqual([
      "/api/matches/m%201/replay?viewer=seat%3A2",
      "/api/matches?game=demos&page=3",
    ]);
  });
});
