import { type AgentCardSigningAlgorithm, refuseAlgorithm } from './algorithms';
import { AGENT_CARD_CANONICAL_FORMS, type AgentCardCanonicalForm, FORM_HEADER_PARAMETER } from './canonicalize';
import { decodeBase64url } from './base64url';
import { readJsonText } from '../json/read';
import { notJsonReason } from './jwks';
import type { AgentCardSignatureCheck } from './verify-types';
import { showValue } from '../util';

/** The protected header of a `signatures` entry, or why it cannot be read. */
export function decodeHeader(entry: unknown): Record<string, unknown> | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'the entry is not an object';
  const { protected: encoded, signature } = entry as { protected?: unknown; signature?: unknown };
  if (typeof encoded !== 'string' || encoded === '') return '"protected" is missing or not a string';
  if (typeof signature !== 'string' || signature === '') return '"signature" is missing or not a string';
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return '"protected" is not base64url (RFC 7515 §2)';
  if (!/^[A-Za-z0-9_-]+$/.test(signature)) return '"signature" is not base64url (RFC 7515 §2)';
  // As JSON.parse reads it (a repeated member keeps its last value, RFC 7515 §4), strict UTF-8 and
  // at most 64 levels deep.
  const read = readJsonText(decodeBase64url(encoded), { duplicates: 0, inexactNumbers: 0 });
  if (!read.ok) {
    return `"protected" does not decode to JSON (${notJsonReason(read)})`;
  }
  const header = read.value;
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    return '"protected" does not decode to a JSON object';
  return header as Record<string, unknown>;
}

/** A signature whose protected header names what a key check needs. */
export interface ReadSignature {
  header: Record<string, unknown>;
  kid: string;
  alg: AgentCardSigningAlgorithm;
  /** The canonical form the header names; `undefined` when it names none. */
  form?: AgentCardCanonicalForm;
}

/**
 * Reads the protected header of one `signatures` entry and records its `kid`, `alg`, `jku` (and
 * `formNamed`) on `check`. Returns why no key can check it: a malformed entry, a refused `alg`, no
 * `typ` or `kid`, or a named form that is unknown or not accepted.
 */
export function readSignature(
  entry: unknown,
  check: AgentCardSignatureCheck,
  algorithms: ReadonlySet<string>,
  forms: readonly AgentCardCanonicalForm[],
): ReadSignature | string {
  const header = decodeHeader(entry);
  if (typeof header === 'string') return `malformed signature: ${header}`;
  if (typeof header.kid === 'string') check.kid = header.kid;
  if (typeof header.alg === 'string') check.alg = header.alg;
  if (typeof header.jku === 'string') check.jku = header.jku;
  const refused = refuseAlgorithm(header.alg, algorithms);
  if (refused) return refused;
  const alg = header.alg as AgentCardSigningAlgorithm;
  if (typeof header.typ !== 'string' || header.typ === '') {
    return 'the protected header has no "typ" (spec §8.4.2: "JOSE")';
  }
  if (typeof header.kid !== 'string' || header.kid === '') {
    return 'the protected header has no "kid", so no trusted key can be chosen';
  }
  const read: ReadSignature = { header, kid: header.kid, alg };
  // A signature that names its form is checked over that form only: a pruned-form signature
  // must not pass for a served-as-is one of the card with its default-valued members removed.
  const namedForm = header[FORM_HEADER_PARAMETER];
  if (namedForm !== undefined) {
    if (typeof namedForm !== 'string' || !AGENT_CARD_CANONICAL_FORMS.includes(namedForm as AgentCardCanonicalForm)) {
      return `the protected header's "${FORM_HEADER_PARAMETER}" is ${showValue(namedForm)}, not a canonical form (${AGENT_CARD_CANONICAL_FORMS.join(', ')})`;
    }
    const form = namedForm as AgentCardCanonicalForm;
    if (!forms.includes(form)) {
      return `the signature covers the ${form} form, which this verification does not accept (forms: ${forms.join(', ')})`;
    }
    read.form = form;
    check.formNamed = true;
  }
  return read;
}
