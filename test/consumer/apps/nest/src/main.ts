// Boots the app on the platform named by PLATFORM (express or fastify), under a global prefix.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OrdersModule } from './orders.module.js';

async function main(): Promise<void> {
  const app =
    process.env.PLATFORM === 'fastify'
      ? await NestFactory.create(OrdersModule, new FastifyAdapter(), { logger: ['error'] })
      : await NestFactory.create(OrdersModule, { logger: ['error'] });
  app.setGlobalPrefix('api');
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
