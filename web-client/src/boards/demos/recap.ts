/**
 * When the round recap shows. A round's result appears as a recap at the top of the board
 * (in view on a phone, where the table's panels scroll far below) and stays there until the
 * player dismisses it, or until they have acted on the decision that follows: while that
 * decision waits for them on a phone, the recap folds to its one-sentence summary so it does
 * not push the prompt out of view.
 */
export interface RecapState {
  /** The round whose result is (or was last) shown. */
  round: number | null;
  open: boolean;
  /** A decision of the player's was pending while the recap was open. */
  decided: boolean;
}

/** On opening the page, the result already there is history, not news: it is not recapped. */
export const initialRecap = (lastRound: number | null): RecapState => ({
  round: lastRound,
  open: false,
  decided: false,
});

export function nextRecap(
  state: RecapState,
  lastRound: number | null,
  decisionPending: boolean,
): RecapState {
  if (lastRound !== null && lastRound !== state.round) {
    return { round: lastRound, open: true, decided: decisionPending };
  }
  if (!state.open) return state;
  if (decisionPending) return state.decided ? state : { ...state, decided: true };
  // The decision that was waiting has been made: the recap has done its job.
  return state.decided ? { ...state, open: false } : state;
}

export const dismissRecap = (state: RecapState): RecapState => ({ ...state, open: false });

/** Folded to a sentence while a decision waits for the player. */
export const recapFolded = (state: RecapState, decisionPending: boolean) =>
  state.open && decisionPending;
