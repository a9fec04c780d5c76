/** A game as the client describes it without asking the server: lobby card and rules page. */
export interface CatalogueGame {
  id: string;
  name: string;
  shortName: string;
  minSeats: number;
  maxSeats: number;
  /** One line for the lobby card. */
  pitch: string;
  /** A single glyph that stands in for a picture. */
  glyph: string;
  /** The game's accent hue (HSL degrees). */
  hue: number;
  teams: boolean;
  /** What a final score counts, for the results table. */
  scoreUnit: string;
  /** The rules page (`games/<game>/RULES.md`), in the Markdown subset of markdown.ts. */
  rules: string;
}
