import { describe, expect, it } from "vitest";
import type { SeatLabel } from "../contract";
import type { DemonAction } from "../../protocol/demon_klondike/DemonAction";
import type { DemonCard } from "../../protocol/demon_klondike/DemonCard";
import { cardFace, cardShort, cardWords, foundationTop, parseCard } from "./cards";
import { canMove, dropRefusal, moveTo, refusalWords, stockAction, toAnyFoundation } from "./moves";
import type { DemonView } from "../../protocol/demon_klondike/DemonView";
import { describeAction, endingWords, pendingDecision, ruleClock } from "./words";

const seats: SeatLabel[] = [
  { seat: 0, name: "Ada", kind: "person", team: null },
  { seat: 1, name: "Bot 2", kind: "bot", team: null },
];

const c = (name: string) => name as DemonCard;

const legal: DemonAction[] = [
  { type: "draw" },
  { type: "to_foundation", card: c("AS"), foundation: null },
  { type: "to_foundation", card: c("5H"), foundation: 2 },
  { type: "to_foundation", card: c("5H"), foundation: 4 },
  { type: "to_pile", card: c("5H"), pile: 3 },
  { type: "to_pile", card: c("KD"), pile: 6 },
  { type: "stuck" },
];

describe("cards", () => {
  it("reads rank then suit letter, tens included", () => {
    expect(parseCard(c("10H"))).toEqual({ rank: "10", value: 10, suit: "hearts" });
    expect(parseCard(c("AS")).value).toBe(1);
    expect(parseCard(c("KC")).value).toBe(13);
    expect(() => parseCard(c("1X"))).toThrow();
  });

  it("draws poker faces and names cards in words", () => {
    expect(cardFace(c("QD"))).toEqual({ kind: "poker", rank: "Q", suit: "diamonds" });
    expect(cardWords(c("QD"))).toBe("Queen of Diamonds");
    expect(cardShort(c("10S"))).toBe("10♠");
  });

  it("a foundation shows its suit at the rank of its height", () => {
    expect(foundationTop("hearts", 1)).toBe("AH");
    expect(foundationTop("clubs", 13)).toBe("KC");
  });
});

describe("moves come from the legal list only", () => {
  it("a card can move only when some legal action moves it", () => {
    expect(canMove(c("5H"), legal)).toBe(true);
    expect(canMove(c("9C"), legal)).toBe(false);
  });

  it("a drop on a foundation or pile picks the matching action, or nothing", () => {
    expect(moveTo(c("5H"), { kind: "foundation", index: 4 }, legal)).toEqual(legal[3]);
    expect(moveTo(c("5H"), { kind: "foundation", index: 0 }, legal)).toBeNull();
    expect(moveTo(c("5H"), { kind: "pile", pile: 3 }, legal)).toEqual(legal[4]);
    expect(moveTo(c("KD"), { kind: "pile", pile: 5 }, legal)).toBeNull();
  });

  it("an Ace dropped on any foundation starts a new one", () => {
    expect(moveTo(c("AS"), { kind: "foundation", index: 2 }, legal)).toEqual(legal[1]);
    expect(moveTo(c("AS"), { kind: "foundation", index: null }, legal)).toEqual(legal[1]);
  });

  it("a double-click sends the card to the first foundation that takes it", () => {
    expect(toAnyFoundation(c("5H"), legal)).toEqual(legal[2]);
    expect(toAnyFoundation(c("KD"), legal)).toBeNull();
  });

  it("the stock button draws, or turns the waste over", () => {
    expect(stockAction(legal)).toEqual({ type: "draw" });
    expect(stockAction([{ type: "recycle" }])).toEqual({ type: "recycle" });
    expect(stockAction([{ type: "stuck" }])).toBeNull();
  });

  it("a lost race is explained", () => {
    expect(refusalWords({ code: "illegal_action", rule: "foundation_moved" })).toMatch(
      /got there first/,
    );
    expect(refusalWords({ code: "match_over", rule: null })).toMatch(/deal is over/);
    expect(refusalWords({ code: "illegal_action", rule: "whatever" })).toMatch(
      /no longer possible/,
    );
  });
});

describe("words", () => {
  it("describes every action", () => {
    expect(
      describeAction({ type: "to_foundation", card: c("AS"), foundation: null }, 0, seats),
    ).toBe("Ada starts a foundation with the Ace of Spades");
    expect(describeAction({ type: "to_foundation", card: c("2S"), foundation: 0 }, 1, seats)).toBe(
      "Bot 2 plays the 2 of Spades on foundation 1",
    );
    expect(describeAction({ type: "to_pile", card: c("QH"), pile: 6 }, 0, seats)).toBe(
      "Ada moves the Queen of Hearts to pile 7",
    );
    expect(describeAction({ type: "recycle" }, 0, seats)).toBe("Ada turns the waste over");
  });

  it("says how a deal ended", () => {
    expect(endingWords({ kind: "demon", seat: 1 }, seats)).toBe("Demon! Bot 2 went out.");
    expect(endingWords({ kind: "stalemate" }, seats)).toMatch(/Nobody/);
  });
});

describe("a refused drop says why, by the rules of piles and foundations", () => {
  const piles = [
    { down: 0, up: [] },
    { down: 2, up: [c("9H")] },
    { down: 1, up: [c("9C")] },
  ];
  const foundations = [{ suit: "spades" as const, owners: [0, 1] }];

  it("an empty pile takes only a King", () => {
    expect(dropRefusal(c("QD"), { kind: "pile", pile: 0 }, piles, foundations)).toMatch(
      /only a King/,
    );
  });

  it("a pile builds down in alternating colours", () => {
    expect(dropRefusal(c("8D"), { kind: "pile", pile: 1 }, piles, foundations)).toBe(
      "The 9 of Hearts takes a black 8, not the 8 of Diamonds: piles build down in alternating colours.",
    );
  });

  it("a card that fits by the rules but is not offered is not open now", () => {
    expect(dropRefusal(c("8H"), { kind: "pile", pile: 2 }, piles, foundations)).toMatch(
      /not open to you now/,
    );
  });

  it("a foundation names the card it takes next", () => {
    expect(dropRefusal(c("5S"), { kind: "foundation", index: 0 }, piles, foundations)).toBe(
      "Foundation 1 takes the 3 of Spades next, not the 5 of Spades.",
    );
    expect(dropRefusal(c("AH"), { kind: "foundation", index: 0 }, piles, foundations)).toMatch(
      /Ace starts a new foundation/,
    );
    expect(dropRefusal(c("5S"), { kind: "foundation", index: null }, piles, foundations)).toBe(
      "Only an Ace starts a foundation.",
    );
  });
});

describe("the prompt of a game with no turns", () => {
  const at = (phase: DemonView["phase"]) => ({ phase }) as DemonView;

  it("reads the rules' clock as the idle time during a deal and the wait between deals", () => {
    expect(ruleClock(at("racing"))).toBe("until the deal ends if nobody makes a progress move");
    expect(ruleClock(at("between_deals"))).toBe("until the next deal starts");
    expect(ruleClock(at("over"))).toBeNull();
  });

  it("says what the table waits for between deals, and leaves a deal to the prompt", () => {
    expect(pendingDecision(at("between_deals"))).toMatch(/ready for the next deal/);
    expect(pendingDecision(at("racing"))).toBeNull();
  });
});
