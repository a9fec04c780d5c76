/**
 * Daemon Dice in words: the turn's steps for the stepper, what each step asks, actions for the
 * action log and replay timeline, and the decision the battle waits on (a foe's choice during
 * your turn included). Everything reads only the view or an action, and never names a die
 * picked in secret during construction.
 */
import type { SeatLabel } from "../contract";
import { seatName } from "../describe";
import type { DaemonAction } from "../../protocol/daemon_dice/DaemonAction";
import type { DaemonDiceView } from "../../protocol/daemon_dice/DaemonDiceView";
import type { Step } from "../../protocol/daemon_dice/Step";
import type { Point } from "../../protocol/daemon_dice/Point";
import type { Face } from "../../protocol/daemon_dice/Face";
import { cap, dieName, FACE_NAME } from "./dice";

/** The sequence of a turn, as the stepper shows it. */
export interface TurnStep {
  key: "activate" | "minuses" | "roll" | "recover" | "defend" | "suffer" | "attack" | "rot";
  number: string;
  title: string;
  help: string;
}

export const TURN_STEPS: TurnStep[] = [
  {
    key: "activate",
    number: "1a",
    title: "Activate",
    help: "Every die not stunned, wounded or grabbed wakes; a grabbing Tentacle may let go to join in.",
  },
  {
    key: "minuses",
    number: "1b",
    title: "Minuses",
    help: "The foe's Wings pick dice to set aside, then you set aside one die per foe minus.",
  },
  {
    key: "roll",
    number: "1c",
    title: "Roll",
    help: "The rest are rolled, in full view. Nothing left to roll: you lose.",
  },
  {
    key: "recover",
    number: "2",
    title: "Recover",
    help: "Each rolled plus recovers one stunned die; both are spent this turn.",
  },
  {
    key: "defend",
    number: "3a",
    title: "Defend",
    help: "Match blocks, deflects, dodges and pluses against the foe's attacks.",
  },
  {
    key: "suffer",
    number: "3b",
    title: "Suffer",
    help: "Undefended damage lands on dice that are neither stunned nor wounded.",
  },
  {
    key: "attack",
    number: "4",
    title: "Attack",
    help: "Grab with Tentacles, set minuses aside and array your attacks, boosted by pluses.",
  },
  {
    key: "rot",
    number: "",
    title: "Rot",
    help: "A Rot purebred rots a stunned die of its target into a wound.",
  },
];

/** Where a step sits in the stepper (null outside a turn). */
export function stepKey(step: Step): TurnStep["key"] | null {
  switch (step.step) {
    case "release":
      return "activate";
    case "target_minus":
    case "set_aside":
      return "minuses";
    case "recover":
      return "recover";
    case "defend":
      return "defend";
    case "mouth_recover":
    case "suffer":
      return "suffer";
    case "target":
    case "attack":
      return "attack";
    case "rot":
      return "rot";
    default:
      return null;
  }
}

const die = (n: number) => `die ${n + 1}`;
const attack = (n: number) => `attack ${n + 1}`;

export function describeAction(action: DaemonAction, seat: number, seats: SeatLabel[]): string {
  const who = seatName(seat, seats);
  switch (action.type) {
    case "pick":
      // Picks are secret until every daemon is revealed.
      return `${who} adds a die to their daemon`;
    case "ready":
      // A declared breed stays as secret as the picks.
      return `${who}'s daemon is ready`;
    case "release":
      return `${who} activates the Tentacle (${die(action.die)}), releasing its grab`;
    case "target_minus":
      return `${who}'s Wings set aside ${die(action.die)} of the active daemon`;
    case "set_aside":
      return `${who} sets aside ${die(action.die)} for a minus`;
    case "recover":
      return `${who} recovers ${die(action.die)}`;
    case "defend":
      return `${who} defends ${attack(action.attack)} with ${die(action.die)}`;
    case "mouth_recover":
      return `${who}'s Mouth recovers their ${die(action.die)}`;
    case "suffer":
      return `${who} places damage on ${die(action.die)} of the active daemon`;
    case "target":
      return `${who} targets ${seatName(action.seat, seats)}`;
    case "grab":
      return `${who}'s Tentacle (${die(action.tentacle)}) grabs the target's ${die(action.die)}`;
    case "boost":
      return `${who} boosts ${attack(action.attack)} with a plus`;
    case "spike":
      return `${who} adds a Spike to ${attack(action.attack)}`;
    case "brain":
      return `${who} pairs a Brain with ${attack(action.attack)}`;
    case "poison":
      return `${who}'s Stinger (${attack(action.attack)}) will inject poison`;
    case "rot":
      return `${who} rots the target's ${die(action.die)} into a wound`;
    case "name_next":
      return `${who}'s defeated daemon names ${seatName(action.seat, seats)} to take the next turn`;
    case "done":
      return `${who} ends the step`;
  }
}

/**
 * What stops an attack, in plain words: one die of a suitable kind (a Block or a Deflect; a
 * Dodge or a Deflect against a ray or a sweep) for an attack without boosts, and one more die
 * for each boost, either more of that kind or Pluses.
 */
