// The CLI against what a hostile host or a crafted file sends (issue 11, items 1, 2, 6 and 8):
// terminal escapes in every field a command prints, invalid UTF-8, 5,000-level nesting and a
// server that trickles a large card. Each case runs the program as the binary runs it and asserts
// what the user sees: the exit code, the finding, and that no raw control character reaches the terminal.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAgentCard } from '@agent-card/core';
import { cards, cli, loopbackServers, type Run } from '../test/run-cli';

/** C0 (newline aside), DEL, C1 and the bidi controls: none may reach the terminal raw. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function expectNoRawControls(run: Run): void {
  const both = `${run.stdout}${run.stderr}`;
  const at = both.search(RAW_CONTROL);
  expect(at, `raw U+${both.charCodeAt(at).toString(16)} near ${JSON.stringify(both.slice(at - 20, at + 20))}`).toBe(-1);
}

/** What a hostile card puts in its strings: clear screen, an OSC-8 link, hidden text, a bidi override. */
const CLEAR = '\u001b[2J';
const LINK = '\u001b]8;;https://evil.test/\u0007click\u001b]8;;\u0007';
const HIDE = '\u001b[8m';
const RLO = '\u202e';
const C1 = '\u009b2J';
const HOSTILE = `${CLEAR}${LINK}${HIDE}${RLO}${C1}\u007f\r\nforged`;

const base = () => JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8'));

/** A card that is valid under the development profile, with hostile text wherever a command prints it. */
function hostileCard() {
  const card = base();
  card.name = `Evil ${HOSTILE}`;
  card.version = `1.0.0${RLO}`;
  card.skills[0].id = `skill${CLEAR}${HIDE}`;
  card.securitySchemes = { [`key${CLEAR}`]: { type: 'apiKey', in: 'header', name: 'x-key' } };
  return card;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-hostile-'));
const servers = loopbackServers();
const listen = (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> =>
  servers.listen(createServer(handler));

const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A 10 KB card body whose `name` nests 5,000 levels. */
const deepName = JSON.stringify(base()).replace(/"name":"[^"]*"/, `"name":${deepArray(5000)}`);

let hostileServer = '';
let deepServer = '';
let deepNameServer = '';

beforeAll(async () => {
  const body = JSON.stringify(hostileCard());
  hostileServer = await listen((_req, res) => {
    // Latin-1 header bytes arrive as C1 characters: a header is as hostile as a body.
    res.writeHead(200, { 'content-type': 'application/json', etag: '"\x9b2J"', 'cache-control': `max-age=1${C1}` });
    res.end(body);
  });
  deepServer = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(deepArray(5000));
  });
  deepNameServer = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(deepName);
  });
});

afterAll(() => servers.close());

