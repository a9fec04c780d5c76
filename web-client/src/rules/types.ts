/** A game as the client describes it on its own: lobby card fallback and rules page. */
export interface CatalogueGame {
  id: string;
  name: string;
  shortName: string;
  minSeats: number;
  maxSeats: number;
  /** One line for the lobby card when the server has none. */
  pitch: string;
  /** A single glyph that stands in for a picture. */
  glyph: string;
  /** The game's accent hue (HSL degrees). */
  hue: number;
  teams: boolean;
  /** The player-facing rules, in the small Markdown subset of markdown.ts. */
  rules: string;
}
