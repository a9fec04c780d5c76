import { describe, expect, it } from "vitest";
import type { SoulitaireAction } from "../../protocol/soulitaire/SoulitaireAction";
import type { SoulitaireCard } from "../../protocol/soulitaire/SoulitaireCard";
import type { SoulitaireView } from "../../protocol/soulitaire/SoulitaireView";
import { hint, isLegal, planOffers, refusal, sameAction, type Offer } from "./rules";
import { freeSymbols, hintAfterPicks, moreAfter } from "./sacrifice";
import {
  cardButtonLabel,
  columnLabel,
  concededWords,
  counted,
  demonsLeftWords,
  demonTopLabel,
  describeAction,
  endSacrificeLabel,
  foundationLabel,
  hintLine,
  lostWords,
  moveDeclarationHeading,
  nextTitleWords,
  noSymbolFor,
  offerDeclarationHeading,
  pendingDecision,
  pickCardsPrompt,
  pickName,
  placeLabel,
  reorderLabel,
  rulesNote,
  useSuits,
  type HintContext,
} from "./words";

const seats = [{ seat: 0, name: "Ada", kind: "person" as const, team: null }];
const r = (rank: string, suit: string): SoulitaireCard =>
  ({ kind: "ritual", rank, suit }) as SoulitaireCard;
const BOSCHE = {
  name: "Bosche the Plague Doctor",
  symbols: [{ suit: "s1" }, { suit: "s2" }, { suit: "s3" }, { suit: "s4" }],
} as SoulitaireView["demon_pile"][number] & object;

/** A small position: exposed cards per column (null = empty), foundation tops, the pile. */
function view(
  exposed: (SoulitaireCard | null)[],
  tops: [string, string][],
  extra: Partial<SoulitaireView> = {},
): SoulitaireView {
  return {
    config: { demon_on_top: "dead_stack", demon_pile: "top_only" },
    suits: [
      { suit: "s1", name: "Skulls", glyph: "☠" },
      { suit: "s2", name: "Moons", glyph: "☾" },
      { suit: "s3", name: "Tridents", glyph: "♆" },
      { suit: "s4", name: "Pentacles", glyph: "⛤" },
    ],
    spellboard: exposed.map((card) =>
      card
        ? [
            { face_up: false, card: null },
            { face_up: true, card },
          ]
        : [],
    ),
    foundations: tops.map(([rank, suit]) => ({
      layers: [{ kind: "ritual", rank, suit }],
      top: { kind: "face", rank, suit },
    })) as SoulitaireView["foundations"],
    demon_pile: [BOSCHE],
    discarded: [],
    set_aside_count: 14,
    set_aside: null,
    unused_demons: null,
    sacrifice: null,
    status: { kind: "playing" },
    ...extra,
  };
}

describe("Soulitaire in words", () => {
  it("describes every kind of action with the engine's suit names", () => {
    useSuits(view([], []).suits);
    const says = (a: SoulitaireAction) => describeAction(a, 0, seats);
    expect(says({ kind: "move", column: 2, foundation: 0, declare: null })).toBe(
      "Ada moves the card of column 3 onto Foundation 1",
    );
    expect(
      says({ kind: "move", column: 0, foundation: 3, declare: { rank: "9", suit: "s1" } }),
    ).toBe("Ada moves the Mimic from column 1 onto Foundation 4, declared the 9 of Skulls");
    expect(says({ kind: "sacrifice", foundation: 1 })).toBe(
      "Ada sacrifices the top demon onto Foundation 2",
    );
    expect(says({ kind: "offer", column: 4, symbol: { suit: "s4" }, declare: null })).toBe(
      "Ada offers the card of column 5 for Pentacles",
    );
    expect(
      says({ kind: "offer", column: 4, symbol: { rank: "K" }, declare: { rank: "K", suit: "s2" } }),
    ).toBe("Ada offers the Mimic from column 5 for Keeper, declared the Keeper of Moons");
    expect(says({ kind: "end_sacrifice" })).toBe("Ada ends the sacrifice");
    expect(says({ kind: "discard" })).toBe("Ada discards the top demon");
  });

  it("names the pending decision of a sacrifice under way", () => {
    const v = view([], [], {
      sacrifice: {
        foundation: 2,
        demon: BOSCHE,
        remaining: [{ suit: "s2" }, { suit: "s3" }],
        eligible: [1],
        offered: 2,
      },
    });
    expect(pendingDecision(v, seats)).toBe(
      "Sacrificing Bosche the Plague Doctor on Foundation 3: offer a card for Moons or Tridents, or end the sacrifice.",
    );
    expect(pendingDecision(view([], []), seats)).toBeNull();
  });
});

