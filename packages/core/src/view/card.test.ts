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
      '<h2>Security schemes</h2><ul class="items"><li><h3>bearer',
      '<h3>Public answers</h3>',
      'What is an agent card?',
      '<h3>HTTP+JSON</h3>',
      'yes, for authenticated callers',
      'The card is not signed.',
      '<a href="/.well-known/agent-card.json">Open the JSON document</a>',
      '<details class="raw"><summary>Show the JSON (74 lines)</summary><pre id="raw-json" tabindex="0" aria-label="The JSON document">{',
      '&quot;name&quot;: &quot;Conformance Agent&quot;',
    ]) {
      expect(page).toContain(text);
    }
  });

  it('says each thing once: the preferred endpoint and what a call needs in the summary only', () => {
    const page = renderAgentCardPage(CONFORMANCE_CARD);
    const count = (text: string) => page.split(text).length - 1;
    // The summary's endpoint; the raw JSON holds it once more, as JSON.
    expect(count('>https://agent.conformance.dev/a2a/jsonrpc</a>')).toBe(1);
    expect(count('<p>Calls need one of:</p>')).toBe(1);
    expect(page).toContain('<h2>Other interfaces</h2><ul class="items"><li><h3>HTTP+JSON</h3>');
    expect(page).not.toContain('(preferred)</span></h3>');
  });

  it('a capability the card leaves out is "no", said as not declared', () => {
    const page = renderAgentCardPage({ ...CONFORMANCE_CARD, capabilities: { streaming: true } });
    expect(page).toContain('<dt>Push notifications</dt><dd>no (not declared)</dd>');
    expect(page).not.toContain('not stated (no)');
  });

  it('one interface: no section repeats it; its tenant is in the summary', () => {
    const page = renderAgentCardPage({
      ...CONFORMANCE_CARD,
      supportedInterfaces: [
        { url: 'https://a.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 'acme' },
      ],
    });
    expect(page).toContain('<dt>Binding</dt><dd>JSONRPC, A2A 1.0</dd>\n<dt>Tenant</dt><dd>acme</dd>');
    expect(page).not.toContain('interfaces</h2>');
  });

  it('opens with a summary: endpoint, binding, authentication, skills, and valid and signed badges', () => {
    const page = renderAgentCardPage(CONFORMANCE_CARD);
    expect(page).toContain(
      '<section class="summary" aria-label="Summary"><ul class="badges" aria-label="Status"><li class="badge badge-ok">✓ Valid A2A card</li><li class="badge badge-none">Not signed</li></ul>\n' +
        '<dl class="facts"><dt>Endpoint</dt><dd><a href="https://agent.conformance.dev/a2a/jsonrpc" rel="noopener noreferrer nofollow">https://agent.conformance.dev/a2a/jsonrpc</a> <span class="muted">(preferred; one more interface below)</span></dd>\n' +
        '<dt>Binding</dt><dd>JSONRPC, A2A 1.0</dd>\n' +
        '<dt>Authentication</dt><dd><p>Calls need one of:</p><ul class="plain"><li>a bearer token (JWT)</li><li>an API key in the header X-API-Key</li></ul></dd>\n' +
        '<dt>Skills</dt><dd>one skill: Public answers</dd></dl></section>',
    );
    // Right after the name and description, before everything else.
    expect(page.indexOf('class="summary"')).toBeLessThan(page.indexOf('<dt>Version</dt>'));
  });

  it.each([
    [
      'one required scheme, signed and verified',
      {
        ...CONFORMANCE_CARD,
        supportedInterfaces: [{ url: 'https://a.example/rpc', protocolBinding: 'GRPC', protocolVersion: '1.0' }],
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      },
      { signatures: [{ kid: 'k', alg: 'ES256', verified: true }] },
      [
        '<li class="badge badge-ok">✓ Valid A2A card</li><li class="badge badge-ok">✓ Signature verified</li>',
        '<dt>Endpoint</dt><dd><a href="https://a.example/rpc" rel="noopener noreferrer nofollow">https://a.example/rpc</a></dd>',
        '<dt>Binding</dt><dd>GRPC, A2A 1.0</dd>',
        '<dt>Authentication</dt><dd><p>Every call needs a bearer token (JWT).</p></dd>',
      ],
    ],
    [
      'no authentication, a signature that failed, and a verdict given',
      { ...CONFORMANCE_CARD, securitySchemes: undefined, securityRequirements: undefined },
      { signatures: [{ kid: 'k', alg: 'ES256', verified: false }], valid: false },
      [
        '<li class="badge badge-bad">✗ Not valid</li><li class="badge badge-bad">✗ Signature did not verify</li>',
        '<dt>Authentication</dt><dd><p>No authentication required.</p></dd>',
      ],
    ],
    [
      'an invalid card with no interface and many skills',
      {
        name: 'Partial',
        skills: Array.from({ length: 7 }, (_, i) => ({ id: `s${i}`, name: `Skill ${i}` })),
        signatures: [{ protected: encodeBase64url('{"alg":"ES256","kid":"k"}'), signature: 'AA' }],
      },
      {},
      [
        '<li class="badge badge-bad">✗ Not valid (',
        '<li class="badge badge-ok">✓ Signed</li>',
        '<dt>Endpoint</dt><dd><span class="muted">none listed</span></dd>',
        '<dt>Binding</dt><dd>none</dd>',
        '<dt>Skills</dt><dd>7 skills: Skill 0, Skill 1, Skill 2, Skill 3, Skill 4, and 2 more</dd>',
      ],
    ],
  ])('summarises %s', (_, card, options, expected) => {
    const section = renderCardSection(card, options).value;
    const summary = section.slice(section.indexOf('<section class="summary"'), section.indexOf('</section>'));
    for (const text of expected) expect(summary).toContain(text);
  });

  it('counts the errors of a card it validated itself', () => {
    expect(renderCardSection({ name: 'x' }).value).toMatch(
      /<li class="badge badge-bad">✗ Not valid \(\d+ errors\)<\/li>/,
    );
  });

  it("shows a skill's modes only where the skill sets its own, and what a skill needs in words", () => {
    const page = renderAgentCardPage({
      ...CONFORMANCE_CARD,
      skills: [
        { id: 'inherits', name: 'Inherits', description: 'd', tags: ['t'] },
        {
          id: 'own',
          name: 'Own',
          description: 'd',
          tags: ['t'],
          outputModes: ['application/json'],
          securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
        },
      ],
    });
    expect(page).toContain(
      '<p class="muted">A skill accepts and produces the card\'s default modes unless it lists its own.</p>',
    );
    expect(page).toContain(
      '<h3>Inherits</h3>\n<p class="muted">id <code>inherits</code></p>\n<p class="desc">d</p>\n<ul class="chips" aria-label="Tags"><li>t</li></ul>\n\n</li>',
    );
    expect(page).toContain(
      '<dl class="facts"><dt>Produces</dt><dd>application/json</dd><dt>Authentication</dt><dd><p>Every call needs an API key in the header X-API-Key.</p></dd></dl></li>',
    );
    expect(page).not.toContain('the card defaults');
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
      // A key id the verifier cannot read is not shown as one (a lossy decode showed "k\uFFFD").
      'a header that is not UTF-8',
      { protected: encodeBase64url(Uint8Array.from([...Buffer.from('{"kid":"k'), 0xff, ...Buffer.from('"}')])) },
      {},
    ],
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
      '<dt>Authentication</dt><dd><p>Calls need one of:</p><ul class="plain"><li>a bearer token (JWT)</li><li>an API key in the header X-API-Key</li></ul></dd>',
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
