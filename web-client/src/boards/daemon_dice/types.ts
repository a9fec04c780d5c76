/** What the board offers on one die now, for the panels that draw it. */
import type { DropTargetOptions } from "../../pieces/dnd";

export interface DieInteraction {
  onclick?: (() => void) | null;
  selected?: boolean;
  eligible?: boolean;
  drag?: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a drop target takes what its own drag sources carry
  drop?: DropTargetOptions<any> | null;
  label?: string | null;
}

/** What the board offers on an attack now (a defence, a boost, a Spike or a Brain). */
export interface AttackOffer {
  onclick: () => void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a drop target takes what its own drag sources carry
  drop: DropTargetOptions<any>;
  label: string;
  /** A source is selected that this attack accepts: the button sends. */
  ready: boolean;
}

/** What is being dragged or was clicked first. */
export type Source =
  | { kind: "defend"; die: number }
  | { kind: "boost" | "spike" | "brain"; die: number }
  | { kind: "grab"; die: number }
  | { kind: "damage" };
