// What the Next.js pages of the docs tell a user to create: the route files of the serving page's
// Next.js section, matched as the App Router matches them (a folder per segment, `[id]` one
// segment, `[...path]` one or more), must reach every document the responder serves for a host
// with every feature on (the legacy alias, the viewer's pages, the catalog, ARD, the JWK Set, each
// agent's documents and the extended card). A file the docs leave out is a 404 in a user's app.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { servedPathsOf } from '../http';
import { CONFORMANCE_CARD } from '../testing/cards';
import { agentCardRoute } from './index';

const docs = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
/** The Next.js section of docs/serving.md, up to the next section. */
const section = /### Next\.js route handlers[\s\S]*?(?=\n### )/.exec(docs('../../docs/serving.md'))![0];
const readme = /Next\.js 16 App Router[\s\S]*?(?=\nNitro )/.exec(docs('../../README.md'))![0];

/** `app/…/route.ts` as a matcher of request paths. */
function matcher(file: string): (path: string) => boolean {
  const segments = file
    .replace(/^app\//, '')
    .replace(/\/?route\.ts$/, '')
    .split('/');
  const pattern = segments
    .map((s) =>
      /^\[\.\.\.\w+\]$/.test(s)
        ? '(?:/[^/]+)+'
        : /^\[\w+\]$/.test(s)
          ? '/[^/]+'
          : `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    )
    .join('');
  const re = new RegExp(`^${pattern}$`);
  return (path) => re.test(path);
}

const routeFiles = (text: string) => [...new Set(text.match(/app\/[^\s`"'()]*route\.ts/g) ?? [])];

const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const at = (path: string) => ({
  ...CONFORMANCE_CARD,
  supportedInterfaces: [
    {
      url: `https://agent.conformance.dev${path}/a2a/rest`,
      protocolBinding: 'HTTP+JSON' as const,
      protocolVersion: '1.0',
    },
  ],
});
const route = agentCardRoute({
  logger: { warn: () => {} },
  agents: [
    { id: 'billing', path: '/agents/billing', card: at('/agents/billing') },
    { id: 'support', path: '/agents/support', card: at('/agents/support') },
  ],
  default: 'billing',
  catalog: { publisher: 'conformance.dev' },
  viewer: true,
  sign: { privateKey, alg: 'ES256', kid: 'k1' },
});
const served = [...servedPathsOf(route.responder), '/agents/billing/a2a/rest/extendedAgentCard'];

describe('the Next.js route files the docs name', () => {
  it('reach the legacy alias, the viewer and every other document of a host with every feature on', () => {
    expect(served).toEqual(
      expect.arrayContaining([
        '/.well-known/agent.json',
        '/.well-known/agent-card.html',
        '/agents/billing/.well-known/agent.json',
        '/.well-known/jwks.json',
      ]),
    );
    const matchers = routeFiles(section).map(matcher);
    expect(served.filter((path) => !matchers.some((matches) => matches(path)))).toEqual([]);
  });

  it('say how to run them on the edge runtime, in the serving page and in the README', () => {
    expect(section).toContain("export const runtime = 'edge';");
    expect(readme).toContain("export const runtime = 'edge'");
  });

  it('in the README, reach the card, its alias and its page', () => {
    const matchers = routeFiles(readme).map(matcher);
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/agent-card.html'])
      expect(
        matchers.some((matches) => matches(path)),
        path,
      ).toBe(true);
  });
});
