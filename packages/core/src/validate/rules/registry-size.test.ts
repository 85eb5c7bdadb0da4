import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ValidationProfile } from '../../findings';
import { validateAgentCard } from '../validate';

const shopping = () =>
  JSON.parse(readFileSync(new URL('../../../../../examples/cards/shopping.json', import.meta.url), 'utf8'));

/** The shopping card, its description padded so that its compact JSON is exactly `bytes` long. */
function cardOf(bytes: number): Record<string, unknown> {
  const card = shopping();
  card.description = '';
  card.description = 'x'.repeat(bytes - JSON.stringify(card).length);
  expect(JSON.stringify(card).length).toBe(bytes);
  return card;
}

const registrySize = (value: unknown, profile: ValidationProfile) =>
  validateAgentCard(value, { profile })
    .findings.filter((f) => f.rule === 'card-registry-size')
    .map((f) => [f.severity, f.path, f.message]);

const message = (bytes: number) =>
  `card: ${bytes} bytes, over 102400 (100 KiB); at least one large registry refuses it (AWS's agent registry: cards over 102,400 characters).`;

describe('card-registry-size (rule 144)', () => {
  it('a card of 102,401 bytes: a warning in production and strict, an info in development', () => {
    const card = cardOf(102_401);
    expect(registrySize(card, 'production')).toEqual([['warning', '', message(102_401)]]);
    expect(registrySize(card, 'strict')).toEqual([['warning', '', message(102_401)]]);
    expect(registrySize(card, 'development')).toEqual([['info', '', message(102_401)]]);
  });

  it('a card of exactly 102,400 bytes is accepted everywhere: no finding', () => {
    expect(registrySize(cardOf(102_400), 'production')).toEqual([]);
  });

  it('measures the text or bytes given, in bytes of UTF-8', () => {
    const card = cardOf(60_000);
    // 60,000 bytes compact; with 21,000 three-byte characters in place of ASCII, 102,000 more.
    card.description = `${(card.description as string).slice(21_000)}${'€'.repeat(21_000)}`;
    const text = JSON.stringify(card);
    const bytes = Buffer.byteLength(text);
    expect(bytes).toBe(60_000 + 42_000);
    expect(registrySize(text, 'production')).toEqual([]);
    card.description = `${card.description as string}${'€'.repeat(200)}`;
    const over = Buffer.from(JSON.stringify(card));
    expect(registrySize(over, 'production')).toEqual([['warning', '', message(over.byteLength)]]);
    expect(registrySize(JSON.stringify(card), 'production')).toEqual([['warning', '', message(over.byteLength)]]);
  });

  it('measures a value given in code as its compact JSON, in bytes of UTF-8', () => {
    const card = cardOf(102_401);
    card.description = `${(card.description as string).slice(2)}€`;
    expect(registrySize(card, 'production')).toEqual([['warning', '', message(102_402)]]);
  });
});
