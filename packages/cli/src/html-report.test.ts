// The check --html report's parts, pinned to the exact markup a reader gets: the strip of checks
// at the top, findings with a fix only where there is one, infos folded.
import type { DiscoveryFinding, DiscoveryPathReport, DiscoveryReport } from '@agent-card/discovery';
import { describe, expect, it } from 'vitest';
import { findingFix, formatHtmlReport, summaryStrip } from './html-report';
import { forPeople } from './commands/check';

function path(overrides: Partial<DiscoveryPathReport> = {}): DiscoveryPathReport {
  return {
    path: '/.well-known/agent-card.json',
    url: 'https://a.example/.well-known/agent-card.json',
    finalUrl: 'https://a.example/.well-known/agent-card.json',
    status: 200,
    contentType: 'application/a2a+json; charset=utf-8',
    redirects: [],
    bytes: 600,
    truncated: false,
    timeMs: 12,
    headers: {},
    valid: true,
    findings: [],
    ...overrides,
  };
}

const finding = (severity: DiscoveryFinding['severity'], rule: string, hint = ''): DiscoveryFinding => ({
  rule,
  severity,
  path: '',
  message: `${rule}: something.`,
  hint,
});

function report(overrides: Partial<DiscoveryReport> = {}): DiscoveryReport {
  const primary = path({
    conditional: { ifNoneMatch: '"x"', status: 304, sameEtag: true, bodyEmpty: true, headers: {} },
    preflight: { status: 204, headers: {}, ok: true },
    versioned: { status: 200, headers: {}, bytes: 600, sameBody: true },
    signature: { status: 'verified', details: [] },
  });
  return {
    input: 'a.example',
    origin: 'https://a.example',
    profile: 'production',
    primary,
    legacy: path({
      path: '/.well-known/agent.json',
      url: 'https://a.example/.well-known/agent.json',
      finalUrl: 'https://a.example/.well-known/agent.json',
      status: 404,
      valid: false,
    }),
    document: { name: 'A' },
    cardUrl: primary.finalUrl,
    findings: [],
    ok: true,
    requests: 6,
    timeMs: 40,
    ...overrides,
  };
}

describe('summaryStrip', () => {
  it('marks each path and check ✓, ✗ or –', () => {
    expect(summaryStrip(report()).value).toBe(
      '<ul class="checks" aria-label="Checks">' +
        '<li class="check-ok"><span class="mark">✓</span><span><strong>/.well-known/agent-card.json</strong> <span class="muted">200, application/a2a+json</span></span></li>' +
        '<li class="check-none"><span class="mark">–</span><span><strong>/.well-known/agent.json</strong> <span class="muted">404 (legacy path, optional)</span></span></li>' +
        '<li class="check-ok"><span class="mark">✓</span><span><strong>Valid card</strong> <span class="muted">profile production</span></span></li>' +
        '<li class="check-ok"><span class="mark">✓</span><span><strong>Signature</strong> <span class="muted">verified</span></span></li>' +
        '<li class="check-ok"><span class="mark">✓</span><span><strong>ETag revalidation</strong> <span class="muted">If-None-Match → 304</span></span></li>' +
        '<li class="check-ok"><span class="mark">✓</span><span><strong>CORS preflight</strong> <span class="muted">204, allows GET</span></span></li>' +
        '<li class="check-ok"><span class="mark">✓</span><span><strong>A2A-Version: 1.0</strong> <span class="muted">200, same card</span></span></li>' +
        '</ul>',
    );
  });

  it('marks what failed ✗: no card, an unreachable path, plain http served, a broken catalog, failing agents', () => {
    const { contentType: _, status: __, ...unanswered } = path({ valid: false });
    const strip = summaryStrip(
      report({
        primary: { ...unanswered, failure: { kind: 'timeout', message: 'timed out' } },
        document: undefined,
        cardUrl: undefined,
        httpProbe: { url: 'http://a.example/.well-known/agent-card.json', status: 200, outcome: 'serves' },
        catalog: {
          url: 'https://a.example/.well-known/ai-catalog.json',
          finalUrl: 'https://a.example/.well-known/ai-catalog.json',
          status: 200,
          bytes: 10,
          truncated: false,
          timeMs: 1,
          found: true,
          valid: false,
          findings: [],
          entries: 1,
        },
        agents: [
          {
            catalogUrl: '',
            entry: '/entries/0',
            url: 'x',
            checked: true,
            findings: [],
            errors: 1,
            warnings: 0,
            ok: false,
          },
        ],
      }),
    ).value;
    for (const item of [
      '<li class="check-bad"><span class="mark">✗</span><span><strong>/.well-known/agent-card.json</strong> <span class="muted">timeout</span></span></li>',
      '<li class="check-bad"><span class="mark">✗</span><span><strong>Card</strong> <span class="muted">none could be read</span></span></li>',
      '<li class="check-bad"><span class="mark">✗</span><span><strong>Plain http</strong> <span class="muted">serves</span></span></li>',
      '<li class="check-bad"><span class="mark">✗</span><span><strong>AI Catalog</strong> <span class="muted">not valid, one entry</span></span></li>',
      '<li class="check-bad"><span class="mark">✗</span><span><strong>Listed agents</strong> <span class="muted">0 of 1 ok</span></span></li>',
    ]) {
      expect(strip).toContain(item);
    }
    // Nothing is said about revalidation or CORS of a path that did not answer.
    expect(strip).not.toContain('ETag');
  });

  it('counts the errors of an invalid card', () => {
    const primary = path({ valid: false, findings: [finding('error', 'a'), finding('error', 'b')] });
    expect(summaryStrip(report({ primary, cardUrl: primary.finalUrl })).value).toContain(
      '<li class="check-bad"><span class="mark">✗</span><span><strong>Valid card</strong> <span class="muted">2 errors (profile production)</span></span></li>',
    );
  });
});

