/**
 * The end screen's words, from the outcome alone. A match nobody won says so to everyone
 * rather than "Defeat" to each; a one-player match has nobody to be placed against, so it says
 * how it went and its score instead of a table of places.
 */
import type { Outcome } from "../protocol/Outcome";

export interface EndWords {
  headline: string;
  /** Whether the person looking is among the winners (the headline shines). */
  won: boolean;
  /** Whether a table of places and scores means anything. */
  placesTable: boolean;
  /** A one-player match's score, in a sentence; null when the table shows the scores. */
  scoreLine: string | null;
}

function soloWords(outcome: Outcome, gameId: string | null): EndWords {
  const won = outcome.winners.includes(0);
  const score = outcome.scores[0] ?? 0;
  if (gameId === "soulitaire") {
    return {
      headline: won ? "The ritual is complete" : "The ritual was not completed",
      won,
      placesTable: false,
      scoreLine: won
        ? `Score ${score}: ${score} ${score === 1 ? "demon" : "demons"} kept in the Demon Stack (the more kept, the higher the title).`
        : `Score ${score}: a ritual left unfinished earns no title.`,
    };
  }
  return {
    headline: won ? "Victory!" : "Not won this time",
    won,
    placesTable: false,
    scoreLine: `Score ${score}.`,
  };
}

export function endWords(outcome: Outcome, you: number | null, gameId: string | null): EndWords {
  if (outcome.placements.length === 1) return soloWords(outcome, gameId);
  if (outcome.winners.length === 0) {
    return {
      headline: gameId === "demos" ? "Nobody won the Election" : "Nobody won",
      won: false,
      placesTable: true,
      scoreLine: null,
    };
  }
  const won = you !== null && outcome.winners.includes(you);
  const headline =
    you === null
      ? "Match over"
      : won
        ? outcome.winners.length > 1
          ? "A shared victory!"
          : "Victory!"
        : "Defeat";
  return { headline, won, placesTable: true, scoreLine: null };
}
