import type { Server } from 'node:http';

/** The parts of an A2A card the tests read; the full type is `AgentCard` of `@agent-card/core`. */
interface Skill {
  id: string;
  name: string;
  description: string;
  tags: string[];
}
interface Card {
  name: string;
  skills: Skill[];
  securitySchemes?: Record<string, Record<string, unknown>>;
  [field: string]: unknown;
}

export declare const DEVELOPMENT_API_KEY: string;
export declare function createCard(publicUrl: string): Card;
export declare const extendedSkills: Skill[];
export declare function createApp(options: {
  publicUrl: string;
  apiKeys?: readonly string[];
  server?: Server;
}): Promise<{ close(): Promise<void> }>;
export declare function start(
  port?: number,
  host?: string,
): Promise<{ url: string; server: Server; close: () => Promise<void> }>;
