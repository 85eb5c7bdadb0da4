// Lints the package in the working directory as it will be published: publint (--strict, on the
// packed files) and Are the Types Wrong (node16 profile). Both read the tarball `scripts/pack.mjs`
// wrote when it is newer than every change to the packages (the test command packs once for this
// lint and the consumer suite); otherwise each packs the package itself. A clean package prints
// one line; a finding prints the tool's whole report and fails.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { freshTarballs } from './pack.mjs';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const { name } = JSON.parse(readFileSync('package.json', 'utf8'));
// Only a package of this workspace has its tarball in .cache/tarballs (the lint's own test lints copies).
const tarball =
  resolve('.') === resolve(new URL('../packages', import.meta.url).pathname, name.split('/')[1] ?? '')
    ? freshTarballs()?.[name]
    : undefined;
const tools = tarball
  ? [
      ['publint', bin('publint'), ['run', tarball, '--strict']],
      ['attw', bin('attw'), [tarball, '--profile', 'node16']],
    ]
  : [
      ['publint', bin('publint'), ['--strict', '--pack', 'npm']],
      ['attw', bin('attw'), ['--pack', '.', '--profile', 'node16']],
    ];

const run = ([tool, command, args]) =>
  new Promise((done) =>
    execFile(command, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ tool, failed: Boolean(error), output: stdout + stderr }),
    ),
  );

const results = [];
for (const tool of tools) results.push(await run(tool));
const failed = results.filter((result) => result.failed);
if (failed.length === 0) {
  console.log(`${name}: publint and attw (node16) found nothing`);
} else {
  for (const { tool, output } of failed) {
    console.error(`${name}: ${tool} failed\n${process.stderr.isTTY ? output : stripVTControlCharacters(output)}`);
  }
  process.exitCode = 1;
}
