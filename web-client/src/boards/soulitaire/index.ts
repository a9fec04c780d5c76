/**
 * The Soulitaire board module: the component and the game in words.
 *
 * The hint button asks the server (the protocol's `hint` message, answered by the engine's
 * solver from this seat's view) and falls back on a small heuristic of the board's own
 * (`rules.ts`) when it cannot be asked.
 */
import type { BoardModule } from "../contract";
import type { SoulitaireAction } from "../../protocol/soulitaire/SoulitaireAction";
import type { SoulitaireView } from "../../protocol/soulitaire/SoulitaireView";
import SoulitaireBoard from "./SoulitaireBoard.svelte";
import { describeAction, pendingDecision } from "./words";

export const board: BoardModule<SoulitaireView, SoulitaireAction> = {
  component: SoulitaireBoard,
  describeAction,
  pendingDecision,
};
