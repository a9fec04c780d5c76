import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "./markdown";
import { CATALOGUE } from "./catalogue";

describe("rules markdown", () => {
  it("parses bold and emphasis without HTML", () => {
    expect(parseInline("a **b** *c* <d>")).toEqual([
      { text: "a " },
      { text: "b", bold: true },
      { text: " " },
      { text: "c", em: true },
      { text: " <d>" },
    ]);
  });

  it("parses headings, paragraphs, nested lists and notes", () => {
    const blocks = parseMarkdown("## Set up\nOne\ntwo.\n\n- a\n  - a1\n- b\n> house rule");
    expect(blocks.map((b) => b.kind)).toEqual(["h2", "p", "list", "note"]);
    expect(blocks[0]).toMatchObject({ id: "set-up" });
    expect(blocks[1]).toMatchObject({ spans: [{ text: "One two." }] });
    const list = blocks[2] as Extract<(typeof blocks)[number], { kind: "list" }>;
    expect(list.items).toHaveLength(2);
    expect(list.items[0].children).toEqual([[{ text: "a1" }]]);
  });

  it("every game's rules page has a house-choices section", () => {
    expect(CATALOGUE.map((g) => g.id).sort()).toEqual([
      "daemon_dice",
      "demon_bound",
      "demon_klondike",
      "demos",
      "soulitaire",
    ]);
    for (const game of CATALOGUE) {
      const headings = parseMarkdown(game.rules)
        .filter((b) => b.kind === "h2")
        .map((b) => b.id);
      expect(headings, game.id).toContain("house-choices");
    }
  });
});
