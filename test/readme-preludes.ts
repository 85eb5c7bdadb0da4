// What the code blocks of each README take as given, for their strict type-check
// (test/readme-types.test.ts; core's pages in packages/core/docs/ take core's): imports and
// `declare` statements, one per line or block. A block that imports or declares a name itself gets
// its own, not the prelude's.

const nest = `
import { Controller, Get, Inject, Injectable, Module, Post, UseGuards, type CanActivate, type LoggerService } from '@nestjs/common';
import { AgentCardModule, AgentCardService, AgentSkills, Skill, buildAgentCard } from '@agent-card/nest';
import type { AgentCard } from '@agent-card/core';
import type { Principal } from '@agent-card/core/http';
import type { Request } from 'express';
declare const it: (name: string, test: () => Promise<void>) => void;
declare const expect: (value: unknown) => { toMatchFileSnapshot(path: string): Promise<void> };
declare class AppModule {}
declare class AuthModule {}
declare class ConfigService { getOrThrow(name: string): string }
declare class ApiKeyGuard implements CanActivate { canActivate(): boolean }
declare const ApiTags: (...tags: string[]) => ClassDecorator;
declare const ApiOperation: (options: { summary?: string; description?: string }) => MethodDecorator;
declare const ApiBearerAuth: (name?: string) => MethodDecorator;
declare const billingCard: AgentCard;
declare const supportCard: AgentCard;
declare const authenticate: (req: Request) => Principal | undefined;
declare const principal: Principal;
declare const logger: LoggerService;
interface Plugin { id: string; name: string; summary: string }
`;

/** Files the blocks import by a relative path, under the directory the blocks are checked in. */
export const readmeStubs: Record<string, string> = {
  // packages/nest/README.md: the script that writes the card imports the compiled module.
  'dist/app.module.d.ts': 'export declare class AppModule {}\n',
};

export const readmePreludes: Record<string, string> = {
  'README.md': `
import type { Express } from 'express';
import { Controller, Module, Post } from '@nestjs/common';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import type { AgentCard } from '@agent-card/core';
import { agentCard, type ExpressAgentCardOptions } from '@agent-card/express';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { extendedCardChallenge, extendedCardProvider, toA2aJsCard } from '@agent-card/a2a-js';
import { AgentCardModule, Skill } from '@agent-card/nest';
declare const app: Express;
declare const card: AgentCard;
declare const options: ExpressAgentCardOptions;
declare const store: InMemoryTaskStore;
declare const executor: AgentExecutor;
`,
  'packages/core/README.md': `
import type { Express, Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { AgentCard, AgentCardFetchHandler, AgentSkill } from '@agent-card/core';
import { type AgentCardResponder, type AgentCardOptions, type Principal, createAgentCardResponder } from '@agent-card/core/http';
import type { ValidationProfile } from '@agent-card/core';
import { agentCard } from '@agent-card/express';
// An Express app, or one that answers a fetch Request (Hono…), the way the blocks use it.
declare const app: Express & { fetch(req: globalThis.Request): Promise<globalThis.Response> };
declare const card: AgentCard;
declare const cards: Record<string, AgentCard>;
declare const billingCard: AgentCard;
declare const supportCard: AgentCard;
declare const billingExtras: AgentSkill[];
declare const newSkill: AgentSkill;
declare const extraSkills: AgentSkill[];
declare const auditSkill: AgentSkill;
declare const partnerSkill: AgentSkill;
declare const privateKey: string;
declare const tenants: Set<string>;
declare const buildCard: (origin: string, tenant: string | undefined) => Promise<AgentCard>;
declare const authenticate: (req: Request) => Principal | undefined;
declare const verifyBearer: (authorization: string | undefined) => { isPartner: boolean } | undefined;
declare const log: { error(error: unknown): void };
declare const bytes: Uint8Array;
declare const use: (value: unknown) => void;
declare const responder: AgentCardResponder;
declare const req: Request;
declare const res: Response;
declare const id: string | number;
declare const cardHandler: AgentCardFetchHandler;
declare const Bun: { serve(options: { fetch(req: globalThis.Request, server: { requestIP(req: globalThis.Request): { address: string } | null }): Promise<globalThis.Response> | globalThis.Response }): unknown };
declare const Deno: { serve(handler: (req: globalThis.Request, info: { remoteAddr: { hostname: string } }) => Promise<globalThis.Response> | globalThis.Response): unknown };
`,
  'packages/cli/README.md': `
declare const stdout: NodeJS.WritableStream;
declare const stderr: NodeJS.WritableStream;
declare const stdin: NodeJS.ReadableStream;
`,
  'packages/nest/README.md': nest,
  'packages/discovery/README.md': `
import type { AgentCard, ValidationProfile } from '@agent-card/core';
import { discoverAgentCard } from '@agent-card/discovery';
import type { DiscoveryAgentReport, DiscoveryCatalogReport, DiscoveryFinding, DiscoveryHttpProbe, DiscoveryPathReport } from '@agent-card/discovery';
`,
};
