#!/usr/bin/env node
import { processIO } from './io';
import { run } from './program';
import { guardOutput, visible } from './terminal';

run(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      guardOutput(`agent-card: ${visible(error instanceof Error ? error.message : String(error))}\n`),
    );
    process.exitCode = 2;
  },
);
