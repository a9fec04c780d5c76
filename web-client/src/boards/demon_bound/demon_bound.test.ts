import { describe, expect, it } from "vitest";
import type { SeatLabel } from "../contract";
import type { DemonBoundAction } from "../../protocol/demon_bound/DemonBoundAction";
import type { DemonBoundView } from "../../protocol/demon_bound/DemonBoundView";
import type { PlayerView } from "../../protocol/demon_bound/PlayerView";
import {
  cardFace,
  cardItems,
  cardShort,
  cardValue,
  deckIndex,
  isFace,
  parseCard,
  sortCards,
} from "./cards";
import { actionsFor, discardOf, discardRule, playableCards, tableActions } from "./legal";
import { describeAction, eventWords, log, pendingDecision } from "./words";
import { idleSpell, stainWords, whyNotPlayable } from "./why";

const seats: SeatLabel[] = [
  { seat: 0, name: "Ari", kind: "person", team: null },
  { seat: 1, name: "Bea", kind: "person", team: null },
  { seat: 2, name: "Bot 3", kind: "bot", team: null },
];

function player(extra: Partial<PlayerView> = {}): PlayerView {
  return {
    hand: null,
    hand_size: 6,
    sacrifice: [],
    sacrifice_total: 0,
    threats: [],
    bound: [],
    treasury: [],
    wealth: 0,
    stain: 1,
    out: false,
    chosen: false,
    ...extra,
  };
}

function view(extra: Partial<DemonBoundView> = {}): DemonBoundView {
  return {
    viewer: { kind: "seat", id: 0 },
    solitaire: false,
    jokers: 2,
    marcus_king: false,
    round_cap: null,
    reshuffle_cap: null,
    phase: { step: "play", card_played: false },
    turn: 0,
    to_act: [0],
    rounds: 0,
    reshuffles: 0,
    draw_pile: 30,
    discard_pile: [],
    players: [player({ hand: ["9S", "2H"] }), player(), player()],
    my_setup: null,
    turn_start_threats: [],
    active_threat: null,
    pending: [],
    peeks: [],
    log: [],
    first_event: 0,
    ending: null,
    revealed_draw_pile: null,
    ...extra,
  };
}

