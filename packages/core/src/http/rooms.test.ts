// The layout of http/: one folder (room) per serving feature, standing on the foundations; rooms
// are composed only at the http level (responder.ts, multi-agent.ts, store-host.ts).
//
// Tests are held to the rule of their room's sources: a test imports its own room, the rooms its
// room stands on, the http level and what is outside http/, never a sibling room. It reaches
// another room's part the way a host does, through the composition (`createAgentCardResponder`,
// `agentResponderOf`) or the http entry (`index.ts`: `getExtendedAgentCard`, `agentCardStore`, …),
// so a room can change inside without breaking its neighbours' tests. What the tests of several
// rooms share goes down into a foundation, or into a test helper at the http level
// (`http/test-*.ts`), which stands on the foundations only: a helper is no way into a room.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HTTP = dirname(fileURLToPath(import.meta.url));

/** What every room may stand on, and what each foundation itself may import. */
const FOUNDATIONS: Record<string, readonly string[]> = {
  kernel: [],
  card: ['kernel'],
  host: ['kernel'],
};

const rooms = readdirSync(HTTP).filter((name) => statSync(join(HTTP, name)).isDirectory());

/** Every relative module a source file imports or re-exports (static or dynamic). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.[^']*)'/g)) found.push(m[1]!);
  return found;
}

/**
 * `room/file imports other-room/file` for each import in `text` (the file `file` of `room`, `''`
 * for a test helper at the http level) of a room it may not stand on.
 */
function crossingsOf(room: string, file: string, text: string): string[] {
  const allowed = new Set([room, ...(FOUNDATIONS[room] ?? Object.keys(FOUNDATIONS))]);
  const out: string[] = [];
  for (const spec of specifiers(text)) {
    const target = relative(HTTP, resolve(HTTP, room, spec));
    const [first, ...rest] = target.split(sep);
    // Outside http/, or a file at the http level (where rooms are composed, and the options' types).
    if (first === '..' || rest.length === 0) continue;
    if (!allowed.has(first!)) out.push(`${join(room, file)} imports ${target}`);
  }
  return out;
}

/** The crossings of every room's files, tests included, and of the test helpers at the http level. */
function crossings(): string[] {
  const files = [
    ...rooms.flatMap((room) => readdirSync(join(HTTP, room)).map((file) => [room, file] as const)),
    ...readdirSync(HTTP)
      .filter((file) => file.startsWith('test-'))
      .map((file) => ['', file] as const),
  ];
  return files
    .filter(([, file]) => file.endsWith('.ts'))
    .flatMap(([room, file]) => crossingsOf(room, file, readFileSync(join(HTTP, room, file), 'utf8')));
}

describe('http rooms', () => {
  it('finds the rooms and their imports', () => {
    expect(rooms).toEqual(expect.arrayContaining(['kernel', 'card', 'host', 'agents', 'ard', 'viewer', 'store']));
    expect(
      specifiers("import { a } from '../kernel/paths';\nexport type { B } from './b';\nawait import('../x/y');"),
    ).toEqual(['../kernel/paths', './b', '../x/y']);
  });

  it('reports a test that imports a sibling room, and lets it use its foundations and the http level', () => {
    const test = [
      "import { searchIndexBuilds } from '../ard/search';",
      "import { agentCardStore } from '../index';",
      "import { createAgentCardResponder } from '../responder';",
      "import type { RequestBodyRead } from '../kernel/body';",
      "import { tenantCard } from './test-cards';",
      "import { memoryStore } from '../../store/memory';",
    ].join('\n');
    expect(crossingsOf('store', 'search.test.ts', test)).toEqual(['store/search.test.ts imports ard/search']);
    // A foundation's test stands where its sources do: the kernel's on the kernel alone.
    expect(crossingsOf('kernel', 'etag.test.ts', "import { agentOf } from '../host/agent';")).toEqual([
      'kernel/etag.test.ts imports host/agent',
    ]);
    // A test helper at the http level stands on the foundations, not on a room.
    expect(
      crossingsOf('', 'test-hosts.ts', "import { cardOf } from './card/variant';\nimport { x } from './viewer/pages';"),
    ).toEqual(['test-hosts.ts imports viewer/pages']);
  });

  it('no room imports another room: each stands on kernel/, card/ and host/ only, and they on the kernel', () => {
    expect(crossings()).toEqual([]);
  });
});
