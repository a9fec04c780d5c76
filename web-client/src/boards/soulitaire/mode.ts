/**
 * What the Soulitaire board is in the middle of, as one state machine: nothing, a card or the
 * top demon chosen for a foundation, a Sacrifice being guided (cards picked per symbol, the
 * symbol a card pays asked, their order, their placing), a Mimic's declaration asked, or a
 * question before a step with no undo. The last two interrupt whatever was under way and return
 * to it. Every change is a function from a mode to the next one; the board asks the rules
 * (`rules.ts`, `sacrifice.ts`) whether a step is allowed and this module only keeps where it is.
 */
import type { SoulitaireFace } from "../../protocol/soulitaire/SoulitaireFace";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import type { Dragged, Offer } from "./rules";

/** The questions asked before a step there is no undo for. */
export type Confirm =
  { kind: "discard" } | { kind: "concede" } | { kind: "bare"; foundation: number };

/** Where a guided Sacrifice stands once the demon lies on its foundation. */
export type SacrificeStep =
  /** Cards are being picked on the Spellboard, one per symbol. */
  | { kind: "picking" }
  /** The card of `column` fits several symbols still free: which one it pays. */
  | { kind: "asking"; column: number; symbols: SoulitaireSymbol[] }
  /** The picks are being put in placing order (the last becomes the new top). */
  | { kind: "ordering" };

/** What a Mimic's declaration is for: a move onto a foundation, or an offer to the demon. */
export type Declaring =
  | { kind: "move"; column: number; foundation: number }
  | { kind: "offer"; column: number; symbol: SoulitaireSymbol };

export type Mode =
  | { kind: "idle" }
  /** A card or the top demon is chosen; a foundation (a click or a drop) plays it. */
  | { kind: "chosen"; piece: Dragged }
  | { kind: "sacrificing"; picks: Offer[]; step: SacrificeStep }
  /** The picks are on their way to the server, one offer after another; the panel stays at
   * the step they were placed from. */
  | { kind: "placing"; picks: Offer[]; step: SacrificeStep }
  | {
      kind: "declaring";
      heading: string;
      faces: SoulitaireFace[];
      /** The face a hint suggested, picked in advance. */
      initial: SoulitaireFace | null;
      for: Declaring;
      resume: Mode;
    }
  | { kind: "confirming"; confirm: Confirm; resume: Mode };

export const IDLE: Mode = { kind: "idle" };

/** What the table shows under an interruption (a declaration or a question). */
export function underneath(mode: Mode): Mode {
  return mode.kind === "declaring" || mode.kind === "confirming" ? underneath(mode.resume) : mode;
}

/** The card or demon chosen, if any. */
export function chosen(mode: Mode): Dragged | null {
  const m = underneath(mode);
  return m.kind === "chosen" ? m.piece : null;
}

/** The cards picked for the Sacrifice under way, in placing order. */
export function picks(mode: Mode): Offer[] {
  const m = underneath(mode);
  return m.kind === "sacrificing" || m.kind === "placing" ? m.picks : [];
}

export function step(mode: Mode): SacrificeStep | null {
  const m = underneath(mode);
  return m.kind === "sacrificing" || m.kind === "placing" ? m.step : null;
}

function samePiece(a: Dragged, b: Dragged): boolean {
  return a.kind === "demon" ? b.kind === "demon" : b.kind === "card" && a.column === b.column;
}

/** Chooses `piece`, or puts it back when it was the one chosen. */
export function choose(mode: Mode, piece: Dragged): Mode {
  const was = chosen(mode);
  return was && samePiece(was, piece) ? IDLE : { kind: "chosen", piece };
}

/** Nothing chosen any more (a refusal, a move sent). */
export function unchoose(mode: Mode): Mode {
  return underneath(mode).kind === "chosen" ? IDLE : mode;
}

/**
 * A new position from the server. The Sacrifice steps follow the view: they begin when it
 * shows a Sacrifice under way and end when it shows none, except while the picks are being
 * placed (the offers' own positions arrive one by one). A chosen piece the position no longer
 * lets play is put back.
 */
