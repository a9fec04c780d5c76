import { describe, expect, it } from "vitest";
import type { SeatLabel } from "../contract";
import type { DemosAction } from "../../protocol/demos/DemosAction";
import type { DemosView } from "../../protocol/demos/DemosView";
import type { PlayerView } from "../../protocol/demos/PlayerView";
import { cardFace, cardShort, figureFace, figureWords, parseCard, sortHand } from "./cards";
import { allocationChoices, discardChoices, findLegal, mediaChoices } from "./legal";
import {
  describeAction,
  log,
  missedTakeNotice,
  pendingDecision,
  roundSentence,
  sideName,
  vetoer,
} from "./words";

const seats: SeatLabel[] = [
  { seat: 0, name: "Ada", kind: "person", team: null },
  { seat: 1, name: "Bo", kind: "person", team: null },
  { seat: 2, name: "Bot 3", kind: "bot", team: null },
];

function player(extra: Partial<PlayerView> = {}): PlayerView {
  return {
    team: null,
    points: 0,
    round_points: [],
    hand: null,
    turns: [],
    figures: [],
    declaration: null,
    ...extra,
  };
}

function view(extra: Partial<DemosView> = {}): DemosView {
  return {
    viewer: { kind: "seat", id: 0 },
    mode: "simplified",
    discard_order: "simultaneous",
    round_cap: 12,
    creators_suggestion: false,
    round: 2,
    dealer: 2,
    phase: { step: "secret_discard" },
    waiting_for: [0, 1],
    peoples_pack: 18,
    power_pile: 11,
    vetoes: [1, 1, 1],
    visible_discards: ["5S"],
    players: [player({ hand: ["3H", "4H", "5H", "3D", "6D"] }), player(), player()],
    my_commit: null,
    drawn: [],
    veto: null,
    last_round: null,
    scandal: [],
    election: null,
    team_chat_open: false,
    revealed: null,
    ...extra,
  };
}

describe("DēmoS cards", () => {
  it("reads the wire names", () => {
    expect(parseCard("10H")).toEqual({ rank: 10, suit: "hearts" });
    expect(cardFace("7S")).toEqual({ kind: "demos", number: 7, suit: "spades" });
    expect(cardShort("10D")).toBe("10♦");
    expect(figureFace("LC")).toEqual({
      kind: "demos_figure",
      figure: "L",
      suit: "clubs",
      media: null,
    });
    expect(figureFace("M")).toEqual({ kind: "demos_media" });
    expect(figureWords("EH")).toBe("Executive of Hearts");
    expect(sortHand(["9C", "3H", "10S", "3D"])).toEqual(["3H", "3D", "9C", "10S"]);
  });
});

describe("DēmoS legal choices", () => {
  const legal: DemosAction[] = [
    { type: "keep_hand" },
    { type: "secret_discard", card: "3H", take: "pack" },
    { type: "secret_discard", card: "3H", take: { discard: "5S" } },
    { type: "secret_discard", card: "4H", take: "pack" },
  ];

  it("groups discards by card with their replacements", () => {
    const choices = discardChoices(legal);
    expect(choices.kind).toBe("secret_discard");
    expect(choices.keepHand).toBe(true);
    expect(choices.cards.get("3H")).toEqual(["pack", { discard: "5S" }]);
    expect(choices.cards.get("4H")).toEqual(["pack"]);
    expect(choices.cards.has("5H")).toBe(false);
  });

  it("sends only what the legal list holds", () => {
    expect(findLegal(legal, { type: "secret_discard", take: { discard: "5S" }, card: "3H" })).toBe(
      legal[2],
    );
    expect(
      findLegal(legal, { type: "secret_discard", card: "4H", take: { discard: "5S" } }),
    ).toBeNull();
    expect(findLegal(legal, { type: "veto" })).toBeNull();
  });

  it("reads Media targets and allocations", () => {
    const media = mediaChoices([
      { type: "media", target: 1, position: 0, suit: "spades" },
      { type: "media", target: 1, position: 0, suit: "clubs" },
      { type: "media", target: 2, position: 1, suit: "hearts" },
    ]);
    expect([...media.targets.keys()]).toEqual([1, 2]);
    expect(media.targets.get(1)?.get(0)).toEqual(["spades", "clubs"]);
    const alloc = allocationChoices([
      { type: "allocate", to: [2, 2] },
      { type: "allocate", to: [0, 0] },
      { type: "allocate", to: [0, 2] },
    ]);
    expect(alloc.fallback).toEqual([2, 2]);
    expect(alloc.members).toEqual([
      [2, 0],
      [2, 0],
    ]);
  });
});

