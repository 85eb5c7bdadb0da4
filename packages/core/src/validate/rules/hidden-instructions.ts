/**
 * Rule 59 `hidden-instructions` (RULES.md §6.3): text in a card that speaks to the model reading
 * it rather than to the people reviewing it. A card is read by other agents' models, and
 * prompt injection through card text ("agent card poisoning") hides there: Unicode tag
 * characters and zero-width or bidirectional controls that a reviewer does not see,
 * "ignore previous instructions"-style phrases, and chat markup (`<system>`, `[INST]`).
 *
 * Every string of the card is read (in its first {@link MAX_TEXT} characters, within the node
 * bound of `cardStrings`).
 */
import type { Severity } from '../../findings';
import type { JsonObject, RuleCheck, RuleContext } from '../context';
import { findHiddenCharacter, HIDDEN_CHARACTER_HINT, INJECTION_PHRASE, MODEL_MARKUP } from '../patterns';
import { cardStrings, INJECTION_PHRASE_MIN_LENGTH } from './card-strings';
import { quote, where } from './read-json';

const RULE = 'hidden-instructions';
/** Severity per profile: what publishing such a card does to the clients that read it. */
const SEVERITY: Record<RuleContext['profile'], Severity> = {
  development: 'warning',
  production: 'error',
  strict: 'error',
};
const HINT = {
  hidden:
    'Remove the invisible characters: Unicode tag characters and zero-width or bidirectional controls hide text from the people who review the card, while the models that read it see that text.',
  phrase:
    'Remove it: a card describes the agent to its callers, and text telling the model that reads it to drop its instructions is prompt injection.',
  markup:
    'Remove the markup: chat delimiters of model prompts have no place in a card, and a model that reads the card may take what follows for its own instructions.',
} as const;
/** Longer strings are read in their first this many characters. */
const MAX_TEXT = 100_000;

/** `U+E0041` */
const codePoint = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** A short quote of the match, with its invisible characters shown as code points. */
function excerpt(text: string, index: number, length: number): string {
  return quote(text.slice(index, index + Math.min(length, 60)));
}

/**
 * Reports each string of the card that hides characters, tells a model to drop its
 * instructions, or carries model chat markup: a warning in `development`, an error in
 * `production` and `strict`.
 * @see packages/core/RULES.md §6.3
 */
export const checkHiddenInstructions: RuleCheck = (card: JsonObject, ctx: RuleContext) => {
  const severity = SEVERITY[ctx.profile];
  const strings = cardStrings(card, ctx);
  const { values } = strings;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const text = value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value;
    // Each search runs only on a text that holds what it needs, found by a native scan: an
    // invisible character's code unit, a space for a phrase, "<" or "[" for markup.
    const hidden = HIDDEN_CHARACTER_HINT.test(text) ? findHiddenCharacter(text) : undefined;
    const phrase =
      hidden === undefined && text.length >= INJECTION_PHRASE_MIN_LENGTH && text.includes(' ')
        ? INJECTION_PHRASE.exec(text)
        : null;
    const markup =
      hidden === undefined && phrase === null && (text.includes('<') || text.includes('['))
        ? MODEL_MARKUP.exec(text)
        : null;
    if (hidden === undefined && phrase === null && markup === null) continue;
    if (ctx.overflows(RULE, severity)) continue;
    const path = strings.path(i);
    if (hidden !== undefined) {
      ctx.report(
        RULE,
        severity,
        path,
        `${where(path)}: holds an invisible character, ${codePoint(hidden.code)} at index ${hidden.index}, that people reviewing the card do not see and models reading it do.`,
        HINT.hidden,
      );
    } else if (phrase !== null) {
      ctx.report(
        RULE,
        severity,
        path,
        `${where(path)}: tells the model that reads the card to drop its instructions (${excerpt(text, phrase.index, phrase[0].length)}).`,
        HINT.phrase,
      );
    } else if (markup !== null) {
      ctx.report(
        RULE,
        severity,
        path,
        `${where(path)}: holds chat markup of a model prompt (${excerpt(text, markup.index, markup[0].length)}).`,
        HINT.markup,
      );
    }
  }
};
