import type { CardFace } from "./faces";

/** A card with a stable identity, so it can animate between hand and piles. */
export interface CardItem {
  id: string | number;
  face: CardFace;
  faceDown?: boolean;
  /** Cannot be picked now (not part of any legal action). */
  disabled?: boolean;
  /** The game's name for the card, passed to `Card` as `code` (`data-card`). */
  code?: string;
  /** Words for the card when the face alone does not say enough ("7 of Spades, your secret discard"). */
  label?: string;
}