describe('terminal escapes from a card, a header or a file are shown, never sent', () => {
  it('check prints the name, skill ids and headers with escapes made visible', async () => {
    const run = await cli(['check', hostileServer, '--allow-http', '--profile', 'development']);
    expectNoRawControls(run);
    expect(run.stdout).toContain('Card: Evil \\u001b[2J\\u001b]8;;https://evil.test/\\u0007click');
    expect(run.stdout).toContain('\\u001b[8m\\u202e\\u009b2J\\u007f\\u000d\\u000aforged 1.0.0\\u202e');
    expect(run.stdout).toContain('3 skills: skill\\u001b[2J\\u001b[8m, explain-bill');
    expect(run.stdout).toContain('ETag "\\u009b2J"');
  });

  it('check with colour still sends only its own colour codes', async () => {
    const run = await cli(['check', hostileServer, '--allow-http', '--profile', 'development'], {
      env: { FORCE_COLOR: '1' },
    });
    const escapes = [...run.stdout.matchAll(/\u001b\[(\d+)m/g)].map((m) => m[1]);
    expect(escapes.length).toBeGreaterThan(0);
    for (const code of escapes) expect(['1', '2', '22', '31', '32', '33', '36', '39']).toContain(code);
    expect(run.stdout.replace(/\u001b\[(1|2|22|3[1-6]|39)m/g, '')).not.toMatch(RAW_CONTROL);
  });

  it('check --json keeps the document exact: the escapes are JSON escapes', async () => {
    const run = await cli(['check', hostileServer, '--allow-http', '--profile', 'development', '--json']);
    expectNoRawControls(run);
    const report = JSON.parse(run.stdout);
    expect(report.document.name).toBe(`Evil ${HOSTILE}`);
    expect(report.primary.headers.etag).toBe('"\u009b2J"');
  });

  it('validate, migrate, diff, sign and verify print hostile fields made visible', async () => {
    const dir = tmp();
    const card = hostileCard();
    writeFileSync(join(dir, 'card.json'), JSON.stringify(card));
    const plain = hostileCard();
    delete plain.securitySchemes;
    writeFileSync(join(dir, 'plain.json'), JSON.stringify(plain));
    writeFileSync(join(dir, 'named.json'), JSON.stringify({ ...base(), name: `Evil ${HOSTILE}` }));
    const renamed = { ...plain, skills: [{ ...plain.skills[0], id: `other${LINK}` }], [`x-${HIDE}`]: HOSTILE };
    writeFileSync(join(dir, 'renamed.json'), JSON.stringify(renamed));
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const kid = `k${CLEAR}${RLO}`;
    writeFileSync(
      join(dir, 'key.json'),
      JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256' }),
    );
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid }] }));

    const validate = await cli(['validate', 'named.json', '--profile', 'development'], { cwd: dir });
    expect(validate.stdout).toContain('named.json: Evil \\u001b[2J\\u001b]8;;https://evil.test/');
    const migrate = await cli(['migrate', 'card.json'], { cwd: dir });
    expect(migrate.stderr).toContain('/securitySchemes/key\\u001b[2J: converted');
    const diff = await cli(['diff', 'plain.json', 'renamed.json'], { cwd: dir });
    expect(diff.stdout).toContain('+ /x-\\u001b[8m: "\\u001b[2J');
    expect(diff.stdout).toContain('+ /skills[id=other\\u001b]8;;https://evil.test/\\u0007click');
    const sign = await cli(['sign', 'named.json', '--key', 'key.json', '-o', 'signed.json'], { cwd: dir });
    expect(sign.stderr).toContain(
      'Signed with ES256 (kid "k\\u001b[2J\\u202e"), 2 signatures (one per canonical form); wrote signed.json.',
    );
    const verify = await cli(['verify', 'signed.json', '--jwks', 'jwks.json'], { cwd: dir });
    expect(verify.stdout).toContain('signature 0 (ES256, kid "k\\u001b[2J\\u202e"): verified');
    const missing = await cli(['validate', `nope${CLEAR}.json`], { cwd: dir });
    expect(missing.stderr).toBe('agent-card: nope\\u001b[2J.json: no such file. Check the path.\n');
    // The hint quotes the hostile scheme name too.
    expect(migrate.stderr).toContain('or use one of: "key\\u001b[2J".');
    for (const run of [validate, migrate, diff, sign, verify, missing]) expectNoRawControls(run);
    // migrate: 1, the card's requirements name a scheme the hostile one replaced; diff: 1, no version bump.
    expect([validate.code, migrate.code, diff.code, sign.code, verify.code, missing.code]).toEqual([0, 1, 1, 0, 0, 2]);
  });

  it('diff of a URL that answers with a hostile redirect shows the Location made visible', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(302, { location: `https://evil.test/\x9b2J` }).end();
    });
    const run = await cli(['diff', join(cards, 'support.json'), `${url}/card.json`, '--allow-http']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(redirect to https://evil.test/\\u009b2J)');
    expectNoRawControls(run);
  });
});

describe("invalid UTF-8 is the validator's card-json-parse, in every command that reads a card", () => {
  // "Acme" with a lone continuation byte in the name: a lossy decode would make it U+FFFD.
  const bytes = Buffer.concat([
    Buffer.from(JSON.stringify(base()).replace('"name":"', '"name":"Acme')).subarray(0, 12),
    Buffer.from([0xff]),
    Buffer.from(JSON.stringify(base()).replace('"name":"', '"name":"Acme')).subarray(12),
  ]);

  it('validate exits 1 with card-json-parse, from a file and from stdin', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'card.json'), bytes);
    for (const run of [
      await cli(['validate', 'card.json', '--profile', 'development'], { cwd: dir }),
      await cli(['validate', '-', '--profile', 'development'], { cwd: dir, input: bytes }),
    ]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('card-json-parse');
      expect(run.stdout).toContain('card: not valid UTF-8.');
      expect(run.stdout).toContain('✖ invalid: 1 error');
    }
    const json = await cli(['validate', 'card.json', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout).findings).toEqual([
      expect.objectContaining({ rule: 'card-json-parse', severity: 'error', message: 'card: not valid UTF-8.' }),
    ]);
  });

  it.each([
    ['migrate', ['migrate', 'card.json']],
    ['sign', ['sign', 'card.json', '--key', 'key.pem', '--kid', 'k1', '--alg', 'ES256']],
    ['verify', ['verify', 'card.json', '--key', 'key.pub.pem', '--kid', 'k1']],
    ['diff', ['diff', 'card.json', join(cards, 'support.json')]],
  ])('%s refuses it with the same finding (exit 1)', async (_name, args) => {
    const dir = tmp();
    writeFileSync(join(dir, 'card.json'), bytes);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const run = await cli(args, { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('card-json-parse');
    expect(run.stderr).toContain('card: not valid UTF-8.');
  });
});

