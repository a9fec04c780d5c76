import { describe, expect, it } from "vitest";
import type { GameInfo } from "../protocol/GameInfo";
import { allowedSeatCounts, choiceSeatsWords, nearestSeatCount } from "./seatCounts";

const demos: GameInfo = {
  id: "demos",
  name: "DēmoS",
  min_seats: 3,
  max_seats: 5,
  description: "",
  short_name: "",
  score_unit: "",
  glyph: "",
  hue: 0,
  teams: true,
  real_time: false,
  options: [
    {
      key: "mode",
      label: "Mode",
      help: "",
      default: "simplified",
      kind: {
        type: "choice",
        values: [
          { value: "simplified", label: "Simplified" },
          { value: "team_2v2", label: "2 vs 2" },
          { value: "team_2v3", label: "2 vs 3" },
        ],
      },
    },
  ],
};

describe("seat counts in the create dialog", () => {
  it("offers every count of the game when the mode allows them all", () => {
    expect(allowedSeatCounts(demos, { mode: "simplified" })).toEqual([3, 4, 5]);
    expect(allowedSeatCounts(demos, {})).toEqual([3, 4, 5]);
  });

  it("offers only the counts a team mode is played with", () => {
    expect(allowedSeatCounts(demos, { mode: "team_2v2" })).toEqual([4]);
    expect(allowedSeatCounts(demos, { mode: "team_2v3" })).toEqual([5]);
  });

  it("prefers the seat counts the server's schema gives a choice", () => {
    const sent = structuredClone(demos);
    const mode = sent.options[0].kind;
    if (mode.type === "choice") (mode.values[0] as { seats?: number[] }).seats = [3];
    expect(allowedSeatCounts(sent, { mode: "simplified" })).toEqual([3]);
  });

  it("moves to the nearest allowed count when a choice rules the current one out", () => {
    expect(nearestSeatCount([4], 3)).toBe(4);
    expect(nearestSeatCount([3, 4, 5], 4)).toBe(4);
    expect(nearestSeatCount([3, 5], 4)).toBe(3);
  });

  it("says how many play a choice that fixes it", () => {
    const values = demos.options[0].kind.type === "choice" ? demos.options[0].kind.values : [];
    expect(choiceSeatsWords(demos, "mode", values[1])).toBe("4 players");
    expect(choiceSeatsWords(demos, "mode", values[0])).toBeNull();
  });
});
