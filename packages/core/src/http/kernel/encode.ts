import { concatBytes } from '../../bytes';
import type { AgentCard } from '../../model';
import type { AgentCardSigner } from '../../sign/sign';

const encoder = new TextEncoder();

/** Arrays of the card longer than this (a card with many skills) are serialised in slices. */
const SLICE_LENGTH = 128;

/**
 * Turns a card variant into the exact bytes that are served and hashed. This is the one place
 * where a card object becomes bytes: signing hooks in here, so the served bytes, the ETag and
 * the signature always describe the same document.
 *
 * The output is compact JSON in the card's own key order: the same input gives the same bytes
 * on every replica (no timestamps, no random ids). They are the bytes of
 * `JSON.stringify(card)`; a card with long top-level arrays is written in pieces, because turning
 * one string of a few hundred kilobytes into bytes costs more than the pieces together.
 */
export function encodeCard(card: AgentCard | Record<string, unknown>): Uint8Array {
  const chunks = jsonChunks(card);
  if (chunks === undefined) return encoder.encode(JSON.stringify(card));
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  return concatBytes(chunks, length);
}

/**
 * The card as `sign` serves it: the signer's signatures appended to those the card already has
 * (none without `sign`). Called once per variant, public or extended, just before it becomes
 * bytes, so a deterministic algorithm gives every replica the same bytes.
 */
export function signedVariant(card: AgentCard, signer: AgentCardSigner | undefined): AgentCard {
  if (signer === undefined) return card;
  return { ...card, signatures: [...(card.signatures ?? []), ...signer.signSync(card)] };
}

/** Encodes a fixed JSON error body. */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Whether `JSON.stringify` would call a `toJSON` of the value (objects, functions, bigints). */
const hasToJson = (value: unknown): boolean =>
  value !== null &&
  value !== undefined &&
  typeof value !== 'string' &&
  typeof value !== 'number' &&
  typeof value !== 'boolean' &&
  typeof (value as { toJSON?: unknown }).toJSON === 'function';

const isPlainArray = (value: unknown): value is unknown[] =>
  Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;

const COMMA = 0x2c;

/**
 * The UTF-8 bytes of `JSON.stringify(card)` as consecutive chunks, or `undefined` when one string
 * is as good (no long array) or when chunks could differ from it (a `toJSON` that would be called
 * with another key).
 */
function jsonChunks(card: object): Uint8Array[] | undefined {
  const proto = Object.getPrototypeOf(card);
  if ((proto !== Object.prototype && proto !== null) || hasToJson(card)) return undefined;
  const keys = Object.keys(card);
  const values = keys.map((key) => (card as Record<string, unknown>)[key]);
  const isLong = (value: unknown): value is unknown[] => isPlainArray(value) && value.length > SLICE_LENGTH;
  if (!values.some(isLong) || values.some(hasToJson)) return undefined;
  if (values.some((value) => isLong(value) && value.some(hasToJson))) return undefined;

  const chunks: Uint8Array[] = [];
  let open = '{';
  let separator = '';
  keys.forEach((key, index) => {
    const value = values[index];
    if (isLong(value)) {
      chunks.push(encoder.encode(`${open}${separator}${JSON.stringify(key)}:`));
      for (let start = 0; start < value.length; start += SLICE_LENGTH) {
        // `[a,b]` `[c,d]` `[e]` become `[a,b` `,c,d` `,e]`.
        const end = start + SLICE_LENGTH;
        const slice = encoder.encode(JSON.stringify(value.slice(start, end)));
        if (start > 0) slice[0] = COMMA;
        chunks.push(end < value.length ? slice.subarray(0, -1) : slice);
      }
      open = '';
      separator = ',';
      return;
    }
    const json = JSON.stringify(value);
    // JSON leaves out undefined, functions and symbols.
    if (json === undefined) return;
    open += `${separator}${JSON.stringify(key)}:${json}`;
    separator = ',';
  });
  chunks.push(encoder.encode(`${open}}`));
  return chunks;
}
