import { describe, expect, it } from "vitest";
import { bestCombination } from "./combination";

describe("DēmoS best combination in a hand", () => {
  it("scores a one-suit sequence 12 plus its lowest card", () => {
    expect(bestCombination(["3H", "4H", "5H", "9C", "2D"], false)).toEqual({
      kind: "one_suit_sequence",
      cards: ["3H", "4H", "5H"],
      points: 15,
    });
  });

  it("prefers more points, then the higher total left unplayed", () => {
    // 4-5-6 in two suits (8 + 4 = 12) beats 2-3-4 in three suits (4 + 2 = 6).
    expect(bestCombination(["2S", "3H", "4D", "5D", "6H"], false)?.points).toBe(12);
    // Two three-suit runs of equal points cannot happen; equal points keep the higher unplayed total.
    expect(bestCombination(["2S", "3H", "4D", "2C", "9S"], false)?.cards).toEqual([
      "2S",
      "3H",
      "4D",
    ]);
  });

  it("adds the favourite suit's bonus to a one-suit sequence in it", () => {
    expect(bestCombination(["3H", "4H", "5H", "9C", "2D"], false, "hearts")?.points).toBe(25);
    expect(bestCombination(["3H", "4H", "5H", "9C", "2D"], false, "clubs")?.points).toBe(15);
  });

  it("counts a Harmonious Square only when squares are played", () => {
    const hand = ["7S", "7H", "7D", "7C", "1S"];
    expect(bestCombination(hand, true)).toEqual({
      kind: "harmonious_square",
      cards: ["7S", "7H", "7D", "7C"],
      points: 30,
    });
    expect(bestCombination(hand, false)).toBeNull();
  });

  it("does not wrap ranks: 9-10-1 is no sequence", () => {
    expect(bestCombination(["9S", "10S", "1S", "5H", "7D"], false)).toBeNull();
  });
});
