import { describe, expect, it } from "vitest";
import type { SeatLabel } from "../contract";
import type { DaemonAction } from "../../protocol/daemon_dice/DaemonAction";
import type { DaemonDiceView } from "../../protocol/daemon_dice/DaemonDiceView";
import type { DieView } from "../../protocol/daemon_dice/DieView";
import type { Face } from "../../protocol/daemon_dice/Face";
import { board } from ".";
import { boardFor, hasBoard } from "../registry";
import { classify, declarationNeeded, dieFaces, lineageWords, matZone, PARTS } from "./dice";
import {
  buildChoices,
  defenceChoices,
  dieChoice,
  draftProblem,
  findLegal,
  grabChoices,
  modifierChoices,
  poisonChoices,
  seatChoices,
} from "./legal";
import {
  defenceNeed,
  describeAction,
  pendingDecision,
  promptTitle,
  stepKey,
  TURN_STEPS,
} from "./words";

const seats: SeatLabel[] = [
  { seat: 0, name: "Ada", kind: "person", team: null },
  { seat: 1, name: "Bot 2", kind: "bot", team: null },
  { seat: 2, name: "Cy", kind: "person", team: null },
];

const house = (part: string) =>
  [part, "stun", "block", "dodge", "plus", "minus"] as [Face, Face, Face, Face, Face, Face];

function view(extra: Partial<DaemonDiceView> = {}): DaemonDiceView {
  const die = (part: DieView["part"], more: Partial<DieView> = {}): DieView => ({
    breed: "frost",
    part,
    ...more,
  });
  return {
    you: 0,
    config: { size: 3, lungs_initiative: 0, max_copies: 0, turn_limit: 200 },
    step: { step: "defend" },
    turn: 2,
    active: 0,
    to_act: [0],
    power_level: 1,
    daemons: [
      {
        ready: true,
        picked: 3,
        picks: null,
        declared: null,
        dice: [die("pincer"), die("shell"), die("leg")],
        lineage: { type: "purebred", breed: "frost" },
        defeated: false,
      },
      {
        ready: true,
        picked: 3,
        picks: null,
        declared: null,
        dice: [die("eye"), die("tail"), die("brain")],
        lineage: { type: "purebred", breed: "fire" },
        defeated: false,
      },
    ],
    pending: null,
    pending_status: [],
    array: null,
    initiative: null,
    defeated: [],
    faces: PARTS.map((p) => [p, house(p)]),
    ...extra,
  };
}

