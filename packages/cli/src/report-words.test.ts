// What each format says, in the words a user reads (issue 36, items 11, 12 and 13): the same
// flag names in every format, a fix only where there is one, the card's name in the header of an
// invalid card, a local http service told to use --allow-http, and diff's failure said exactly.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_CARD, type LocalServer, listen, wellBehaved } from '../../../test/discovery-servers';
import { cards, cli } from '../test/run-cli';

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-words-'));

let server: LocalServer;
beforeAll(async () => {
  server = await listen(wellBehaved(GOOD_CARD));
});
afterAll(() => server.close());

describe('every format names the CLI’s flags', () => {
  it.each(['github', 'junit', 'sarif'])(
    'check --format %s says --allow-http, as the text report does',
    async (format) => {
      const run = await cli(['check', server.origin, '--allow-http', '--format', format]);
      expect(run.stdout).toContain('checked over plain http (allowed by --allow-http).');
      expect(run.stdout).not.toContain('allowHttp');
    },
  );
});

describe('a hint that is no fix is not printed as one', () => {
  it.each([
    ['text', '→ Checked against'],
    ['github', 'Fix: Checked against'],
    ['junit', 'Fix: Checked against'],
    ['sarif', 'Fix: Checked against'],
  ])('validate --format %s: the card’s shape is a note, not a fix', async (format, fix) => {
    const run = await cli(['validate', join(cards, 'support.json'), '--format', format]);
    expect(run.stdout).toContain('looks like an A2A v1.0 card');
    expect(run.stdout).not.toContain(fix);
  });

  it.each(['text', 'github', 'junit', 'sarif'])(
    'check --format %s prints no "Nothing to do" as a fix',
    async (format) => {
      const run = await cli(['check', server.origin, '--allow-http', '--format', format]);
      expect(run.stdout).toContain('discovery-version-negotiation');
      expect(run.stdout).not.toMatch(/Fix: Nothing to do|→ Nothing to do/);
      expect(run.stdout).toMatch(/Clients of either kind get a card they understand\./);
    },
  );
});

describe('the header of an invalid card', () => {
  it('keeps the card’s name and version', async () => {
    const dir = tmp();
    const { skills, ...card } = GOOD_CARD;
    writeFileSync(join(dir, 'agent-card.json'), JSON.stringify(card));
    const run = await cli(['validate', 'agent-card.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe('agent-card.json: Acme Order Support 1.4.0 (v1.0), profile production');
  });

  it('says what it can when the name is no string', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'agent-card.json'), JSON.stringify({ ...GOOD_CARD, name: 3 }));
    const run = await cli(['validate', 'agent-card.json'], { cwd: dir });
    expect(run.stdout.split('\n')[0]).toBe('agent-card.json: (v1.0 card), profile production');
  });
});

describe('check of a local http service given without a scheme', () => {
  it.each(['text', 'github'])(
    '--format %s: one TLS failure, and the advice is --allow-http with http://, not a public certificate',
    async (format) => {
      const target = `127.0.0.1:${server.port}`;
      const run = await cli(['check', target, '--format', format, '--timeout', '5000']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`agent-card check --allow-http http://${target}`);
      expect(run.stdout).not.toContain('public CA');
      expect(run.stdout).not.toContain('discovery-catalog');
      expect(run.stdout.match(/TLS handshake failed/g)).toHaveLength(1);
      if (format === 'text') {
        expect(run.stdout).toContain('✖ failed: 1 error, 0 warnings');
        expect(run.stdout).not.toContain('AI Catalog');
      } else expect(run.stdout).toMatch(/\nagent-card check: failed \(1 failing of \d+ findings\)\n$/);
    },
  );
});

describe('diff says which condition failed it', () => {
  const pair = (change: (card: typeof GOOD_CARD) => void) => {
    const dir = tmp();
    const after = structuredClone(GOOD_CARD);
    change(after);
    writeFileSync(join(dir, 'a.json'), JSON.stringify(GOOD_CARD));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(after));
    return dir;
  };

  it('only the version: a described change at --fail-on breaking, version not bumped', async () => {
    const dir = pair((card) => {
      card.description = `${card.description} Now in French too.`;
    });
    const run = await cli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✖ failed (--fail-on breaking): "version" not bumped.\n');
    expect(run.stdout).not.toContain(' or ');
  });

  it('both: a breaking change and the version not bumped', async () => {
    const dir = pair((card) => {
      card.skills = [];
    });
    const run = await cli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '✖ failed (--fail-on breaking): 1 change(s) at or above it, and "version" not bumped.\n',
    );
  });
});
