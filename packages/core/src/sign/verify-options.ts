import type { KeyObject } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';
import { AgentCardError } from '../errors';
import { AGENT_CARD_SIGNING_ALGORITHMS, refuseAlgorithm } from './algorithms';
import { AGENT_CARD_CANONICAL_FORMS, type AgentCardCanonicalForm } from './canonicalize';
import { checkKeySetUrl } from './jwks';
import { type AllowedJku, createKeySetFetcher, parseAllowedJkus } from './key-sources';
import { toPublicKey } from './keys';
import type { VerifyAgentCardOptions } from './verify-types';
import { showValue } from '../util';

/** A trusted key a signature may be checked with. */
export interface Candidate {
  key: KeyObject | CryptoKey;
  /** How messages name it: `keys["k"]`, `jwks["k"]`, `https://…/jwks.json#k`. */
  name: string;
  /** The `alg` the key is restricted to, when its JWK names one. */
  alg?: string;
}

/** The options of one verification, checked, with its local keys imported. */
export interface ResolvedVerifyOptions {
  algorithms: ReadonlySet<string>;
  forms: readonly AgentCardCanonicalForm[];
  allowInsecure: boolean;
  allowedJkus: readonly AllowedJku[];
  /** `keys`, imported, by kid. */
  localKeys: ReadonlyMap<string, Candidate>;
  jwks?: readonly JWK[];
  trustedUrl?: URL;
  /** Fetches the key sets of this verification, within its one time budget. */
  keySetAt: ReturnType<typeof createKeySetFetcher>;
}

export function optionsError(what: string, how: string): AgentCardError {
  return new AgentCardError('ERR_AGENT_CARD_SIGNATURE', `verifyAgentCard: ${what}. ${how}`);
}

/** Checks the options of {@link verifyAgentCard}: throws at the first wrong one, before any card is read. */
export function resolveVerifyOptions(options: VerifyAgentCardOptions): ResolvedVerifyOptions {
  if (typeof options !== 'object' || options === null) {
    throw optionsError('options are missing', 'Pass { keys }, { jwks } or { jwksUrl }.');
  }
  const allowInsecure = options.allowInsecureJwksUrl === true;
  const allowedJkus = parseAllowedJkus(options.allowJkuHosts ?? [], allowInsecure);
  if (
    options.keys === undefined &&
    options.jwks === undefined &&
    options.jwksUrl === undefined &&
    allowedJkus.length === 0
  ) {
    throw optionsError('no trusted key source', 'Pass keys (by kid), jwks, jwksUrl, or allowJkuHosts.');
  }
  const algorithms = new Set<string>(options.algorithms ?? AGENT_CARD_SIGNING_ALGORITHMS);
  if (algorithms.size === 0) {
    throw optionsError(
      'algorithms is empty',
      `Leave it out or list some of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`,
    );
  }
  for (const alg of algorithms) {
    const refused = refuseAlgorithm(alg);
    if (refused) throw optionsError(`algorithms: ${refused}`, `Use only ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`);
  }
  const forms = options.forms ?? AGENT_CARD_CANONICAL_FORMS;
  if (!Array.isArray(forms) || forms.length === 0 || forms.some((f) => !AGENT_CARD_CANONICAL_FORMS.includes(f))) {
    throw optionsError(
      `forms ${showValue(forms)} is not a list of canonical forms`,
      'List "pruned", "served-as-is" or both, or leave it out.',
    );
  }

  const localKeys = new Map<string, Candidate>();
  for (const [kid, key] of Object.entries(options.keys ?? {})) {
    localKeys.set(kid, { key: toPublicKey(key, `verifyAgentCard: keys["${kid}"]`), name: `keys["${kid}"]` });
  }
  if (options.jwks !== undefined && !Array.isArray(options.jwks?.keys)) {
    throw optionsError('jwks has no "keys" array', 'Pass a JWK Set: { keys: [ { kty, kid, … } ] }.');
  }
  let trustedUrl: URL | undefined;
  if (options.jwksUrl !== undefined) {
    const checked = checkKeySetUrl(options.jwksUrl, allowInsecure);
    if (typeof checked === 'string') {
      throw optionsError(
        `jwksUrl ${checked}`,
        allowInsecure ? 'Use https.' : 'Use https (allowInsecureJwksUrl admits http to 127.0.0.1 for tests).',
      );
    }
    trustedUrl = checked;
  }
  const keySetAt = createKeySetFetcher({
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxJwksBytes,
  });
  return {
    algorithms,
    forms,
    allowInsecure,
    allowedJkus,
    localKeys,
    ...(options.jwks ? { jwks: options.jwks.keys } : {}),
    ...(trustedUrl ? { trustedUrl } : {}),
    keySetAt,
  };
}