describe("Soulitaire rules on the board", () => {
  it("compares actions whatever the order of their keys", () => {
    const a: SoulitaireAction = { kind: "offer", column: 1, symbol: { rank: "7" }, declare: null };
    const b = JSON.parse(
      '{"declare":null,"symbol":{"rank":"7"},"column":1,"kind":"offer"}',
    ) as SoulitaireAction;
    expect(sameAction(a, b)).toBe(true);
    expect(isLegal([b], a)).toBe(true);
    expect(sameAction(a, { ...a, symbol: { suit: "s1" } })).toBe(false);
  });

  it("says why a drop is refused, in the engine's words", () => {
    const v = view(
      [r("5", "s1")],
      [
        ["7", "s2"],
        ["9", "s3"],
        ["K", "s1"],
        ["A", "s4"],
      ],
    );
    const legal: SoulitaireAction[] = [{ kind: "discard" }, { kind: "concede" }];
    expect(refusal(v, legal, { kind: "card", column: 0 }, 0)).toBe(
      "A card of rank 5 cannot go onto a 7: the ranks must be one apart (A 2 … 10 E S K A).",
    );
    expect(refusal(v, legal, { kind: "demon" }, 1)).toBe(
      "Bosche the Plague Doctor shares no suit or rank with the top of Foundation 2.",
    );
    const dead = view([r("5", "s1")], [["7", "s2"]]);
    dead.foundations[0].top = { kind: "dead" };
    expect(refusal(dead, legal, { kind: "card", column: 0 }, 0)).toBe(
      "Foundation 1 is dead: a demon lies on top of it with no Ritual cards.",
    );
    const ok: SoulitaireAction[] = [{ kind: "move", column: 0, foundation: 0, declare: null }];
    expect(refusal(v, ok, { kind: "card", column: 0 }, 0)).toBeNull();
  });

  it("hints a Ritual move from the deepest column before spending a demon", () => {
    const v = view(
      [r("8", "s1"), r("6", "s2")],
      [
        ["7", "s3"],
        ["K", "s1"],
        ["K", "s1"],
        ["K", "s1"],
      ],
    );
    v.spellboard[1].unshift({ face_up: false, card: null });
    const legal: SoulitaireAction[] = [
      { kind: "move", column: 0, foundation: 0, declare: null },
      { kind: "move", column: 1, foundation: 0, declare: null },
      { kind: "sacrifice", foundation: 1 },
      { kind: "discard" },
      { kind: "concede" },
    ];
    expect(hint(v, legal)).toEqual({ kind: "move", column: 1, foundation: 0, declare: null });
  });

  it("hints a sacrifice that takes cards, else a discard", () => {
    const v = view(
      [r("3", "s1"), r("9", "s3")],
      [
        ["5", "s2"],
        ["K", "s2"],
        ["K", "s2"],
        ["K", "s2"],
      ],
    );
    const legal: SoulitaireAction[] = [
      { kind: "sacrifice", foundation: 0 },
      { kind: "discard" },
      { kind: "concede" },
    ];
    expect(hint(v, legal)).toEqual({ kind: "sacrifice", foundation: 0 });
    const useless = view([r("3", "s1")], [["5", "s2"]], {
      demon_pile: [{ name: "Two Imp", symbols: [{ rank: "2" }] }],
    });
    expect(hint(useless, [{ kind: "discard" }, { kind: "concede" }])).toEqual({ kind: "discard" });
  });

  it("plans a sacrifice's offers one card per symbol, the most useful one last", () => {
    const v = view(
      [r("3", "s1"), r("K", "s1"), r("9", "s3"), r("8", "s2")],
      [
        ["5", "s2"],
        ["K", "s2"],
        ["K", "s2"],
        ["K", "s2"],
      ],
      {
        sacrifice: {
          foundation: 0,
          demon: BOSCHE,
          remaining: BOSCHE.symbols,
          eligible: [0, 1, 2],
          offered: 0,
        },
      },
    );
    const legal: SoulitaireAction[] = [
      { kind: "offer", column: 0, symbol: { suit: "s1" }, declare: null },
      { kind: "offer", column: 1, symbol: { suit: "s1" }, declare: null },
      { kind: "offer", column: 2, symbol: { suit: "s3" }, declare: null },
      { kind: "end_sacrifice" },
      { kind: "concede" },
    ];
    const plan = planOffers(v, legal);
    expect(plan).toHaveLength(2);
    const skulls = plan.filter((o) => "suit" in o.symbol && o.symbol.suit === "s1");
    expect(skulls).toHaveLength(1);
    // The 9 of Tridents on top lets the visible 8 follow.
    expect(plan[plan.length - 1].column).toBe(2);
    expect(hint(v, legal)).toEqual(plan[0]);
  });
});

