/**
 * Daemon Dice pieces in words and colours: breeds, body parts, faces, what each face does,
 * the six faces of a die (from the view's house table), how a daemon's dice sort into the
 * zones of the play-mat, and what a daemon is from its dice (the engine's `classify`, so the
 * builder can say it before the reveal).
 */
import type { Breed } from "../../protocol/daemon_dice/Breed";
import type { DaemonDiceView } from "../../protocol/daemon_dice/DaemonDiceView";
import type { Die } from "../../protocol/daemon_dice/Die";
import type { DieView } from "../../protocol/daemon_dice/DieView";
import type { Face } from "../../protocol/daemon_dice/Face";
import type { Lineage } from "../../protocol/daemon_dice/Lineage";
import type { Part } from "../../protocol/daemon_dice/Part";

export const BREEDS: Breed[] = [
  "blood",
  "death",
  "fester",
  "fire",
  "frost",
  "rot",
  "stench",
  "wraith",
];
export const PARTS: Part[] = [
  "arm",
  "brain",
  "eye",
  "leg",
  "lungs",
  "mouth",
  "pincer",
  "shell",
  "spike",
  "stinger",
  "tail",
  "tentacle",
  "wings",
];

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The colours dice are drawn in: the breed's plastic (flesh) and ink (blood). Frost, Rot and
 * Fire are the printed colours; the rest are the house set's (see the engine's `data`). */
export const COLOURS: Record<Breed, { plastic: string; ink: string; words: string }> = {
  blood: { plastic: "#9e1b26", ink: "#141014", words: "red with black ink" },
  death: { plastic: "#ece7dc", ink: "#141014", words: "white with black ink" },
  fester: { plastic: "#3f7a3a", ink: "#ff5a52", words: "green with red ink" },
  fire: { plastic: "#c8321e", ink: "#ffd84a", words: "red with yellow ink" },
  frost: { plastic: "#2b5fb8", ink: "#ffd84a", words: "blue with yellow ink" },
  rot: { plastic: "#1d1b22", ink: "#ff4a4f", words: "black with red ink" },
  stench: { plastic: "#6b4a2b", ink: "#8fe36a", words: "brown with green ink" },
  wraith: { plastic: "#7d8290", ink: "#ffffff", words: "grey with white ink" },
};

/** The breeds' powers, as the rules give them (the others have none in the rulebook). */
export const POWER: Partial<Record<Breed, string>> = {
  fire: "one stun a turn of its undefended attacks becomes a wound",
  frost: "one wound a turn it suffers becomes a stun",
  rot: "after its turn it rots one stunned die of its target into a wound",
};

/** The short label drawn on a die for each face. */
export const FACE_LABEL: Record<Face, string> = {
  block: "Block",
  deflect: "Deflect",
  dodge: "Dodge",
  minus: "−",
  plus: "+",
  stun: "Stun",
  wound: "Wound",
  arm: "Arm",
  brain: "Brain",
  eye: "Eye",
  leg: "Leg",
  lungs: "Lungs",
  mouth: "Mouth",
  pincer: "Pincer",
  shell: "Shell",
  spike: "Spike",
  stinger: "Stinger",
  tail: "Tail",
  tentacle: "Tentacle",
  wings: "Wings",
};

export const FACE_NAME: Record<Face, string> = { ...FACE_LABEL, minus: "Minus", plus: "Plus" };

/** What a face does, in a few words (the house reading of the rulebook). */
export const FACE_EFFECT: Record<Face, string> = {
  block: "defends a normal attack",
  deflect: "defends any attack",
  dodge: "defends a ray or a sweep",
  minus: "sets aside one of the foe's dice next turn",
  plus: "recovers a stunned die, boosts an attack or a defence",
  stun: "1 stun",
  wound: "1 wound",
  arm: "1 stun, or a deflect",
  brain: "you place one attack's damage",
  eye: "ray: 1 stun, each plus is 2 boosts, cannot be blocked",
  leg: "2 stuns",
  lungs: "gas: 2 minuses",
  mouth: "1 stun; undefended, you recover a stunned die",
  pincer: "1 wound",
  shell: "a deflect",
  spike: "adds 1 wound to an attack",
  stinger: "1 stun; may inject poison (+1 wound, the Stinger is stunned)",
  tail: "sweep: 2 stuns, cannot be blocked",
  tentacle: "grabs a foe's die",
  wings: "you choose a die of the foe to set aside; 1 initiative",
};

