// Makes sure the PostgreSQL store tests have Debian's PostgreSQL 15 (see ensure-store-servers.mjs).
import { join } from 'node:path';
import { ensure } from './ensure-store-servers.mjs';

ensure({
  binary: join(process.env.AGENT_CARD_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin', 'postgres'),
  pkg: 'postgresql-15',
  why: 'the PostgreSQL store tests of @agent-card/store run a postgres cluster of their own',
  env: 'AGENT_CARD_POSTGRES_BIN to the folder of initdb and postgres',
});
