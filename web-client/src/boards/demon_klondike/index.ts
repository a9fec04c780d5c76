/**
 * The Demon board module: the component and the game in words. Demon is played in real time,
 * so the board acts the moment a card is dropped, double-clicked or clicked onto a target;
 * a move that lost a race snaps back with the reason.
 */
import type { BoardModule } from "../contract";
import type { DemonAction } from "../../protocol/demon_klondike/DemonAction";
import type { DemonView } from "../../protocol/demon_klondike/DemonView";
import DemonBoard from "./DemonBoard.svelte";
import { describeAction, pendingDecision, ruleClock } from "./words";

export const board: BoardModule<DemonView, DemonAction> = {
  component: DemonBoard,
  describeAction,
  pendingDecision,
  ruleClock,
};