describe('deep nesting is a finding, never a stack overflow', () => {
  it('check --json of a 5,000-level body reports card-json-parse and prints a report that parses', async () => {
    const run = await cli(['check', deepServer, '--allow-http', '--profile', 'development', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.document).toBeUndefined();
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: 'card-json-parse',
        severity: 'error',
        message: `${deepServer}/.well-known/agent-card.json: body nests deeper than 64 levels (character 64 opens level 65).`,
      }),
    );
  });

  it('check in text mode with a 5,000-level name reports card-json-parse (exit 1)', async () => {
    const run = await cli(['check', deepNameServer, '--allow-http', '--profile', 'development']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('card-json-parse');
    expect(run.stdout).toContain('body nests deeper than 64 levels');
    expect(run.stdout).toContain('✖ failed');
  });

  it('diff <url> of a 5,000-level card exits 1 with the finding instead of crashing', async () => {
    const run = await cli(['diff', join(cards, 'support.json'), `${deepNameServer}/card.json`, '--allow-http']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('card-json-parse  /name/0/0/0');
    expect(run.stderr).toContain('nested deeper than 64 levels');
    expect(run.stderr).not.toContain('Maximum call stack');
  });

  it.each([
    ['validate', ['validate', 'deep.json'], 'stdout'],
    ['validate --json', ['validate', 'deep.json', '--json'], 'stdout'],
    ['migrate', ['migrate', 'deep.json'], 'stderr'],
    ['sign', ['sign', 'deep.json', '--key', 'key.pem', '--kid', 'k', '--alg', 'ES256'], 'stderr'],
    ['verify', ['verify', 'deep.json', '--key', 'key.pem', '--kid', 'k'], 'stderr'],
    ['diff', ['diff', 'deep.json', 'deep.json'], 'stderr'],
  ] as const)('%s of a 5,000-level file reports card-json-parse (exit 1)', async (_name, args, stream) => {
    const dir = tmp();
    writeFileSync(join(dir, 'deep.json'), `{"name":"x","extra":${deepObject(5000)}}`);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const run = await cli([...args], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run[stream]).toContain('card-json-parse');
    expect(run[stream]).toContain('nested deeper than 64 levels');
    expect(`${run.stdout}${run.stderr}`).not.toContain('Maximum call stack');
  });
});