describe("Soulitaire guided sacrifice", () => {
  const v = view(
    [r("3", "s1"), r("K", "s1"), r("9", "s3"), r("8", "s2")],
    [
      ["5", "s2"],
      ["K", "s2"],
      ["K", "s2"],
      ["K", "s2"],
    ],
    {
      sacrifice: {
        foundation: 0,
        demon: BOSCHE,
        remaining: BOSCHE.symbols,
        eligible: [0, 1, 2],
        offered: 0,
      },
    },
  );
  const skulls0: Offer = { kind: "offer", column: 0, symbol: { suit: "s1" }, declare: null };
  const skulls1: Offer = { kind: "offer", column: 1, symbol: { suit: "s1" }, declare: null };
  const tridents2: Offer = { kind: "offer", column: 2, symbol: { suit: "s3" }, declare: null };
  const legal: SoulitaireAction[] = [
    skulls0,
    skulls1,
    tridents2,
    { kind: "end_sacrifice" },
    { kind: "concede" },
  ];

  it("does not hint a card already chosen for the sacrifice", () => {
    // The server's hint (from its view, which knows nothing of the board's picks) names the
    // card of column 3; the player has already picked it.
    const next = hintAfterPicks(tridents2, [tridents2], v, legal);
    expect(next).not.toEqual(tridents2);
    expect(next?.kind).toBe("offer");
    expect(next && next.kind === "offer" && next.symbol).toEqual({ suit: "s1" });
  });

  it("does not hint a card for a symbol another pick already holds", () => {
    const next = hintAfterPicks(skulls1, [skulls0], v, legal);
    expect(next).toEqual(tridents2);
  });

  it("suggests placing the chosen cards once no other card can join them", () => {
    expect(hintAfterPicks(tridents2, [skulls0, tridents2], v, legal)).toEqual({
      kind: "end_sacrifice",
    });
  });

  it("leaves a hint alone before anything is picked, or when it is still open", () => {
    expect(hintAfterPicks(tridents2, [], v, legal)).toEqual(tridents2);
    expect(hintAfterPicks(tridents2, [skulls0], v, legal)).toEqual(tridents2);
  });

  it("knows which symbols are still free and whether an explicit end is needed", () => {
    expect(freeSymbols(BOSCHE.symbols, [skulls0])).toEqual([
      { suit: "s2" },
      { suit: "s3" },
      { suit: "s4" },
    ]);
    expect(moreAfter([skulls0], [skulls0, skulls1, tridents2], BOSCHE.symbols)).toBe(true);
    expect(moreAfter([skulls0, tridents2], [skulls0, skulls1, tridents2], BOSCHE.symbols)).toBe(
      false,
    );
  });
});

