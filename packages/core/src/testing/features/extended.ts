import { expect } from 'vitest';
import { CONFORMANCE_CARD, CONFORMANCE_EXTENDED_PATH, CONFORMANCE_TOKEN, EXTENDED_ONLY_SKILL } from '../cards';
import { type ConformanceFeature, check } from '../runner';
import { authenticate, CARD_PATH } from './shared';

/** The REST extended card: 401 without the token, the extra skills with it, 400 when only declared. */
export const extendedCard: ConformanceFeature = {
  title: 'extended card',
  fixtures: {
    extended: () => ({ card: CONFORMANCE_CARD, extended: { authenticate, card: [EXTENDED_ONLY_SKILL] } }),
  },
  cases: [
    check('no credentials → 401 with WWW-Authenticate and a google.rpc.Status body', async (t) => {
      const res = await t.get('extended', CONFORMANCE_EXTENDED_PATH);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="Conformance Agent"/);
      const body = JSON.parse(res.text);
      expect(body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
      expect(body.error.details[0]).toMatchObject({ reason: 'UNAUTHENTICATED', domain: 'a2a-protocol.org' });
      expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.id);
    }),
    check('a wrong token → 401 and no extended skill', async (t) => {
      const res = await t.get('extended', CONFORMANCE_EXTENDED_PATH, { headers: { authorization: 'Bearer wrong' } });
      expect(res.status).toBe(401);
      expect(res.text).not.toContain(EXTENDED_ONLY_SKILL.id);
    }),
    check('the right token → 200 with the extended skills, private caching, Vary: Authorization', async (t) => {
      const res = await t.get('extended', CONFORMANCE_EXTENDED_PATH, {
        headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/a2a+json');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers.vary).toMatch(/\bAuthorization\b/);
      const ids = JSON.parse(res.text).skills.map((s: { id: string }) => s.id);
      expect(ids).toEqual(['public-answer', EXTENDED_ONLY_SKILL.id]);
      expect((await t.get('extended', CARD_PATH)).text).not.toContain(EXTENDED_ONLY_SKILL.id);
    }),
    check('declared but not configured → 400 EXTENDED_AGENT_CARD_NOT_CONFIGURED', async (t) => {
      const res = await t.get('default', CONFORMANCE_EXTENDED_PATH, {
        headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` },
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error.details[0].reason).toBe('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    }),
  ],
};
