// Counts the names each entry of a package exports, read from its source entries with the
// TypeScript compiler: values (functions, classes, constants) and types, a name that is both
// counted once. Usage: node scripts/count-exports.mjs [package dir] [--names]
// (default packages/core). Prints one line per entry; --names lists the names as well.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const listNames = args.includes('--names');
const dir = resolve(args.find((arg) => !arg.startsWith('--')) ?? 'packages/core');
const manifest = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8'));

const entries = Object.entries(manifest.exports ?? {})
  .filter(([, target]) => typeof target === 'object' && target['@agent-card/source'])
  .map(([subpath, target]) => [`${manifest.name}${subpath.slice(1)}`, resolve(dir, target['@agent-card/source'])]);

const program = ts.createProgram(
  entries.map(([, file]) => file),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();

const kindOf = (symbol) => {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return target.flags & ts.SymbolFlags.Value ? 'value' : 'type';
};

let total = 0;
for (const [name, file] of entries) {
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  const values = exported.filter((symbol) => kindOf(symbol) === 'value').length;
  total += exported.length;
  console.log(`${name}: ${exported.length} names (${values} values, ${exported.length - values} types)`);
  if (listNames) {
    for (const symbol of [...exported].sort((a, b) => a.name.localeCompare(b.name))) {
      console.log(`  ${kindOf(symbol)} ${symbol.name}`);
    }
  }
}
console.log(`all entries: ${total} names`);
