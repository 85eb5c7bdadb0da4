import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAgentCardFetchHandler, validateAgentCard, validateAiCatalog } from '@agent-card/core';
import { run, type CliIO } from './index';

/** A terminal session: stdin and stdout claim to be a TTY; answers are typed as prompts appear. */
function terminal(answers: string[]) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let screen = '';
  let prompts = 0;
  const stdout = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        const text = chunk.toString();
        screen += text;
        // readline writes each prompt in one piece ending with ": "; answer it once it is shown.
        if (text.endsWith(': ') && prompts < answers.length) stdin.write(`${answers[prompts++]}\n`);
        done();
      },
    }),
    { isTTY: true },
  );
  const stderr = { write: (s: string) => void (screen += s) };
  return { stdin, stdout, stderr, screen: () => screen };
}

/** A piped session (no terminal): what a script or CI sees. */
function piped(cwd: string) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdin: new PassThrough(),
    stdout: { write: (s: string) => void (stdout += s) },
    stderr: { write: (s: string) => void (stderr += s) },
    env: {},
    cwd,
  };
  return { io, out: () => stdout, err: () => stderr };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-init-'));

/** Runs the CLI in-process without a terminal. */
async function cli(args: string[], cwd = tmp()) {
  const p = piped(cwd);
  const code = await run(args, p.io);
  return { code, stdout: p.out(), stderr: p.err(), cwd };
}

