import 'reflect-metadata';
import { createServer } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

/** A development API key, used when `API_KEYS` is not set. */
export const DEVELOPMENT_API_KEY = 'dev-ops-key';

/** A free TCP port on `host`, so the card can name the port the service really listens on. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the service with the global prefix `/api`; the card stays at
 * `/.well-known/agent-card.json`. `port` 0 picks a free port.
 */
export async function start(
  port = Number(process.env.PORT ?? 3000),
  host = process.env.HOST ?? '127.0.0.1',
): Promise<{ app: INestApplication; url: string; close: () => Promise<void> }> {
  const listenPort = port === 0 ? await freePort(host) : port;
  const url = `http://${host}:${listenPort}`;
  const app = await NestFactory.create(AppModule.register({ PUBLIC_URL: url, API_KEYS: DEVELOPMENT_API_KEY }), {
    logger: ['error', 'warn'],
  });
  app.setGlobalPrefix('api');
  await app.listen(listenPort, host);
  return { app, url, close: () => app.close() };
}
