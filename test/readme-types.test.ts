// The ```ts and ```js code blocks of the root, core, CLI, Nest and discovery READMEs and of core's
// pages in packages/core/docs/, type-checked under `strict` against the built packages, the way a
// user who copies one gets them: each block is a module of its own, with the names it takes as given
// (`app`, `card`, `privateKey`…) declared by its README's prelude below (core's pages take core's).
// One `tsc` run for every block; a failure names the README or page and its line.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { readmePreludes, readmeStubs } from './readme-preludes';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Inside test/, so that the packages resolve through test/node_modules to the built workspace ones.
const dir = join(repoRoot, 'test/.readme-types');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/** Local names a run of import statements binds (`import a, { b as c, type d } from 'x'` → a, c, d). */
export function importedNames(imports: string): Set<string> {
  const names = new Set<string>();
  for (const [, clause] of imports.matchAll(/\bimport\s+(?:type\s+)?([\s\S]*?)\s+from\s/g)) {
    for (const part of clause!.replace(/[{}]/g, ',').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Names a block declares at its top level (const/let/function/class/interface/type, destructured too). */
export function declaredNames(code: string): Set<string> {
  const names = importedNames(code);
  for (const [, list] of code.matchAll(/^(?:export\s+)?(?:const|let|var)\s+(\{[^}]*\}|\[[^\]]*\])/gm)) {
    for (const part of list!.replace(/[{}[\]]/g, '').split(',')) {
      const name = part.split(':').pop()?.split('=')[0]?.trim();
      if (name) names.add(name);
    }
  }
  for (const [, name] of code.matchAll(
    /^(?:export\s+)?(?:declare\s+)?(?:async\s+)?(?:const|let|var|function|class|interface|type)\s+([A-Za-z_$][\w$]*)/gm,
  )) {
    names.add(name!);
  }
  return names;
}

interface Block {
  readme: string;
  line: number;
  file: string;
}

/** The prelude's statements a block gets: of an import, the names the block does not bind itself. */
function givenFor(code: string, prelude: string): string[] {
  const taken = declaredNames(code);
  const given: string[] = [];
  for (const statement of prelude.trim().split(/\n(?=import |declare |type |interface )/)) {
    const named = /^import (?:(\w+)(?:, )?)?(?:\{([^}]*)\})? from ('[^']+');$/.exec(statement.trim());
    if (named) {
      const [, defaultName, list, from] = named;
      const kept = (list ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(
          (part) =>
            part !== '' &&
            !taken.has(
              part
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)
                .pop()!,
            ),
        );
      const head = defaultName && !taken.has(defaultName) ? defaultName : undefined;
      if (head || kept.length > 0) {
        given.push(
          `import ${[head, kept.length > 0 ? `{ ${kept.join(', ')} }` : undefined].filter(Boolean).join(', ')} from ${from};`,
        );
      }
    } else if (![...declaredNames(statement)].some((name) => taken.has(name))) {
      given.push(statement.trim());
    }
  }
  return given;
}

/**
 * Writes every untitled ```ts / ```js block of a README (the titled ones are whole files the
 * consumer suite runs) as `blocks/<stem>-<line>.mts` (`.mjs` for JavaScript, checked as such and
 * without a prelude): the block first, so that line n of the file is line `line + n` of the
 * README, then what it takes as given from the prelude.
 */
function writeBlocks(readme: string, prelude: string): Block[] {
  const text = readFileSync(join(repoRoot, readme), 'utf8');
  // `root`, `core`, `core-docs-serving`…: one name per file, so that no two blocks share a file name.
  const stem =
    readme === 'README.md'
      ? 'root'
      : readme
          .replace(/^packages\//, '')
          .replace(/(\/README)?\.md$/, '')
          .replaceAll('/', '-');
  const blocks: Block[] = [];
  for (const match of text.matchAll(/^```(ts|js)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const line = text.slice(0, match.index).split('\n').length;
    const code = match[2]!;
    const file = `${stem}-${line}.${match[1] === 'js' ? 'mjs' : 'mts'}`;
    const given = match[1] === 'js' ? [] : ['// The names the block takes as given:', ...givenFor(code, prelude)];
    writeFileSync(join(dir, 'blocks', file), [code, ...given, 'export {};', ''].join('\n'));
    blocks.push({ readme, line, file });
  }
  return blocks;
}

/** Core's documentation pages (packages/core/docs/*.md), each checked with core's README prelude. */
function corePages(): [string, string][] {
  const prelude = readmePreludes['packages/core/README.md']!;
  return readdirSync(join(repoRoot, 'packages/core/docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => [`packages/core/docs/${name}`, prelude]);
}

let passed = false;
// Kept when a block fails, to look at (git-ignored).
afterAll(() => passed && rmSync(dir, { recursive: true, force: true }));

it('the README code blocks type-check under strict against the built packages', async () => {
  const unbuilt = readdirSync(join(repoRoot, 'packages')).filter(
    (name) => !existsSync(join(repoRoot, 'packages', name, 'dist')),
  );
  expect(unbuilt, 'the blocks are checked against the built packages: run `npx pnpm@12.4.2 build` first').toEqual([]);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'blocks'), { recursive: true });
  for (const [path, content] of Object.entries(readmeStubs)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const blocks = [...Object.entries(readmePreludes), ...corePages()].flatMap(([readme, prelude]) =>
    writeBlocks(readme, prelude),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules/@types')],
        strict: true,
        skipLibCheck: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        allowJs: true,
        checkJs: true,
        noEmit: true,
      },
      include: ['blocks/*.mts', 'blocks/*.mjs'],
    }),
  );
  const output = await new Promise<string>((done) =>
    execFile(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], (_error, stdout, stderr) =>
      done(stdout + stderr),
    ),
  );
  // `root-98.mts(5,7): error TS2304: …` → `README.md:103: TS2304: …`
  const errors = output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const found = /([\w.-]+\.m[tj]s)\((\d+),\d+\): error (TS\d+: .*)/.exec(line);
      const block = found && blocks.find((candidate) => candidate.file === found[1]);
      return block ? `${block.readme}:${block.line + Number(found![2])}: ${found![3]}` : line;
    });
  expect(blocks.length).toBeGreaterThan(30);
  // Core's pages with code are among those checked: a page left out would let its examples rot.
  const checked = new Set(blocks.map((block) => block.readme));
  for (const page of ['rules', 'serving', 'signing']) expect(checked).toContain(`packages/core/docs/${page}.md`);
  expect(errors).toEqual([]);
  passed = true;
}, 120_000);
