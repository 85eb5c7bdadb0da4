// Makes sure the Redis store tests have Debian's redis-server (see ensure-store-servers.mjs).
import { ensure } from './ensure-store-servers.mjs';

ensure({
  binary: process.env.AGENT_CARD_REDIS_SERVER ?? '/usr/bin/redis-server',
  pkg: 'redis-server',
  why: 'the Redis store tests of @agent-card/store run a redis-server of their own',
  env: 'AGENT_CARD_REDIS_SERVER to a redis-server binary',
});
