import { describe, expect, it } from "vitest";
import { endWords } from "./ending";

describe("the end screen's words", () => {
  it("a DēmoS Election without a winner says so to everyone, not Defeat to each", () => {
    const outcome = {
      winners: [],
      placements: [1, 1, 3, 4],
      scores: [30, 30, 12, 5],
      summary: "No winner: nobody presents an E-L-J trio that counts.",
    };
    for (const you of [0, 3, null]) {
      const words = endWords(outcome, you, "demos");
      expect(words.headline).toBe("Nobody won the Election");
      expect(words.won).toBe(false);
      expect(words.placesTable).toBe(true);
    }
  });

  it("a completed Soulitaire ritual is said plainly, with its score and no table of places", () => {
    const outcome = {
      winners: [0],
      placements: [1],
      scores: [2],
      summary: "Dark Savant: 2 demons left",
    };
    const words = endWords(outcome, 0, "soulitaire");
    expect(words.headline).toBe("The ritual is complete");
    expect(words.won).toBe(true);
    expect(words.placesTable).toBe(false);
    // The title rises with the demons kept: Master of the Realm keeps four or more.
    expect(words.scoreLine).toBe(
      "Score 2: 2 demons kept in the Demon Stack (the more kept, the higher the title).",
    );
  });

  it("a failed Soulitaire ritual is not called a Defeat nor placed first", () => {
    const outcome = {
      winners: [],
      placements: [1],
      scores: [0],
      summary: "Lost: no card or demon could reach a Foundation Stack",
    };
    const words = endWords(outcome, 0, "soulitaire");
    expect(words.headline).toBe("The ritual was not completed");
    expect(words.headline).not.toMatch(/Defeat/);
    expect(words.placesTable).toBe(false);
    expect(words.scoreLine).toMatch(/^Score 0/);
    expect(endWords(outcome, null, "soulitaire").headline).toBe("The ritual was not completed");
  });

  it("a match with a winner is a victory for the winners and a defeat for the others", () => {
    const outcome = { winners: [1], placements: [2, 1], scores: [3, 9], summary: "Seat 2 wins" };
    expect(endWords(outcome, 1, "demos").headline).toBe("Victory!");
    expect(endWords(outcome, 0, "demos").headline).toBe("Defeat");
    expect(endWords(outcome, null, "demos").headline).toBe("Match over");
    const shared = { ...outcome, winners: [0, 1], placements: [1, 1] };
    expect(endWords(shared, 0, "demos").headline).toBe("A shared victory!");
  });
});
