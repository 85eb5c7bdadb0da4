import type { AgentCard } from '../model';
import { encodeBase64url } from './base64url';
import {
  AGENT_CARD_CANONICAL_FORMS,
  type AgentCardCanonicalForm,
  type CanonicalForms,
  canonicalFormsOf,
  FORM_HEADER_PARAMETER,
} from './canonicalize';
import { canonicalKeyOrder, dualNamePointers, modelCanonicalForm, uncoveredPointers } from './model-form';
import { decodeHeader } from './verify-header';
import { AGENT_CARD_VERIFY_LIMITS } from './verify-types';

// What the signatures of a card may cover: its canonical forms, computed once each and only when
// a signature needs them, and the model reading used to say what a failed signature leaves out.

export interface Signable {
  /** The base64url payload of each allowed form to try, in order, without duplicates. */
  payloads(): { form: AgentCardCanonicalForm; payload: string }[];
  /** The base64url payload of `form`, for a signature that names the one it covers. */
  payload(form: AgentCardCanonicalForm): string;
  /** The pruned content as a value, members in the card's order. */
  pruned(): unknown;
  /** The pointers of the default-valued members the pruned form leaves out (computed once, on demand). */
  prunedAway(): string[];
}

/**
 * The canonical forms the examined signatures may cover: the one a signature names, or every
 * form listed for one that names none. At least one, so that a card no form can represent is
 * refused as such whatever its signatures hold.
 */
export function formsNeeded(
  entries: readonly unknown[],
  forms: readonly AgentCardCanonicalForm[],
): Set<AgentCardCanonicalForm> {
  const needed = new Set<AgentCardCanonicalForm>();
  for (const entry of entries.slice(0, AGENT_CARD_VERIFY_LIMITS.signatures)) {
    const header = decodeHeader(entry);
    if (typeof header === 'string') continue;
    const named = header[FORM_HEADER_PARAMETER];
    if (named === undefined) for (const form of forms) needed.add(form);
    else if (forms.includes(named as AgentCardCanonicalForm)) needed.add(named as AgentCardCanonicalForm);
  }
  if (needed.size === 0) needed.add(forms[0] as AgentCardCanonicalForm);
  return needed;
}

/** What a signature covers, or why no signature on this card can be trusted. */
export function signable(
  card: object,
  forms: readonly AgentCardCanonicalForm[],
  needed: ReadonlySet<AgentCardCanonicalForm>,
): Signable | { reason: string; uncovered?: string[] } {
  const twice = dualNamePointers(card);
  if (twice.length > 0) {
    const pairs = twice.slice(0, 5).map(([json, proto]) => `${json} and ${proto}`);
    return {
      reason: `the card names a field twice, under its JSON name and its proto name (${pairs.join('; ')}${twice.length > 5 ? `; ${twice.length - 5} more` : ''}): a reader may take either, so no signature can vouch for the one it reads (spec §5.5: JSON uses the camelCase name)`,
      uncovered: twice.flat(),
    };
  }
  // Only the forms the examined signatures need are computed, each once.
  let of: CanonicalForms;
  try {
    of = canonicalFormsOf(card);
    for (const form of AGENT_CARD_CANONICAL_FORMS) if (needed.has(form)) of.text(form);
  } catch (error) {
    return { reason: `the card cannot be canonicalized: ${(error as Error).message}` };
  }
  const byForm: Partial<Record<AgentCardCanonicalForm, string>> = {};
  const payload = (form: AgentCardCanonicalForm): string => {
    byForm[form] ??= encodeBase64url(of.text(form));
    return byForm[form];
  };
  let payloads: ReturnType<Signable['payloads']> | undefined;
  let prunedAway: string[] | undefined;
  return {
    payloads: () => {
      if (payloads === undefined) {
        payloads = [];
        const seen = new Set<string>();
        for (const form of forms) {
          if (!seen.has(payload(form))) payloads.push({ form, payload: payload(form) });
          seen.add(payload(form));
        }
      }
      return payloads;
    },
    payload,
    pruned: of.prunedInCardOrder,
    prunedAway: () => {
      // The values compared in the order of their canonical text, without serializing the
      // served-as-is form only for this.
      prunedAway ??= uncoveredPointers(of.content, of.pruned(), 20, canonicalKeyOrder);
      return prunedAway;
    },
  };
}

/** The card as the v1.0 model reads it, and its payload; `undefined` when it does not fit the model. */
export function modelPayload(card: object): { text: string; payload: string } | undefined {
  try {
    const text = modelCanonicalForm(card as AgentCard);
    return { text, payload: encodeBase64url(text) };
  } catch {
    return undefined;
  }
}

/**
 * Why a signature that matched no canonical form failed, when it matches the card as read
 * through the v1.0 model: then it is a signature over less than the card shows, and the
 * pointers say what it leaves out. `undefined` when it does not match that reading either.
 */
export async function uncoveredBy(
  content: Signable,
  model: { text: string; payload: string } | undefined,
  verify: (payload: string) => Promise<boolean>,
): Promise<{ reason: string; uncovered: string[] } | undefined> {
  if (model === undefined || !(await verify(model.payload))) return undefined;
  // `model.text` is canonical JSON that modelCanonicalForm wrote, not input: JSON.parse reads it back.
  const uncovered = uncoveredPointers(content.pruned(), JSON.parse(model.text));
  return {
    reason: `the signature does not cover ${uncovered.length > 0 ? uncovered.join(', ') : 'some members'}: it matches the card only as the v1.0 model reads it, without ${uncovered.length === 1 ? 'that member' : 'those members'} (outside the model, a snake_case twin, or a second member of a oneof), so ${uncovered.length === 1 ? 'it was' : 'they were'} added after signing or left out by the signer, and a reader could use content nobody signed`,
    uncovered,
  };
}
