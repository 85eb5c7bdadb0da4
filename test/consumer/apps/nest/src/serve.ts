// Boots one of the two apps (APP=readme: the README's AppModule; otherwise OrdersModule) on the
// platform named by PLATFORM (express or fastify), under a global prefix.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { OrdersModule } from './orders.module.js';

async function main(): Promise<void> {
  const root = process.env.APP === 'readme' ? AppModule : OrdersModule;
  const app =
    process.env.PLATFORM === 'fastify'
      ? await NestFactory.create(root, new FastifyAdapter(), { logger: ['error'] })
      : await NestFactory.create(root, { logger: ['error'] });
  app.setGlobalPrefix('api');
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
