// Debian's nginx for the static-output tests, started on loopback with a config of the test's
// own (no service, no system paths written): `startNginx(root, snippet)` serves `root` with the
// snippet `agent-card build` wrote. Where nginx is missing (scripts/ensure-nginx.mjs installs it
// as root), `nginxMissing` says why and the tests that need it are skipped loudly.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = process.env.AGENT_CARD_NGINX ?? '/usr/sbin/nginx';

/** Why nginx cannot run here, or `undefined` when it can. */
export const nginxMissing: string | undefined = existsSync(NGINX)
  ? undefined
  : `${NGINX} is missing: install Debian's nginx (sudo apt-get install -y nginx; the test command does it as root) or set AGENT_CARD_NGINX`;

if (nginxMissing !== undefined) {
  const line = '!'.repeat(100);
  console.warn(`\n${line}\n!! Static output tests with nginx SKIPPED: ${nginxMissing}\n${line}\n`);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export interface RunningNginx {
  base: string;
  stop(): Promise<void>;
}

/** A prefix directory and a configuration serving `root` on `listen` with `include` of the snippet. */
function configure(root: string, snippet: string, listen: number): { prefix: string; config: string } {
  const prefix = mkdtempSync(join(tmpdir(), 'agent-card-nginx-'));
  for (const dir of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, dir));
  // Started as root, nginx would run its worker as nobody, who cannot read a 0700 temp directory.
  const rootUser = process.getuid?.() === 0 ? 'user root;\n' : '';
  const config = join(prefix, 'nginx.conf');
  writeFileSync(
    config,
    `daemon off;
${rootUser}worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${listen};
    root ${root};
    include ${snippet};
  }
}
`,
  );
  return { prefix, config };
}

/** `nginx -t` of a server serving `root` with the snippet: whether nginx accepts it, and what it said. */
export function nginxTest(root: string, snippet: string): { ok: boolean; output: string } {
  const { prefix, config } = configure(root, snippet, 8080);
  try {
    const result = spawnSync(NGINX, ['-t', '-q', '-p', prefix, '-c', config], { encoding: 'utf8' });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
}

/**
 * nginx in the foreground, one worker, serving `root` on a free loopback port with `include`
 * of the snippet; `port` when the caller already built for that origin. Stops with `stop()`.
 */
export async function startNginx(root: string, snippet: string, port?: number): Promise<RunningNginx> {
  const listen = port ?? (await freePort());
  const { prefix, config } = configure(root, snippet, listen);
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  let exited = false;
  const exit = new Promise<void>((done) =>
    child.once('exit', () => {
      exited = true;
      done();
    }),
  );
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await exit;
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`nginx exited before serving:\n${output}`);
    }
    try {
      await fetch(`${base}/`, { signal: AbortSignal.timeout(1_000) });
      return { base, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not answer on ${base} within 10 s:\n${output}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

/** A free loopback port, for a build that must know its origin before nginx starts. */
export { freePort };
