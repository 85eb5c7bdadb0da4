import 'reflect-metadata';
import { createRequire } from 'node:module';
import { describe } from 'vitest';
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';
import * as testing from '@nestjs/testing';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import * as lib from './index';
import * as swagger from '@nestjs/swagger';
import { agentCardE2E } from '../test/e2e-suite';
import { openApiE2E } from '../test/openapi-suite';

const require = createRequire(import.meta.url);
const nestVersion = (require('@nestjs/core/package.json') as { version: string }).version;
const swaggerVersion = (require('@nestjs/swagger/package.json') as { version: string }).version;
const platforms = [
  { name: 'express' as const, adapter: () => new ExpressAdapter() },
  { name: 'fastify' as const, adapter: () => new FastifyAdapter() },
];

describe('@agent-card/nest on Nest 12 (ESM)', () => {
  agentCardE2E({
    common,
    core,
    testing,
    lib,
    major: 12,
    nestVersion,
    platforms,
  });
  openApiE2E({ common, core, testing, lib, major: 12, nestVersion, platforms, swagger, swaggerVersion });
});
