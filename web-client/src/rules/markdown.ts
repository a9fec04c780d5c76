/**
 * The Markdown subset the rules pages (`games/<game>/RULES.md`) are written in, parsed into
 * blocks the Svelte component renders (no HTML strings, so nothing is ever injected): `##`
 * headings (the page's table of contents), `###` subheadings, paragraphs, `-`/`*` and `1.`
 * lists nested by indentation, `> ` callouts, `**bold**`, `*emphasis*` and `` `code` ``. The
 * page's `#` title and `---` rules are left out: the rules page draws its own header.
 */
export interface Span {
  text: string;
  bold?: boolean;
  em?: boolean;
  code?: boolean;
}

export interface List {
  /** Numbered (`1.`), from `start`, or bulleted. */
  ordered: boolean;
  start: number;
  items: ListItem[];
}

export interface ListItem {
  spans: Span[];
  /** Lists indented under this item. */
  lists: List[];
}

export type Block =
  | { kind: "h2"; spans: Span[]; id: string }
  | { kind: "h3"; spans: Span[] }
  | { kind: "p"; spans: Span[] }
  | { kind: "note"; spans: Span[] }
  | { kind: "list"; list: List };

export function parseInline(text: string): Span[] {
  const spans: Span[] = [];
  const pattern = /\*\*(.+?)\*\*|\*(.+?)\*|`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) spans.push({ text: text.slice(last, index) });
    if (match[1] !== undefined) spans.push({ text: match[1], bold: true });
    else if (match[2] !== undefined) spans.push({ text: match[2], em: true });
    else spans.push({ text: match[3], code: true });
    last = index + match[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last) });
  return spans;
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A list item's line: its indentation, marker and text. */
const ITEM = /^( *)([-*]|\d+\.) (.*)$/;

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  // The lists open at the current line, outermost first, each with its items' indentation.
  let open: { indent: number; list: List }[] = [];

  const flushParagraph = () => {
    if (paragraph.length) blocks.push({ kind: "p", spans: parseInline(paragraph.join(" ")) });
    paragraph = [];
  };
  const flush = () => {
    flushParagraph();
    if (open.length) blocks.push({ kind: "list", list: open[0].list });
    open = [];
  };
  const newList = (marker: string): List => {
    const ordered = marker !== "-" && marker !== "*";
    return { ordered, start: ordered ? parseInt(marker, 10) : 1, items: [] };
  };

  for (const raw of source.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (!line.trim()) {
      flush();
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      flushParagraph();
      const [, spaces, marker] = item;
      const indent = spaces.length;
      const ordered = marker !== "-" && marker !== "*";
      while (open.length > 1 && indent < open[open.length - 1].indent) open.pop();
      let top = open[open.length - 1];
      if (top && indent > top.indent && top.list.items.length) {
        // Indented under the last item: a list of its own.
        const list = newList(marker);
        top.list.items[top.list.items.length - 1].lists.push(list);
        top = { indent, list };
        open.push(top);
      } else if (!top || top.list.ordered !== ordered) {
        // Another kind of list at this level: a sibling of the one before.
        const list = newList(marker);
        if (open.length > 1) {
          const parent = open[open.length - 2].list;
          parent.items[parent.items.length - 1].lists.push(list);
          open[open.length - 1] = { indent, list };
        } else {
          flush();
          open = [{ indent, list }];
        }
        top = open[open.length - 1];
      }
      top.list.items.push({ spans: parseInline(item[3]), lists: [] });
      continue;
    }
    if (open.length && /^ +\S/.test(line)) {
      // A continuation line of the innermost item.
      const items = open[open.length - 1].list.items;
      items[items.length - 1].spans.push(...parseInline(" " + line.trim()));
      continue;
    }
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const text = heading[2];
      if (heading[1] === "##")
        blocks.push({ kind: "h2", spans: parseInline(text), id: slug(text) });
      else if (heading[1] === "###") blocks.push({ kind: "h3", spans: parseInline(text) });
      continue;
    }
    if (/^-{3,}$/.test(line)) {
      flush();
      continue;
    }
    const note = /^> (.*)$/.exec(line);
    if (note) {
      flush();
      blocks.push({ kind: "note", spans: parseInline(note[1]) });
      continue;
    }
    if (open.length) flush();
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** The page's `##` headings, for its table of contents. */
export function tableOfContents(blocks: Block[]): { id: string; text: string }[] {
  return blocks.flatMap((b) =>
    b.kind === "h2" ? [{ id: b.id, text: b.spans.map((s) => s.text).join("") }] : [],
  );
}
