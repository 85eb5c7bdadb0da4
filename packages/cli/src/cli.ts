#!/usr/bin/env node
import { processIO } from './io';
import { run } from './program';

run(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`agent-card: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
