import { describe, expect, it } from "vitest";
import type { GameInfo } from "../protocol/GameInfo";
import type { SeatInfo } from "../protocol/SeatInfo";
import { optionFacts, roomTeams, seconds, spokenDuration } from "./roomFacts";

const demos: GameInfo = {
  id: "demos",
  name: "DēmoS",
  min_seats: 3,
  max_seats: 5,
  description: "",
  short_name: "",
  score_unit: "",
  glyph: "",
  hue: 0,
  teams: true,
  real_time: false,
  options: [
    {
      key: "mode",
      label: "Mode",
      help: "",
      kind: {
        type: "choice",
        values: [
          { value: "simplified", label: "Simplified (3-5 players)" },
          { value: "team_2v2", label: "2 vs 2 (4 players)" },
        ],
      },
      default: "complete",
    },
    {
      key: "seating",
      label: "Team seating",
      help: "",
      kind: {
        type: "choice",
        values: [
          { value: "chosen", label: "Chosen by the host" },
          { value: "drawn", label: "Drawn by lot" },
        ],
      },
      default: "chosen",
    },
  ],
};

const seat = (n: number, team: number | null): SeatInfo => ({
  seat: n,
  player: null,
  presence: "empty",
  ready: false,
  team,
  away_ms: null,
  pace: null,
});

describe("room facts", () => {
  it("a table without teams says nothing about teams", () => {
    const room = { seats: [seat(0, null), seat(1, null), seat(2, null)], options: {} };
    expect(roomTeams(demos, room)).toBeNull();
    const facts = optionFacts(demos, { mode: "simplified" }, false);
    expect(facts.map((f) => f.label)).toEqual(["Mode"]);
  });

  it("a team table shows its teams by seat, or says they are drawn at the start", () => {
    const chosen = { seats: [0, 1, 0, 1].map((t, i) => seat(i, t)), options: {} };
    expect(roomTeams(demos, chosen)).toBe("shown");
    const drawn = {
      seats: [0, 1, 2, 3].map((i) => seat(i, null)),
      options: { mode: "team_2v2", seating: "drawn" },
    };
    expect(roomTeams(demos, drawn)).toBe("drawn");
    expect(optionFacts(demos, drawn.options, true).map((f) => f.value)).toEqual([
      "2 vs 2 (4 players)",
      "Drawn by lot",
    ]);
  });

  it("says a Daemon Dice copy limit of 0 as no limit, and any other limit as its number", () => {
    const daemonDice: GameInfo = {
      ...demos,
      id: "daemon_dice",
      teams: false,
      options: [
        {
          key: "max_copies",
          label: "Copies of one die",
          help: "",
          kind: { type: "int", min: 0, max: 39 },
          default: 0,
        },
      ],
    };
    expect(optionFacts(daemonDice, { max_copies: 0 })[0].value).toBe("No limit");
    expect(optionFacts(daemonDice, { max_copies: 2 })[0].value).toBe("2");
    expect(
      optionFacts(
        { ...daemonDice, id: "daemon_dice_rigged", board: "daemon_dice" },
        { max_copies: 0 },
      )[0].value,
    ).toBe("No limit");
  });

  it("says durations in minutes and seconds", () => {
    expect(seconds(45)).toBe("45 s");
    expect(seconds(60)).toBe("1 min");
    expect(seconds(90)).toBe("1 min 30 s");
  });

  it("says a duration aloud with singular and plural units", () => {
    expect(spokenDuration(1)).toBe("1 second");
    expect(spokenDuration(45)).toBe("45 seconds");
    expect(spokenDuration(60)).toBe("1 minute");
    expect(spokenDuration(61)).toBe("1 minute 1 second");
    expect(spokenDuration(125)).toBe("2 minutes 5 seconds");
  });
});
