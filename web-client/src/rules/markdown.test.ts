import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, tableOfContents, type List } from "./markdown";
import { CATALOGUE } from "./catalogue";
import { CATALOGUE as REGISTRY } from "../protocol/catalogue";
import { RULES_PAGES } from "../protocol/rulesPages";
import { RULE_NAMES } from "../protocol/ruleNames";

function listOf(blocks: ReturnType<typeof parseMarkdown>, at: number): List {
  const block = blocks[at];
  if (block.kind !== "list") throw new Error(`block ${at} is a ${block.kind}`);
  return block.list;
}

describe("rules markdown", () => {
  it("parses bold, emphasis and code without HTML", () => {
    expect(parseInline("a **b** *c* `d` <e>")).toEqual([
      { text: "a " },
      { text: "b", bold: true },
      { text: " " },
      { text: "c", em: true },
      { text: " " },
      { text: "d", code: true },
      { text: " <e>" },
    ]);
  });

  it("parses headings, paragraphs, nested lists and notes, and leaves out the title", () => {
    const blocks = parseMarkdown(
      "# Title\n\n## Set up\nOne\ntwo.\n\n- a\n  - a1\n- b\n> house rule\n---",
    );
    expect(blocks.map((b) => b.kind)).toEqual(["h2", "p", "list", "note"]);
    expect(blocks[0]).toMatchObject({ id: "set-up" });
    expect(blocks[1]).toMatchObject({ spans: [{ text: "One two." }] });
    const list = listOf(blocks, 2);
    expect(list.ordered).toBe(false);
    expect(list.items).toHaveLength(2);
    expect(list.items[0].lists[0].items[0].spans).toEqual([{ text: "a1" }]);
  });

  it("numbers ordered lists from where they start and nests bullets under their items", () => {
    const blocks = parseMarkdown(
      "2. **Two.** more\n   * under two\n     * deeper\n     still deeper\n3. Three\n\n* apart",
    );
    const numbered = listOf(blocks, 0);
    expect(numbered).toMatchObject({ ordered: true, start: 2 });
    expect(numbered.items.map((i) => i.spans.map((s) => s.text).join(""))).toEqual([
      "Two. more",
      "Three",
    ]);
    const under = numbered.items[0].lists[0];
    expect(under.ordered).toBe(false);
    expect(under.items[0].lists[0].items[0].spans.map((s) => s.text).join("")).toBe(
      "deeper still deeper",
    );
    expect(listOf(blocks, 1).items).toHaveLength(1);
  });
});

describe("the rules pages", () => {
  it("come from the registry: one page per game, in the catalogue's order", () => {
    expect(CATALOGUE.map((g) => g.id)).toEqual(REGISTRY.map((g) => g.id));
    expect(Object.keys(RULES_PAGES)).toEqual(REGISTRY.map((g) => g.id));
    expect(Object.keys(RULE_NAMES)).toEqual(REGISTRY.map((g) => g.id));
  });

  it("each has its house choices and the rules in full, whose proposals are numbered", () => {
    for (const game of CATALOGUE) {
      const blocks = parseMarkdown(game.rules);
      const headings = tableOfContents(blocks).map((h) => h.id);
      expect(headings, game.id).toContain("house-choices");
      expect(headings, game.id).toContain("the-rules-in-full");
      const numbered = blocks.filter((b) => b.kind === "list" && b.list.ordered);
      expect(numbered.length, game.id).toBeGreaterThan(0);
    }
  });
});

describe("rule names", () => {
  it("are the game's own, as the registry lists them", async () => {
    const { ruleOf } = await import("./ruleNames");
    expect(ruleOf("demon_klondike", "foundation_moved")).toBe("foundation_moved");
    expect(ruleOf("demon_klondike", "not_adjacent")).toBeNull();
    expect(ruleOf("soulitaire", "not_adjacent")).toBe("not_adjacent");
    expect(ruleOf("demos", null)).toBeNull();
  });
});
