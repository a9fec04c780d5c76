import { describe, expect, it } from "vitest";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import * as M from "./mode";
import type { Offer } from "./rules";

const card = (column: number) => ({ kind: "card", column }) as const;
const demon = { kind: "demon" } as const;
const offer = (column: number, symbol: SoulitaireSymbol): Offer => ({
  kind: "offer",
  column,
  symbol,
  declare: null,
});
const skull: SoulitaireSymbol = { suit: "s1" };
const seven: SoulitaireSymbol = { rank: "7" };
const playable = () => true;
const inSacrifice = { sacrificing: true, playable };
const noSacrifice = { sacrificing: false, playable };

/** A Sacrifice under way with `picks` already made. */
function sacrificing(...picks: Offer[]): M.Mode {
  return picks.reduce((m, p) => M.pick(m, p), M.follow(M.IDLE, inSacrifice));
}

describe("choosing a piece for a foundation", () => {
  it("chooses a card, and a second click on it puts it back", () => {
    const chosen = M.choose(M.IDLE, card(2));
    expect(M.chosen(chosen)).toEqual(card(2));
    expect(M.choose(chosen, card(2))).toEqual(M.IDLE);
  });

  it("moves the choice from one card to another, or to the demon", () => {
    const other = M.choose(M.choose(M.IDLE, card(2)), card(4));
    expect(M.chosen(other)).toEqual(card(4));
    expect(M.chosen(M.choose(other, demon))).toEqual(demon);
  });

  it("puts back a chosen piece the new position no longer lets play", () => {
    const chosen = M.choose(M.IDLE, card(1));
    expect(M.follow(chosen, { sacrificing: false, playable: () => false })).toEqual(M.IDLE);
    expect(M.follow(chosen, noSacrifice)).toBe(chosen);
  });
});

describe("the guided Sacrifice follows the position", () => {
  it("begins picking when the view shows a Sacrifice under way, dropping a chosen piece", () => {
    const mode = M.follow(M.choose(M.IDLE, demon), inSacrifice);
    expect(mode).toEqual({ kind: "sacrificing", picks: [], step: { kind: "picking" } });
    expect(M.chosen(mode)).toBeNull();
  });

  it("ends with the Sacrifice, but not while the picks are being placed", () => {
    const placing = M.place(sacrificing(offer(0, skull)));
    expect(placing).toEqual({
      kind: "placing",
      picks: [offer(0, skull)],
      step: { kind: "picking" },
    });
    expect(M.follow(placing, noSacrifice)).toBe(placing);
    expect(M.follow(sacrificing(offer(0, skull)), noSacrifice)).toEqual(M.IDLE);
  });

  it("keeps the picks through a new position of the same Sacrifice", () => {
    const mode = sacrificing(offer(0, skull), offer(3, seven));
    expect(M.picks(M.follow(mode, inSacrifice))).toEqual([offer(0, skull), offer(3, seven)]);
  });
});

describe("picking, asking and ordering", () => {
  it("asks which symbol a card pays, and a pick answers it", () => {
    const asked = M.ask(sacrificing(), 2, [skull, seven]);
    expect(M.step(asked)).toEqual({ kind: "asking", column: 2, symbols: [skull, seven] });
    const picked = M.pick(asked, offer(2, seven));
    expect(M.step(picked)).toEqual({ kind: "picking" });
    expect(M.picks(picked)).toEqual([offer(2, seven)]);
  });

  it("reorders the picks, never past either end", () => {
    const mode = M.order(sacrificing(offer(0, skull), offer(3, seven)), true);
    expect(M.step(mode)).toEqual({ kind: "ordering" });
    expect(M.picks(M.shift(mode, 0, 1))).toEqual([offer(3, seven), offer(0, skull)]);
    expect(M.picks(M.shift(mode, 1, 1))).toEqual([offer(0, skull), offer(3, seven)]);
  });

  it("leaves the ordering once fewer than two picks are left, and a new pick restarts it", () => {
    const mode = M.order(sacrificing(offer(0, skull), offer(3, seven)), true);
    expect(M.step(M.unpick(mode, 3))).toEqual({ kind: "picking" });
    const three = M.order(sacrificing(offer(0, skull), offer(3, seven), offer(5, skull)), true);
    expect(M.step(M.unpick(three, 5))).toEqual({ kind: "ordering" });
    expect(M.step(M.pick(mode, offer(5, skull)))).toEqual({ kind: "picking" });
  });

  it("ignores Sacrifice steps when no Sacrifice is under way", () => {
    expect(M.pick(M.IDLE, offer(0, skull))).toEqual(M.IDLE);
    expect(M.place(M.IDLE)).toEqual(M.IDLE);
  });
});

describe("declarations and questions interrupt, then return", () => {
  it("returns to the Sacrifice's picks after a Mimic's offer is declared", () => {
    const under = sacrificing(offer(0, skull));
    const asked = M.declare(under, {
      heading: "Declare the Mimic",
      faces: [{ suit: "s1", rank: "7" }],
      for: { kind: "offer", column: 4, symbol: seven },
    });
    expect(M.picks(asked)).toEqual([offer(0, skull)]);
    expect(M.resume(asked)).toBe(under);
  });

  it("asks before conceding in the middle of a Sacrifice and keeps the picks on a no", () => {
    const under = sacrificing(offer(0, skull));
    const asked = M.confirm(under, { kind: "concede" });
    expect(asked.kind).toBe("confirming");
    expect(M.resume(asked)).toBe(under);
  });

  it("carries a new position through to what a question interrupted", () => {
    const asked = M.confirm(M.IDLE, { kind: "discard" });
    const moved = M.follow(asked, inSacrifice);
    expect(moved.kind).toBe("confirming");
    expect(M.step(moved)).toEqual({ kind: "picking" });
  });

  it("puts away a question, a chosen piece and an asked symbol on Escape, keeping the picks", () => {
    expect(M.cancel(M.confirm(M.choose(M.IDLE, card(1)), { kind: "concede" }))).toEqual(M.IDLE);
    const asked = M.ask(sacrificing(offer(0, skull)), 2, [skull, seven]);
    expect(M.cancel(asked)).toEqual({
      kind: "sacrificing",
      picks: [offer(0, skull)],
      step: { kind: "picking" },
    });
  });

  it("leaves Escape to a declaration's own dialog", () => {
    const asked = M.declare(M.IDLE, {
      heading: "Declare",
      faces: [],
      for: { kind: "move", column: 0, foundation: 1 },
    });
    expect(M.cancel(asked)).toBe(asked);
  });
});
