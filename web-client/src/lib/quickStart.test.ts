import { describe, expect, it } from "vitest";
import type { GameInfo } from "../protocol/GameInfo";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import { quickRoom, shouldAutoStart } from "./quickStart";

function room(extra: Partial<RoomSnapshot> = {}): RoomSnapshot {
  return {
    code: "K7QX2M",
    game: "soulitaire",
    options: {},
    seats: [
      {
        seat: 0,
        player: { id: "me", name: "Ada" },
        presence: "online",
        ready: false,
        team: null,
        pace: null,
      },
    ],
    host: "me",
    status: "waiting",
    spectators: 0,
    public: false,
    you: 0,
    last_seq: null,
    match_id: null,
    seed_hash: null,
    team_chat_open: false,
    ...extra,
  } as RoomSnapshot;
}

const info = (id: string, min: number, max: number): GameInfo => ({
  id,
  name: id,
  min_seats: min,
  max_seats: max,
  description: "",
  short_name: "",
  score_unit: "",
  glyph: "",
  hue: 0,
  options: [],
  teams: false,
  real_time: false,
});

describe("quick starts", () => {
  it("starts a solo room as soon as its host sits, without a ready step", () => {
    expect(shouldAutoStart(room(), "me", false)).toBe(true);
  });

  it("never starts for someone who is not the seated host, nor a running room", () => {
    expect(shouldAutoStart(room(), "someone-else", false)).toBe(false);
    expect(shouldAutoStart(room({ you: null }), "me", false)).toBe(false);
    expect(shouldAutoStart(room({ status: "playing" }), "me", false)).toBe(false);
  });

  it("starts a table against bots only when it was made as a quick start and everyone is seated", () => {
    const table = room({
      game: "demos",
      seats: [
        {
          seat: 0,
          player: { id: "me", name: "Ada" },
          presence: "online",
          ready: false,
          team: null,
          pace: null,
        },
        { seat: 1, player: null, presence: "bot", ready: true, team: null, pace: null },
      ] as RoomSnapshot["seats"],
    });
    expect(shouldAutoStart(table, "me", false)).toBe(false);
    expect(shouldAutoStart(table, "me", true)).toBe(true);
    const empty = room({
      seats: [
        ...table.seats,
        { seat: 2, player: null, presence: "empty", ready: false, team: null, pace: null },
      ] as RoomSnapshot["seats"],
    });
    expect(shouldAutoStart(empty, "me", true)).toBe(false);
  });

  it("makes the smallest table of you and bots", () => {
    expect(quickRoom(info("soulitaire", 1, 1))).toMatchObject({ seats: 1, bots: [] });
    expect(quickRoom(info("demos", 3, 5))).toMatchObject({ seats: 3, bots: [1, 2], public: false });
    // A game with solo rules too is still played against a bot.
    expect(quickRoom(info("demon_bound", 1, 4))).toMatchObject({ seats: 2, bots: [1] });
  });
});