export function defenceNeed(face: Face, boosts: number): string {
  const kinds = face === "eye" || face === "tail" ? "Dodge or Deflect" : "Block or Deflect";
  if (boosts === 0) return `Stopped by one ${kinds}`;
  const more =
    boosts === 1
      ? "one more of the same kind or a Plus"
      : `${boosts} more of the same kind or Pluses`;
  return `Stopped by ${boosts + 1} dice: a ${kinds} and ${more}`;
}

/** A point of damage in words. */
export function pointWords(point: Point): string {
  return `${point.damage === "stun" ? "a stun" : "a wound"}${point.targeted ? " (Brain-targeted)" : ""} from ${attack(point.attack)}`;
}

/** The foe's decision during the active daemon's turn, or the defeated daemon's. */
export function pendingDecision(view: DaemonDiceView, seats: SeatLabel[]): string | null {
  const active = view.active;
  const deciding = view.to_act[0] ?? null;
  if (active === null || deciding === null) {
    if (view.step.step === "construction") {
      const left = view.daemons.filter((d) => !d.ready).length;
      return left
        ? `${left} ${left === 1 ? "daemon is" : "daemons are"} still being built in secret`
        : null;
    }
    return null;
  }
  const victim = seatName(active, seats);
  const foe = seatName(deciding, seats);
  switch (view.step.step) {
    case "target_minus":
      return `${foe} chooses which of ${victim}'s dice the Wings set aside (${view.step.left} left)`;
    case "mouth_recover":
      return `${foe}'s undefended Mouth recovers one of their stunned dice`;
    case "suffer":
      return deciding !== active
        ? `${foe} places the Brain-targeted damage on ${victim}'s dice`
        : `${victim} places ${pointWords(view.step.points[0])}`;
    case "name_next":
      return `${victim}'s defeated daemon names who takes the next turn`;
    case "target":
      return `${victim} chooses the daemon to attack this turn`;
    default:
      return null;
  }
}

/** The prompt title for whoever must decide now. */
export function promptTitle(step: Step, yours: boolean): string {
  switch (step.step) {
    case "construction":
      return yours ? "Build your daemon" : "The daemons are being built";
    case "release":
      return "Activate: release a grab?";
    case "target_minus":
      return yours
        ? `Your Wings: set aside a foe's die (${step.left} left)`
        : "The foe's Wings pick your dice";
    case "set_aside":
      return yours
        ? `Minuses: set aside ${step.left} ${step.left === 1 ? "die" : "dice"}`
        : "Minuses";
    case "recover":
      return "Recover stunned dice";
    case "defend":
      return "Defend against the arrayed attacks";
    case "mouth_recover":
      return yours ? `Your Mouth recovers a stunned die (${step.left} left)` : "The foe's Mouth";
    case "suffer":
      return yours ? `Suffer: place ${pointWords(step.points[0])}` : "Damage is being placed";
    case "target":
      return "Choose your target";
    case "attack":
      return "Attack: array against your target";
    case "rot":
      return `Rot a stunned die of your target (${step.left} left)`;
    case "name_next":
      return "Your daemon is defeated: name who plays next";
    case "over":
      return "The battle is over";
  }
}

/** What each one-die decision means, for the prompt. */
export const DIE_HELP: Record<string, string> = {
  release: "Click a grabbing Tentacle to activate it (it lets go and rolls), or keep your grabs.",
  target_minus: "Click a die of the active daemon: it is set aside and not rolled this turn.",
  set_aside:
    "Click one of your active dice: it is set aside, not rolled, but can still take damage.",
  recover:
    "Click a stunned die: a plus (or a mongrel's stamina) recovers it. Both are spent this turn.",
  mouth_recover: "Click one of your stunned dice: your undefended Mouth recovers it.",
  suffer:
    "Click (or drag the damage onto) a die that is neither stunned nor wounded. Spent, minus-ed and grabbed dice may take it; damage on a grabbed die ends the grab.",
  rot: "Click a stunned die of your target to rot it into a wound.",
};

export const DONE_LABEL: Partial<Record<Step["step"], string>> = {
  release: "Keep my grabs",
  recover: "Stop recovering",
  defend: "Done defending",
  attack: "End my turn",
  rot: "No more rot",
};

/** A die of a daemon in words ("Ada's Frost Pincer"). */
export function dieWords(
  view: DaemonDiceView,
  seat: number,
  index: number,
  seats: SeatLabel[],
): string {
  const d = view.daemons[seat]?.dice[index];
  if (!d) return `${seatName(seat, seats)}'s ${die(index)}`;
  return `${seatName(seat, seats)}'s ${dieName(d)}${d.face ? ` (${FACE_NAME[d.face]})` : ""}`;
}

export function outcomeWords(view: DaemonDiceView, seats: SeatLabel[]): string | null {
  if (view.step.step !== "over") return null;
  const standing = view.daemons
    .map((d, i) => (d.defeated ? null : i))
    .filter((s): s is number => s !== null);
  if (standing.length === 1)
    return `${seatName(standing[0], seats)}'s daemon is the last one standing.`;
  return `The turn limit ends the battle with ${standing.length} daemons standing: ${standing.map((s) => seatName(s, seats)).join(", ")}.`;
}

export { cap };
