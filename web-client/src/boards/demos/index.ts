/** The DēmoS board module: the component and the game in words. */
import type { BoardModule } from "../contract";
import type { DemosAction } from "../../protocol/demos/DemosAction";
import type { DemosView } from "../../protocol/demos/DemosView";
import DemosBoard from "./DemosBoard.svelte";
import { describeAction, log, pendingDecision } from "./words";

export const board: BoardModule<DemosView, DemosAction> = {
  component: DemosBoard,
  describeAction,
  pendingDecision,
  log,
};