describe("reading the legal list", () => {
  it("sends only an action the list holds, whatever its key order", () => {
    const legal: DaemonAction[] = [{ type: "defend", attack: 1, die: 2 }, { type: "done" }];
    expect(findLegal(legal, { type: "defend", die: 2, attack: 1 } as DaemonAction)).toBe(legal[0]);
    expect(findLegal(legal, { type: "defend", attack: 0, die: 2 })).toBeNull();
  });

  it("offers one kind of one-die decision with its dice", () => {
    expect(
      dieChoice([
        { type: "set_aside", die: 0 },
        { type: "set_aside", die: 2 },
      ]),
    ).toEqual({ type: "set_aside", dice: [0, 2] });
    expect(dieChoice([{ type: "suffer", die: 1 }])).toEqual({ type: "suffer", dice: [1] });
    expect(dieChoice([{ type: "done" }])).toBeNull();
  });

  it("pairs defending dice with the attacks they may join, both ways", () => {
    const { byAttack, byDie } = defenceChoices([
      { type: "defend", attack: 0, die: 1 },
      { type: "defend", attack: 1, die: 1 },
      { type: "defend", attack: 1, die: 2 },
      { type: "done" },
    ]);
    expect(byAttack.get(1)).toEqual([1, 2]);
    expect(byDie.get(1)).toEqual([0, 1]);
    expect(byDie.has(0)).toBe(false);
  });

  it("reads boosts, Spikes, Brains, poison and grabs of the attack step", () => {
    const legal: DaemonAction[] = [
      { type: "boost", attack: 0 },
      { type: "boost", attack: 1 },
      { type: "spike", attack: 1 },
      { type: "poison", attack: 1 },
      { type: "grab", tentacle: 4, die: 0 },
      { type: "grab", tentacle: 4, die: 2 },
      { type: "done" },
    ];
    expect(modifierChoices(legal)).toEqual({ boost: [0, 1], spike: [1], brain: [] });
    expect(poisonChoices(legal)).toEqual([1]);
    expect(grabChoices(legal).get(4)).toEqual([0, 2]);
  });

  it("offers a multiplayer target and the next player named by a defeated daemon", () => {
    expect(
      seatChoices([
        { type: "target", seat: 1 },
        { type: "target", seat: 2 },
      ]),
    ).toEqual({ type: "target", seats: [1, 2] });
    expect(seatChoices([{ type: "name_next", seat: 2 }])).toEqual({
      type: "name_next",
      seats: [2],
    });
    expect(seatChoices([{ type: "done" }])).toBeNull();
  });

  it("reads the builder's picks", () => {
    const choices = buildChoices([{ type: "pick", breed: "frost", part: "eye" }]);
    expect(choices.picks.has("frost:eye")).toBe(true);
    expect(choices.picks.has("rot:eye")).toBe(false);
    expect(choices.ready).toBe(false);
    expect(choices.declare).toEqual([]);
  });

  it("offers a complete daemon the ready step, declaring a breed if it is half-and-half", () => {
    expect(buildChoices([{ type: "ready", breed: null }])).toMatchObject({
      ready: true,
      declare: [],
    });
    expect(
      buildChoices([
        { type: "ready", breed: "fire" },
        { type: "ready", breed: "rot" },
      ]),
    ).toMatchObject({ ready: false, declare: ["fire", "rot"] });
  });

  it("says why a draft cannot be summoned: too few, too many, or too many copies", () => {
    const d = (part: DieView["part"]) => ({ breed: "frost" as const, part });
    expect(draftProblem([d("eye")], 3, 0)).toBe("Pick 2 more dice.");
    expect(draftProblem([d("eye"), d("leg")], 3, 0)).toBe("Pick 1 more die.");
    expect(draftProblem([d("eye"), d("eye"), d("eye"), d("leg")], 3, 0)).toMatch(/remove 1/);
    expect(draftProblem([d("eye"), d("eye"), d("leg")], 3, 1)).toMatch(/At most 1 of one die/);
    expect(draftProblem([d("eye"), d("eye"), d("leg")], 3, 0)).toBeNull();
  });
});

describe("dice and daemons", () => {
  it("draws a die from the view's house table, showing the rolled face or else its body part", () => {
    expect(dieFaces(view(), "pincer", "block")).toEqual({
      labels: ["Pincer", "Stun", "Block", "Dodge", "+", "−"],
      value: 2,
    });
    expect(dieFaces(view(), "pincer", undefined).value).toBe(0);
  });

  it("sorts dice into the play-mat's zones, health and grabs first", () => {
    expect(matZone({ breed: "rot", part: "eye" })).toBe("active");
    expect(matZone({ breed: "rot", part: "eye", zone: "rolled", face: "stun" })).toBe("active");
    expect(matZone({ breed: "rot", part: "eye", zone: "minused" })).toBe("minused");
    expect(matZone({ breed: "rot", part: "eye", zone: "arrayed" })).toBe("spent");
    expect(matZone({ breed: "rot", part: "eye", zone: "spent", health: "stunned" })).toBe(
      "stunned",
    );
    expect(matZone({ breed: "rot", part: "eye", health: "wounded" })).toBe("wounded");
    expect(matZone({ breed: "rot", part: "eye", grabbed_by: { seat: 1, die: 0 } })).toBe("grabbed");
  });

  it("classifies a draft as the engine does: purebred, half-breed, mongrel, crossbred", () => {
    const d = (breed: "frost" | "rot" | "fire", part: DieView["part"]) => ({ breed, part });
    expect(classify([d("frost", "eye"), d("frost", "eye")])).toEqual({
      type: "purebred",
      breed: "frost",
    });
    expect(classify([d("frost", "eye"), d("frost", "leg"), d("rot", "leg")])).toEqual({
      type: "half_breed",
      breed: "frost",
    });
    expect(classify([d("frost", "eye"), d("rot", "eye"), d("fire", "eye")])).toEqual({
      type: "mongrel",
    });
    expect(
      classify([
        d("frost", "eye"),
        d("rot", "eye"),
        d("fire", "eye"),
        d("fire", "eye"),
        d("frost", "leg"),
      ]),
    ).toEqual({ type: "crossbred" });
    const split = [d("frost", "eye"), d("rot", "leg")];
    expect(declarationNeeded(split)).toEqual(["frost", "rot"]);
    expect(classify(split, "rot")).toEqual({ type: "half_breed", breed: "rot" });
    expect(lineageWords({ type: "half_breed", breed: "rot" })).toBe("Rot half-breed");
  });
});

