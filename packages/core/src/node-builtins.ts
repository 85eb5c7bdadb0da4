// Node's modules as types only: this file, like every module of the package, imports no Node
// built-in, so that it loads on runtimes without them (Cloudflare Workers with no compatibility
// flags, Next.js's edge runtime). What needs one asks for it when it runs, through the
// `process.getBuiltinModule` that Node (20.16+), Deno and Bun provide.
import type * as NodeCrypto from 'node:crypto';
import type * as NodeDns from 'node:dns';
import type * as NodeFs from 'node:fs';
// biome-ignore lint/style/noRestrictedImports: a client's request (sign/pinned-get.ts), never a server's: discovery connects only to the addresses it checked.
import type * as NodeHttp from 'node:http';
// biome-ignore lint/style/noRestrictedImports: a client's request (sign/pinned-get.ts), never a server's: verification connects only to the addresses it checked.
import type * as NodeHttps from 'node:https';
import type * as NodePath from 'node:path';
import type * as NodeStream from 'node:stream';

interface NodeBuiltins {
  'node:crypto': typeof NodeCrypto;
  'node:dns': typeof NodeDns;
  'node:fs': typeof NodeFs;
  'node:http': typeof NodeHttp;
  'node:https': typeof NodeHttps;
  'node:path': typeof NodePath;
  'node:stream': typeof NodeStream;
}

type GetBuiltinModule = (id: string) => unknown;

/**
 * A Node built-in module, or `undefined` on a runtime that has none (Workers without
 * `nodejs_compat`, Next.js's edge runtime, a browser).
 */
export function nodeBuiltin<K extends keyof NodeBuiltins>(id: K): NodeBuiltins[K] | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }).process?.getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  try {
    return (get(id) ?? undefined) as NodeBuiltins[K] | undefined;
  } catch {
    return undefined;
  }
}
