import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentCardError, loadAgentCardConfig, readAgentCardConfig } from '@agent-card/core';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agent-card-config-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const write = (path: string, content: unknown) => {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
};

const cardFile = {
  url: 'https://assistant.fernhill-market.co.uk/a2a/v1',
  binding: 'HTTP+JSON',
  provider: { organization: 'Fernhill Market plc', url: 'https://www.fernhill-market.co.uk' },
  documentationUrl: 'https://partners.fernhill-market.co.uk/docs/shopping-assistant',
  skills: [
    {
      id: 'product-search',
      name: 'Product search',
      description: 'Searches the catalogue by name, brand or dietary need.',
      tags: ['catalogue'],
      examples: ['Gluten-free pasta under 2 pounds.'],
    },
  ],
};
const pkg = {
  name: 'fernhill-shopping-assistant',
  description: 'Helps shoppers find groceries in the Fernhill Market catalogue and builds a basket.',
  version: '1.8.0',
};

const configError = (fn: () => unknown): AgentCardError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentCardError);
    return error as AgentCardError;
  }
  throw new Error('expected an AgentCardError');
};

describe('loadAgentCardConfig', () => {
  it('reads agent-card.json and fills name, description and version from package.json', () => {
    write('agent-card.json', cardFile);
    write('package.json', pkg);
    const card = loadAgentCardConfig({ cwd: root, profile: 'production' });
    expect(card.name).toBe('fernhill-shopping-assistant');
    expect(card.description).toBe(pkg.description);
    expect(card.version).toBe('1.8.0');
    expect(card.supportedInterfaces[0]).toEqual({
      url: 'https://assistant.fernhill-market.co.uk/a2a/v1',
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
    });
    expect(Object.isFrozen(card)).toBe(true);
  });

  it('lets agent-card.json win over package.json', () => {
    write('agent-card.json', { ...cardFile, name: 'Fernhill Market Shopping Assistant', version: '2.0.0' });
    write('package.json', pkg);
    const card = loadAgentCardConfig({ cwd: root, profile: 'production' });
    expect(card.name).toBe('Fernhill Market Shopping Assistant');
    expect(card.version).toBe('2.0.0');
    expect(card.description).toBe(pkg.description);
  });

  it('uses the nearest package.json, walking up from a nested folder', () => {
    write('package.json', { ...pkg, version: '9.9.9' });
    write('services/shop/package.json', pkg);
    write('services/shop/src/agent-card.json', cardFile);
    const { definition, packageJson } = readAgentCardConfig({ cwd: join(root, 'services/shop/src') });
    expect(packageJson).toBe(join(root, 'services/shop/package.json'));
    expect(definition.version).toBe('1.8.0');
  });

  it('reads a file given relative to cwd and ignores its $schema key', () => {
    write('config/card.json', {
      $schema: './node_modules/@agent-card/core/agent-card.schema.json',
      ...cardFile,
      ...pkg,
    });
    const card = loadAgentCardConfig({ cwd: root, file: 'config/card.json', profile: 'production' });
    expect(card).not.toHaveProperty('$schema');
    expect(card.name).toBe(pkg.name);
  });

  it('accepts a file saved with a byte order mark', () => {
    write('agent-card.json', `\uFEFF${JSON.stringify({ ...cardFile, ...pkg })}`);
    expect(loadAgentCardConfig({ cwd: root, profile: 'production' }).name).toBe(pkg.name);
  });

  it('warns about a byte order mark, as validateAgentCard does, instead of dropping it silently', () => {
    write('agent-card.json', `\uFEFF${JSON.stringify({ ...cardFile, ...pkg })}`);
    const warnings: string[] = [];
    loadAgentCardConfig({ cwd: root, profile: 'production', logger: { warn: (line) => warnings.push(line) } });
    const file = join(root, 'agent-card.json');
    expect(warnings).toContain(
      `agent-card: [card-json-parse] /: ${file}: starts with a byte order mark (U+FEFF). Save the file as UTF-8 without BOM; RFC 8259 §8.1 forbids adding one and some parsers reject it.`,
    );
    expect(readAgentCardConfig({ cwd: root }).findings).toEqual([
      expect.objectContaining({ rule: 'card-json-parse', severity: 'warning', path: '' }),
    ]);
  });

  it.each([
    ['not installed: the registry', false, 'npx @agent-card/cli init'],
    // From a tarball before publish the registry has no @agent-card/cli: the local bin runs.
    ['installed in the project: its bin', true, 'npx agent-card init'],
  ])('with no agent-card.json, names the init command that runs here (CLI %s)', (_how, installed, command) => {
    write('package.json', pkg);
    if (installed) write('node_modules/@agent-card/cli/package.json', { name: '@agent-card/cli', version: '0.1.0' });
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.message).toBe(
      `${join(root, 'agent-card.json')}: the agent card definition is missing. Create agent-card.json with at ` +
        `least url, binding and skills (name, description and version can come from ${join(root, 'package.json')}), ` +
        `or run \`${command}\` to write a starter file.`,
    );
  });

  it('refuses a file that is not UTF-8, naming the byte, instead of reading U+FFFD into the card', () => {
    const json = JSON.stringify({ ...cardFile, ...pkg, name: 'Fernhill XX assistant' });
    const bytes = Buffer.from(json, 'utf8');
    const at = bytes.indexOf('XX');
    // Latin-1 "é" (0xE9) followed by ASCII: a lead byte without its continuation.
    bytes[at] = 0xe9;
    writeFileSync(join(root, 'agent-card.json'), bytes);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toBe(
      `${join(root, 'agent-card.json')}: not valid UTF-8 (byte 0xe9 at offset ${at}). Save the file as UTF-8.`,
    );
  });

  it('refuses a member named twice, listing each, as validateAgentCard does for JSON text', () => {
    // The second url is the one JSON.parse keeps; a parser that keeps the first reads another card.
    const json = JSON.stringify({ ...cardFile, ...pkg }).replace(
      '"url":"https://assistant',
      '"url":"https://evil.example/a2a","url":"https://assistant',
    );
    write('agent-card.json', json.replace('"id":"product-search"', '"id":"a","\\u0069d":"product-search"'));
    const error = configError(() => readAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toBe(
      `${join(root, 'agent-card.json')}: names a member twice in one object, and JSON parsers disagree about which value applies:\n` +
        '  - url\n' +
        '  - skills[0].id\n' +
        'Keep one of each.',
    );
  });

  it('leaves package.json to npm: a member named twice there is read as JSON.parse reads it', () => {
    write('agent-card.json', cardFile);
    write('package.json', JSON.stringify(pkg).replace('"version":"1.8.0"', '"version":"0.0.0","version":"1.8.0"'));
    expect(loadAgentCardConfig({ cwd: root, profile: 'production' }).version).toBe('1.8.0');
  });

  it('locates a syntax error that JSON.parse names no position for, however deep the nesting', () => {
    write('agent-card.json', `${'['.repeat(100_000)}\n}`);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.message).toContain('invalid JSON at line 2, column 1 (unexpected "}")');
  });

  it('says what to create, and mentions init, when neither file exists', () => {
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toContain(join(root, 'agent-card.json'));
    expect(error.message).toMatch(/Create agent-card\.json with at least url, binding and skills/);
    expect(error.message).toContain('no package.json was found either');
    expect(error.message).toContain('`npx @agent-card/cli init`');
  });

  it('names the package.json it found when only agent-card.json is missing', () => {
    write('package.json', pkg);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toContain(`name, description and version can come from ${join(root, 'package.json')}`);
  });

  it.each([
    ['a trailing comma', '{\n  "url": "https://a.fernhill-market.co.uk",\n  "binding": "JSONRPC",\n}\n', 4, 1],
    ['a comment', '{\n  // the card\n  "url": "x"\n}', 2, 3],
    ['a single-quoted string', "{\n  \"skills\": [\n    {'id': 'a'}\n  ]\n}", 3, 6],
    ['a truncated file', '{\n  "url": "https://a.fernhill-market.co.uk"', 2, 43],
  ])('points at the line and column of %s', (_what, text, line, column) => {
    write('agent-card.json', text);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toContain(
      `${join(root, 'agent-card.json')}: invalid JSON at line ${line}, column ${column} (`,
    );
    expect(error.message).toContain('no comments, no trailing commas');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('reports invalid JSON in package.json with its own path', () => {
    write('agent-card.json', cardFile);
    write('package.json', '{ "name": "x", }');
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toContain(
      `${join(root, 'package.json')}: invalid JSON at line 1, column 16 (unexpected "}")`,
    );
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"card"'],
  ])('rejects a file whose top level is %s', (what, text) => {
    write('agent-card.json', text);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toContain(`the top level is ${what}, not an object`);
  });

  it('names the file when the card it holds is invalid', () => {
    write('agent-card.json', { ...cardFile, url: 'http://localhost:8080/a2a' });
    write('package.json', pkg);
    const error = configError(() => loadAgentCardConfig({ cwd: root, profile: 'production' }));
    expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
    expect(error.message.startsWith(`${join(root, 'agent-card.json')}: the agent card has`)).toBe(true);
    expect(error.findings.some((f) => f.rule === 'url-localhost' && f.path === '/url')).toBe(true);
  });

  it('fails on a card without name when package.json cannot supply one', () => {
    write('agent-card.json', cardFile);
    write('package.json', { private: true });
    const error = configError(() => loadAgentCardConfig({ cwd: root, profile: 'production' }));
    expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
    expect(error.findings.map((f) => f.path)).toEqual(expect.arrayContaining(['/name', '/description', '/version']));
  });

  it('says that a blank description came from package.json, and where to set it', () => {
    write('agent-card.json', cardFile);
    const packageJson = write('package.json', { ...pkg, description: '' });
    const error = configError(() => loadAgentCardConfig({ cwd: root, profile: 'production' }));
    expect(error.code).toBe('ERR_AGENT_CARD_INVALID');
    expect(error.findings.filter((f) => f.severity === 'error').map((f) => `${f.rule} ${f.path}`)).toEqual([
      'required-fields /description',
    ]);
    expect(error.message.split('\n').at(-1)).toBe(
      `  description comes from ${packageJson} when agent-card.json leaves it out; that file sets "description" ` +
        'to "", which cannot be used (blank). Set "description" in one of the two files.',
    );
  });

  it('says which fields package.json does not have either', () => {
    write('agent-card.json', { ...cardFile, name: 'Fernhill', version: '1.0.0' });
    const packageJson = write('package.json', { private: true, description: 42 });
    const error = configError(() => loadAgentCardConfig({ cwd: root, profile: 'production' }));
    expect(error.message.split('\n').at(-1)).toBe(
      `  description comes from ${packageJson} when agent-card.json leaves it out; that file sets "description" ` +
        'to 42, which cannot be used (a number, not a string). Set "description" in one of the two files.',
    );
    write('package.json', { private: true });
    expect(configError(() => loadAgentCardConfig({ cwd: root })).message).toContain(
      'that file has no "description" either. Set "description" in one of the two files.',
    );
  });

  it('refuses a device in place of the file before reading it (it would never end)', () => {
    const error = configError(() => loadAgentCardConfig({ file: '/dev/zero' }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toBe(
      '/dev/zero: cannot be read (not a regular file, but a device, a pipe or a socket). Point it at a JSON file.',
    );
  });

  it('refuses a named pipe without waiting for a writer', () => {
    const fifo = join(root, 'agent-card.json');
    execFileSync('mkfifo', [fifo]);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.message).toBe(
      `${fifo}: cannot be read (not a regular file, but a device, a pipe or a socket). Point it at a JSON file.`,
    );
  });

  it('refuses a file over 16 MiB from its size, before reading it', () => {
    const file = join(root, 'agent-card.json');
    writeFileSync(file, '');
    truncateSync(file, 4 * 1024 * 1024 * 1024);
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.message).toBe(`${file}: larger than 16 MiB (4294967296 bytes), far more than a card. Check the path.`);
  });

  it('reports a folder in place of the file as unreadable', () => {
    mkdirSync(join(root, 'agent-card.json'));
    const error = configError(() => loadAgentCardConfig({ cwd: root }));
    expect(error.code).toBe('ERR_AGENT_CARD_CONFIG');
    expect(error.message).toContain('cannot be read (EISDIR)');
  });
});
