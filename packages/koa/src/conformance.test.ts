// The shared HTTP behaviour table of @agent-card/core, over a real socket, on both majors and in
// an app whose own routes live on @koa/router.
import { createServer } from 'node:http';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import Router from '@koa/router';
import { listenOnLoopback, runAgentCardConformanceSuite, type StartConformanceServer } from '@agent-card/core/testing';
import { agentCard } from './index';

const starter =
  (Koa: typeof Koa3, routes: 'middleware' | 'router'): StartConformanceServer =>
  async (options) => {
    const app = new Koa();
    app.silent = true;
    app.use(agentCard(options));
    if (routes === 'router') {
      const router = new Router();
      router.get('/api/ping', (ctx) => {
        ctx.body = 'pong';
      });
      router.get('/.well-known/other', (ctx) => {
        ctx.body = 'other';
      });
      app.use(router.routes()).use(router.allowedMethods());
    } else {
      app.use((ctx) => {
        if (ctx.method !== 'GET') return;
        if (ctx.path === '/api/ping') ctx.body = 'pong';
        if (ctx.path === '/.well-known/other') ctx.body = 'other';
      });
    }
    return listenOnLoopback(createServer(app.callback()));
  };

runAgentCardConformanceSuite({ name: 'koa 3', start: starter(Koa3, 'middleware') });
runAgentCardConformanceSuite({ name: 'koa 2', start: starter(Koa2 as unknown as typeof Koa3, 'middleware') });
runAgentCardConformanceSuite({ name: 'koa 3 + @koa/router', start: starter(Koa3, 'router') });