describe('findingFix', () => {
  it.each([
    ['Use https://a.example/a2a.', { fix: 'Use https://a.example/a2a.' }],
    [
      'If that is intended, nothing to do; otherwise add securitySchemes.',
      { fix: 'If that is intended, nothing to do; otherwise add securitySchemes.' },
    ],
    [
      'Nothing to do; clients of either kind get a card they understand.',
      { note: 'Clients of either kind get a card they understand.' },
    ],
    ['Nothing to do.', {}],
    ['Checked against the A2A v1.0 rules.', { note: 'Checked against the A2A v1.0 rules.' }],
    ['', {}],
    [undefined, {}],
  ])('%j', (hint, expected) => {
    expect(findingFix(hint)).toEqual(expected);
  });
});

describe('formatHtmlReport', () => {
  const page = formatHtmlReport(
    report({
      ok: false,
      findings: [
        finding('error', 'url-https', 'Use https.'),
        finding('warning', 'cache-control', 'Send Cache-Control.'),
        finding('info', 'discovery-version-negotiation', 'Nothing to do; clients get a card.'),
        finding('info', 'card-shape-detected', 'Checked against the A2A v1.0 rules.'),
      ],
    }),
  );

  it('leads with the verdict and the strip of checks, before the findings', () => {
    expect(page).toContain(
      '<p class="lead"><strong class="status-bad">✖ failed</strong>: 1 error, 1 warning, 2 info · 6 requests in 40 ms</p>',
    );
    expect(page.indexOf('<ul class="checks"')).toBeGreaterThan(page.indexOf('✖ failed'));
    expect(page.indexOf('<ul class="checks"')).toBeLessThan(page.indexOf('<h2 id="findings">'));
  });

  it('shows errors and warnings open with their fix, coloured by severity, and folds the infos', () => {
    expect(page).toContain(
      '<h3>Errors (1)</h3><ul class="items"><li class="finding finding-error"><p><strong class="sev-error">✖ error</strong> <code>url-https</code></p><p>url-https: something.</p><p><strong>Fix:</strong> Use https.</p></li></ul>',
    );
    expect(page).toContain(
      '<h3>Warnings (1)</h3><ul class="items"><li class="finding finding-warning"><p><strong class="sev-warning">⚠ warning</strong> <code>cache-control</code></p><p>cache-control: something.</p><p><strong>Fix:</strong> Send Cache-Control.</p></li></ul>',
    );
    expect(page).toContain(
      '<details class="more"><summary><h3>Info (2)</h3></summary><ul class="items">' +
        '<li class="finding finding-info"><p><strong class="sev-info">ℹ info</strong> <code>discovery-version-negotiation</code></p><p>discovery-version-negotiation: something.</p><p class="muted">Clients get a card.</p></li>' +
        '<li class="finding finding-info"><p><strong class="sev-info">ℹ info</strong> <code>card-shape-detected</code></p><p>card-shape-detected: something.</p><p class="muted">Checked against the A2A v1.0 rules.</p></li>' +
        '</ul></details>',
    );
    expect(page.match(/<strong>Fix:<\/strong>/g)).toHaveLength(2);
  });

  it('passes the verdict on the card to its summary badge', () => {
    expect(page).toContain('<li class="badge badge-ok">✓ Valid A2A card</li>');
    const invalid = formatHtmlReport(report({ primary: path({ valid: false }) }));
    expect(invalid).toContain('<li class="badge badge-bad">✗ Not valid</li>');
  });
});

describe('the report for people', () => {
  it("words the listed agents' hints with the CLI's flags, as the host's own", () => {
    const finding = {
      rule: 'discovery-https',
      severity: 'info',
      path: '',
      message: 'https://a.example: checked over plain http (allowed by allowHttp).',
      hint: 'Serve https (allowed by allowHttp).',
    };
    const report = {
      origin: 'http://127.0.0.1:3000',
      primary: {},
      findings: [finding],
      agents: [{ url: 'http://127.0.0.1:3000/agents/a/.well-known/agent-card.json', findings: [finding] }],
    };
    const people = forPeople(report as never);
    for (const f of [...people.findings, ...(people.agents?.[0]?.findings ?? [])]) {
      expect(f.message).toBe('https://a.example: checked over plain http (allowed by --allow-http).');
      expect(f.hint).toBe('Serve https (allowed by --allow-http).');
    }
  });
});