describe("Daemon Dice in words", () => {
  it("says in plain words what stops an attack: one suitable die, and one more per boost", () => {
    expect(defenceNeed("stun", 0)).toBe("Stopped by one Block or Deflect");
    expect(defenceNeed("leg", 1)).toBe(
      "Stopped by 2 dice: a Block or Deflect and one more of the same kind or a Plus",
    );
    expect(defenceNeed("eye", 2)).toBe(
      "Stopped by 3 dice: a Dodge or Deflect and 2 more of the same kind or Pluses",
    );
    expect(defenceNeed("tail", 0)).toBe("Stopped by one Dodge or Deflect");
  });

  it("names every action without revealing a secret pick", () => {
    expect(describeAction({ type: "pick", breed: "frost", part: "eye" }, 0, seats)).toBe(
      "Ada adds a die to their daemon",
    );
    expect(describeAction({ type: "ready", breed: "rot" }, 0, seats)).toBe("Ada's daemon is ready");
    expect(describeAction({ type: "ready", breed: null }, 0, seats)).toBe("Ada's daemon is ready");
    expect(describeAction({ type: "defend", attack: 0, die: 2 }, 0, seats)).toBe(
      "Ada defends attack 1 with die 3",
    );
    expect(describeAction({ type: "name_next", seat: 2 }, 1, seats)).toBe(
      "Bot 2's defeated daemon names Cy to take the next turn",
    );
    expect(describeAction({ type: "target_minus", die: 0 }, 1, seats)).toBe(
      "Bot 2's Wings set aside die 1 of the active daemon",
    );
  });

  it("says which foe decides during your turn", () => {
    expect(
      pendingDecision(view({ step: { step: "target_minus", left: 2 }, to_act: [1] }), seats),
    ).toBe("Bot 2 chooses which of Ada's dice the Wings set aside (2 left)");
    expect(
      pendingDecision(
        view({
          step: { step: "suffer", points: [{ damage: "wound", attack: 0, targeted: true }] },
          to_act: [1],
        }),
        seats,
      ),
    ).toBe("Bot 2 places the Brain-targeted damage on Ada's dice");
    expect(
      pendingDecision(view({ step: { step: "mouth_recover", left: 1 }, to_act: [1] }), seats),
    ).toBe("Bot 2's undefended Mouth recovers one of their stunned dice");
    expect(
      pendingDecision(view({ step: { step: "name_next" }, active: 2, to_act: [2] }), seats),
    ).toBe("Cy's defeated daemon names who takes the next turn");
    expect(pendingDecision(view(), seats)).toBeNull();
  });

  it("walks the stepper through a turn in the rulebook's order", () => {
    expect(TURN_STEPS.map((s) => s.key)).toEqual([
      "activate",
      "minuses",
      "roll",
      "recover",
      "defend",
      "suffer",
      "attack",
      "rot",
    ]);
    expect(stepKey({ step: "release" })).toBe("activate");
    expect(stepKey({ step: "set_aside", left: 1 })).toBe("minuses");
    expect(stepKey({ step: "mouth_recover", left: 1 })).toBe("suffer");
    expect(stepKey({ step: "target" })).toBe("attack");
    expect(stepKey({ step: "construction" })).toBeNull();
    expect(promptTitle({ step: "set_aside", left: 2 }, true)).toBe("Minuses: set aside 2 dice");
  });
});

describe("the board module", () => {
  it("is registered for daemon_dice, and draws a variant that names it as its board", async () => {
    expect(hasBoard("daemon_dice")).toBe(true);
    expect(hasBoard("daemon_dice_rigged")).toBe(false);
    const rigged = { board: "daemon_dice" };
    expect(hasBoard("daemon_dice_rigged", rigged)).toBe(true);
    expect((await boardFor("daemon_dice_rigged", rigged))?.describeAction).toBe(
      board.describeAction,
    );
  });
});
