/**
 * The rule names each game sends with an `illegal_action` reject, as the registry generates
 * them (`src/protocol/ruleNames.ts`): a board that words a refusal switches on `ruleOf`, so a
 * name the game does not have is a type error rather than a case that never matches.
 */
import { RULE_NAMES, type RuleName } from "../protocol/ruleNames";

export type { RuleName };
export type RuledGame = keyof typeof RULE_NAMES;

/** `rule` as one of `game`'s rule names, or null when it is none of them. */
export function ruleOf<G extends RuledGame>(
  game: G,
  rule: string | null | undefined,
): RuleName<G> | null {
  const names: readonly string[] = RULE_NAMES[game];
  return rule != null && names.includes(rule) ? (rule as RuleName<G>) : null;
}
