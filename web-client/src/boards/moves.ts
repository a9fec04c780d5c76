/**
 * The move list of a replay, told from the same filtered view as the board: each move is what
 * the viewer's log gained with it ("Bo discards a card face down, takes the 6♣"), never the raw
 * action, which says what a player asked for (not what they got) and names secret cards the
 * viewer may not see. A move that changed nothing the viewer can read is said to be hidden;
 * only the everything-revealed point of view falls back on the action itself.
 */
import type { ReplayFrame } from "../protocol/ReplayFrame";
import type { BoardModule, LogEntry, SeatLabel } from "./contract";
import { describeWith, seatName } from "./describe";

function by(frame: ReplayFrame): string {
  return frame.action?.by === "bot" ? " (bot)" : frame.action?.by === "timeout" ? " (clock)" : "";
}

/** Log lines of `next` that `previous` did not hold, or held with other words. */
export function newLines(previous: LogEntry[], next: LogEntry[]): LogEntry[] {
  const before = new Map(previous.map((e) => [String(e.id), e.text]));
  return next.filter((e) => before.get(String(e.id)) !== e.text);
}

export function replayMoves(
  frames: ReplayFrame[],
  module: Pick<BoardModule, "describeAction" | "log"> | null,
  seats: SeatLabel[],
  revealed: boolean,
): LogEntry[] {
  const logOf = module?.log;
  const logs = logOf ? frames.map((f) => logOf(f.view, seats)) : [];
  return frames.slice(1).map((frame, i) => {
    const action = frame.action;
    const seat = action?.seat ?? null;
    let text: string;
    if (!action) text = "—";
    else if (logOf) {
      const lines = newLines(logs[i], logs[i + 1]).map((e) => e.text);
      if (lines.length) text = lines.join(" · ");
      else if (revealed)
        text = describeWith(module?.describeAction, action.action, action.seat, seats);
      else
        text = `${seatName(action.seat, seats)} makes a choice not shown from this point of view`;
    } else text = describeWith(module?.describeAction, action.action, action.seat, seats);
    return { id: i, seat, text: text + by(frame) };
  });
}