describe("DēmoS in words", () => {
  it("describes actions", () => {
    expect(describeAction({ type: "public_discard", card: "7S" }, 0, seats)).toBe(
      "Ada discards the 7♠ face up",
    );
    expect(
      describeAction({ type: "secret_discard", card: "7S", take: { discard: "9H" } }, 1, seats),
    ).toBe("Bo discards the 7♠ face down and asks for the 9♥");
    expect(
      describeAction({ type: "media", target: 2, position: 1, suit: "diamonds" }, 0, seats),
    ).toBe("Ada aims the Media at Bot 3's figure 2, naming Diamonds");
    expect(describeAction({ type: "allocate", to: [1, 0] }, 0, seats)).toBe(
      "Ada gives the drawn figures to Bo and Ada",
    );
  });

  it("says what the table waits for", () => {
    expect(pendingDecision(view(), seats)).toBe("Everyone discards a card face down");
    expect(
      pendingDecision(
        view({ discard_order: "sequential", waiting_for: [1], phase: { step: "public_discard" } }),
        seats,
      ),
    ).toBe("Bo discards a card face up");
    expect(
      pendingDecision(
        view({ mode: "complete", phase: { step: "veto_poll", seat: 1, side: 1, proposer: null } }),
        seats,
      ),
    ).toBe("Bo decides whether to veto the Unanimous Discard");
    const fiveSeats = [0, 1, 0, 1, 2].map((team) => player({ team }));
    expect(
      pendingDecision(
        view({
          mode: "team_2v2_plus_1",
          players: fiveSeats,
          phase: { step: "veto_poll", seat: 4, side: 2, proposer: null },
        }),
        seats,
      ),
    ).toBe("The Independent decides whether to veto the Unanimous Discard");
    expect(
      pendingDecision(
        view({
          mode: "team_2v2_plus_1",
          players: fiveSeats,
          phase: { step: "veto_poll", seat: 0, side: 0, proposer: null },
        }),
        seats,
      ),
    ).toBe("Team 1 decide whether to veto the Unanimous Discard");
    expect(pendingDecision(view({ phase: { step: "over" } }), seats)).toBeNull();
    expect(sideName("team_2v2_plus_1", 2, seats)).toBe("The Independent");
    expect(sideName("team_2v2", 0, seats)).toBe("Team 1");
  });

  it("names a team's veto by the team outside it, and by the proposer inside it", () => {
    const fiveSeats = [0, 1, 0, 1, 2].map((team) => player({ team }));
    const teams = [0, 1, 0, 1, 2].map((team, seat) => ({ ...seats[seat % 3], seat, team }));
    const outside = view({
      mode: "team_2v2_plus_1",
      players: fiveSeats,
      veto: { side: 0, by: null },
    });
    const outsideLine = log(outside, teams).find((e) => String(e.id).startsWith("veto-now"));
    expect(outsideLine?.text).toBe("Team 1 vetoes the Unanimous Discard.");
    expect(outsideLine?.seat).toBeNull();
    const inside = view({ mode: "team_2v2_plus_1", players: fiveSeats, veto: { side: 0, by: 2 } });
    expect(log(inside, teams).find((e) => String(e.id).startsWith("veto-now"))?.text).toBe(
      `${teams[2].name} vetoes the Unanimous Discard.`,
    );
    expect(vetoer({ side: 1, by: 1 }, "complete", seats)).toBe("Bo");
  });

  it("logs only what the view holds: a face-down discard names its card to its owner alone", () => {
    const turns = (card: string | null) => [
      {
        turn: "public" as const,
        discard: { kind: "face_up" as const, card: "9S" },
        took: "pack" as const,
        wanted: null,
        taken_by: null,
      },
      {
        turn: "secret" as const,
        discard: { kind: "face_down" as const, card },
        took: "pack" as const,
        wanted: null,
        taken_by: null,
      },
    ];
    const v = view({
      phase: { step: "unanimous_discard" },
      players: [player({ turns: turns("4H") }), player({ turns: turns(null) }), player()],
    });
    const lines = log(v, seats).map((e) => e.text);
    expect(lines).toContain("Secret Discard: Ada discards the 4♥ face down, takes from the pack");
    expect(lines).toContain("Secret Discard: Bo discards a card face down, takes from the pack");
    expect(lines.join(" ")).not.toContain("null");
  });

  it("tells a round's result with its winning combination", () => {
    const text = roundSentence(
      {
        round: 3,
        dealer: 0,
        combinations: [
          { kind: "one_suit_sequence", cards: ["7S", "8S", "9S"], points: 19 },
          null,
          null,
        ],
        winners: [0],
        decided_by: "points",
        veto: null,
        draws: [{ side: 0, count: 1 }],
        square_reveals: [],
        missed: [],
      },
      "simplified",
      seats,
    );
    expect(text).toBe(
      "Round 3: Ada with 7♠ 8♠ 9♠ (one-suit sequence, 19 points) wins. Ada draws 1 figure.",
    );
  });
});

describe("DēmoS: a visible discard taken first", () => {
  it("is worded for the viewer on their own panel", () => {
    expect(missedTakeNotice("7D", 0, 0, seats)).toBe(
      "7♦ was taken first: you got the pack's top card",
    );
  });

  it("names the player on anyone else's panel, never 'you'", () => {
    const notice = missedTakeNotice("7D", 1, 0, seats);
    expect(notice).toBe("Bo asked for the 7♦, taken first: Bo got the pack's top card");
    expect(notice).not.toMatch(/\byou\b/);
    // A spectator (no seat) reading a revealed board.
    expect(missedTakeNotice("7D", 1, null, seats)).not.toMatch(/\byou\b/);
  });

  it("tells the action log what was asked for and what was received", () => {
    const turn = {
      turn: "secret" as const,
      discard: { kind: "face_down" as const, card: "4H" },
      took: "pack" as const,
      wanted: "5S",
      taken_by: null,
    };
    const lines = log(
      view({ players: [player({ turns: [turn] }), player(), player()] }),
      seats,
    ).map((e) => e.text);
    expect(lines).toContain(
      "Secret Discard: Ada discards the 4♥ face down, asks for the 5♠ but it was taken first: takes from the pack",
    );
  });
});
