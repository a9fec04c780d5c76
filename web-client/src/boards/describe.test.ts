import { describe, expect, it } from "vitest";
import { genericActionWords } from "./describe";
import { boardFor, boardId, hasBoard } from "./registry";

describe("generic action words", () => {
  it("reads internally tagged actions as words", () => {
    expect(genericActionWords({ type: "move_card", from: 3, to: 1 })).toBe(
      "move card (from 3, to 1)",
    );
  });
  it("reads externally tagged and unit actions", () => {
    expect(genericActionWords("DiscardDemon")).toBe("discard demon");
    expect(genericActionWords({ Sacrifice: { foundation: 2, cards: [1, 4] } })).toBe(
      "sacrifice (foundation 2, cards 1, 4)",
    );
  });
});

describe("board registry", () => {
  it("answers null for a game without a board", async () => {
    expect(hasBoard("no_such_game")).toBe(false);
    expect(await boardFor("no_such_game")).toBeNull();
  });
});

describe("boards of game variants", () => {
  it("draws a variant with the board its GameInfo names", () => {
    // The registry lists real games only: a variant is found through its GameInfo.
    expect(hasBoard("demos_rigged")).toBe(false);
    expect(hasBoard("demos_rigged", { board: "demos" })).toBe(true);
    expect(boardId("demos_rigged", { board: "demos" })).toBe("demos");
    expect(boardId("demos", {})).toBe("demos");
  });
});
