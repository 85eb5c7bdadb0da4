// @agent-card/nest against NestJS 11 (CommonJS): the shared e2e suite on platform-express and
// platform-fastify through the injected copy (which resolves Nest 11 as its peer), and a plain
// CommonJS app that require()s the built CJS output.
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { agentCardE2E } from '../../packages/nest/test/e2e-suite';
import { syncInjectedNest } from './sync-injected';

const here = dirname(fileURLToPath(import.meta.url));
const injected = syncInjectedNest();
const require = createRequire(import.meta.url);
// Resolved from the injected copy, i.e. the Nest the library itself sees.
const fromLibrary = createRequire(join(injected, 'package.json'));

// The injected copy is the same source as packages/nest, resolved against Nest 11's types.
const lib = (await import('@agent-card/nest')) as unknown as typeof import('../../packages/nest/src/index');
const common = require('@nestjs/common');
const core = require('@nestjs/core');
const testing = require('@nestjs/testing');
const { ExpressAdapter } = require('@nestjs/platform-express');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

describe('@agent-card/nest on Nest 11 (CommonJS)', () => {
  it('loads the library from the injected copy, which resolves the same Nest 11 as the app', () => {
    expect(fromLibrary.resolve('@nestjs/core')).toBe(require.resolve('@nestjs/core'));
    expect(fromLibrary('@nestjs/common/package.json').version).toMatch(/^11\./);
  });

  agentCardE2E({
    common,
    core,
    testing,
    lib,
    major: 11,
    nestVersion: fromLibrary('@nestjs/core/package.json').version,
    platforms: [
      { name: 'express', adapter: () => new ExpressAdapter() },
      { name: 'fastify', adapter: () => new FastifyAdapter() },
    ],
  });

  it('works from the CJS build in a CommonJS Nest 11 app', async () => {
    expect(existsSync(join(injected, 'dist/index.cjs')), 'packages/nest/dist is missing: run `pnpm build` first').toBe(
      true,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [join(here, 'cjs-app.cjs')], {
      cwd: here,
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(result.nest).toMatch(/^11\./);
    expect(result.library).toMatch(/dist[\\/]index\.cjs$/);
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('application/a2a+json');
    expect(result.card.skills).toEqual([
      { id: 'daily', name: 'Daily', description: 'Builds the daily sales report.', tags: ['reports'] },
    ]);
    expect(result.route).toBe(200);
  });
});
