/** The Daemon Dice board module: the component and the game in words. */
import type { BoardModule } from "../contract";
import type { DaemonAction } from "../../protocol/daemon_dice/DaemonAction";
import type { DaemonDiceView } from "../../protocol/daemon_dice/DaemonDiceView";
import DaemonDiceBoard from "./DaemonDiceBoard.svelte";
import { describeAction, pendingDecision } from "./words";

export const board: BoardModule<DaemonDiceView, DaemonAction> = {
  component: DaemonDiceBoard,
  describeAction,
  pendingDecision,
};