export function follow(
  mode: Mode,
  position: { sacrificing: boolean; playable: (piece: Dragged) => boolean },
): Mode {
  if (mode.kind === "declaring" || mode.kind === "confirming") {
    return { ...mode, resume: follow(mode.resume, position) };
  }
  if (mode.kind === "placing") return mode;
  if (position.sacrificing) {
    return mode.kind === "sacrificing"
      ? mode
      : { kind: "sacrificing", picks: [], step: { kind: "picking" } };
  }
  if (mode.kind === "sacrificing") return IDLE;
  if (mode.kind === "chosen" && !position.playable(mode.piece)) return IDLE;
  return mode;
}

function inSacrifice(mode: Mode, change: (picks: Offer[], step: SacrificeStep) => Mode): Mode {
  if (mode.kind === "declaring" || mode.kind === "confirming")
    return { ...mode, resume: inSacrifice(mode.resume, change) };
  return mode.kind === "sacrificing" ? change(mode.picks, mode.step) : mode;
}

/** Asks which symbol the card of `column` pays. */
export function ask(mode: Mode, column: number, symbols: SoulitaireSymbol[]): Mode {
  return inSacrifice(mode, (picks) => ({
    kind: "sacrificing",
    picks,
    step: { kind: "asking", column, symbols },
  }));
}

/** Adds `offer` to the picks; picking again starts the order afresh. */
export function pick(mode: Mode, offer: Offer): Mode {
  return inSacrifice(mode, (picks) => ({
    kind: "sacrificing",
    picks: [...picks, offer],
    step: { kind: "picking" },
  }));
}

/** Takes back the pick of `column`; with fewer than two left there is no order to set. */
export function unpick(mode: Mode, column: number): Mode {
  return inSacrifice(mode, (picks, step) => {
    const left = picks.filter((p) => p.column !== column);
    const ordering = step.kind === "ordering" && left.length >= 2;
    return { kind: "sacrificing", picks: left, step: ordering ? step : { kind: "picking" } };
  });
}

/** Moves the pick at `index` by `by` places in the placing order. */
export function shift(mode: Mode, index: number, by: number): Mode {
  return inSacrifice(mode, (picks, step) => {
    const to = index + by;
    if (to < 0 || to >= picks.length) return { kind: "sacrificing", picks, step };
    const moved = [...picks];
    const [p] = moved.splice(index, 1);
    moved.splice(to, 0, p);
    return { kind: "sacrificing", picks: moved, step };
  });
}

/** Back to picking cards (a symbol answered, the order left). */
export function picking(mode: Mode): Mode {
  return order(mode, false);
}

/** To the placing order (`true`), or back to picking. */
export function order(mode: Mode, on: boolean): Mode {
  return inSacrifice(mode, (picks) => ({
    kind: "sacrificing",
    picks,
    step: { kind: on ? "ordering" : "picking" },
  }));
}

/** The picks go to the server; the mode holds them until every answer is in. */
export function place(mode: Mode): Mode {
  const m = underneath(mode);
  return m.kind === "sacrificing" ? { kind: "placing", picks: m.picks, step: m.step } : mode;
}

/** Asks for a Mimic's declaration, over whatever is under way. */
export function declare(
  mode: Mode,
  asked: {
    heading: string;
    faces: SoulitaireFace[];
    initial?: SoulitaireFace | null;
    for: Declaring;
  },
): Mode {
  return {
    kind: "declaring",
    heading: asked.heading,
    faces: asked.faces,
    initial: asked.initial ?? null,
    for: asked.for,
    resume: mode.kind === "declaring" ? mode.resume : mode,
  };
}

/** Asks before a step with no undo, over whatever is under way. */
export function confirm(mode: Mode, asked: Confirm): Mode {
  return {
    kind: "confirming",
    confirm: asked,
    resume: mode.kind === "confirming" ? mode.resume : mode,
  };
}

/** The question or the declaration is answered or put away: back to what it interrupted. */
export function resume(mode: Mode): Mode {
  return mode.kind === "declaring" || mode.kind === "confirming" ? mode.resume : mode;
}

/** Escape: a question, a chosen piece and the symbol asked are put away; picks stay. A
 * declaration's own dialog answers Escape itself. */
export function cancel(mode: Mode): Mode {
  if (mode.kind === "declaring") return mode;
  if (mode.kind === "confirming") return cancel(mode.resume);
  if (mode.kind === "chosen") return IDLE;
  if (mode.kind === "sacrificing" && mode.step.kind === "asking")
    return { kind: "sacrificing", picks: mode.picks, step: { kind: "picking" } };
  return mode;
}
