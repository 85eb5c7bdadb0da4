// Builds the package in the working directory from its tsdown.config.ts, through tsdown's API.
// The tsdown CLI prints "Node.js v20.x is deprecated" on every run although tsdown 0.21 supports
// Node >= 20.19 (its `engines`), the version this repository supports; the API does not. Success
// prints nothing: warnings and errors still do. TSDOWN_LOG_LEVEL=info shows the file list.
import { stripVTControlCharacters } from 'node:util';
import { build } from 'tsdown';

try {
  await build({ logLevel: process.env.TSDOWN_LOG_LEVEL ?? 'warn' });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  // rolldown colours its diagnostics whatever the output is; a log file or CI page gets plain text.
  console.error(process.stderr.isTTY ? message : stripVTControlCharacters(message));
  process.exitCode = 1;
}
