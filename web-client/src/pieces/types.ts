import type { CardFace } from "./faces";

/** A card with a stable identity, so it can animate between hand and piles. */
export interface CardItem {
  id: string | number;
  face: CardFace;
  faceDown?: boolean;
  /** Cannot be picked now (not part of any legal action). */
  disabled?: boolean;
}
