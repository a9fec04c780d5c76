/**
 * DēmoS in words: actions for the replay timeline, the decision the table waits on, the public
 * history a view carries (the live action log), and the small phrases the board shares.
 * Everything here reads only the view (or an action in a finished match's log), so it never
 * says more than the viewer may know.
 */
import type { LogEntry, SeatLabel } from "../contract";
import { seatName } from "../describe";
import { listNames } from "../../lib/seats";
import type { DemosAction } from "../../protocol/demos/DemosAction";
import type { DemosView } from "../../protocol/demos/DemosView";
import type { VetoUsed } from "../../protocol/demos/VetoUsed";
import type { Combination } from "../../protocol/demos/Combination";
import type { CombinationKind } from "../../protocol/demos/CombinationKind";
import type { DecidedBy } from "../../protocol/demos/DecidedBy";
import type { ElectionDecidedBy } from "../../protocol/demos/ElectionDecidedBy";
import type { Harmony } from "../../protocol/demos/Harmony";
import type { Mode } from "../../protocol/demos/Mode";
import type { RoundSummary } from "../../protocol/demos/RoundSummary";
import type { ScandalEvent } from "../../protocol/demos/ScandalEvent";
import type { Turn } from "../../protocol/demos/Turn";
import type { TurnView } from "../../protocol/demos/TurnView";
import { cardShort, SUIT_NAME, SUIT_SYMBOL } from "./cards";

export const isTeamMode = (mode: Mode) => mode !== "simplified" && mode !== "complete";

/** A side's name: the team in team modes ("Team 1", "The Independent"), the player otherwise. */
export function sideName(mode: Mode, side: number, seats: SeatLabel[]): string {
  if (!isTeamMode(mode)) return seatName(side, seats);
  if (mode === "team_2v2_plus_1" && side === 2) return "The Independent";
  return `Team ${side + 1}`;
}

export const TURN_NAME: Record<Turn, string> = {
  public: "Public Discard",
  secret: "Secret Discard",
  unanimous: "Unanimous Discard",
};

export const MODE_NAME: Record<Mode, string> = {
  simplified: "Simplified game",
  complete: "Complete game",
  team_2v2: "2 vs 2",
  team_2v3: "2 vs 3",
  team_2v2_plus_1: "2 vs 2 + 1",
};

export const COMBINATION_NAME: Record<CombinationKind, string> = {
  harmonious_square: "Harmonious Square",
  one_suit_sequence: "one-suit sequence",
  two_suit_sequence: "two-suit sequence",
  three_suit_sequence: "three-suit sequence",
};

export const DECIDED_BY: Record<DecidedBy, string> = {
  points: "on points",
  suit_count: "tie broken by the most cards of one suit",
  unplayed_total: "tie broken by the higher total of the unshown cards",
  shared: "a tie nothing breaks: the win is shared",
};

export const HARMONY_NAME: Record<Harmony, string> = {
  tricolour: "tricolour",
  bicolour: "bicolour",
  monocolour: "monocolour",
  no_trio: "no trio",
};

export const ELECTION_DECIDED_BY: Record<ElectionDecidedBy, string> = {
  harmony: "the most harmonious trio",
  declaration: "the declared trio takes primacy",
  cumulative_points: "equal trios, more cumulative points",
  shared: "equal trios and points: a shared victory",
  peoples_spokesperson: "the People's Spokesperson (the Independent has the most points)",
  media_controller: "the Media Controller (the Independent keeps both Media and holds a Judicial)",
  dissident: "the Dissident (the Independent holds a bicolour trio)",
  no_winner: "nobody presents a trio that counts",
};

function takeShort(take: DemosAction & { take: unknown }): string {
  // An action is a choice: the discard asked for may have been taken first by someone else.
  return take.take === "pack"
    ? "chooses the top card of the pack"
    : `asks for the ${cardShort((take.take as { discard: string }).discard)}`;
}

/** An action in words (replay timeline). Replays are of finished matches, whose log is public. */
export function describeAction(action: DemosAction, seat: number, seats: SeatLabel[]): string {
  const who = seatName(seat, seats);
  switch (action.type) {
    case "proceed":
      return `${who} is ready for the deal`;
    case "declare": {
      const [e, l, j] = action.declaration.trio;
      return `${who} declares ${SUIT_NAME[action.declaration.favourite]} as favourite suit and the trio E${SUIT_SYMBOL[e]} L${SUIT_SYMBOL[l]} J${SUIT_SYMBOL[j]}`;
    }
    case "public_discard":
      return `${who} discards the ${cardShort(action.card)} face up`;
    case "secret_discard":
      return `${who} discards the ${cardShort(action.card)} face down and ${takeShort(action)}`;
    case "unanimous_discard":
      return `${who} discards the ${cardShort(action.card)} in the Unanimous Discard and ${takeShort(action)}`;
    case "keep_hand":
      return `${who} keeps their hand`;
    case "veto":
      return `${who} vetoes the Unanimous Discard`;
    case "pass":
      return `${who} lets the Unanimous Discard go ahead`;
    case "confirm_veto":
      return `${who} confirms the team's veto`;
    case "decline_veto":
      return `${who} declines the team's veto`;
    case "allocate":
      return `${who} gives the drawn ${action.to.length === 1 ? "figure" : "figures"} to ${listNames(action.to.map((s) => seatName(s, seats)))}`;
    case "media":
      return `${who} aims the Media at ${seatName(action.target, seats)}'s figure ${action.position + 1}, naming ${SUIT_NAME[action.suit]}`;
  }
}

