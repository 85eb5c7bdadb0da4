import 'reflect-metadata';
import { createRequire } from 'node:module';
import { describe } from 'vitest';
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';
import * as testing from '@nestjs/testing';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import * as lib from './index';
import { agentCardE2E } from '../test/e2e-suite';

const nestVersion = (createRequire(import.meta.url)('@nestjs/core/package.json') as { version: string }).version;

describe('@agent-card/nest on Nest 12 (ESM)', () => {
  agentCardE2E({
    common,
    core,
    testing,
    lib,
    major: 12,
    nestVersion,
    platforms: [
      { name: 'express', adapter: () => new ExpressAdapter() },
      { name: 'fastify', adapter: () => new FastifyAdapter() },
    ],
  });
});
