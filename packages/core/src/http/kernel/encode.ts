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
  const parts = jsonParts(card);
  if (parts === undefined) return encoder.encode(JSON.stringify(card));
  return joinParts(parts);
}

/**
 * A piece of the card's JSON: its text and, for a slice of a long array, how its brackets join
 * the slices around it (`[a,b]` `[c,d]` `[e]` become `[a,b` `,c,d` `,e]`).
 */
interface JsonPart {
  text: string;
  /** Its `[` is written as `,` (a slice after the first). */
  comma: boolean;
  /** Its `]` is left out (a slice before the last). */
  open: boolean;
}

const COMMA = 0x2c;

/**
 * The UTF-8 bytes of the parts joined. ASCII text (a card's usual content) is one byte per code
 * unit, so the parts are written in place into one array of their total length; a part with
 * other characters is seen by `encodeInto` writing more bytes than it read, and the parts are
 * then encoded one by one and joined.
 */
function joinParts(parts: readonly JsonPart[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.open ? part.text.length - 1 : part.text.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const { text, comma, open } of parts) {
    // The `]` of an open slice is written where the next part starts, which writes over it.
    const end = open ? offset + text.length - 1 : offset + text.length;
    const { read, written } = encoder.encodeInto(text, out.subarray(offset, open ? end + 1 : end));
    if (read !== text.length || written !== read) return joinEncoded(parts);
    if (comma) out[offset] = COMMA;
    offset = end;
  }
  return out;
}

/** {@link joinParts} for text beyond ASCII: each part encoded, then copied into place. */
function joinEncoded(parts: readonly JsonPart[]): Uint8Array {
  const encoded = parts.map((part) => {
    const bytes = encoder.encode(part.text);
    if (part.comma) bytes[0] = COMMA;
    return part.open ? bytes.subarray(0, -1) : bytes;
  });
  let length = 0;
  for (const bytes of encoded) length += bytes.byteLength;
  return concatBytes(encoded, length);
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

/**
 * `JSON.stringify(card)` as consecutive parts, or `undefined` when one string is as good (no
 * long array) or when parts could differ from it (a `toJSON` that would be called with another
 * key).
 */
function jsonParts(card: object): JsonPart[] | undefined {
  const proto = Object.getPrototypeOf(card);
  if ((proto !== Object.prototype && proto !== null) || hasToJson(card)) return undefined;
  const keys = Object.keys(card);
  const values = keys.map((key) => (card as Record<string, unknown>)[key]);
  const isLong = (value: unknown): value is unknown[] => isPlainArray(value) && value.length > SLICE_LENGTH;
  if (!values.some(isLong) || values.some(hasToJson)) return undefined;
  if (values.some((value) => isLong(value) && value.some(hasToJson))) return undefined;

  const parts: JsonPart[] = [];
  let text = '{';
  let separator = '';
  keys.forEach((key, index) => {
    const value = values[index];
    if (isLong(value)) {
      parts.push({ text: `${text}${separator}${JSON.stringify(key)}:`, comma: false, open: false });
      for (let start = 0; start < value.length; start += SLICE_LENGTH) {
        const end = start + SLICE_LENGTH;
        const slice = JSON.stringify(value.slice(start, end));
        parts.push({ text: slice, comma: start > 0, open: end < value.length });
      }
      text = '';
      separator = ',';
      return;
    }
    const json = JSON.stringify(value);
    // JSON leaves out undefined, functions and symbols.
    if (json === undefined) return;
    text += `${separator}${JSON.stringify(key)}:${json}`;
    separator = ',';
  });
  parts.push({ text: `${text}}`, comma: false, open: false });
  return parts;
}
