import { describe, expect, it } from "vitest";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import {
  listNames,
  namedSummary,
  ordinal,
  seatDisplayName,
  seatLabels,
  teamDisplayName,
} from "./seats";

describe("seat labels", () => {
  it("names people, bots and empty seats", () => {
    const room = {
      seats: [
        { seat: 0, player: { id: "a", name: "Ada" }, presence: "online", ready: true, team: 0 },
        { seat: 1, player: null, presence: "bot", ready: false, team: 1 },
        { seat: 2, player: null, presence: "empty", ready: false, team: null },
        { seat: 3, player: { id: "b", name: "Bo" }, presence: "bot", ready: false, team: null },
      ],
    } as unknown as RoomSnapshot;
    expect(seatLabels(room)).toEqual([
      { seat: 0, name: "Ada", kind: "person", team: 0 },
      { seat: 1, name: "Bot 2", kind: "bot", team: 1 },
      { seat: 2, name: "Empty seat 3", kind: "empty", team: null },
      { seat: 3, name: "Bo", kind: "person", team: null },
    ]);
  });

  it("lists names and places in words", () => {
    expect(listNames(["Ada"])).toBe("Ada");
    expect(listNames(["Ada", "Bo", "Cy"])).toBe("Ada, Bo and Cy");
    expect([1, 2, 3, 4, 11, 21].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "21st"]);
  });
});

describe("names everywhere", () => {
  it("gives a bot the same one name the board, the seat list and the history use", () => {
    expect(seatDisplayName({ seat: 2, player: null, presence: "bot" })).toBe("Bot 3");
    expect(seatDisplayName({ seat: 2, player: null, presence: "empty" })).toBe("Empty seat 3");
    expect(
      seatDisplayName({ seat: 0, player: { id: "a", name: "Alice" }, presence: "online" }),
    ).toBe("Alice");
  });

  it("puts people's names in an outcome's sentence instead of seat numbers", () => {
    const names = ["Bob", "Alice", "Bot 3"];
    expect(namedSummary("Seat 2 wins the Election: the most harmonious trio.", names)).toBe(
      "Alice wins the Election: the most harmonious trio.",
    );
    expect(namedSummary("Team 1 (Seat 1, Seat 3) share the Election", names)).toBe(
      "Team 1 (Bob, Bot 3) share the Election",
    );
    expect(namedSummary("All ten treasures are claimed: seat 1 wins with 9 treasure", names)).toBe(
      "All ten treasures are claimed: Bob wins with 9 treasure",
    );
    expect(namedSummary("Seat 2's daemon is the last one standing", names)).toBe(
      "Alice's daemon is the last one standing",
    );
    // A seat the client does not know keeps its number rather than losing it.
    expect(namedSummary("Seat 7 wins", names)).toBe("Seat 7 wins");
  });
});

describe("team names in the seat list", () => {
  it("calls DēmoS's lone player in 2 vs 2 + 1 the Independent", () => {
    expect(teamDisplayName("demos", { mode: "team_2v2_plus_1" }, 2)).toBe("The Independent");
    expect(teamDisplayName("demos", { mode: "team_2v2_plus_1" }, 0)).toBe("Team 1");
    expect(teamDisplayName("demos", { mode: "team_2v3" }, 1)).toBe("Team 2");
    expect(teamDisplayName("demos", { mode: "simplified" }, null)).toBeNull();
  });
});
