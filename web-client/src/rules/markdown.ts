/**
 * A very small Markdown subset for the rules pages, parsed into blocks the Svelte component
 * renders (no HTML strings, so nothing is ever injected): `## heading`, `### subheading`,
 * paragraphs, `- ` lists with one nested level (two spaces), `> ` callouts, `**bold**` and
 * `*emphasis*`.
 */
export interface Span {
  text: string;
  bold?: boolean;
  em?: boolean;
}

export interface ListItem {
  spans: Span[];
  children: Span[][];
}

export type Block =
  | { kind: "h2"; spans: Span[]; id: string }
  | { kind: "h3"; spans: Span[] }
  | { kind: "p"; spans: Span[] }
  | { kind: "note"; spans: Span[] }
  | { kind: "list"; items: ListItem[] };

export function parseInline(text: string): Span[] {
  const spans: Span[] = [];
  const pattern = /\*\*(.+?)\*\*|\*(.+?)\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) spans.push({ text: text.slice(last, index) });
    if (match[1] !== undefined) spans.push({ text: match[1], bold: true });
    else spans.push({ text: match[2], em: true });
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

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: ListItem[] | null = null;

  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "p", spans: parseInline(paragraph.join(" ")) });
    paragraph = [];
    if (list) blocks.push({ kind: "list", items: list });
    list = null;
  };

  for (const raw of source.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (!line.trim()) {
      flush();
      continue;
    }
    const nested = /^ {2,}- (.*)$/.exec(line);
    if (nested && list && list.length) {
      list[list.length - 1].children.push(parseInline(nested[1]));
      continue;
    }
    const item = /^- (.*)$/.exec(line);
    if (item) {
      if (paragraph.length) {
        blocks.push({ kind: "p", spans: parseInline(paragraph.join(" ")) });
        paragraph = [];
      }
      list ??= [];
      list.push({ spans: parseInline(item[1]), children: [] });
      continue;
    }
    if (list && /^ {2,}\S/.test(line)) {
      // A continuation line of the last item.
      const last = list[list.length - 1];
      last.spans.push(...parseInline(" " + line.trim()));
      continue;
    }
    const heading = /^(#{2,3}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const text = heading[2];
      blocks.push(
        heading[1] === "##"
          ? { kind: "h2", spans: parseInline(text), id: slug(text) }
          : { kind: "h3", spans: parseInline(text) },
      );
      continue;
    }
    const note = /^> (.*)$/.exec(line);
    if (note) {
      flush();
      blocks.push({ kind: "note", spans: parseInline(note[1]) });
      continue;
    }
    if (list) flush();
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}