describe("cards", () => {
  it("reads names into faces, values and words", () => {
    expect(parseCard("10H")).toEqual({ rank: "10", suit: "hearts" });
    expect(cardFace("AS")).toEqual({ kind: "poker", rank: "A", suit: "spades" });
    expect(cardFace("MK")).toMatchObject({ kind: "joker", label: "Marcus King" });
    expect(cardValue("AS")).toBe(1);
    expect(cardValue("QD")).toBe(0);
    expect(isFace("KC") && !isFace("10C")).toBe(true);
    expect(cardShort("9S")).toBe("9♠");
  });

  it("sorts like the engine: spades, hearts, diamonds, clubs, then Jokers", () => {
    expect(sortCards(["Joker", "2C", "KS", "AH", "3D"])).toEqual(["KS", "AH", "3D", "2C", "Joker"]);
    expect(deckIndex("AS")).toBe(0);
    expect(deckIndex("KC")).toBe(51);
  });

  it("gives two Jokers two identities in a hand", () => {
    const ids = cardItems(["Joker", "Joker"]).map((c) => c.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe("legal", () => {
  const legal: DemonBoundAction[] = [
    { type: "summon", card: "9S", onto: 1 },
    { type: "summon", card: "9S", onto: 2 },
    { type: "sacrifice", card: "2H" },
    { type: "banish", demon: "7S", freed: "AS" },
    { type: "end_play" },
  ];

  it("groups plays by the hand card they use", () => {
    expect(playableCards(legal)).toEqual(new Set(["9S", "2H"]));
    expect(actionsFor(legal, "9S")).toHaveLength(2);
    expect(tableActions(legal).map((a) => a.type)).toEqual(["banish", "end_play"]);
  });

  it("finds the discard of exactly the chosen cards, in any order", () => {
    const discards: DemonBoundAction[] = [
      { type: "discard", cards: ["2H"] },
      { type: "discard", cards: ["9S", "2H"] },
    ];
    expect(discardRule(discards).atLeast).toBe(1);
    expect(discardOf(discards, ["2H", "9S"])).toEqual({ type: "discard", cards: ["9S", "2H"] });
    expect(discardOf(discards, [])).toBeNull();
    expect(discardRule(legal).atLeast).toBeNull();
  });
});

describe("words", () => {
  it("describes actions with names and cards", () => {
    expect(describeAction({ type: "summon", card: "9S", onto: 0 }, 1, seats)).toBe(
      "Bea summons 9♠ onto Ari's sacrifice",
    );
    expect(describeAction({ type: "bind", card: "10C", demon: "9S" }, 0, seats)).toBe(
      "Ari binds 9♠ with 10♣",
    );
    expect(describeAction({ type: "cast", card: "QD" }, 0, seats)).toBe(
      "Ari casts Q♦ (Treasure Scrying)",
    );
    expect(describeAction({ type: "treasure", card: "9D", release: ["4S", "5S"] }, 1, seats)).toBe(
      "Bea buys 9♦ for the treasury, releasing 4♠ 5♠",
    );
  });

  it("writes the game log the view carries, in order", () => {
    const v = view({
      first_event: 7,
      log: [
        { kind: "summoned", seat: 1, demon: "9S", onto: 0 },
        { kind: "stole", seat: 0, from: 1, count: 2, cards: [] },
        { kind: "stained", seat: 0, demon: "9S", stain: 2 },
      ],
    });
    expect(log(v, seats)).toEqual([
      { id: 7, seat: 1, text: "Bea summoned 9♠ onto Ari's sacrifice" },
      { id: 8, seat: 0, text: "Ari took 2 diamonds from Bea" },
      { id: 9, seat: 0, text: "9♠ marked Ari's soul (stain 2)" },
    ]);
    expect(
      eventWords({ kind: "hells_maw", seat: 2, card: "Joker", dealt: [[0, "3S"]] }, seats),
    ).toBe("Hell's Maw: Joker discarded by Bot 3 dealt 3♠ to Ari");
  });

  it("names the decision someone owes off their turn", () => {
    const v = view({
      phase: { step: "decision", decider: 1 },
      pending: [{ decider: 1, demon: "8S", why: "appeased" }],
    });
    expect(pendingDecision(v, seats)).toBe("Bea chooses whom 8♠ (appeased) attacks");
    expect(pendingDecision(view(), seats)).toBeNull();
  });
});

describe("buttons", () => {
  it("label your own moves as commands", async () => {
    const { buttonWords } = await import("./words");
    expect(buttonWords({ type: "summon", card: "8S", onto: 1 }, seats)).toBe(
      "Summon 8♠ onto Bea's sacrifice",
    );
    expect(buttonWords({ type: "appease", card: "7H", demon: "9S", target: 2 }, seats)).toBe(
      "Appease 9♠ with 7♥, sending it to Bot 3",
    );
    expect(buttonWords({ type: "attack", target: 0 }, seats)).toBe("Send it to Ari");
    expect(buttonWords({ type: "scry", seat: 1 }, seats)).toBe("Peek at Bea's hand");
  });

  it("call your own sacrifice yours, not by your name", async () => {
    const { buttonWords } = await import("./words");
    expect(buttonWords({ type: "summon", card: "8S", onto: 0 }, seats, 0)).toBe(
      "Summon 8♠ onto your sacrifice",
    );
    expect(buttonWords({ type: "spell_summon", card: "8S", onto: 0 }, seats, 0)).toBe(
      "Send 8♠ against yourself",
    );
  });
});

describe("what a newcomer is told", () => {
  it("a dimmed card says why it cannot be played, by the rule it misses", () => {
    const hand = ["5C", "6D", "9S", "Joker"];
    const v = view({ players: [player({ hand, bound: ["2S"] }), player(), player()] });
    expect(whyNotPlayable("5C", v, 0)).toBe(
      "5♣: a club binds a demon before you, and there is none.",
    );
    expect(whyNotPlayable("6D", v, 0)).toMatch(/bound demons worth 6 or more; yours are worth 2/);
    expect(whyNotPlayable("9S", v, 0)).toMatch(/nobody has one on the table/);
    expect(whyNotPlayable("Joker", v, 0)).toMatch(/never played, only discarded/);
    expect(whyNotPlayable("5C", view({ turn: 1 }), 0)).toMatch(/on your own turn/);
    expect(whyNotPlayable("5C", view({ phase: { step: "setup" } }), 0)).toMatch(/numbered heart/);
    const threatened = view({ players: [player({ threats: ["7S"] }), player(), player()] });
    expect(whyNotPlayable("5C", threatened, 0)).toMatch(
      /strength 5 or less; the weakest before you is 7/,
    );
  });

  it("a spell that would do nothing is said to, and one that acts is not", () => {
    expect(idleSpell("QS", view(), 0)).toMatch(/no(ne)? .*demons|there are none on the table/);
    expect(idleSpell("KC", view(), 0)).toMatch(/none on the table/);
    expect(idleSpell("JH", view(), 0)).toBeNull();
    const noSpades = view({ players: [player({ hand: ["JH", "2H"] }), player(), player()] });
    expect(idleSpell("JH", noSpades, 0)).toMatch(/you hold none/);
    const demons = view({ players: [player(), player({ threats: ["4S"] }), player()] });
    expect(idleSpell("QS", demons, 0)).toBeNull();
    expect(idleSpell("JD", view(), 0)).toBeNull();
    expect(idleSpell("9D", view(), 0)).toBeNull();
  });

  it("stains say what they cost", () => {
    expect(stainWords(2, true)).toMatch(/^Stain 2: each turn you discard at least 2 cards/);
    expect(stainWords(1, false)).toMatch(/they discard at least 1 card;/);
  });
});