/** What the table waits for, in words (the room's turn prompt). */
export function pendingDecision(view: DemosView, seats: SeatLabel[]): string | null {
  const phase = view.phase;
  const waiting = view.waiting_for.map((s) => seatName(s, seats));
  const simultaneous = view.discard_order === "simultaneous";
  const discard = (what: string) =>
    simultaneous ? `Everyone ${what}` : waiting.length ? `${waiting[0]} ${what}` : null;
  switch (phase.step) {
    case "declaration":
      return "Everyone declares a favourite suit and a trio (Creator's Suggestion)";
    case "consultation":
      return "Team consultation before the deal";
    case "public_discard":
      return discard("discards a card face up");
    case "secret_discard":
      return discard(
        view.mode === "simplified"
          ? "discards a card face down"
          : "discards a card face down or keeps their hand",
      );
    case "unanimous_discard":
      return discard("discards a card face down (Unanimous Discard)");
    case "veto_poll": {
      const side = sideName(view.mode, phase.side, seats);
      if (phase.proposer !== null)
        return `${side}: ${seatName(phase.proposer, seats)} proposes a veto; teammates confirm or decline`;
      // A team of several decides together; a single player (or the Independent) decides alone.
      const members = view.players.filter((p) => p.team !== null && p.team === phase.side).length;
      return `${side} ${isTeamMode(view.mode) && members > 1 ? "decide" : "decides"} whether to veto the Unanimous Discard`;
    }
    case "allocation": {
      const names = phase.sides.map((s) => sideName(view.mode, s, seats));
      const count = phase.figures.reduce((a, b) => a + b, 0);
      return `${listNames(names)} ${names.length > 1 ? "give" : "gives"} out the ${count === 1 ? "figure" : "figures"} drawn`;
    }
    case "scandal":
      return `Scandal: ${seatName(phase.holder, seats)} aims the Media`;
    case "over":
      return null;
  }
}

function turnLine(turn: TurnView, seat: number, seats: SeatLabel[], mine: boolean): string {
  const who = seatName(seat, seats);
  const took =
    turn.took === null
      ? ""
      : turn.wanted
        ? `, asks for the ${cardShort(turn.wanted)} but it was taken first: takes from the pack`
        : turn.took === "pack"
          ? ", takes from the pack"
          : `, takes the ${cardShort(turn.took.discard)}`;
  const name = TURN_NAME[turn.turn];
  switch (turn.discard.kind) {
    case "kept":
      return `${name}: ${who} keeps their hand`;
    case "face_up":
      return `${name}: ${who} discards the ${cardShort(turn.discard.card)}${turn.turn === "secret" ? " (now revealed)" : " face up"}${took}`;
    case "face_down":
      return `${name}: ${who} discards ${mine && turn.discard.card ? `the ${cardShort(turn.discard.card)} ` : "a card "}face down${took}`;
  }
}

/**
 * The notice for a visible discard someone asked for but an earlier player took first, worded
 * for whose panel it is: "you" on your own, the player's name on anyone else's (a revealed
 * board after the match, or a replay seen by everyone).
 */
export function missedTakeNotice(
  wanted: string,
  seat: number,
  me: number | null,
  seats: SeatLabel[],
): string {
  if (seat === me) return `${cardShort(wanted)} was taken first: you got the pack's top card`;
  const who = seatName(seat, seats);
  return `${who} asked for the ${cardShort(wanted)}, taken first: ${who} got the pack's top card`;
}

/** The result of a round in one sentence. */
export function roundSentence(summary: RoundSummary, mode: Mode, seats: SeatLabel[]): string {
  const head = `Round ${summary.round}`;
  if (summary.winners.length === 0) return `${head}: everyone forfeits; nobody draws.`;
  const parts = summary.winners.map((w) => {
    const c = summary.combinations[w];
    return c
      ? `${seatName(w, seats)} with ${c.cards.map(cardShort).join(" ")} (${COMBINATION_NAME[c.kind]}, ${c.points} points)`
      : seatName(w, seats);
  });
  const verb = summary.winners.length > 1 ? "win" : "wins";
  const draws = summary.draws
    .map(
      (d) =>
        `${sideName(mode, d.side, seats)} ${d.count === 0 ? "draws nothing (the Power Pile is empty)" : `draws ${d.count} ${d.count === 1 ? "figure" : "figures"}`}`,
    )
    .join("; ");
  const why =
    summary.decided_by && summary.decided_by !== "points"
      ? ` — ${DECIDED_BY[summary.decided_by]}`
      : "";
  return `${head}: ${listNames(parts)} ${verb}${why}.${draws ? ` ${draws}.` : ""}`;
}