describe("Soulitaire ending in words", () => {
  it("tells the player about their own next title", () => {
    expect(nextTitleWords(3, null)).toBe(
      "One more demon kept would have made you a Master of the Realm.",
    );
    expect(nextTitleWords(4, null)).toBe("The highest title there is.");
  });

  it("tells a spectator about the player by name, never 'you'", () => {
    const words = nextTitleWords(3, "Ada");
    expect(words).toBe("One more demon kept would have made Ada a Master of the Realm.");
    expect(words).not.toMatch(/\byou\b/);
  });
});

describe("Soulitaire board sentences", () => {
  const at: HintContext = {
    card: (c) => (c === 2 ? "the 7 of Skulls" : `column ${c + 1}`),
    demon: "Bosche",
    picked: false,
  };

  it("counts with the right noun for one and for many", () => {
    expect(counted(1, "card")).toBe("1 card");
    expect(counted(0, "card")).toBe("0 cards");
    expect(demonsLeftWords(1)).toBe("1 demon left in the pile.");
    expect(demonsLeftWords(3)).toBe("3 demons left in the pile.");
    expect(lostWords(2)).toBe(
      "No card and no demon can reach a Foundation Stack; 2 cards remain on the Spellboard.",
    );
    expect(concededWords(1)).toBe("1 card remained on the Spellboard.");
  });

  it("words each kind of hint with the card and demon the board names", () => {
    useSuits(view([], []).suits);
    expect(hintLine({ kind: "move", column: 2, foundation: 0, declare: null }, at)).toBe(
      "Hint: move the 7 of Skulls onto Foundation 1.",
    );
    expect(
      hintLine({ kind: "move", column: 0, foundation: 1, declare: { rank: "K", suit: "s2" } }, at),
    ).toBe("Hint: move the Mimic of column 1 onto Foundation 2, declared the Keeper of Moons.");
    expect(hintLine({ kind: "sacrifice", foundation: 3 }, { ...at, demon: null })).toBe(
      "Hint: sacrifice the top demon on Foundation 4.",
    );
    expect(hintLine({ kind: "offer", column: 2, symbol: { suit: "s1" }, declare: null }, at)).toBe(
      "Hint: offer the 7 of Skulls for Skulls.",
    );
    expect(hintLine({ kind: "end_sacrifice" }, at)).toBe("Hint: offer no more cards.");
    expect(hintLine({ kind: "end_sacrifice" }, { ...at, picked: true })).toBe(
      "Hint: place the cards you have chosen; no other card can join them.",
    );
    expect(hintLine({ kind: "discard" }, at)).toBe(
      "Hint: no card can move and Bosche takes none: discard it.",
    );
    expect(hintLine(null, at)).toBe("No move to suggest.");
  });

  it("labels a foundation with its top, its size, its demons and whether it takes the choice", () => {
    useSuits(view([], []).suits);
    const stack = {
      layers: [
        { kind: "ritual", rank: "7", suit: "s1" },
        { kind: "demon", name: "Bosche", symbols: [] },
      ],
      top: { kind: "dead" },
    } as unknown as SoulitaireView["foundations"][number];
    expect(foundationLabel(1, stack, false)).toBe(
      "Foundation 2: top a bare demon (dead), 2 cards, 1 demon in it",
    );
    const single = view([], [["9", "s3"]]).foundations[0];
    expect(foundationLabel(0, single, true)).toBe(
      "Foundation 1: top 9 of Tridents, 1 card, can take it",
    );
  });

  it("labels a column and its exposed card by where the card stands in the play", () => {
    useSuits(view([], []).suits);
    expect(columnLabel(0, 0, 0, null)).toBe("Column 1: empty");
    expect(columnLabel(3, 4, 3, r("5", "s4"))).toBe(
      "Column 4: 3 face down, the 5 of Pentacles showing",
    );
    const five = r("5", "s4");
    expect(cardButtonLabel(3, five, { kind: "idle" })).toBe("5 of Pentacles, column 4");
    expect(cardButtonLabel(3, five, { kind: "selected" })).toBe(
      "5 of Pentacles, column 4, selected",
    );
    expect(cardButtonLabel(3, five, { kind: "picked", symbol: { suit: "s4" } })).toBe(
      "5 of Pentacles, column 4, chosen for Pentacles (take back)",
    );
    expect(
      cardButtonLabel(3, five, { kind: "offerable", symbols: [{ suit: "s4" }, { rank: "5" }] }),
    ).toBe("5 of Pentacles, column 4, can be offered for Pentacles or 5");
    expect(cardButtonLabel(3, five, { kind: "offerable", symbols: [] })).toBe(
      "5 of Pentacles, column 4",
    );
  });

  it("heads the Mimic picker with what the foundation or the symbol asks for", () => {
    useSuits(view([], []).suits);
    expect(moveDeclarationHeading(0, { kind: "face", rank: "7", suit: "s1" })).toBe(
      "Onto Foundation 1, whose top is 7 of Skulls: a rank one higher or lower.",
    );
    expect(moveDeclarationHeading(2, { kind: "wild" })).toBe(
      "Onto Foundation 3, whose top is a starting Mimic (any rank, no suit): a rank of your choice.",
    );
    expect(offerDeclarationHeading("Bosche", { rank: "K" })).toBe(
      "Offered to Bosche for Keeper: declare it as a card with that rank. If it is placed last, it is the new top.",
    );
  });

  it("says why a card cannot be picked for the sacrifice", () => {
    useSuits(view([], []).suits);
    expect(noSymbolFor(r("5", "s1"), [{ suit: "s2" }, { suit: "s3" }], "Bosche")).toBe(
      "The 5 of Skulls matches none of the symbols still free (Moons or Tridents).",
    );
    expect(noSymbolFor(r("5", "s1"), [], "Bosche")).toBe(
      "Every symbol of Bosche already has a card.",
    );
  });

  it("words the sacrifice's steps and buttons", () => {
    useSuits(view([], []).suits);
    expect(pickCardsPrompt(0)).toBe(
      "Pick cards in the Spellboard, one per symbol, among those visible when the demon was placed.",
    );
    expect(pickCardsPrompt(2)).toMatch(/placed \(2 already offered\)\.$/);
    expect(endSacrificeLabel(0)).toBe("End without offering cards");
    expect(endSacrificeLabel(1)).toBe("Offer no more cards");
    expect(pickName({ rank: "3", suit: "s2" }, { kind: "mimic" } as SoulitaireCard, 1)).toBe(
      "Mimic as the 3 of Moons",
    );
    expect(pickName(null, null, 4)).toBe("column 5");
    expect(placeLabel(["5 of Skulls"])).toBe("Place the 5 of Skulls");
    expect(placeLabel(["5 of Skulls", "Mimic as the 3 of Moons"])).toBe("Place the 2 cards");
    expect(reorderLabel("5 of Skulls", -1)).toBe("Place the 5 of Skulls earlier");
    expect(reorderLabel("5 of Skulls", 1)).toBe("Place the 5 of Skulls later");
  });

  it("reminds the rules of the table's option for a bare demon", () => {
    expect(rulesNote("dead_stack")).toMatch(
      /cards never leave a foundation\. A sacrificed demon left with no card on it kills its stack\.$/,
    );
    expect(rulesNote("forgiving")).toMatch(/A bare demon lets the card beneath it count\.$/);
    expect(demonTopLabel("Demon: Bosche", false)).toBe(
      "Top of the Demon Pile: Demon: Bosche. It matches no foundation top now.",
    );
  });
});
