import type { AgentCard } from '../model';

const encoder = new TextEncoder();

/**
 * Turns a card variant into the exact bytes that are served and hashed. This is the one place
 * where a card object becomes bytes: signing hooks in here, so the served bytes, the ETag and
 * the signature always describe the same document.
 *
 * The output is compact JSON in the card's own key order: the same input gives the same bytes
 * on every replica (no timestamps, no random ids).
 */
export function encodeCard(card: AgentCard | Record<string, unknown>): Uint8Array {
  return encoder.encode(JSON.stringify(card));
}

/** Encodes a fixed JSON error body. */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}
