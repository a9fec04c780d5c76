/**
 * Demon Bound! in words: actions for the replay timeline, the decision the table waits on, and
 * the game log the view carries ("Bea summoned 9♠ onto Ari's sacrifice"). Everything reads only
 * the view or an action, so it never says more than the viewer may know.
 */
import type { LogEntry, SeatLabel } from "../contract";
import { seatName } from "../describe";
import type { DemonBoundAction } from "../../protocol/demon_bound/DemonBoundAction";
import type { DemonBoundView } from "../../protocol/demon_bound/DemonBoundView";
import type { Event } from "../../protocol/demon_bound/Event";
import { cardShort, parseCard, SPELL_NAME } from "./cards";

const name = (seat: number, seats: SeatLabel[]) => seatName(seat, seats);
const list = (cards: string[]) => cards.map(cardShort).join(" ");

/** An action as the person taking it would say it (the seat is the actor). */
export function describeAction(action: DemonBoundAction, seat: number, seats: SeatLabel[]): string {
  const who = name(seat, seats);
  switch (action.type) {
    case "setup_sacrifice":
      return `${who} sacrifices ${cardShort(action.card)} to begin`;
    case "setup_discard":
      return `${who} discards a random card to begin`;
    case "sacrifice":
      return `${who} adds ${cardShort(action.card)} to their sacrifice`;
    case "appease":
      return action.target === null
        ? `${who} appeases ${cardShort(action.demon)} with ${cardShort(action.card)}`
        : `${who} appeases ${cardShort(action.demon)} with ${cardShort(action.card)}: it attacks ${name(action.target, seats)}`;
    case "summon":
      return `${who} summons ${cardShort(action.card)} onto ${action.onto === seat ? "their own" : `${name(action.onto, seats)}'s`} sacrifice`;
    case "bind":
      return `${who} binds ${cardShort(action.demon)} with ${cardShort(action.card)}`;
    case "treasure":
      return `${who} buys ${cardShort(action.card)} for the treasury, releasing ${list(action.release)}`;
    case "banish":
      return `${who} frees ${cardShort(action.freed)} to banish ${cardShort(action.demon)}`;
    case "cast": {
      const p = parseCard(action.card);
      return `${who} casts ${cardShort(action.card)}${p ? ` (${SPELL_NAME[p.suit]})` : ""}`;
    }
    case "spell_banish":
      return `${who} banishes ${cardShort(action.demon)}`;
    case "spell_summon":
      return `${who} sends ${cardShort(action.card)} to attack ${action.onto === seat ? "themself" : name(action.onto, seats)}`;
    case "spell_bind":
      return `${who} binds ${cardShort(action.demon)} by The Master's Voice`;
    case "scry":
      return `${who} peeks at ${name(action.seat, seats)}'s hand`;
    case "steal":
      return `${who} takes ${cardShort(action.card)}`;
    case "end_spell":
      return `${who} ends the spell`;
    case "end_play":
      return `${who} ends the card play`;
    case "discard":
      return action.cards.length
        ? `${who} discards ${list(action.cards)}`
        : `${who} discards nothing`;
    case "attack":
      return `${who} sends the demon against ${name(action.target, seats)}`;
  }
}

/** The decision someone other than the player in turn owes the table. */
export function pendingDecision(view: DemonBoundView, seats: SeatLabel[]): string | null {
  const pending = view.pending[0];
  if (!pending) {
    if (view.phase.step === "setup")
      return "Everyone secretly chooses a sacrifice or a random discard";
    return null;
  }
  const why = pending.why === "appeased" ? "appeased" : "released from hell";
  return `${name(pending.decider, seats)} chooses whom ${cardShort(pending.demon)} (${why}) attacks`;
}

