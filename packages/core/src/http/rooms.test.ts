// The layout of http/: one folder (room) per serving feature, standing on the foundations; rooms
// are composed only at the http level (responder.ts, multi-agent.ts, store-host.ts).
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

/** `room/file.ts imports other-room/file` for each import of a room it may not stand on. */
function crossings(): string[] {
  const out: string[] = [];
  for (const room of rooms) {
    const allowed = new Set([room, ...(FOUNDATIONS[room] ?? Object.keys(FOUNDATIONS))]);
    for (const file of readdirSync(join(HTTP, room))) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = readFileSync(join(HTTP, room, file), 'utf8');
      for (const spec of specifiers(text)) {
        const target = relative(HTTP, resolve(HTTP, room, spec));
        const [first, ...rest] = target.split(sep);
        // Outside http/, or a file at the http level (where rooms are composed, and the options' types).
        if (first === '..' || rest.length === 0) continue;
        if (!allowed.has(first!)) out.push(`${room}/${file} imports ${target}`);
      }
    }
  }
  return out;
}

describe('http rooms', () => {
  it('finds the rooms and their imports', () => {
    expect(rooms).toEqual(expect.arrayContaining(['kernel', 'card', 'host', 'agents', 'ard', 'viewer', 'store']));
    expect(
      specifiers("import { a } from '../kernel/paths';\nexport type { B } from './b';\nawait import('../x/y');"),
    ).toEqual(['../kernel/paths', './b', '../x/y']);
  });

  it('no room imports another room: each stands on kernel/, card/ and host/ only, and they on the kernel', () => {
    expect(crossings()).toEqual([]);
  });
});