describe('check keeps its time bound against a server that trickles a large card', () => {
  it('--timeout 5000 ends within 10 s, key-set fetch included', async () => {
    const card = base();
    card.supportedInterfaces = [{ url: 'http://127.0.0.1:1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }];
    // Padding to about 1 MB: many ordinary skills, validated in linear time.
    card.skills = Array.from({ length: 4500 }, (_, i) => ({
      id: `skill-${i}`,
      name: `Skill ${i}`,
      description: `Handles request type ${i} for the customer, start to finish, and reports back.`,
      tags: ['support', `t${i}`],
      examples: [`Please handle request ${i}`],
    }));
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(card, { privateKey, kid: 'k1', alg: 'ES256' });
    const body = Buffer.from(JSON.stringify(signed));
    expect(body.byteLength).toBeGreaterThan(900_000);
    expect(body.byteLength).toBeLessThan(1_048_576);
    // Every GET, and the key set, takes 3.6 s of the 5 s timeout to arrive: one after the other,
    // the GET, its conditional replay and the key set would need 10.8 s.
    const trickle = (res: ServerResponse, bytes: Buffer, type: string) => {
      res.writeHead(200, { 'content-type': type, etag: '"big"', 'content-length': bytes.byteLength });
      const parts = 36;
      const size = Math.ceil(bytes.byteLength / parts);
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(bytes.subarray(i * size, (i + 1) * size));
        if (++i === parts) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
    };
    const url = await listen((req, res) => {
      if (req.method !== 'GET') return void res.writeHead(204).end();
      if (req.url === '/jwks.json') return trickle(res, Buffer.from(JSON.stringify({ keys: [] })), 'application/json');
      trickle(res, body, 'application/json');
    });
    const run = await cli([
      'check',
      url,
      '--allow-http',
      '--profile',
      'development',
      '--timeout',
      '5000',
      '--jwks',
      `${url}/jwks.json`,
      // A card of about 1 MB: the card size limit raised, so that all of it is read.
      '--max-card-bytes',
      '1048576',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    // The run as the report times it, validation and the signature check included; the process
    // start-up around it is the machine's, so the wall clock only gets a sanity bound.
    expect(report.timeMs).toBeLessThan(10_000);
    expect(run.ms).toBeLessThan(20_000);
    expect(report.card.name).toBe('Larkspur Telecom Support Agent');
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: 'discovery-signature', severity: 'error' }));
  }, 30_000);
});

describe('check keeps its time bound against a card and key set chosen to be slow to verify', () => {
  it('200 signatures × 100 keys under one kid: --timeout 2000 ends within 4 s, and says what it left out', async () => {
    const card = base();
    const kid = 'card-key';
    const signer = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signed = await signAgentCard(card, { privateKey: signer.privateKey, kid, alg: 'ES256' });
    const signature = signed.signatures?.[0];
    const body = JSON.stringify({ ...signed, signatures: Array.from({ length: 200 }, () => signature) });
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const jwks = JSON.stringify({ keys: Array.from({ length: 100 }, () => ({ ...stranger, kid, alg: 'ES256' })) });
    const url = await listen((req, res) => {
      if (req.method !== 'GET') return void res.writeHead(204).end();
      const keys = req.url === '/.well-known/jwks.json';
      res
        .writeHead(200, { 'content-type': keys ? 'application/jwk-set+json' : 'application/json' })
        .end(keys ? jwks : body);
    });
    const run = await cli(['check', url, '--allow-http', '--timeout', '2000', '--follow-catalog', 'off', '--json']);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    expect(report.timeMs).toBeLessThan(4_000);
    const finding = report.findings.find((f: { rule: string }) => f.rule === 'discovery-signature');
    expect(finding).toMatchObject({ severity: 'error' });
    expect(finding.message).toContain('only the first 8 of 200 signatures were checked (at most 8 per card)');
    expect(finding.message).toContain('kid "card-key" names 100 keys; only the first 3 were tried (at most 3 per kid)');
  }, 120_000);
});

describe('a URL given as input is refused before any request when it is plain http off this machine', () => {
  // A card read over plain http from another machine is whatever anyone on the way made it: diff
  // would compare, verify would check and init --catalog would list a card the host never served.
  let requests = 0;
  let url = '';
  beforeAll(async () => {
    const body = readFileSync(join(cards, 'support.json'));
    url = await listen((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });

  it.each([
    [
      'diff without --allow-http',
      () => ['diff', join(cards, 'support.json'), `${url}/card.json`],
      () => `${url}/card.json: plain http. Use the https:// URL, or --allow-http for localhost, 127.0.0.1 or ::1.`,
    ],
    [
      'verify without --allow-http',
      () => ['verify', `${url}/card.json`, '--jwks', 'jwks.json'],
      () => `${url}/card.json: plain http. Use the https:// URL, or --allow-http for localhost, 127.0.0.1 or ::1.`,
    ],
    [
      'migrate, which has no --allow-http',
      () => ['migrate', `${url}/card.json`],
      () => `${url}/card.json: plain http. Use the https:// URL: anyone on the way could change what comes back.`,
    ],
    [
      'init --catalog, which has no --allow-http',
      () => ['init', '--catalog', '--agent', `support=${url}/card.json`, '-o', join(tmp(), 'ai-catalog.json')],
      () => `${url}/card.json: plain http. Use the https:// URL: anyone on the way could change what comes back.`,
    ],
    [
      'diff --allow-http of another machine',
      () => ['diff', join(cards, 'support.json'), 'http://cards.acme-corp.example/card.json', '--allow-http'],
      () =>
        'http://cards.acme-corp.example/card.json: plain http to another machine (cards.acme-corp.example). Use the https:// URL; --allow-http reads only from localhost, 127.0.0.1 or ::1.',
    ],
  ])('%s: exit 2, nothing fetched', async (_title, args, message) => {
    const before = requests;
    const run = await cli(args());
    expect(run.stderr).toBe(`agent-card: ${message()}\n`);
    expect(run.code).toBe(2);
    expect(requests).toBe(before);
  });

  it('diff --allow-http reads a card from 127.0.0.1', async () => {
    const run = await cli(['diff', join(cards, 'support.json'), `${url}/card.json`, '--allow-http']);
    expect(run.stdout).toBe('No differences.\n');
    expect(run.code).toBe(0);
  });

  it('never prints the password of a URL that carries one, and sends nothing', async () => {
    const before = requests;
    const withPassword = url.replace('http://', 'http://bob:hunter2@');
    const run = await cli(['diff', join(cards, 'support.json'), `${withPassword}/card.json`, '--allow-http']);
    expect(run.stderr).toBe(
      `agent-card: ${url}/card.json: the URL carries a user name or password. Remove them: a card is public, and the URL would end up in logs.\n`,
    );
    expect(run.code).toBe(2);
    expect(requests).toBe(before);
  });
});

describe('a file or stdin is read up to 16 MiB, never without bound', () => {
  // Before: `validate /dev/zero` grew past 3.5 GB in 8 s until it was killed.
  const message = (name: string) =>
    `agent-card: ${name}: larger than 16 MiB, far more than a card, catalog or key. Check the path.\n`;

  it('a device that never ends: refused before it is read, exit 2 within seconds', async () => {
    const run = await cli(['validate', '/dev/zero']);
    expect(run.stderr).toBe(
      'agent-card: /dev/zero: not a regular file (a device, a pipe or a socket). Pass a file, or - to read stdin.\n',
    );
    expect(run.code).toBe(2);
    expect(run.ms).toBeLessThan(10_000);
  });

  it('a named pipe with no writer: every command that reads a file refuses it at once, exit 2', async () => {
    // Before: `validate fifo.json` waited for a writer forever.
    const dir = tmp();
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    const card = join(cards, 'support.json');
    const commands = [
      ['validate', 'fifo.json'],
      ['view', 'fifo.json'],
      ['migrate', 'fifo.json'],
      ['diff', card, 'fifo.json'],
      ['verify', card, '--jwks', 'fifo.json'],
      ['sign', 'fifo.json', '--key', 'fifo.json', '--alg', 'ES256'],
      ['keys', 'jwks', 'fifo.json'],
      ['init', '--catalog', '--agent', 'a=fifo.json', '--no-interactive', '-o', 'out.json'],
    ];
    for (const args of commands) {
      // One at a time, each killed after 10 s: a command that waits fails here, not the suite.
      const run = await cli(args, { cwd: dir, timeoutMs: 10_000 });
      expect(run.stderr, args.join(' ')).toBe(
        'agent-card: fifo.json: not a regular file (a device, a pipe or a socket). Pass a file, or - to read stdin.\n',
      );
      expect(run.code).toBe(2);
    }
  }, 120_000);

  it('a 4 GiB file (sparse): refused from its size, before anything is read', async () => {
    const dir = tmp();
    const file = join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, 4 * 1024 * 1024 * 1024);
    for (const args of [
      ['validate', 'huge.json'],
      ['verify', 'huge.json', '--jwks', 'huge.json'],
      ['view', 'huge.json'],
    ]) {
      const run = await cli(args, { cwd: dir });
      expect(run.stderr).toBe(message('huge.json'));
      expect(run.code).toBe(2);
    }
  });

  it('stdin past 16 MiB: exit 2; 16 MiB exactly is read', async () => {
    const over = await cli(['validate', '-'], { input: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20) });
    expect(over.stderr).toBe(message('stdin'));
    expect(over.code).toBe(2);
    const at = await cli(['validate', '-'], { input: Buffer.alloc(16 * 1024 * 1024, 0x20) });
    // Read in full: 16 MiB of spaces is the validator's "empty" finding, not the size error.
    expect(at.stderr).toBe('');
    expect(at.stdout).toContain('card-json-parse');
    expect(at.code).toBe(1);
  });
});