/** One event in words. */
export function eventWords(event: Event, seats: SeatLabel[]): string {
  switch (event.kind) {
    case "setup_revealed":
      return event.sacrifice
        ? `${name(event.seat, seats)} sacrificed ${cardShort(event.sacrifice)}`
        : `${name(event.seat, seats)} discarded ${event.discarded ? cardShort(event.discarded) : "a card"} at random`;
    case "first_player":
      return `${name(event.seat, seats)} goes first${event.by_lot ? " (drawn by lot)" : ""}`;
    case "turn_began":
      return `${name(event.seat, seats)}'s turn: drew ${event.drew}${event.reshuffled ? " (the discards were reshuffled)" : ""}`;
    case "sacrificed":
      return `${name(event.seat, seats)} sacrificed ${cardShort(event.card)}`;
    case "summoned":
      return `${name(event.seat, seats)} summoned ${cardShort(event.demon)} onto ${event.onto === event.seat ? "their own" : `${name(event.onto, seats)}'s`} sacrifice`;
    case "auto_appeased":
      return `${cardShort(event.demon)} was appeased by ${name(event.sacrificer, seats)}'s sacrifice`;
    case "appeased":
      return `${name(event.seat, seats)} appeased ${cardShort(event.demon)} with ${cardShort(event.card)}`;
    case "attacks":
      return event.target === null
        ? `${cardShort(event.demon)} was discarded`
        : `${cardShort(event.demon)} attacks ${name(event.target, seats)}`;
    case "bound":
      return `${name(event.seat, seats)} bound ${cardShort(event.demon)} with ${cardShort(event.card)}`;
    case "banished":
      return `${name(event.seat, seats)} freed ${cardShort(event.freed)} to banish ${cardShort(event.demon)}`;
    case "treasure":
      return `${name(event.seat, seats)} put ${cardShort(event.card)} in the treasury, releasing ${list(event.released)}`;
    case "cast": {
      const p = parseCard(event.card);
      return `${name(event.seat, seats)} cast ${cardShort(event.card)}${p ? ` (${SPELL_NAME[p.suit]})` : ""}`;
    }
    case "spell_banished":
      return `${name(event.seat, seats)} banished ${cardShort(event.demon)} from ${name(event.from, seats)}`;
    case "spell_summoned":
      return `${name(event.seat, seats)} sent ${cardShort(event.demon)} to attack ${name(event.onto, seats)}`;
    case "spell_bound":
      return `${name(event.seat, seats)} bound ${cardShort(event.demon)} away from ${name(event.from, seats)}`;
    case "scried":
      return `${name(event.seat, seats)} peeked at ${name(event.target, seats)}'s hand`;
    case "stole": {
      const what = event.cards.length
        ? list(event.cards)
        : `${event.count} diamond${event.count === 1 ? "" : "s"}`;
      return `${name(event.seat, seats)} took ${what} from ${event.from === null ? "the discard pile" : name(event.from, seats)}`;
    }
    case "stained":
      return `${cardShort(event.demon)} marked ${name(event.seat, seats)}'s soul (stain ${event.stain})`;
    case "discarded":
      return `${name(event.seat, seats)} discarded ${event.cards.length ? list(event.cards) : "nothing"}`;
    case "hells_maw": {
      const dealt = event.dealt.map(([s, c]) => `${cardShort(c)} to ${name(s, seats)}`).join(", ");
      const by = event.seat === null ? "turned up" : `discarded by ${name(event.seat, seats)}`;
      return `Hell's Maw: ${cardShort(event.card)} ${by}${dealt ? ` dealt ${dealt}` : " found no demons"}`;
    }
    case "turned_up":
      return `Turned up ${cardShort(event.card)}`;
    case "eliminated":
      return `${name(event.seat, seats)} was carried away to hell`;
  }
}

function eventSeat(event: Event): number | null {
  return "seat" in event && typeof event.seat === "number" ? event.seat : null;
}

/** The latest events the view carries, numbered so entries keep their identity. */
export function log(view: DemonBoundView, seats: SeatLabel[]): LogEntry[] {
  return view.log.map((event, i) => ({
    id: view.first_event + i,
    seat: eventSeat(event),
    text: eventWords(event, seats),
  }));
}

/** A legal action as the label of your own button ("Summon 8♠ onto Bea's sacrifice"); your
 * own seat (`you`) is "your sacrifice", not your name. */
export function buttonWords(
  action: DemonBoundAction,
  seats: SeatLabel[],
  you: number | null = null,
): string {
  const whose = (seat: number) => (seat === you ? "your" : `${name(seat, seats)}'s`);
  switch (action.type) {
    case "setup_sacrifice":
      return `Sacrifice ${cardShort(action.card)}`;
    case "setup_discard":
      return "Discard a random card";
    case "sacrifice":
      return `Add ${cardShort(action.card)} to your sacrifice`;
    case "appease":
      return action.target === null
        ? `Appease ${cardShort(action.demon)} with ${cardShort(action.card)}`
        : `Appease ${cardShort(action.demon)} with ${cardShort(action.card)}, sending it to ${name(action.target, seats)}`;
    case "summon":
      return `Summon ${cardShort(action.card)} onto ${whose(action.onto)} sacrifice`;
    case "bind":
      return `Bind ${cardShort(action.demon)} with ${cardShort(action.card)}`;
    case "treasure":
      return `Buy ${cardShort(action.card)}, releasing ${list(action.release)}`;
    case "banish":
      return `Free ${cardShort(action.freed)} to banish ${cardShort(action.demon)}`;
    case "cast": {
      const p = parseCard(action.card);
      return `Cast ${cardShort(action.card)}${p ? ` (${SPELL_NAME[p.suit]})` : ""}`;
    }
    case "spell_banish":
      return `Banish ${cardShort(action.demon)}`;
    case "spell_summon":
      return `Send ${cardShort(action.card)} against ${action.onto === you ? "yourself" : name(action.onto, seats)}`;
    case "spell_bind":
      return `Bind ${cardShort(action.demon)}`;
    case "scry":
      return `Peek at ${name(action.seat, seats)}'s hand`;
    case "steal":
      return `Take ${cardShort(action.card)}`;
    case "end_spell":
      return "End the spell";
    case "end_play":
      return "End the card play";
    case "discard":
      return action.cards.length ? `Discard ${list(action.cards)}` : "Discard nothing";
    case "attack":
      return `Send it to ${name(action.target, seats)}`;
  }
}
