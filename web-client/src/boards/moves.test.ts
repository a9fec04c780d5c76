import { describe, expect, it } from "vitest";
import type { ReplayFrame } from "../protocol/ReplayFrame";
import type { LogEntry, SeatLabel } from "./contract";
import { replayMoves } from "./moves";

const seats: SeatLabel[] = [
  { seat: 0, name: "Alice", kind: "person", team: null },
  { seat: 1, name: "Bob", kind: "person", team: null },
];

// A tiny game whose view carries its own public log, as DēmoS's does.
type View = { log: LogEntry[] };
const module = {
  describeAction: (action: unknown, seat: number) =>
    `${seats[seat].name} asks for ${(action as { wants: string }).wants}`,
  log: (view: unknown) => (view as View).log,
};

function frame(action: ReplayFrame["action"], log: LogEntry[]): ReplayFrame {
  return { action, view: { log } };
}

describe("replay move list", () => {
  const frames: ReplayFrame[] = [
    frame(null, []),
    // Bob commits a secret choice: nothing changes in a seat's or spectator's view.
    frame({ seat: 1, action: { wants: "6♣" }, by: "player" }, []),
    // Alice's commit applies both: the view says Bob got the 6♣ and Alice the pack's top card.
    frame({ seat: 0, action: { wants: "6♣" }, by: "player" }, [
      { id: "b", seat: 1, text: "Bob takes the 6♣" },
      {
        id: "a",
        seat: 0,
        text: "Alice asks for the 6♣ but it was taken first: takes from the pack",
      },
    ]),
  ];

  it("tells what the view gained, not what a player asked for", () => {
    const moves = replayMoves(frames, module, seats, false);
    expect(moves[1].text).toBe(
      "Bob takes the 6♣ · Alice asks for the 6♣ but it was taken first: takes from the pack",
    );
    expect(moves.map((m) => m.text).join("\n")).not.toMatch(/Alice asks for 6♣$/m);
  });

  it("does not name a secret choice the point of view cannot see", () => {
    const moves = replayMoves(frames, module, seats, false);
    expect(moves[0].text).toBe("Bob makes a choice not shown from this point of view");
    expect(moves[0].text).not.toContain("6♣");
  });

  it("names the choice itself when everything is revealed", () => {
    expect(replayMoves(frames, module, seats, true)[0].text).toBe("Bob asks for 6♣");
  });

  it("counts a line whose words changed (a secret discard revealed) as new", () => {
    const revealing: ReplayFrame[] = [
      frame(null, [{ id: "t", seat: 1, text: "Bob discards a card face down" }]),
      frame({ seat: 0, action: {}, by: "bot" }, [
        { id: "t", seat: 1, text: "Bob discards the 9♠ (now revealed)" },
      ]),
    ];
    expect(replayMoves(revealing, module, seats, false)[0].text).toBe(
      "Bob discards the 9♠ (now revealed) (bot)",
    );
  });

  it("falls back on the board's words for games without a log", () => {
    const moves = replayMoves(frames, { describeAction: module.describeAction }, seats, false);
    expect(moves[0].text).toBe("Bob asks for 6♣");
  });
});
