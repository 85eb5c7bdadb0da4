import { describe, expect, it } from 'vitest';
import { conformanceAgentCard } from '../../testing/cards';
import { createAgentCardResponder } from '../responder';
import type { AgentCardResponse } from '../types';
import { prefersAlternate } from './documents';

const CARD_TYPE = 'application/a2a-agent-card+json';
const card = conformanceAgentCard('negotiated');
const responder = createAgentCardResponder({ card, logger: { warn: () => {} } });
const get = (headers: Record<string, string>, method = 'GET') =>
  responder.respond({ method, path: '/.well-known/agent-card.json', headers, raw: undefined }) as AgentCardResponse;

describe('content negotiation on the card path', () => {
  it('answers Accept: application/a2a-agent-card+json with that type, the same bytes and Vary: Accept', () => {
    const plain = get({});
    const asked = get({ accept: CARD_TYPE });
    expect(plain.headers['content-type']).toBe('application/a2a+json');
    expect(asked.headers['content-type']).toBe(CARD_TYPE);
    expect(asked.body).toEqual(plain.body);
    expect([plain.headers.vary, asked.headers.vary]).toEqual(['Accept', 'Accept']);
    expect(asked.headers.etag).not.toBe(plain.headers.etag);
  });

  it('keeps 304 right for both types: each answers its own tag, and a tag of the other type gets the body', () => {
    const plain = get({});
    const asked = get({ accept: CARD_TYPE });
    expect(get({ 'if-none-match': plain.headers.etag! }).status).toBe(304);
    const notModified = get({ accept: CARD_TYPE, 'if-none-match': asked.headers.etag! });
    expect([notModified.status, notModified.headers.etag, notModified.headers.vary]).toEqual([
      304,
      asked.headers.etag,
      'Accept',
    ]);
    expect(get({ accept: CARD_TYPE, 'if-none-match': plain.headers.etag! }).status).toBe(200);
    expect(get({ accept: CARD_TYPE }, 'HEAD').headers['content-type']).toBe(CARD_TYPE);
  });

  it.each([
    ['no Accept', undefined, false],
    ['*/*', '*/*', false],
    ['application/json', 'application/json', false],
    ['the card entry type', CARD_TYPE, true],
    ['the card entry type, any case, among others', `text/html, APPLICATION/A2A-AGENT-CARD+JSON;q=0.9`, true],
    ['the card entry type refused with q=0', `${CARD_TYPE};q=0, */*`, false],
    ['both types, the default preferred', `${CARD_TYPE};q=0.5, application/a2a+json`, false],
    ['both types at the same q (the default wins ties)', `${CARD_TYPE}, application/a2a+json`, false],
    ['both types, the entry type preferred', `${CARD_TYPE}, application/a2a+json;q=0.8`, true],
    ['an oversized header', `${'x/y, '.repeat(2000)}${CARD_TYPE}`, false],
  ])('%s → %s', (_name, accept, expected) => {
    expect(prefersAlternate(accept, CARD_TYPE)).toBe(expected);
  });

  it('never negotiates the legacy alias (it names the card as canonical)', () => {
    const alias = responder.respond({
      method: 'GET',
      path: '/.well-known/agent.json',
      headers: { accept: CARD_TYPE },
      raw: undefined,
    }) as AgentCardResponse | undefined;
    expect(alias?.headers['content-type'] ?? 'not served').not.toBe(CARD_TYPE);
  });
});
