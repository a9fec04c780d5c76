import { describe, expect, it } from "vitest";
import { boardFor, hasBoard } from "../registry";
import { describeAction } from "./index";

const seats = [{ seat: 0, name: "Ada", kind: "person" as const, team: null }];

describe("the Race board", () => {
  it("is found by its folder alone, as every board is", async () => {
    expect(hasBoard("race")).toBe(true);
    expect(hasBoard("demos")).toBe(true);
    expect(hasBoard("no_such_game")).toBe(false);
    expect((await boardFor("race"))?.describeAction).toBe(describeAction);
  });

  it("says each move in words", () => {
    expect(describeAction({ type: "step" }, 0, seats)).toBe("Ada steps");
    expect(describeAction({ type: "grab", token: 3 }, 1, seats)).toBe("Seat 2 grabs token 3");
  });
});
