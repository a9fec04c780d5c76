import { describe, expect, it } from "vitest";
import type { GameInfo } from "../protocol/GameInfo";
import { changedOptions, defaultOptions, lobbyGames, optionValueLabel } from "./games";

const demos: GameInfo = {
  id: "demos",
  name: "DēmoS",
  min_seats: 3,
  max_seats: 5,
  description: "Server pitch",
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
          { value: "complete", label: "Complete" },
          { value: "simplified", label: "Simplified" },
        ],
      },
      default: "complete",
    },
    // As the real server describes it: unset means "the game decides" (12 or 14 rounds).
    {
      key: "round_cap",
      label: "Rounds",
      help: "",
      kind: { type: "int", min: 1, max: 20 },
      default: null,
    },
    {
      key: "suggestion",
      label: "Creator's Suggestion",
      help: "",
      kind: { type: "bool" },
      default: false,
    },
  ],
};

describe("lobby games", () => {
  it("lists all five games, playable only where the server hosts them", () => {
    const list = lobbyGames([demos]);
    expect(list).toHaveLength(5);
    expect(list.filter((g) => g.info).map((g) => g.id)).toEqual(["demos"]);
    expect(list.find((g) => g.id === "demos")?.pitch).toBe("Server pitch");
  });

  it("adds games the catalogue does not know", () => {
    const list = lobbyGames([{ ...demos, id: "newgame", name: "New" }]);
    expect(list.map((g) => g.id)).toContain("newgame");
  });

  it("starts from the defaults and shows only changed options", () => {
    const values = defaultOptions(demos.options);
    expect(values).toEqual({ mode: "complete", round_cap: null, suggestion: false });
    expect(optionValueLabel(demos.options[1], null)).toBe("game default");
    values.mode = "simplified";
    const changed = changedOptions(demos.options, values);
    expect(changed.map((o) => o.key)).toEqual(["mode"]);
    expect(optionValueLabel(changed[0], values.mode)).toBe("Simplified");
  });
});
