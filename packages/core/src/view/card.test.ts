import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CARD } from '../testing/cards';
import { encodeBase64url } from '../sign/base64url';
import { HOSTILE_STRINGS, hostileCard } from './test-cards';
import { readSignatureHeader, renderAgentCardPage, renderCardSection } from './card';
import { renderAiCatalogPage } from './catalog';
import {
  VIEWER_CONTENT_SECURITY_POLICY,
  VIEWER_META_CONTENT_SECURITY_POLICY,
  VIEWER_SCRIPT,
  VIEWER_SCRIPT_HASH,
  VIEWER_STYLE,
  VIEWER_STYLE_HASH,
} from './document';
import { createHash } from 'node:crypto';

/** Every `<script>`, event handler, `<img>` and `href` of a page, as a browser's parser would meet them. */
function activeContent(page: string) {
  return {
    scripts: page.match(/<script\b[^>]*>/gi) ?? [],
    handlers: page.match(/<[^>]*\son\w+\s*=/gi) ?? [],
    images: page.match(/<(img|svg|iframe|object|embed)\b/gi) ?? [],
    hrefs: [...page.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]),
  };
}

describe('renderAgentCardPage', () => {
  it('shows what a person looks for in a card', () => {
    const page = renderAgentCardPage(CONFORMANCE_CARD, { jsonHref: '/.well-known/agent-card.json' });
    expect(page.startsWith('<!doctype html>')).toBe(true);
    for (const text of [
      '<title>Conformance Agent — Agent Card</title>',
      '<h1>Conformance Agent</h1>',
      'Answers questions about serving A2A agent cards',
      'Agent Card Conformance',
      '<a href="https://conformance.dev/" rel="noopener noreferrer nofollow">https://conformance.dev/</a>',
      'HTTP bearer token (JWT) in the Authorization header',
      'API key in header X-API-Key',
      'To call the agent: bearer, or apiKey.',
      '<h3>Public answers</h3>',
      'What is an agent card?',
      '<h3>HTTP+JSON</h3>',
      'yes, for authenticated callers',
      'The card is not signed.',
      '<a href="/.well-known/agent-card.json">Open the JSON document</a>',
      '&quot;name&quot;: &quot;Conformance Agent&quot;',
    ]) {
      expect(page).toContain(text);
    }
  });

  it.each(HOSTILE_STRINGS)('renders a card whose every string is %j with no active content but its own', (payload) => {
    const page = renderAgentCardPage(hostileCard(payload));
    const active = activeContent(page);
    expect(active.scripts).toEqual(['<script>']);
    expect(active.handlers).toEqual([]);
    expect(active.images).toEqual([]);
    expect(active.hrefs).toEqual([]);
    // Text that is harmless as written (a javascript: URL as text) may appear; markup may not.
    if (/[<>"'\u0000\u202E]/.test(payload)) expect(page).not.toContain(payload);
  });

  it('shows bidi overrides and controls as code points, in the text and in the raw JSON', () => {
    const page = renderAgentCardPage({ name: 'pay\u202Eexe.pdf', description: 'bell\u0007' });
    expect(page).toContain('<h1>pay[U+202E]exe.pdf</h1>');
    expect(page).toContain('bell[U+0007]');
    expect(page).toContain('&quot;name&quot;: &quot;pay\\u202eexe.pdf&quot;');
    expect(page).not.toMatch(/[\u202E\u0007]/);
  });

  it.each([
    ['null', null],
    ['a string', '<script>x</script>'],
    ['an array', [1, 2]],
    ['an empty object', {}],
    [
      'wrong types everywhere',
      { name: 5, skills: 'x', securitySchemes: [1], capabilities: 'yes', supportedInterfaces: {} },
    ],
    ['a skill list with junk', { name: 'A', skills: [null, 7, { name: ['x'] }, { id: 'only-id' }] }],
  ])('renders %s without throwing', (_, card) => {
    const page = renderAgentCardPage(card);
    expect(page).toContain('</html>');
    expect(activeContent(page).scripts).toEqual(['<script>']);
  });

  it('renders a cyclic value and a value with a throwing getter', () => {
    const cyclic: Record<string, unknown> = { name: 'Loop' };
    cyclic.self = cyclic;
    expect(renderAgentCardPage(cyclic)).toContain('(this value cannot be shown as JSON)');
    const trap = {
      get name(): string {
        throw new Error('boom');
      },
    };
    expect(renderAgentCardPage(trap)).toContain('</html>');
  });

  it('says which key signed the card, from the protected header', () => {
    const header = encodeBase64url(
      JSON.stringify({ alg: 'ES256', typ: 'JOSE', kid: 'key-2026', jku: 'https://a.example/jwks.json' }),
    );
    const page = renderAgentCardPage({ ...CONFORMANCE_CARD, signatures: [{ protected: header, signature: 'AA' }] });
    expect(page).toContain('The card is signed (one signature).');
    expect(page).toContain(
      'Key <code>key-2026</code>, algorithm ES256, key set at <a href="https://a.example/jwks.json" rel="noopener noreferrer nofollow">https://a.example/jwks.json</a> — <span class="muted">not verified by this page</span>',
    );
  });

  it('explains one key signing twice (one signature per canonical form), and only then', () => {
    const twice = renderAgentCardPage(CONFORMANCE_CARD, {
      signatures: [
        { kid: 'key-2026', alg: 'ES256' },
        { kid: 'key-2026', alg: 'ES256' },
      ],
    });
    expect(twice).toContain(
      'The card is signed (2 signatures).</p><p class="muted">One key signing more than once is usual',
    );
    const two = renderAgentCardPage(CONFORMANCE_CARD, {
      signatures: [
        { kid: 'old', alg: 'ES256' },
        { kid: 'new', alg: 'ES256' },
      ],
    });
    expect(two).not.toContain('One key signing more than once');
  });

  it("shows a verifier's result when it is given", () => {
    const page = renderAgentCardPage(CONFORMANCE_CARD, {
      signatures: [
        { kid: 'a', alg: 'EdDSA', verified: true },
        { kid: 'b', alg: 'RS256', verified: false },
      ],
    });
    expect(page).toContain('Key <code>a</code>, algorithm EdDSA — <span class="status-ok">verified</span>');
    expect(page).toContain('Key <code>b</code>, algorithm RS256 — <span class="status-warn">did not verify</span>');
  });

  it.each([
    ['javascript:alert(1)', undefined],
    ['//evil.example/card.json', undefined],
    ['/\\evil.example', undefined],
    ['/agents/a/.well-known/agent-card.json', '/agents/a/.well-known/agent-card.json'],
    ['https://a.example/card.json', 'https://a.example/card.json'],
    ['./agent-card.json', './agent-card.json'],
    ['../.well-known/agent-card.json', '../.well-known/agent-card.json'],
    ['.//evil.example', './/evil.example'],
    ['agent-card.json', undefined],
    ['javascript:alert(1)//./', undefined],
  ])('links the JSON document %j only when it is a same-origin path or an http(s) URL', (jsonHref, expected) => {
    const page = renderAgentCardPage(CONFORMANCE_CARD, { jsonHref });
    const hrefs = activeContent(page).hrefs.filter((href) => !href?.startsWith('https://conformance.dev'));
    expect(hrefs.filter((href) => !href?.startsWith('https://agent.conformance.dev'))).toEqual(
      expected ? [expected] : [],
    );
  });

  it('puts the policy in a meta tag only when asked', () => {
    expect(renderAgentCardPage(CONFORMANCE_CARD)).not.toContain('http-equiv');
    expect(renderAgentCardPage(CONFORMANCE_CARD, { cspMeta: true })).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${VIEWER_META_CONTENT_SECURITY_POLICY.replaceAll("'", '&#39;')}">`,
    );
  });
});

describe('the content security policy', () => {
  const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  it("allows exactly the page's own inline style and script, by hash", () => {
    expect(VIEWER_STYLE_HASH).toBe(sha(VIEWER_STYLE));
    expect(VIEWER_SCRIPT_HASH).toBe(sha(VIEWER_SCRIPT));
    const page = renderAgentCardPage(CONFORMANCE_CARD);
    expect(page).toContain(`<style>${VIEWER_STYLE}</style>`);
    expect(page).toContain(`<script>${VIEWER_SCRIPT}</script>`);
    expect(VIEWER_CONTENT_SECURITY_POLICY).toBe(
      `default-src 'none'; style-src ${VIEWER_STYLE_HASH}; script-src ${VIEWER_SCRIPT_HASH}; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'`,
    );
    expect(VIEWER_META_CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors');
  });

  it('loads nothing from anywhere: no url(), @import, src= or external link in the shell', () => {
    const page = renderAgentCardPage({ name: 'x' });
    expect(page).not.toMatch(/url\(|@import|\ssrc=|<link\b/i);
  });
});

describe('readSignatureHeader', () => {
  it.each([
    ['not base64url', { protected: '!!!', signature: 'x' }, {}],
    ['not JSON', { protected: encodeBase64url('nope'), signature: 'x' }, {}],
    ['a JSON array', { protected: encodeBase64url('[1]'), signature: 'x' }, {}],
    [
      'a kid in the unprotected header',
      { protected: encodeBase64url('{"alg":"ES256"}'), header: { kid: 'k' } },
      { alg: 'ES256', kid: 'k' },
    ],
    ['not an object', 'sig', {}],
  ])('reads %s without throwing', (_, signature, expected) => {
    expect(readSignatureHeader(signature)).toEqual(expected);
  });
});

describe('renderCardSection', () => {
  it('names its raw JSON block by rawJsonId, so several cards on one page keep their own copy buttons', () => {
    const first = renderCardSection(CONFORMANCE_CARD).value;
    expect(first).toContain('data-copy="raw-json"');
    expect(first).toContain('<pre id="raw-json"');
    const second = renderCardSection(CONFORMANCE_CARD, { rawJsonId: 'raw-json-2' }).value;
    expect(second).toContain('data-copy="raw-json-2"');
    expect(second).toContain('<pre id="raw-json-2"');
    expect(second).not.toContain('"raw-json"');
  });

  it('falls back to the default id for one that is not a plain name', () => {
    for (const rawJsonId of ['', 'a"b', '1st', 'x y', `r${'x'.repeat(64)}`]) {
      expect(renderCardSection(CONFORMANCE_CARD, { rawJsonId }).value).toContain('<pre id="raw-json"');
    }
  });

  it('can sit inside another page with an h2', () => {
    const section = renderCardSection(CONFORMANCE_CARD, { headingLevel: 2 }).value;
    expect(section).toContain('<h2>Conformance Agent</h2>');
    expect(section).not.toContain('<h1>');
    expect(section).not.toContain('<html');
  });
});

describe('renderAiCatalogPage', () => {
  const catalog = {
    specVersion: '1.0',
    host: { displayName: 'Acme Corp', documentationUrl: 'https://acme.example/docs' },
    entries: [
      {
        identifier: 'urn:acme:billing',
        displayName: 'Billing',
        mediaType: 'application/a2a-agent-card+json',
        url: 'https://acme.example/agents/billing/.well-known/agent-card.json',
        description: 'Invoices and refunds.',
        tags: ['billing', 'refunds'],
        version: '2.0.0',
      },
      {
        identifier: 'javascript:x',
        displayName: '<script>globalThis.pwned=1</script>',
        mediaType: 'x',
        url: 'javascript:alert(1)',
      },
    ],
  };

  it("lists every entry with its page, its card's skills and authentication", () => {
    const page = renderAiCatalogPage(catalog, {
      jsonHref: '/.well-known/ai-catalog.json',
      cards: new Map([['urn:acme:billing', CONFORMANCE_CARD]]),
      pageHrefs: new Map([
        ['urn:acme:billing', '/agents/billing/.well-known/agent-card.html'],
        ['javascript:x', 'javascript:alert(1)'],
      ]),
    });
    for (const text of [
      '<title>Acme Corp — agents</title>',
      '<h1>Acme Corp</h1>',
      'AI Catalog 1.0 — 2 entries',
      '<h2><a href="/agents/billing/.well-known/agent-card.html">Billing</a></h2>',
      'Invoices and refunds.',
      '<li>refunds</li>',
      'Public answers',
      'bearer: HTTP authentication; apiKey: API key',
      '<code class="nolink">javascript:alert(1)</code>',
      '<h2>&lt;script&gt;globalThis.pwned=1&lt;/script&gt;</h2>',
      '<a href="/.well-known/ai-catalog.json">Open the JSON document</a>',
    ]) {
      expect(page).toContain(text);
    }
    expect(activeContent(page).scripts).toEqual(['<script>']);
    expect(activeContent(page).hrefs).toEqual([
      'https://acme.example/docs',
      '/agents/billing/.well-known/agent-card.html',
      'https://acme.example/agents/billing/.well-known/agent-card.json',
      '/.well-known/ai-catalog.json',
    ]);
  });

  it.each([null, 'x', { entries: 'no' }, { entries: [null, 3] }])('renders %j without throwing', (value) => {
    expect(renderAiCatalogPage(value)).toContain('</html>');
  });
});