export function scandalSentence(event: ScandalEvent, seats: SeatLabel[]): string {
  const holder = seatName(event.holder, seats);
  switch (event.kind) {
    case "cancelled":
      return `Scandal: ${holder} holds both Media; they cancel each other and are discarded.`;
    case "kept_face_up":
      return `Scandal: the Independent ${holder} holds both Media; they cancel but stay face up.`;
    case "targeted":
      return `Scandal: ${holder}'s Media exposes ${seatName(event.target, seats)}'s figure ${event.position + 1} and names it ${SUIT_NAME[event.suit]}.`;
    case "lost":
      return `Scandal: ${holder}'s Media finds no face-down figure to expose; its action is lost.`;
  }
}

/**
 * Who spent a veto: the player, or — seen from outside a team, whose consultation is its own
 * business — only the team.
 */
export function vetoer(veto: VetoUsed, mode: Mode, seats: SeatLabel[]): string {
  return veto.by === null ? sideName(mode, veto.side, seats) : seatName(veto.by, seats);
}

/** The public history the view carries: past rounds, this round's turns, the Scandal, the Election. */
export function log(view: DemosView, seats: SeatLabel[]): LogEntry[] {
  const entries: LogEntry[] = [];
  const me = view.viewer.kind === "seat" ? view.viewer.id : null;
  const played = view.players[0]?.round_points.length ?? 0;
  const detailed = view.last_round?.round ?? -1;
  for (let r = 1; r <= played; r++) {
    if (r === detailed && view.last_round) {
      entries.push({
        id: `round-${r}`,
        seat: null,
        text: roundSentence(view.last_round, view.mode, seats),
      });
      if (view.last_round.veto) {
        entries.push({
          id: `veto-${r}`,
          seat: view.last_round.veto.by,
          text: `Round ${r}: ${vetoer(view.last_round.veto, view.mode, seats)} vetoed the Unanimous Discard.`,
        });
      }
      if (view.last_round.square_reveals.length) {
        entries.push({
          id: `square-${r}`,
          seat: null,
          text: `Round ${r}: after the Harmonious Square, ${listNames(view.last_round.square_reveals.map((s) => seatName(s, seats)))} turn their first figure face up.`,
        });
      }
    } else {
      const points = view.players
        .map((p, s) => `${seatName(s, seats)} ${p.round_points[r - 1] ?? 0}`)
        .join(", ");
      entries.push({ id: `round-${r}`, seat: null, text: `Round ${r} points: ${points}.` });
    }
  }
  if (view.phase.step !== "over" && view.round > 0) {
    for (const turn of ["public", "secret", "unanimous"] as Turn[]) {
      for (let p = 0; p < view.players.length; p++) {
        const seat = (view.dealer + 1 + p) % view.players.length;
        const record = view.players[seat].turns.find((t) => t.turn === turn);
        if (record)
          entries.push({
            id: `turn-${view.round}-${turn}-${seat}`,
            seat,
            text: turnLine(record, seat, seats, seat === me),
          });
      }
    }
    if (view.veto) {
      entries.push({
        id: `veto-now-${view.round}`,
        seat: view.veto.by,
        text: `${vetoer(view.veto, view.mode, seats)} vetoes the Unanimous Discard.`,
      });
    }
  }
  view.scandal.forEach((event, i) =>
    entries.push({ id: `scandal-${i}`, seat: event.holder, text: scandalSentence(event, seats) }),
  );
  if (view.election) {
    const { result } = view.election;
    const text =
      result.decided_by === "no_winner"
        ? "Election: nobody presents a trio that counts; there is no winner."
        : `Election: ${listNames(result.winners.map((s) => seatName(s, seats)))} ${result.winners.length > 1 ? "win" : "wins"} — ${ELECTION_DECIDED_BY[result.decided_by]}.`;
    entries.push({ id: "election", seat: null, text });
  }
  return entries;
}

/** A combination in a few words: "3♥ 4♥ 5♥ — one-suit sequence, 15 pts", or the forfeit. */
export function combinationWords(c: Combination | null): string {
  if (!c) return "no sequence: this hand would forfeit the round";
  return `${c.cards.map(cardShort).join(" ")} — ${COMBINATION_NAME[c.kind]}, ${c.points} pts`;
}