/** The command `init` says to run next, as argv (the words after `agent-card`). */
function printedNextStep(stdout: string): string[] {
  const line = /check it now \(warnings list what is still the template's\): agent-card (.+)$/m.exec(stdout);
  if (!line) throw new Error(`no next step in:\n${stdout}`);
  return line[1]!.split(' ');
}

const written = (cwd: string, file = 'agent-card.json') => JSON.parse(readFileSync(join(cwd, file), 'utf8'));

describe('agent-card init on a terminal', () => {
  it('asks for the template, name, description, binding and public URL, then writes a valid card', async () => {
    const cwd = tmp();
    const t = terminal([
      'research',
      'Paper Scout',
      'Finds and summarises papers on a topic for a research team.',
      'HTTP+JSON',
      'https://scout.acme-corp.io/a2a',
    ]);
    const io: CliIO = { stdin: t.stdin, stdout: t.stdout, stderr: t.stderr, env: {}, cwd };
    const code = await run(['init'], io);
    expect(t.screen()).toContain('Template [support/booking/shopping/coding/research/workflow] (support): ');
    expect(t.screen()).toContain('Agent name: ');
    expect(t.screen()).toContain('What does the agent do?: ');
    expect(t.screen()).toContain('Protocol binding [JSONRPC/HTTP+JSON/GRPC] (JSONRPC): ');
    expect(t.screen()).toContain('Public URL of the A2A endpoint (http://localhost:3000/a2a): ');
    expect(code).toBe(0);
    const card = written(cwd);
    expect(card).toMatchObject({
      name: 'Paper Scout',
      description: 'Finds and summarises papers on a topic for a research team.',
      version: '0.1.0',
      supportedInterfaces: [
        { url: 'https://scout.acme-corp.io/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
    expect(validateAgentCard(card, { profile: 'development' }).valid).toBe(true);
  });

  it('keeps every answer when they are pasted several lines at once', async () => {
    // The user's mistake: pasting the five answers in one go, before the prompts appear.
    const cwd = tmp();
    const t = terminal([]);
    t.stdin.write('research\nPaper Scout\nFinds and summarises papers on a topic for a research team.\nHTTP+JSON\n');
    const done = run(['init'], { stdin: t.stdin, stdout: t.stdout, stderr: t.stderr, env: {}, cwd });
    t.stdin.write('https://scout.acme-corp.io/a2a\n');
    expect(await done).toBe(0);
    expect(written(cwd)).toMatchObject({
      name: 'Paper Scout',
      description: 'Finds and summarises papers on a topic for a research team.',
      supportedInterfaces: [
        { url: 'https://scout.acme-corp.io/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
  });

  it("shows each prompt with its pasted answer, and the template's leftovers one per line", async () => {
    const cwd = tmp();
    const t = terminal([]);
    t.stdin.write('booking\nPaper Scout\nFinds and summarises papers on a topic for a research team.\nHTTP+JSON\n');
    const done = run(['init'], { stdin: t.stdin, stdout: t.stdout, stderr: t.stderr, env: {}, cwd });
    t.stdin.write('https://scout.acme-corp.io/a2a\n');
    expect(await done).toBe(0);
    // What the terminal shows, without readline's cursor moves.
    const screen = t.screen().replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
    expect(screen).toContain('\nAgent name: Paper Scout\n');
    expect(screen).toContain(
      '\nWhat does the agent do?: Finds and summarises papers on a topic for a research team.\n',
    );
    expect(screen).toContain('\nProtocol binding [JSONRPC/HTTP+JSON/GRPC] (JSONRPC): HTTP+JSON\n');
    expect(screen).toContain(
      '\nPublic URL of the A2A endpoint (http://localhost:3000/a2a): https://scout.acme-corp.io/a2a\n',
    );
    expect(screen).toContain(
      [
        `  - replace what is still the "booking" template's:`,
        '      securitySchemes.harbourlineId.oauth2SecurityScheme.description',
        '      securitySchemes.harbourlineId.oauth2SecurityScheme.flows.authorizationCode.authorizationUrl',
        '',
      ].join('\n'),
    );
    expect(screen.match(/^ {6}securitySchemes\./gm)).toHaveLength(7);
  });

  it('takes the defaults when the answers are empty, and skips prompts answered by flags', async () => {
    const cwd = tmp();
    const t = terminal(['', '', '']);
    const code = await run(['init', '--template', 'coding', '--name', 'Patch Bot'], {
      stdin: t.stdin,
      stdout: t.stdout,
      stderr: t.stderr,
      env: {},
      cwd,
    });
    expect(code).toBe(0);
    expect(t.screen()).not.toContain('Template [');
    expect(t.screen()).not.toContain('Agent name: ');
    const card = written(cwd);
    expect(card.name).toBe('Patch Bot');
    expect(card.supportedInterfaces).toEqual([
      { url: 'http://localhost:3000/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
  });

  it('asks nothing when a flag answers every prompt', async () => {
    const cwd = tmp();
    const t = terminal([]);
    const args = [
      'init',
      '-t',
      'booking',
      '--name',
      'Table Booker',
      '--description',
      'Books tables at Acme restaurants.',
    ];
    const code = await run([...args, '--binding', 'GRPC', '--url', 'book.acme-corp.io:443'], {
      stdin: t.stdin,
      stdout: t.stdout,
      stderr: t.stderr,
      env: {},
      cwd,
    });
    expect(code).toBe(0);
    expect(t.screen()).not.toMatch(/: $/m);
    expect(written(cwd).supportedInterfaces).toEqual([
      { url: 'book.acme-corp.io:443', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ]);
  });

  it('refuses a typed binding it does not know, listing the accepted ones (exit 2)', async () => {
    const cwd = tmp();
    const t = terminal(['support', 'Line Doctor', 'Fixes lines.', 'REST', '']);
    const code = await run(['init'], { stdin: t.stdin, stdout: t.stdout, stderr: t.stderr, env: {}, cwd });
    expect(code).toBe(2);
    expect(t.screen()).toContain('agent-card: --binding: unknown value "REST". Use one of JSONRPC, HTTP+JSON, GRPC.\n');
    expect(existsSync(join(cwd, 'agent-card.json'))).toBe(false);
  });
});

describe('agent-card init without a terminal', () => {
  it.each(['support', 'booking', 'shopping', 'coding', 'research', 'workflow'])(
    'with every default (%s), the printed next step passes and its warnings list the template content',
    async (template) => {
      const init = await cli(['init', '--template', template]);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain(`Wrote agent-card.json from the "${template}" template.`);
      expect(init.stdout).toContain('  - set "name" and "description" to describe your agent;\n');
      const next = printedNextStep(init.stdout);
      expect(next).toEqual(['validate', 'agent-card.json', '--profile', 'development']);
      const validate = await cli(next, init.cwd);
      expect(validate.code).toBe(0);
      const warnings = [...validate.stdout.matchAll(/⚠ warning (\S+) +(\S+)\n +(.+)/g)].map((m) => ({
        rule: m[1],
        path: m[2],
        message: m[3]!,
      }));
      expect(warnings.every(({ rule }) => rule === 'template-content')).toBe(true);
      // Besides these, the template's URLs (booking's OAuth endpoints, coding's extension) and
      // texts (scheme descriptions, scope descriptions, API key header names) are its too, and the
      // "Next:" list names each of them.
      const urls = warnings.filter(({ message }) => /still the "\w+" template's (URL|text)/.test(message));
      for (const { message } of urls) expect(init.stdout).toContain(message.slice(0, message.indexOf(': still')));
      expect(warnings.filter((w) => !urls.includes(w)).map(({ path }) => path)).toEqual([
        '/name',
        '/description',
        '/skills/0',
        '/skills/1',
        '/skills/2',
      ]);
      expect(validate.stdout).toContain(`name: still the "${template}" template's name`);
      expect(validate.stdout).toContain(`✔ valid: 0 errors, ${warnings.length} warnings`);
      // What it says to run before publishing fails until the template content is replaced.
      const production = await cli(['validate', 'agent-card.json'], init.cwd);
      expect(production.code).toBe(1);
      expect(production.stdout).toContain('✖ error   template-content  /description');
      expect(production.stdout).toContain('✖ error   url-localhost');
    },
  );

  it('--name alone keeps the reminder for the description', async () => {
    const init = await cli(['init', '--name', 'Line Doctor', '--url', 'https://line.acme-corp.io/a2a']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      '  - set "description" to describe your agent (it is still the "support" template\'s);\n',
    );
    expect(init.stdout).not.toContain('set "name"');
    const validate = await cli(printedNextStep(init.stdout), init.cwd);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('⚠ warning template-content  /description');
    expect(validate.stdout).not.toContain('template-content  /name');
  });

  it('--name and --description leave the skills and the scheme text to replace, and Next names them', async () => {
    const init = await cli([
      'init',
      '--name',
      'Line Doctor',
      '--description',
      'Diagnoses broken phone lines for Acme Networks customers.',
      '--url',
      'https://line.acme-corp.io/a2a',
    ]);
    expect(init.stdout).not.toMatch(/set "(name|description)"/);
    expect(init.stdout).toContain(
      '  - replace what is still the "support" template\'s: securitySchemes.customerToken.httpAuthSecurityScheme.description;\n',
    );
    const validate = await cli(printedNextStep(init.stdout), init.cwd);
    expect(validate.stdout.match(/template-content +\S+/g)).toEqual([
      'template-content  /securitySchemes/customerToken/httpAuthSecurityScheme/description',
      'template-content  /skills/0',
      'template-content  /skills/1',
      'template-content  /skills/2',
    ]);
  });

  it('writes the binding it is given; the REST extended card needs HTTP+JSON', async () => {
    const init = await cli(['init', '--binding', 'HTTP+JSON', '--url', 'https://line.acme-corp.io/a2a/rest']);
    expect(init.code).toBe(0);
    expect(written(init.cwd).supportedInterfaces).toEqual([
      { url: 'https://line.acme-corp.io/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    const grpc = await cli(['init', '--binding', 'GRPC']);
    expect(written(grpc.cwd).supportedInterfaces[0].url).toBe('localhost:50051');
    expect((await cli(printedNextStep(grpc.stdout), grpc.cwd)).code).toBe(0);
  });

  it.each([
    [
      ['--binding', 'REST'],
      "error: option '--binding <binding>' argument 'REST' is invalid. Allowed choices are JSONRPC, HTTP+JSON, GRPC.",
    ],
    [['--binding', 'jsonrpc'], "argument 'jsonrpc' is invalid. Allowed choices are JSONRPC, HTTP+JSON, GRPC."],
    [['--template', 'nope'], 'Allowed choices are support, booking, shopping, coding, research, workflow.'],
    [
      ['--url', 'orders/a2a'],
      'agent-card: --url: not an absolute URL ("orders/a2a"). Use e.g. https://agent.acme.io/a2a.',
    ],
    [['--url', 'ftp://files.acme.io/a2a'], 'agent-card: --url: not an absolute URL ("ftp://files.acme.io/a2a").'],
    [['--url', 'acme.io:443'], 'agent-card: --url: not an absolute URL ("acme.io:443").'],
    [
      ['--agent', 'a=b.json'],
      'agent-card: --agent: only with --catalog. Add --catalog to write an AI Catalog, or drop --agent.',
    ],
  ])('a bad flag value %j is a usage error (exit 2) that says what is accepted', async (flags, message) => {
    const init = await cli(['init', ...flags]);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(message);
    expect(existsSync(join(init.cwd, 'agent-card.json'))).toBe(false);
  });
});

/** Two cards of the user's own, on acme-corp.io. */
function ownCards(cwd: string) {
  const card = (id: string, name: string, tags: string[]) => ({
    name,
    description: `Handles ${id} questions for Acme Corp customers, from first contact to resolution.`,
    version: '2.0.0',
    supportedInterfaces: [
      { url: `https://agents.acme-corp.io/${id}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: `${id}-help`, name: `${name} help`, description: `Answers ${id} questions.`, tags }],
  });
  const billing = card('billing', 'Acme Billing Agent', ['billing', 'invoices']);
  const support = card('support', 'Acme Support Agent', ['support']);
  writeFileSync(join(cwd, 'billing.json'), JSON.stringify(billing));
  writeFileSync(join(cwd, 'support.json'), JSON.stringify(support));
  return { billing, support };
}

describe('agent-card init --catalog', () => {
  it('writes the catalog the middleware serves for the same agents, and validate accepts it', async () => {
    const cwd = tmp();
    const { billing, support } = ownCards(cwd);
    const init = await cli(
      [
        'init',
        '--catalog',
        '--agent',
        'billing=billing.json',
        '--agent',
        'support=support.json',
        '--host-name',
        'Acme Corp',
        // The previous draft, pinned: the current one is covered below.
        '--draft',
        '634a09d9',
      ],
      cwd,
    );
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('✔ Wrote ai-catalog.json: an AI Catalog of 2 agents.\n');
    expect(init.stdout).toContain(
      "  agents: [{ id: 'billing', path: '/agents/billing', card: /* billing.json */ }, { id: 'support', path: '/agents/support', card: /* support.json */ }],\n",
    );
    expect(init.stdout).toContain('  catalog: { draft: \'634a09d9\', host: { displayName: "Acme Corp" } },\n');
    expect(init.stdout).toContain('Next: agent-card validate ai-catalog.json\n');
    const file = readFileSync(join(cwd, 'ai-catalog.json'), 'utf8');

    const validate = await cli(['validate', 'ai-catalog.json'], cwd);
    expect(validate.code).toBe(0);
    // A catalog of the previous draft is valid, and validate says how it differs from the current one.
    expect(validate.stdout).toContain('ai-catalog.json: AI Catalog, profile production\n');
    expect(validate.stdout).toContain('catalog: follows the previous AI Catalog draft (634a09d9)');
    expect(validate.stdout).toContain('✔ valid: 0 errors, 0 warnings');

    const handler = createAgentCardFetchHandler({
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing },
        { id: 'support', path: '/agents/support', card: support },
      ],
      catalog: { host: { displayName: 'Acme Corp' }, draft: '634a09d9' },
      profile: 'production',
    } as never);
    const served = await handler(new Request('https://agents.acme-corp.io/.well-known/ai-catalog.json'));
    expect(served?.status).toBe(200);
    expect(JSON.parse(file)).toEqual(await served!.json());
    expect(JSON.parse(file).entries[0]).toEqual({
      identifier: 'urn:agent-card:agents.acme-corp.io:billing',
      displayName: 'Acme Billing Agent',
      mediaType: 'application/a2a-agent-card+json',
      url: 'https://agents.acme-corp.io/agents/billing/.well-known/agent-card.json',
      description: 'Handles billing questions for Acme Corp customers, from first contact to resolution.',
      version: '2.0.0',
      tags: ['billing', 'invoices'],
    });
  });

  it('writes the current draft by default: urn:air identifiers from --publisher, entries by type, as the middleware serves them', async () => {
    const cwd = tmp();
    const { billing, support } = ownCards(cwd);
    const args = ['init', '--catalog', '--agent', 'billing=billing.json', '--agent', 'support=support.json'];
    const init = await cli([...args, '--host-name', 'Acme Corp', '--publisher', 'acme-corp.io'], cwd);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('  catalog: { publisher: \'acme-corp.io\', host: { displayName: "Acme Corp" } },\n');
    const file = JSON.parse(readFileSync(join(cwd, 'ai-catalog.json'), 'utf8'));
    expect(file.entries[0]).toEqual({
      identifier: 'urn:air:acme-corp.io:agent:billing',
      type: 'application/a2a-agent-card+json',
      url: 'https://agents.acme-corp.io/agents/billing/.well-known/agent-card.json',
      tags: ['billing', 'invoices'],
    });
    const validate = await cli(['validate', 'ai-catalog.json'], cwd);
    expect(validate.stdout).toContain('ai-catalog.json: AI Catalog, profile production\n✔ valid: 0 errors, 0 warnings');
    const handler = createAgentCardFetchHandler({
      agents: [
        { id: 'billing', path: '/agents/billing', card: billing },
        { id: 'support', path: '/agents/support', card: support },
      ],
      catalog: { host: { displayName: 'Acme Corp' }, publisher: 'acme-corp.io' },
      profile: 'production',
    } as never);
    const served = await handler(new Request('https://agents.acme-corp.io/.well-known/ai-catalog.json'));
    expect(file).toEqual(await served!.json());
  });

  it("follows --base-url and --agents-path as the middleware's catalog.baseUrl and agent paths do", async () => {
    const cwd = tmp();
    const { billing } = ownCards(cwd);
    const init = await cli(
      [
        'init',
        '--catalog',
        '--agent',
        'billing=billing.json',
        '--base-url',
        'https://cards.acme-corp.io/a2a/',
        '--agents-path',
        '/team',
        '-o',
        'c.json',
      ],
      cwd,
    );
    expect(init.code).toBe(0);
    const handler = createAgentCardFetchHandler({
      agents: [{ id: 'billing', path: '/team/billing', card: billing }],
      catalog: { baseUrl: 'https://cards.acme-corp.io/a2a/' },
    } as never);
    const served = await handler(new Request('https://cards.acme-corp.io/.well-known/ai-catalog.json'));
    expect(written(cwd, 'c.json')).toEqual(await served!.json());
    expect(written(cwd, 'c.json').entries[0].url).toBe(
      'https://cards.acme-corp.io/a2a/team/billing/.well-known/agent-card.json',
    );
    expect(validateAiCatalog(readFileSync(join(cwd, 'c.json'), 'utf8'), { profile: 'production' }).valid).toBe(true);
  });

  it.each([
    [[], 'agent-card: --catalog: no agents to list. Give each with --agent <id>=<card file or URL>'],
    [['--agent', 'billing'], 'agent-card: --agent: expected <id>=<card file or URL>'],
    [['--agent', '../x=billing.json'], 'agent-card: --agent: expected <id>=<card file or URL>'],
    [
      ['--agent', 'a=billing.json', '--agent', 'a=support.json'],
      'agent-card: --agent: the id "a" is given twice. Give each agent its own id.',
    ],
    [['--agent', 'a=missing.json'], 'agent-card: missing.json: no such file. Check the path.'],
    [
      ['--agent', 'a=billing.json', '--base-url', 'not a url'],
      'agent-card: --base-url: not an absolute URL ("not a url").',
    ],
    [
      ['--agent', 'a=billing.json', '--agents-path', '/../etc'],
      'agent-card: --agents-path: not a path like /agents ("/../etc").',
    ],
  ])('refuses %j with a usage error (exit 2) and writes nothing', async (flags, message) => {
    const cwd = tmp();
    ownCards(cwd);
    const init = await cli(['init', '--catalog', ...flags], cwd);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(message);
    expect(existsSync(join(cwd, 'ai-catalog.json'))).toBe(false);
  });

  it('refuses a card with errors (exit 1), showing its findings, and writes nothing', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'bad.json'), JSON.stringify({ name: 'Half a card' }));
    const init = await cli(['init', '--catalog', '--agent', 'bad=bad.json'], cwd);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain('required-fields');
    expect(init.stderr).toContain('agent-card: --agent bad: bad.json has errors (see above); nothing was written.');
    expect(existsSync(join(cwd, 'ai-catalog.json'))).toBe(false);
  });

  it('never overwrites a catalog without --force', async () => {
    const cwd = tmp();
    ownCards(cwd);
    writeFileSync(join(cwd, 'ai-catalog.json'), '{}');
    const init = await cli(['init', '--catalog', '--agent', 'billing=billing.json'], cwd);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('ai-catalog.json: already exists. Pass --force to overwrite it.');
    expect(readFileSync(join(cwd, 'ai-catalog.json'), 'utf8')).toBe('{}');
  });
});

describe('agent-card init names the command that runs it again, however it was started', () => {
  const next = (command: string) =>
    `  - check it now (warnings list what is still the template's): ${command} validate agent-card.json --profile development\n`;
  it.each([
    // Before publish: npx with the tarballs; `npx @agent-card/cli` would answer 404.
    [
      'npx --package with the tarballs',
      '/root/.npm/_npx/4f2a/node_modules/.bin/agent-card',
      { npm_command: 'exec', npm_config_package: './agent-card-core-1.0.0.tgz\n\n./agent-card-cli-1.0.0.tgz' },
      'npx --package ./agent-card-core-1.0.0.tgz --package ./agent-card-cli-1.0.0.tgz agent-card',
    ],
    [
      'npx --package with a path that needs quoting',
      '/root/.npm/_npx/4f2a/node_modules/.bin/agent-card',
      { npm_command: 'exec', npm_config_package: '/tmp/my tarballs/cli.tgz' },
      "npx --package '/tmp/my tarballs/cli.tgz' agent-card",
    ],
    // From the registry: a bare agent-card would find nothing, or the unscoped package of that name.
    [
      'npx @agent-card/cli',
      '/root/.npm/_npx/4f2a/node_modules/.bin/agent-card',
      { npm_command: 'exec' },
      'npx @agent-card/cli',
    ],
    [
      'npx in a project that installed it',
      '{project}/node_modules/.bin/agent-card',
      { npm_command: 'exec' },
      'npx agent-card',
    ],
    ['a package script', '{project}/node_modules/@agent-card/cli/dist/cli.mjs', {}, 'npx agent-card'],
    // Installed in another project: its bin is not what npx finds here.
    ['an install elsewhere', '/srv/other/node_modules/@agent-card/cli/dist/cli.mjs', {}, 'agent-card'],
    ['a global install', '/usr/lib/node_modules/@agent-card/cli/dist/cli.mjs', {}, 'agent-card'],
  ])('%s', async (_how, script, env, command) => {
    // The CLI installed in a project, run from a directory below it.
    const project = tmp();
    const cwd = join(project, 'web');
    mkdirSync(cwd);
    const p = piped(cwd);
    p.io.env = env;
    p.io.script = script.replace('{project}', project);
    const code = await run(['init', '--name', 'Paper Scout', '--url', 'https://scout.acme-corp.io/a2a'], p.io);
    expect(code, p.err()).toBe(0);
    expect(p.out()).toContain(next(command));
  });
});
