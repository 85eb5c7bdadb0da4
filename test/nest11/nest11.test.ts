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
import { openApiE2E } from '../../packages/nest/test/openapi-suite';
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
// @nestjs/swagger 11, the major a Nest 11 app uses.
const swagger = require('@nestjs/swagger');
const platforms = [
  { name: 'express' as const, adapter: () => new ExpressAdapter() },
  { name: 'fastify' as const, adapter: () => new FastifyAdapter() },
];
const nestVersion = fromLibrary('@nestjs/core/package.json').version;

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
    nestVersion,
    platforms,
  });

  openApiE2E({
    common,
    core,
    testing,
    lib,
    major: 11,
    nestVersion,
    platforms,
    swagger,
    swaggerVersion: require('@nestjs/swagger/package.json').version,
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
