import { describe, expect, it } from "vitest";
import { dismissRecap, initialRecap, nextRecap, recapFolded } from "./recap";

describe("DēmoS round recap", () => {
  it("does not recap the result already there when the page opens", () => {
    expect(nextRecap(initialRecap(3), 3, false).open).toBe(false);
  });

  it("opens when a round's result arrives and stays while nothing needs the player", () => {
    let s = nextRecap(initialRecap(null), 1, false);
    expect(s.open).toBe(true);
    s = nextRecap(s, 1, false);
    expect(s.open).toBe(true);
  });

  it("folds while the next decision waits, and closes once the player has made it", () => {
    let s = nextRecap(initialRecap(1), 2, true);
    expect(s.open).toBe(true);
    expect(recapFolded(s, true)).toBe(true);
    s = nextRecap(s, 2, true);
    expect(s.open).toBe(true);
    s = nextRecap(s, 2, false);
    expect(s.open).toBe(false);
  });

  it("closes when dismissed, and opens again for the next round", () => {
    let s = dismissRecap(nextRecap(initialRecap(1), 2, false));
    expect(s.open).toBe(false);
    s = nextRecap(s, 2, false);
    expect(s.open).toBe(false);
    s = nextRecap(s, 3, false);
    expect(s.open).toBe(true);
  });
});
