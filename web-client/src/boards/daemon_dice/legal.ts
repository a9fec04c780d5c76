/**
 * Reading the engine's legal list (complete: every legal action is in it) into the choices the
 * board offers. The board never builds an action the list does not hold: every control is
 * derived from here and every send goes through {@link findLegal}.
 */
import type { Breed } from "../../protocol/daemon_dice/Breed";
import type { DaemonAction } from "../../protocol/daemon_dice/DaemonAction";
import type { Part } from "../../protocol/daemon_dice/Part";

type Of<T extends DaemonAction["type"]> = Extract<DaemonAction, { type: T }>;

export function ofType<T extends DaemonAction["type"]>(legal: DaemonAction[], type: T): Of<T>[] {
  return legal.filter((a): a is Of<T> => a.type === type);
}

export function has(legal: DaemonAction[], type: DaemonAction["type"]): boolean {
  return legal.some((a) => a.type === type);
}

/** The action of `legal` equal to `wanted`, or null: what is actually sent. */
export function findLegal(legal: DaemonAction[], wanted: DaemonAction): DaemonAction | null {
  const key = JSON.stringify(canonical(wanted));
  return legal.find((a) => JSON.stringify(canonical(a)) === key) ?? null;
}

function canonical(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The actions that take one die by itself (the die is the whole choice). */
export type DieActionType =
  "release" | "target_minus" | "set_aside" | "recover" | "mouth_recover" | "suffer" | "rot";
export const DIE_ACTIONS: DieActionType[] = [
  "release",
  "target_minus",
  "set_aside",
  "recover",
  "mouth_recover",
  "suffer",
  "rot",
];

/** The one-die decision offered now (at most one kind at a time), and its dice. */
export function dieChoice(legal: DaemonAction[]): { type: DieActionType; dice: number[] } | null {
  for (const type of DIE_ACTIONS) {
    const dice = legal.filter((a) => a.type === type).map((a) => (a as { die: number }).die);
    if (dice.length) return { type, dice };
  }
  return null;
}

/** Defences: for each attack, the dice that may join its defence now; and for each die, the
 * attacks it may defend. */
export function defenceChoices(legal: DaemonAction[]): {
  byAttack: Map<number, number[]>;
  byDie: Map<number, number[]>;
} {
  const byAttack = new Map<number, number[]>();
  const byDie = new Map<number, number[]>();
  for (const a of ofType(legal, "defend")) {
    byAttack.set(a.attack, [...(byAttack.get(a.attack) ?? []), a.die]);
    byDie.set(a.die, [...(byDie.get(a.die) ?? []), a.attack]);
  }
  return { byAttack, byDie };
}

/** What a rolled modifier can join in the attack step. */
export type Modifier = "boost" | "spike" | "brain";
export const MODIFIERS: Modifier[] = ["boost", "spike", "brain"];

/** For each modifier, the attacks it may join now (empty when none is rolled or none fits). */
export function modifierChoices(legal: DaemonAction[]): Record<Modifier, number[]> {
  return {
    boost: ofType(legal, "boost").map((a) => a.attack),
    spike: ofType(legal, "spike").map((a) => a.attack),
    brain: ofType(legal, "brain").map((a) => a.attack),
  };
}

export function poisonChoices(legal: DaemonAction[]): number[] {
  return ofType(legal, "poison").map((a) => a.attack);
}

/** Grabs: for each of your rolled Tentacles, the target's dice it may grab. */
export function grabChoices(legal: DaemonAction[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const a of ofType(legal, "grab"))
    out.set(a.tentacle, [...(out.get(a.tentacle) ?? []), a.die]);
  return out;
}

/** The seats offered for a multiplayer target or for the next turn after a defeat. */
export function seatChoices(
  legal: DaemonAction[],
): { type: "target" | "name_next"; seats: number[] } | null {
  const target = ofType(legal, "target").map((a) => a.seat);
  if (target.length) return { type: "target", seats: target };
  const next = ofType(legal, "name_next").map((a) => a.seat);
  return next.length ? { type: "name_next", seats: next } : null;
}

/** Construction: which (breed, part) dice may still be picked; once all are picked, whether
 * the daemon may say it is ready as it is (`ready`), and the breeds an exact half-and-half
 * daemon declares as it gets ready (`declare`). */
export function buildChoices(legal: DaemonAction[]): {
  picks: Set<string>;
  ready: boolean;
  declare: Breed[];
} {
  const ready = ofType(legal, "ready");
  return {
    picks: new Set(ofType(legal, "pick").map((a) => pickKey(a.breed, a.part))),
    ready: ready.some((a) => a.breed === null),
    declare: ready.flatMap((a) => (a.breed === null ? [] : [a.breed])),
  };
}

export const pickKey = (breed: Breed, part: Part) => `${breed}:${part}`;

/** Why a draft cannot be summoned yet, or null when it can: the agreed number of dice, each
 * allowed (the lobby may limit copies of one die). */
export function draftProblem(
  draft: { breed: Breed; part: Part }[],
  size: number,
  maxCopies: number,
): string | null {
  if (draft.length < size)
    return `Pick ${size - draft.length} more ${size - draft.length === 1 ? "die" : "dice"}.`;
  if (draft.length > size) return `A daemon has ${size} dice: remove ${draft.length - size}.`;
  if (maxCopies > 0) {
    const counts = new Map<string, number>();
    for (const d of draft)
      counts.set(pickKey(d.breed, d.part), (counts.get(pickKey(d.breed, d.part)) ?? 0) + 1);
    const over = [...counts.entries()].find(([, n]) => n > maxCopies);
    if (over)
      return `At most ${maxCopies} of one die: you have ${over[1]} ${over[0].replace(":", " ")}.`;
  }
  return null;
}

/** Whether `done` is offered (it ends the current optional step). */
export const canFinish = (legal: DaemonAction[]) => has(legal, "done");
