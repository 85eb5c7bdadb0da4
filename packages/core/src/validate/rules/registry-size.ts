/**
 * Rule 144 `card-registry-size`: a card over 100 KiB is refused by at least one large registry
 * (AWS's agent registry refuses cards over 102,400 characters).
 * @see packages/core/RULES.md §6.3
 */
import { utf8Length } from '../../json/text';
import type { JsonObject, RuleContext } from '../context';

/** The largest card every registry we know of accepts: 100 KiB. */
export const REGISTRY_CARD_BYTES = 102_400;

/**
 * The card's size in bytes of UTF-8: the bytes or the text given, or for a value passed in code
 * its compact JSON text (the tree is plain JSON by now: no cycle, getter or bigint).
 */
function cardBytes(input: unknown, card: JsonObject): number {
  if (input instanceof Uint8Array) return input.byteLength;
  if (typeof input === 'string') return utf8Length(input);
  return utf8Length(JSON.stringify(card));
}

/** Reports the card when it is larger than {@link REGISTRY_CARD_BYTES}. */
export function checkRegistrySize(card: JsonObject, ctx: RuleContext, input: unknown): void {
  const size = cardBytes(input, card);
  if (size <= REGISTRY_CARD_BYTES) return;
  ctx.report(
    'card-registry-size',
    ctx.profile === 'development' ? 'info' : 'warning',
    [],
    `card: ${size} bytes, over 102400 (100 KiB); at least one large registry refuses it (AWS's agent registry: cards over 102,400 characters).`,
    'Move long descriptions to documentationUrl, trim examples, or split very many skills across several agents: a card under 100 KiB is accepted everywhere.',
  );
}
