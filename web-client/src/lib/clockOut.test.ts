import { describe, expect, it } from "vitest";
import { clockActedFor, clockWords, watchClock } from "./clockOut";

const state = (version: number, to_act: number[], deadline_ms: number | null) => ({
  version,
  to_act,
  deadline_ms,
});

describe("the clock acting", () => {
  it("a version that comes when the deadline runs out was the clock's, for everyone still waited for", () => {
    const before = watchClock(state(7, [0, 2], 30_000), 1_000);
    expect(clockActedFor(before, state(8, [], null), 31_000)).toEqual([0, 2]);
    expect(clockActedFor(before, state(8, [], null), 30_800)).toEqual([0, 2]);
  });

  it("a version that comes before the deadline was someone's own move", () => {
    const before = watchClock(state(7, [0], 30_000), 1_000);
    expect(clockActedFor(before, state(8, [1], 30_000), 12_000)).toEqual([]);
  });

  it("no clock, or no new version, means the clock did nothing", () => {
    expect(clockActedFor(watchClock(state(7, [0], null), 0), state(8, [], null), 99_000)).toEqual(
      [],
    );
    expect(clockActedFor(watchClock(state(7, [0], 100), 0), state(7, [0], null), 9_000)).toEqual(
      [],
    );
    expect(clockActedFor(null, state(1, [], null), 0)).toEqual([]);
  });

  it("says whose time ran out, the reader first", () => {
    const name = (s: number) => ["Ada", "Bo", "Cy"][s];
    expect(clockWords([0], 0, name)).toBe("Time ran out for you, so the clock played instead.");
    expect(clockWords([1], 0, name)).toBe("Time ran out for Bo, so the clock played instead.");
    expect(clockWords([2, 0], 0, name)).toBe(
      "Time ran out for you and Cy, so the clock played instead.",
    );
  });
});
