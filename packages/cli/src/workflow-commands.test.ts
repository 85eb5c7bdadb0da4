// A checked host's card must not run as GitHub Actions workflow commands when a workflow prints
// the report (issue 36, item 1). The parser below follows the runner's rules (actions/runner,
// `ActionCommand.TryParseV2` then `TryParse`, on each line of a step's stdout and stderr):
// - a line whose start, after whitespace, is `::` is a command when a second `::` follows; its name
//   runs from after the first `::` to the first space or the second `::`;
// - otherwise a line holding `##[` anywhere is a (legacy) command when a `]` follows; its name runs
//   from after `##[` to the first space or that `]`.
// The runner runs registered names only; any name counts here, so a new command is covered too.
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, loopbackServers } from '../test/run-cli';

interface WorkflowCommand {
  form: 'v2' | 'legacy';
  name: string;
  line: string;
}

/** The commands the runner would run in `output`, one line at a time. */
function workflowCommands(output: string): WorkflowCommand[] {
  const found: WorkflowCommand[] = [];
  for (const line of output.split(/\r\n|\r|\n/)) {
    // .NET's TrimStart(): the characters of char.IsWhiteSpace.
    const trimmed = line.replace(/^[\s\u0085]+/, '');
    if (trimmed.startsWith('::')) {
      const end = trimmed.indexOf('::', 2);
      if (end >= 0) {
        const info = trimmed.slice(2, end);
        const name = info.includes(' ') ? info.slice(0, info.indexOf(' ')) : info;
        if (name !== '') {
          found.push({ form: 'v2', name, line });
          continue;
        }
      }
    }
    const prefix = line.indexOf('##[');
    if (prefix < 0) continue;
    const bracket = line.indexOf(']', prefix);
    if (bracket < 0) continue;
    const info = line.slice(prefix + 3, bracket);
    const name = info.includes(' ') ? info.slice(0, info.indexOf(' ')) : info;
    if (name !== '') found.push({ form: 'legacy', name, line });
  }
  return found;
}

describe('the parser of this test, on the runner’s own examples', () => {
  it.each([
    ['::add-mask::x', 'add-mask'],
    ['  ::error file=a.json,line=1::bad', 'error'],
    ['\u00a0::stop-commands::token', 'stop-commands'],
    ['Card: ##[set-output name=verdict;]passed', 'set-output'],
    ['x ##[stop-commands]token', 'stop-commands'],
  ])('%j runs %s', (line, name) => {
    expect(workflowCommands(line).map((c) => c.name)).toEqual([name]);
  });

  it.each(['a ::add-mask::x', ':\\u003aadd-mask::x', '##\\u005bset-output name=v;]x', '::no second separator'])(
    '%j runs nothing',
    (line) => {
      expect(workflowCommands(line)).toEqual([]);
    },
  );
});

const NAME = '##[set-output name=verdict;]passed';
const DESCRIPTION = '::add-mask::x';
const SKILL = '##[stop-commands]stop-token';
const BINDING = '::add-mask::secret';

/** A card whose every text a workflow would run, and an unknown binding `--probe` prints. */
const card = {
  name: NAME,
  description: DESCRIPTION,
  version: '1.0.0',
  supportedInterfaces: [{ url: 'https://agent.example/a2a', protocolBinding: BINDING, protocolVersion: '1.0' }],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: SKILL, name: `${NAME} skill`, description: DESCRIPTION, tags: [SKILL] }],
};

const servers = loopbackServers();
let origin = '';
const dir = mkdtempSync(join(tmpdir(), 'agent-card-workflow-'));
const file = join(dir, 'agent-card.json');
writeFileSync(file, JSON.stringify(card, null, 2));

beforeAll(async () => {
  const body = JSON.stringify(card);
  origin = await servers.listen(
    createServer((req, res) => {
      if (req.url === '/.well-known/agent-card.json' || req.url === '/.well-known/agent.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      } else res.writeHead(404).end();
    }),
  );
});

afterAll(() => servers.close());

const ACTIONS = { env: { GITHUB_ACTIONS: 'true' } };
const FORMATS = [
  ['--format', 'text'],
  ['--json'],
  ['--format', 'sarif'],
  ['--format', 'junit'],
  ['--format', 'github'],
].map((format) => [format.join(' '), format] as const);

describe('in GitHub Actions (GITHUB_ACTIONS=true), no report line of a hostile card runs as a workflow command', () => {
  it.each(FORMATS)('check %s: only the CLI’s own annotations are commands', async (_, format) => {
    const run = await cli(['check', origin, '--allow-http', '--probe', ...format], ACTIONS);
    expect(run.code).toBe(1);
    const commands = workflowCommands(run.stdout + run.stderr);
    const own = format.includes('github') ? ['error', 'warning', 'notice'] : [];
    expect(commands.filter((c) => !(c.form === 'v2' && own.includes(c.name)))).toEqual([]);
    if (format.includes('github')) expect(commands.length).toBeGreaterThan(0);
  });

  it.each(FORMATS)('validate %s: only the CLI’s own annotations are commands', async (_, format) => {
    const run = await cli(['validate', file, ...format], ACTIONS);
    const commands = workflowCommands(run.stdout + run.stderr);
    const own = format.includes('github') ? ['error', 'warning', 'notice'] : [];
    expect(commands.filter((c) => !(c.form === 'v2' && own.includes(c.name)))).toEqual([]);
  });

  it('the JSON report still holds the card’s text as it is: the escapes are JSON’s own', async () => {
    const run = await cli(['check', origin, '--allow-http', '--json'], ACTIONS);
    expect(run.stdout).toContain('##\\u005bset-output');
    const report = JSON.parse(run.stdout);
    expect(report.document.name).toBe(NAME);
    expect(report.document.description).toBe(DESCRIPTION);
  });

  it('the text report shows the name with its escape, and --probe prints no binding at a line start', async () => {
    const run = await cli(['check', origin, '--allow-http', '--probe'], ACTIONS);
    expect(run.stdout).toContain('Card: ##\\u005bset-output name=verdict;]passed 1.0.0');
    expect(run.stdout).toContain(`interface "https://agent.example/a2a": binding "::ADD-MASK::SECRET" is not probed.`);
    for (const line of run.stdout.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false);
  });

  it('a leading :: of card text split over two writes is caught too', async () => {
    const { guardStream } = await import('./terminal');
    const written: string[] = [];
    const stream = guardStream({ write: (s: string) => written.push(s) }, { workflowCommands: true });
    for (const chunk of ['ok\n  :', ':add-mask::x\n#', '#', '[stop-commands]t\n']) stream.write(chunk);
    expect(workflowCommands(written.join(''))).toEqual([]);
  });
});

describe('outside GitHub Actions', () => {
  it('the report prints the card’s text as it is', async () => {
    const run = await cli(['check', origin, '--allow-http']);
    expect(run.stdout).toContain(`Card: ${NAME} 1.0.0`);
  });
});
