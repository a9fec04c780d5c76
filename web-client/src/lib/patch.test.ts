import { describe, expect, it } from "vitest";
import type { GameState } from "../protocol/GameState";
import { PatchMismatch, applyPatch, applyStatePatch, expandProducts } from "./patch";

describe("applyPatch", () => {
  it("removes a card from a hand, shifting the rest", () => {
    expect(applyPatch({ hand: ["2S", "7D", "9H"] }, [{ op: "remove", path: "/hand/1" }])).toEqual({
      hand: ["2S", "9H"],
    });
  });

  it("adds at an index, at the end with '-', and new object members", () => {
    const doc = applyPatch({ log: [1, 3] }, [
      { op: "add", path: "/log/1", value: 2 },
      { op: "add", path: "/log/-", value: 4 },
      { op: "add", path: "/seen", value: true },
    ]);
    expect(doc).toEqual({ log: [1, 2, 3, 4], seen: true });
  });

  it("reads escaped keys (~1 is '/', ~0 is '~')", () => {
    const doc = applyPatch({ "a/b": 1, "c~d": 2 }, [
      { op: "replace", path: "/a~1b", value: 3 },
      { op: "remove", path: "/c~0d" },
    ]);
    expect(doc).toEqual({ "a/b": 3 });
  });

  it("replaces the whole document at the empty path", () => {
    expect(applyPatch([1], [{ op: "replace", path: "", value: { x: 1 } }])).toEqual({ x: 1 });
  });

  it("refuses a patch made for another document", () => {
    expect(() => applyPatch({ hand: [] }, [{ op: "remove", path: "/hand/0" }])).toThrow(
      PatchMismatch,
    );
    expect(() => applyPatch({ a: 1 }, [{ op: "replace", path: "/b", value: 1 }])).toThrow(
      PatchMismatch,
    );
    expect(() => applyPatch({ a: 1 }, [{ op: "replace", path: "/a/x", value: 1 }])).toThrow(
      PatchMismatch,
    );
  });
});

describe("applyStatePatch", () => {
  const state: GameState = {
    version: 4,
    view: { hand: ["2S", "7D"], scores: [0, 0] },
    to_act: [0],
    legal: [{ type: "discard", card: "2S" }],
    deadline_ms: null,
    outcome: null,
  };

  it("moves a state to the patch's version and leaves the old one untouched", () => {
    const next = applyStatePatch(state, 5, 4, [
      { op: "remove", path: "/view/hand/0" },
      { op: "replace", path: "/view/scores/1", value: 3 },
      { op: "remove", path: "/to_act/0" },
      { op: "remove", path: "/legal/0" },
    ]);
    expect(next).toEqual({
      version: 5,
      view: { hand: ["7D"], scores: [0, 3] },
      to_act: [],
      legal: [],
      deadline_ms: null,
      outcome: null,
    });
    expect(state.view).toEqual({ hand: ["2S", "7D"], scores: [0, 0] });
  });

  it("refuses a patch made against another version", () => {
    expect(() => applyStatePatch(state, 7, 6, [])).toThrow(PatchMismatch);
  });
});

describe("expandProducts", () => {
  it("lists every combination, the last member changing fastest, set after set", () => {
    expect(
      expandProducts([
        [
          ["type", ["secret_discard"]],
          ["card", ["2H", "3S"]],
          ["take", ["pack", { discard: "8C" }]],
        ],
        [["type", ["keep_hand"]]],
      ]),
    ).toEqual([
      { type: "secret_discard", card: "2H", take: "pack" },
      { type: "secret_discard", card: "2H", take: { discard: "8C" } },
      { type: "secret_discard", card: "3S", take: "pack" },
      { type: "secret_discard", card: "3S", take: { discard: "8C" } },
      { type: "keep_hand" },
    ]);
  });

  it("is what a products operation puts in place", () => {
    const doc = applyPatch({ legal: [], n: 1 }, [
      {
        op: "products",
        path: "/legal",
        sets: [
          [
            ["type", ["play"]],
            ["card", ["2H", "9D"]],
          ],
        ],
      },
    ]);
    expect(doc).toEqual({
      legal: [
        { type: "play", card: "2H" },
        { type: "play", card: "9D" },
      ],
      n: 1,
    });
  });

  it("gives every object values of its own, even those it shares with the next", () => {
    // Two DēmoS players alike but for their figures: both `turns` came from one listed value.
    const doc = applyPatch({ players: [] }, [
      {
        op: "products",
        path: "/players",
        sets: [
          [
            ["turns", [[]]],
            ["figures", [[], [{ figure: null }]]],
          ],
        ],
      },
      { op: "add", path: "/players/0/turns/0", value: { turn: "public" } },
      { op: "add", path: "/players/1/turns/0", value: { turn: "secret" } },
    ]) as { players: { turns: unknown[] }[] };
    expect(doc.players.map((p) => p.turns)).toEqual([[{ turn: "public" }], [{ turn: "secret" }]]);
  });

  it("makes nothing of a member without values", () => {
    expect(
      expandProducts([
        [
          ["type", ["play"]],
          ["card", []],
        ],
      ]),
    ).toEqual([]);
  });
});
