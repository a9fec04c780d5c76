import { describe, expect, it } from "vitest";
import { promptWords } from "./prompt";

const names = ["Ada", "Bo", "Cy"];
const nameOf = (s: number) => names[s];

describe("the turn prompt's words", () => {
  it("tell a seat whose turn it is, and whose clock runs", () => {
    const words = promptWords({ toAct: [0, 1], you: 0, nameOf });
    expect(words.yours).toBe(true);
    expect([words.strong, words.tail]).toEqual(["Your turn", "— with Bo"]);
    expect(words.clockWho).toBe("for you and Bo");
    expect(words.spoken(true)).toBe("Your turn with Bo. A clock is running.");
  });

  it("say whom the table waits for when it is not your turn", () => {
    const words = promptWords({ toAct: [1, 2], you: 0, nameOf, decision: "Bo discards" });
    expect(words.yours).toBe(false);
    expect([words.lead, words.strong]).toEqual(["Waiting for", "Bo and Cy"]);
    expect(words.spoken(false)).toBe("Waiting for Bo and Cy: Bo discards");
  });

  it("never speak of turns in a real-time game, where everyone acts at once", () => {
    const words = promptWords({
      toAct: [0, 1, 2],
      you: 0,
      nameOf,
      realTime: true,
      clockMeaning: "until the deal ends if nobody makes a progress move",
    });
    expect(words.yours).toBe(false);
    expect(words.strong).toBe("Everyone plays at once");
    const said = [words.lead, words.strong, words.tail, words.clockWho, words.spoken(true)];
    for (const text of said) expect(text ?? "").not.toMatch(/turn|waiting/i);
    expect(words.clockWho).toBe("until the deal ends if nobody makes a progress move");
  });

  it("let a real-time board say what is going on instead", () => {
    const words = promptWords({
      toAct: [1],
      you: 0,
      nameOf,
      realTime: true,
      decision: "The scores are up until everyone is ready",
    });
    expect(words.strong).toBe("The scores are up until everyone is ready");
    expect(words.decision).toBeNull();
  });

  it("say only that the match is over once it is", () => {
    const words = promptWords({ toAct: [0], you: 0, nameOf, finished: true, decision: "x" });
    expect([words.strong, words.decision, words.yours]).toEqual([
      "The match is over.",
      null,
      false,
    ]);
  });
});
