import type { JWK } from 'jose';
import { checkKeySetUrl } from './jwks';
import { admitJku, type AllowedJku } from './key-sources';
import { toPublicKey } from './keys';
import type { Candidate, ResolvedVerifyOptions } from './verify-options';
import { AGENT_CARD_VERIFY_LIMITS } from './verify-types';
import { quoteUntrusted } from '../util';

interface KidCandidates {
  found: Candidate[];
  skipped: string[];
  /** How many keys of the source name this kid, including those not looked at. */
  named: number;
}

/** The keys of a JWK Set under `kid`: only the first `keysPerKid` are read and imported. */
function jwkCandidates(source: string, jwks: readonly JWK[], kid: string, label: (jwk: JWK) => string): KidCandidates {
  const found: Candidate[] = [];
  const skipped: string[] = [];
  let named = 0;
  for (const jwk of jwks) {
    if (typeof jwk !== 'object' || jwk === null || jwk.kid !== kid) continue;
    named += 1;
    if (named > AGENT_CARD_VERIFY_LIMITS.keysPerKid) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') {
      skipped.push(`${label(jwk)} is for "use": ${quoteUntrusted(String(jwk.use))}, not signatures`);
      continue;
    }
    if (jwk.kty === 'oct') {
      skipped.push(`${label(jwk)} is a symmetric "oct" key, refused (key/alg confusion)`);
      continue;
    }
    try {
      found.push({
        key: toPublicKey(jwk, source),
        name: label(jwk),
        alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
      });
    } catch (error) {
      skipped.push(`${label(jwk)} cannot be imported (${(error as Error).message})`);
    }
  }
  return { found, skipped, named };
}

/**
 * The trusted keys of one verification, found by `kid`: each key set's keys under one kid are
 * looked up and imported once, and at most `keysPerKid` of them are tried.
 */
export class KeyFinder {
  readonly #options: ResolvedVerifyOptions;
  readonly #limits: string[];
  readonly #byKid = new Map<string, KidCandidates>();
  readonly #kidsCut = new Set<string>();

  /** `limits` receives one sentence per kid that names more keys than are tried. */
  constructor(options: ResolvedVerifyOptions, limits: string[]) {
    this.#options = options;
    this.#limits = limits;
  }

  #keysUnder(source: string, jwks: readonly JWK[], kid: string, label: (jwk: JWK) => string): KidCandidates {
    const key = `${source}\n${kid}`;
    let found = this.#byKid.get(key);
    if (found === undefined) {
      found = jwkCandidates(source, jwks, kid, label);
      this.#byKid.set(key, found);
    }
    return found;
  }

  /**
   * The key sets a signature's `jku` and the trusted `jwksUrl` name, or why the `jku` is refused
   * (not https, not admitted by `allowJkuHosts`, or another URL than `jwksUrl`).
   */
  #remoteSources(jku: unknown): { url: URL; entry?: AllowedJku }[] | string {
    const { allowInsecure, allowedJkus, trustedUrl } = this.#options;
    const remote: { url: URL; entry?: AllowedJku }[] = [];
    if (jku !== undefined) {
      const url = checkKeySetUrl(jku, allowInsecure);
      if (typeof url === 'string') return `jku ${url}: keys must come over https (spec §8.4.3)`;
      const admitted = admitJku(url, allowedJkus);
      if (typeof admitted === 'string') return `${admitted}; it was not fetched`;
      if (admitted !== undefined) remote.push({ url, entry: admitted });
      else if (trustedUrl && url.href !== trustedUrl.href) {
        return `jku ${url.href} differs from the trusted jwksUrl ${trustedUrl.href}; add it to allowJkuHosts if both are yours`;
      }
    }
    if (trustedUrl && !remote.some(({ url }) => url.href === trustedUrl.href)) remote.unshift({ url: trustedUrl });
    return remote;
  }

  /** The keys to check a signature under `kid` with (at most `keysPerKid`), or why there are none. */
  async find(kid: string, header: Record<string, unknown>): Promise<Candidate[] | string> {
    const { keysPerKid } = AGENT_CARD_VERIFY_LIMITS;
    const candidates: Candidate[] = [];
    const notes: string[] = [];
    let named = 0;
    const local = this.#options.localKeys.get(kid);
    if (local) {
      candidates.push(local);
      named += 1;
    }
    const take = (found: KidCandidates): void => {
      candidates.push(...found.found);
      notes.push(...found.skipped);
      named += found.named;
    };
    if (this.#options.jwks) take(this.#keysUnder('jwks', this.#options.jwks, kid, () => `jwks["${kid}"]`));
    const remote = this.#remoteSources(header.jku);
    if (typeof remote === 'string') return remote;
    for (const { url, entry } of remote) {
      const source = await this.#options.keySetAt(url, entry);
      if ('error' in source) {
        notes.push(source.error);
        continue;
      }
      take(this.#keysUnder(url.href, source.keys, kid, () => `${url.href}#${kid}`));
    }
    if (named > keysPerKid && !this.#kidsCut.has(kid)) {
      this.#kidsCut.add(kid);
      this.#limits.push(
        `kid ${quoteUntrusted(kid)} names ${named} keys; only the first ${keysPerKid} were tried (at most ${keysPerKid} per kid)`,
      );
    }
    candidates.splice(keysPerKid);
    if (candidates.length === 0) {
      return `unknown kid ${quoteUntrusted(kid)}: no trusted key has this kid${notes.length ? ` (${notes.join('; ')})` : ''}`;
    }
    return candidates;
  }
}
