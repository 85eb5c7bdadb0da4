import type * as NodeCrypto from 'node:crypto';
import { AgentCardError } from '../errors';
import { nodeBuiltin } from '../node-builtins';

/**
 * `node:crypto`, which signing and verification run on (Node, Deno, Bun; Workers with
 * `nodejs_compat`), or a start-up error that says what to do on a runtime without it: the card
 * is then signed at build time and served as it is.
 */
export function nodeCrypto(where: string): typeof NodeCrypto {
  const crypto = nodeBuiltin('node:crypto');
  if (crypto === undefined) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_SIGNATURE',
      `${where}: this runtime has no node:crypto, which signing and verifying Agent Cards use (Cloudflare Workers without nodejs_compat, Next.js's edge runtime). ` +
        'Sign the card at build time (agent-card sign) and serve the signed card, or run where node:crypto exists (Node, Deno, Bun, or Workers with the nodejs_compat flag).',
    );
  }
  return crypto;
}

/** Whether `value` is a Node `KeyObject` (never one where there is no `node:crypto`). */
export function isKeyObject(value: unknown): value is NodeCrypto.KeyObject {
  const crypto = nodeBuiltin('node:crypto');
  return crypto !== undefined && value instanceof crypto.KeyObject;
}
