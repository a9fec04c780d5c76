/**
 * The guided sacrifice, as plain functions: the player picks cards for the demon's symbols on
 * the board first (nothing is sent until they place them), so what is still free, whether an
 * explicit end is needed, and what a hint may suggest all depend on those local picks, which
 * the server (and its hint) cannot know about.
 */
import type { SoulitaireAction } from "../../protocol/soulitaire/SoulitaireAction";
import type { SoulitaireSymbol } from "../../protocol/soulitaire/SoulitaireSymbol";
import type { SoulitaireView } from "../../protocol/soulitaire/SoulitaireView";
import { offerSymbols, planOffers, type Offer } from "./rules";
import { sameSymbol } from "./words";

/** The symbols still wanted and not yet given a card by `picks`, with repeats. */
export function freeSymbols(remaining: SoulitaireSymbol[], picks: Offer[]): SoulitaireSymbol[] {
  const free = [...remaining];
  for (const p of picks) {
    const i = free.findIndex((s) => sameSymbol(s, p.symbol));
    if (i >= 0) free.splice(i, 1);
  }
  return free;
}

/** The symbols the card of `column` may still be picked for. */
export function choosableSymbols(
  legal: SoulitaireAction[],
  column: number,
  remaining: SoulitaireSymbol[],
  picks: Offer[],
): SoulitaireSymbol[] {
  const free = freeSymbols(remaining, picks);
  return offerSymbols(legal, column).filter((s) => free.some((f) => sameSymbol(f, s)));
}

/** Whether, after `chosen`, some other card could still be offered (so ending is explicit). */
export function moreAfter(chosen: Offer[], all: Offer[], remaining: SoulitaireSymbol[]): boolean {
  const left = freeSymbols(remaining, chosen);
  return all.some(
    (o) => !chosen.some((c) => c.column === o.column) && left.some((s) => sameSymbol(s, o.symbol)),
  );
}

/**
 * A hint made to fit the cards already picked: the server's (or the board's) suggestion names
 * a card of its own plan, which may be one the player has already chosen or a symbol already
 * taken. Then the next card of the plan that is still open is suggested instead, and with none
 * left, placing what is chosen (`end_sacrifice`, which the board words as "place them").
 */
export function hintAfterPicks(
  hinted: SoulitaireAction | null,
  picks: Offer[],
  view: SoulitaireView,
  legal: SoulitaireAction[],
): SoulitaireAction | null {
  const sacrifice = view.sacrifice;
  if (!sacrifice || !picks.length) return hinted;
  const open = (o: Offer) =>
    !picks.some((p) => p.column === o.column) &&
    choosableSymbols(legal, o.column, sacrifice.remaining, picks).some((s) =>
      sameSymbol(s, o.symbol),
    );
  if (hinted?.kind === "offer" && open(hinted)) return hinted;
  const next = planOffers(view, legal).find(open);
  if (next) return next;
  return { kind: "end_sacrifice" };
}
