import { describe, expect, it } from "vitest";
import type { GameInfo } from "../protocol/GameInfo";
import { CATALOGUE } from "../protocol/catalogue";
import { RULES_PAGES } from "../protocol/rulesPages";
import { changedOptions, defaultOptions, lobbyGames, optionValueLabel, scoreUnit } from "./games";

const demos: GameInfo = {
  id: "demos",
  name: "DēmoS",
  short_name: "DēmoS",
  min_seats: 3,
  max_seats: 5,
  description: "Server pitch",
  teams: true,
  real_time: false,
  score_unit: "cumulative points from the rounds",
  glyph: "⚖",
  hue: 205,
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
  it("lists every game of the registry, playable only where the server hosts them", () => {
    const list = lobbyGames([demos]);
    expect(list.map((g) => g.id)).toEqual(CATALOGUE.map((g) => g.id));
    expect(list.filter((g) => g.info).map((g) => g.id)).toEqual(["demos"]);
    expect(list.find((g) => g.id === "demos")?.pitch).toBe("Server pitch");
    expect(list.every((g) => g.hasRules)).toBe(true);
  });

  it("adds a game the catalogue does not know, drawn from what the server says of it", () => {
    const race = {
      ...demos,
      id: "race",
      name: "Race",
      glyph: "➹",
      hue: 150,
      teams: false,
      score_unit: "moves made",
    };
    const list = lobbyGames([race]);
    expect(list.at(-1)).toMatchObject({
      id: "race",
      glyph: "➹",
      hue: 150,
      teams: false,
      hasRules: false,
    });
    expect(scoreUnit("race", [race])).toBe("moves made");
  });

  it("says Soulitaire's score is the demons left, more of them a better title", () => {
    // soulitaire.md: "The score is the number of demons left in the pile", 0 Wanderer of the
    // Realms up to 4+ Master of the Realm.
    expect(scoreUnit("soulitaire")).toMatch(/demons left/);
    expect(scoreUnit("soulitaire")).toMatch(/more is a better title/);
    expect(scoreUnit("soulitaire")).not.toMatch(/fewer/);
    expect(RULES_PAGES.soulitaire).toContain("4 or more: Master of the Realm");
  });

  it("gives a variant the score unit of the game it plays", () => {
    const rigged = { ...demos, id: "demos_rigged", board: "demos", score_unit: "" };
    expect(scoreUnit("demos_rigged", [rigged])).toBe("cumulative points from the rounds");
    expect(scoreUnit("nothing")).toBe("the game's own score");
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
