import { describe, expect, it } from "vitest";
import type { RoomSnapshot } from "../protocol/RoomSnapshot";
import { rematchAccepted, rematchWords } from "./rematch";

/** A finished table of Ada (seat 0), Bo (1), a bot (2) and Cy (3), seen by `you`. */
function table(you: number | null, rematch: number[], status = "finished"): RoomSnapshot {
  const person = (seat: number, name: string) => ({
    seat,
    player: { id: name, name },
    presence: "online",
  });
  return {
    status,
    you,
    rematch,
    seats: [
      person(0, "Ada"),
      person(1, "Bo"),
      { seat: 2, player: { id: "bot", name: "Bot 3" }, presence: "bot" },
      person(3, "Cy"),
    ],
  } as unknown as RoomSnapshot;
}

describe("the rematch line", () => {
  it("says nothing before the match is over, or when nobody has asked", () => {
    expect(rematchWords(null)).toBeNull();
    expect(rematchWords(table(0, [1], "playing"))).toBeNull();
    expect(rematchWords(table(0, []))).toBeNull();
  });

  it("names who asked, leaving out a bot's yes and the person looking", () => {
    expect(rematchWords(table(0, [1, 2]))).toBe("Bo wants a rematch.");
    expect(rematchWords(table(0, [1, 2, 3]))).toBe("Bo and Cy want a rematch.");
    expect(rematchWords(table(null, [0, 1]))).toBe("Ada and Bo want a rematch.");
  });

  it("once you have said yes, names who the table still waits for", () => {
    expect(rematchAccepted(table(0, [0, 2]))).toBe(true);
    expect(rematchWords(table(0, [0, 2]))).toBe("Rematch: waiting for Bo and Cy to accept.");
    expect(rematchWords(table(0, [0, 1, 2, 3]))).toBe("Rematch: starting…");
    expect(rematchAccepted(table(null, [0, 1]))).toBe(false);
  });
});