/** The six faces of a body part's die, from the server's house table. */
export function facesOf(view: Pick<DaemonDiceView, "faces">, part: Part): Face[] {
  return (
    view.faces.find(([p]) => p === part)?.[1] ?? [part, "stun", "block", "dodge", "plus", "minus"]
  );
}

/** The labels and showing index the shared `Die` piece draws: the rolled face, or the die's
 * body part (what the die is) while it shows nothing. */
export function dieFaces(
  view: Pick<DaemonDiceView, "faces">,
  part: Part,
  face: Face | null | undefined,
) {
  const faces = facesOf(view, part);
  const index = faces.indexOf(face ?? part);
  return {
    labels: faces.map((f) => FACE_LABEL[f]),
    value: index >= 0 ? index : null,
  };
}

export function dieName(die: { breed: Breed; part: Part }): string {
  return `${cap(die.breed)} ${cap(die.part)}`;
}

/** The play-mat's zones. */
export type MatZone = "active" | "minused" | "spent" | "stunned" | "wounded" | "grabbed";

export const ZONE_TITLE: Record<MatZone, string> = {
  active: "Active",
  minused: "Minus-ed",
  spent: "Spent",
  stunned: "Stunned",
  wounded: "Wounded",
  grabbed: "Grabbed",
};

export const ZONE_HELP: Record<MatZone, string> = {
  active: "ready to roll, rolled, or waiting for its turn",
  minused: "set aside by a foe's minus: not rolled this turn, can still take damage",
  spent: "used this turn: recovered, a recovering plus, a defence, or arrayed against the foe",
  stunned: "a plus can recover it; it cannot roll",
  wounded: "out of the battle for good",
  grabbed: "held by a foe's Tentacle: cannot roll; damage on it ends the grab",
};

/** The zone of the play-mat a die sits in: health first, then a grab, then the turn's zone. */
export function matZone(die: DieView): MatZone {
  if (die.health === "wounded") return "wounded";
  if (die.health === "stunned") return "stunned";
  if (die.grabbed_by) return "grabbed";
  if (die.zone === "minused") return "minused";
  if (die.zone === "spent" || die.zone === "arrayed") return "spent";
  return "active";
}

function count(dice: Die[], breed: Breed): number {
  return dice.filter((d) => d.breed === breed).length;
}

/** The two breeds an exact half-and-half daemon must choose between, if it is one. */
export function declarationNeeded(dice: Die[]): [Breed, Breed] | null {
  const n = dice.length;
  if (n % 2 !== 0) return null;
  const halves = BREEDS.filter((b) => count(dice, b) * 2 === n);
  return halves.length === 2 ? [halves[0], halves[1]] : null;
}

/** What a daemon is from its dice (the engine's classification). */
export function classify(dice: Die[], declared: Breed | null = null): Lineage {
  const n = dice.length;
  if (n > 0 && count(dice, dice[0].breed) === n) return { type: "purebred", breed: dice[0].breed };
  const pair = declarationNeeded(dice);
  if (pair)
    return { type: "half_breed", breed: declared && pair.includes(declared) ? declared : pair[0] };
  const half = BREEDS.find((b) => count(dice, b) > 0 && count(dice, b) * 2 >= n);
  if (half) return { type: "half_breed", breed: half };
  const alike = dice.some((a, i) =>
    dice.slice(0, i).some((b) => a.breed === b.breed && a.part === b.part),
  );
  return alike ? { type: "crossbred" } : { type: "mongrel" };
}

export function lineageWords(lineage: Lineage): string {
  switch (lineage.type) {
    case "purebred":
      return `${cap(lineage.breed)} purebred`;
    case "half_breed":
      return `${cap(lineage.breed)} half-breed`;
    case "mongrel":
      return "Mongrel";
    case "crossbred":
      return "Crossbred";
  }
}

/** What a lineage gives, in a sentence. */
export function lineagePower(lineage: Lineage): string {
  switch (lineage.type) {
    case "purebred": {
      const power = POWER[lineage.breed];
      return `Immune to ${cap(lineage.breed)} rays, gas and poison${power ? `; ${power}` : ""}.`;
    }
    case "half_breed":
      return `Immune to rays, gas and poison from dice sharing ${COLOURS[lineage.breed].words.replace(" with ", " plastic or ")}.`;
    case "mongrel":
      return "No two dice alike: recovers one stunned die a turn for free.";
    case "crossbred":
      return "Repeated dice of mixed breeds: no power.";
  }
}
