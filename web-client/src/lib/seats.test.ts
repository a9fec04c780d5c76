import { describe, expect, it } from "vitest";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import { listNames, ordinal, seatLabels } from "./seats";

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
