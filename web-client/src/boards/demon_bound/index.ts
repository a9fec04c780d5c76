/** The Demon Bound! board module: the component and the game in words. */
import type { BoardModule } from "../contract";
import type { DemonBoundAction } from "../../protocol/demon_bound/DemonBoundAction";
import type { DemonBoundView } from "../../protocol/demon_bound/DemonBoundView";
import DemonBoundBoard from "./DemonBoundBoard.svelte";
import { describeAction, log, pendingDecision } from "./words";

export const board: BoardModule<DemonBoundView, DemonBoundAction> = {
  component: DemonBoundBoard,
  describeAction,
  pendingDecision,
  log,
};
