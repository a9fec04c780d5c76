/**
 * What the board tells a newcomer before they ask: why a dimmed card cannot be played now,
 * and whether a spell would do nothing if cast. Both read only the view the seat sees, and
 * follow the rules page (/rules/demon_bound): the legal list stays the only judge of a move.
 */
import type { Card } from "../../protocol/demon_bound/Card";
import type { DemonBoundView } from "../../protocol/demon_bound/DemonBoundView";
import { cardShort, cardValue, isFace, parseCard, SPELL_NAME } from "./cards";

const sum = (cards: Card[]) => cards.reduce((n, c) => n + cardValue(c), 0);
const numbered = (card: Card) => parseCard(card) !== null && !isFace(card);

/** Why `card` in `me`'s hand is not playable now, in a sentence. */
export function whyNotPlayable(card: Card, view: DemonBoundView, me: number): string {
  if (card === "Joker" || card === "MK")
    return `${cardShort(card)}: never played, only discarded (and then it sets demons loose).`;
  const phase = view.phase;
  const p = parseCard(card)!;
  if (phase.step === "setup")
    return `${cardShort(card)}: the opening sacrifice must be a numbered heart.`;
  if (phase.step === "over") return "The game is over.";
  if (phase.step === "decision") return "A demon is waiting for its target first.";
  if (phase.step === "spell") return `Finish the ${SPELL_NAME[parseCard(phase.card)!.suit]} first.`;
  if (view.turn !== me) return `${cardShort(card)}: you play a card on your own turn.`;
  if (phase.step === "discard") return "Pick the cards to discard.";
  if (phase.card_played) return "You have played your one card this turn.";
  if (isFace(card)) return `${cardShort(card)}: this spell cannot be cast now.`;
  const player = view.players[me];
  const value = cardValue(card);
  switch (p.suit) {
    case "hearts":
      return `${cardShort(card)}: it cannot be sacrificed or used to appease now.`;
    case "spades":
      return view.players.some((pl) => !pl.out && pl.sacrifice.length > 0)
        ? `${cardShort(card)}: it cannot be summoned now.`
        : `${cardShort(card)}: a demon is summoned onto a sacrifice, and nobody has one on the table.`;
    case "clubs": {
      if (!player.threats.length)
        return `${cardShort(card)}: a club binds a demon before you, and there is none.`;
      const weakest = Math.min(...player.threats.map(cardValue));
      return weakest > value
        ? `${cardShort(card)}: a club binds a demon of strength ${value} or less; the weakest before you is ${weakest}.`
        : `${cardShort(card)}: it cannot bind now.`;
    }
    case "diamonds": {
      const bound = sum(player.bound);
      return bound < value
        ? `${cardShort(card)}: a treasure of ${value} is bought by releasing bound demons worth ${value} or more; yours are worth ${bound}.`
        : `${cardShort(card)}: it cannot be bought now.`;
    }
  }
}

/** Why casting the face card `card` now would change nothing, or null when it would act. */
export function idleSpell(card: Card, view: DemonBoundView, me: number): string | null {
  const p = parseCard(card);
  if (!p || !isFace(card)) return null;
  const players = view.players.filter((pl) => !pl.out);
  const demonsOnTable = players.some((pl) => pl.threats.length || pl.bound.length);
  const name = SPELL_NAME[p.suit];
  switch (p.suit) {
    case "spades":
      return demonsOnTable ? null : `${name} banishes demons, and there are none on the table.`;
    case "clubs":
      return demonsOnTable ? null : `${name} binds demons, and there are none on the table.`;
    case "hearts": {
      const hand = view.players[me]?.hand ?? [];
      const spades = hand.filter((c) => numbered(c) && parseCard(c)!.suit === "spades");
      return spades.length
        ? null
        : `${name} sends numbered spades from your hand, and you hold none.`;
    }
    case "diamonds": {
      if (view.solitaire) {
        const diamonds = view.discard_pile.filter(
          (c) => numbered(c) && parseCard(c)!.suit === "diamonds",
        );
        return diamonds.length
          ? null
          : `${name} rescues numbered diamonds from the discard pile, and there are none.`;
      }
      return view.players.some((pl, i) => i !== me && !pl.out && pl.hand_size > 0)
        ? null
        : `${name} peeks at another hand, and nobody else holds a card.`;
    }
  }
}

/** What stain markers cost, for the player who holds them. */
export function stainWords(stain: number, yours: boolean): string {
  const who = yours ? "you discard" : "they discard";
  return `Stain ${stain}: each turn ${who} at least ${stain} ${stain === 1 ? "card" : "cards"}; a soul marked by a demon left unanswered gains one, and an empty hand goes to hell.`;
}
