import { AgentCardError } from '../errors';
import type { AgentCardPublicKey } from './keys';
import { toPublicJwk } from './public-jwk';
import { type AgentCardSigner, prepareSigner, type SignAgentCardOptions } from './sign';
import type { AgentCardPublicJwk } from './thumbprint';
import { quote, showValue } from '../util';

/** Where the key set is served unless `jwksPath` says otherwise. */
export const DEFAULT_JWKS_PATH = '/.well-known/jwks.json';

/**
 * The middleware's `sign` option in full: the signing keys, extra public keys to publish, and
 * where the JWK Set is served. A single key (`{ privateKey, alg }`) or a list of keys is
 * accepted as a shorthand for `{ keys }`.
 */
export interface AgentCardSigningOptions {
  /** The keys that sign the card: one, or a list (rotation: a signature by each). */
  keys: SignAgentCardOptions | readonly SignAgentCardOptions[];
  /**
   * Public keys published in the JWK Set without signing with them: a key being retired (still
   * in verifiers' caches) or the next one (so verifiers learn it before it signs). Any key form;
   * a JWK keeps its `kid`, any other form gets its thumbprint.
   */
  publish?: readonly (AgentCardPublicKey | AgentCardPublicJwk)[];
  /**
   * Path of the JWK Set (`application/jwk-set+json`), served like the card (strong ETag, 304,
   * `Cache-Control`, CORS); `false` serves none (publish the keys elsewhere, e.g. from a CDN).
   * @default '/.well-known/jwks.json'
   */
  jwksPath?: string | false;
}

/** What `sign` resolves to at start-up. */
export interface ResolvedSigning {
  signer: AgentCardSigner;
  /** The published key set, or `undefined` with `jwksPath: false`. */
  jwks?: { path: string; keys: AgentCardPublicJwk[] };
  /** Warnings to log once at start-up (randomized signatures). */
  warnings: string[];
}

const isFullForm = (value: unknown): value is AgentCardSigningOptions =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'keys' in value;

/**
 * Checks the `sign` option once: every problem of every key, of `publish` and of `jwksPath` is
 * collected into one error. Two keys (signing or published) with one `kid` are refused, since a
 * verifier could not tell them apart.
 */
export function resolveSigning(
  value: SignAgentCardOptions | readonly SignAgentCardOptions[] | AgentCardSigningOptions,
  where = 'options.sign',
): ResolvedSigning {
  const full: AgentCardSigningOptions = isFullForm(value) ? value : { keys: value };
  const keysWhere = isFullForm(value) ? `${where}.keys` : where;
  const problems: string[] = [];
  let signer: AgentCardSigner | undefined;
  try {
    signer = prepareSigner(full.keys, keysWhere);
  } catch (error) {
    problems.push(error instanceof AgentCardError ? error.message : `${keysWhere}: ${String(error)}`);
  }
  const published: AgentCardPublicJwk[] = [];
  (full.publish ?? []).forEach((key, i) => {
    const at = `${where}.publish[${i}]`;
    try {
      const kid =
        typeof key === 'object' && key !== null && typeof (key as { kid?: unknown }).kid === 'string'
          ? (key as AgentCardPublicJwk).kid
          : undefined;
      const alg =
        typeof key === 'object' && key !== null && typeof (key as { alg?: unknown }).alg === 'string'
          ? (key as AgentCardPublicJwk).alg
          : undefined;
      published.push(toPublicJwk(key, { ...(kid ? { kid } : {}), ...(alg ? { alg: alg as never } : {}) }, at));
    } catch (error) {
      problems.push(error instanceof AgentCardError ? error.message : `${at}: ${String(error)}`);
    }
  });
  const path = full.jwksPath ?? DEFAULT_JWKS_PATH;
  if (
    path !== false &&
    (typeof path !== 'string' || !/^\/[\x21-\x7e]*$/.test(path) || path.includes('?') || path.includes('#'))
  ) {
    problems.push(
      `${where}.jwksPath: must be a path starting with "/" (${showValue(path)}). Use e.g. "${DEFAULT_JWKS_PATH}", or false to serve no key set.`,
    );
  }
  const all = [...(signer?.publicJwks ?? []), ...published];
  const seen = new Set<string>();
  for (const jwk of all) {
    if (seen.has(jwk.kid)) {
      problems.push(
        `${where}: kid ${quote(jwk.kid)} names two keys (signing or published). Give each key its own kid, or leave kid out to use each key's thumbprint.`,
      );
    }
    seen.add(jwk.kid);
  }
  if (problems.length > 0 || signer === undefined) {
    throw new AgentCardError('ERR_AGENT_CARD_SIGNATURE', problems.join('\n  - '));
  }
  const warnings = signer.randomized.map(
    (alg) =>
      `${where}: ${alg} signatures are randomized, so every process signs the card with different bytes and a different ETag, and a card behind a load balancer or a CDN flaps between versions. Sign once at build time (agent-card sign) and serve the signed card, or sign with ES256 or EdDSA, which are deterministic.`,
  );
  return {
    signer,
    ...(path === false
      ? {}
      : { jwks: { path: path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path, keys: all } }),
    warnings: [...new Set(warnings)],
  };
}
