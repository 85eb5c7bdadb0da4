import type { KeyObject as NodeKeyObject } from 'node:crypto';
import type * as Jose from 'jose';
import type { CryptoKey } from 'jose';
import type { AgentCardSigningAlgorithm } from './algorithms';
import type { AgentCardCanonicalForm } from './canonicalize';
import { decodeBase64url } from './base64url';
import { loadJose } from './jose';
import { keyMismatch } from './keys';
import { nodeDigest, nodeKeyOptions } from './sign';
import { modelPayload, type Signable, uncoveredBy } from './verify-content';
import type { ReadSignature } from './verify-header';
import type { Candidate } from './verify-options';
import { AGENT_CARD_VERIFY_LIMITS, type AgentCardSignatureCheck } from './verify-types';
import { isKeyObject, nodeCrypto } from './node-crypto';

/**
 * The payload length from which a signature is first checked by node:crypto: below it, what jose
 * copies costs less than the second public-key operation a matching signature then takes (a
 * P-521 check costs about 1 ms).
 *
 * Kept beside jose for what `verify-cost.test.ts` holds: a signature that does not match a large
 * card costs one public-key check, not two, and jose is handed the card only to confirm a match.
 * `bench/verify.mjs --check` holds without it as well (the worst case within 2.0–3.8 × an honest
 * verification instead of 1.9–2.9 ×), so that benchmark is not what keeps it.
 */
const PRECHECK_BYTES = 64 * 1024;

/**
 * Whether node:crypto (the OpenSSL that WebCrypto runs on) finds that `signature` does not match
 * `input` under `key`. The signing input is built once per signature and payload, where jose
 * encodes and copies the payload again on every call, about 10 ms for a 1 MiB card. `false` when
 * it matches or node:crypto cannot say: then jose checks the real payload and has the last word.
 */
function mismatches(
  alg: AgentCardSigningAlgorithm,
  key: NodeKeyObject | CryptoKey,
  input: Buffer,
  signature: Buffer,
): boolean {
  try {
    const crypto = nodeCrypto('verifyAgentCard');
    const keyObject = isKeyObject(key)
      ? key
      : crypto.KeyObject.from(key as Parameters<typeof crypto.KeyObject.from>[0]);
    return !crypto.verify(nodeDigest(alg), input, nodeKeyOptions(alg, keyObject), signature);
  } catch {
    return false;
  }
}

function describeJoseError(error: unknown, alg: string, errors: typeof Jose.errors): string {
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'the signature does not match the card: the card changed after signing, or another key signed it';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return `alg "${alg}" is not allowed`;
  if (error instanceof errors.JOSENotSupported) return `not supported: ${(error as Error).message}`;
  if (error instanceof TypeError) return `the key cannot verify alg "${alg}" (${error.message}) (key/alg confusion)`;
  return (error as Error).message;
}

/** One `signatures` entry as jose reads it, with what every key check of it shares. */
interface Entry {
  read: ReadSignature;
  encoded: string;
  signature: string;
  unprotected: unknown;
  signatureBytes: Buffer;
  /** The signing input over `payload`, built once. */
  signingInput(payload: string): Buffer;
}

/**
 * The public-key checks of one verification, within its budget: at most `checks` of them, none
 * started after the deadline, and at most `diagnoses` failed signatures looked into.
 */
export class SignatureChecker {
  readonly #card: object;
  readonly #content: Signable;
  readonly #algorithms: ReadonlySet<string>;
  readonly #deadline: number | undefined;
  #checksLeft: number = AGENT_CARD_VERIFY_LIMITS.checks;
  #diagnosesLeft: number = AGENT_CARD_VERIFY_LIMITS.diagnoses;
  #stopped: 'checks' | 'time' | undefined;
  /** Signatures left unchecked, or checked with fewer keys than they had, once the budget ran out. */
  #unchecked = 0;
  /** The model reading, computed for the first diagnosis that needs it. */
  #model: ReturnType<typeof modelPayload> | null = null;
  /** Loaded when the first signature gets as far as a key. */
  #jose: typeof Jose | undefined;
  /** The ASCII bytes of each payload, shared by the signing inputs of every signature. */
  readonly #bytesOf = new Map<string, Buffer>();

  constructor(card: object, content: Signable, algorithms: ReadonlySet<string>, deadline: number | undefined) {
    this.#card = card;
    this.#content = content;
    this.#algorithms = algorithms;
    this.#deadline = deadline;
  }

  #payloadBytes(payload: string): Buffer {
    let bytes = this.#bytesOf.get(payload);
    if (bytes === undefined) {
      bytes = Buffer.from(payload, 'latin1');
      this.#bytesOf.set(payload, bytes);
    }
    return bytes;
  }

  #entry(read: ReadSignature, raw: unknown): Entry {
    const {
      protected: encoded,
      signature,
      header: unprotected,
    } = raw as {
      protected: string;
      signature: string;
      header?: unknown;
    };
    const inputs = new Map<string, Buffer>();
    return {
      read,
      encoded,
      signature,
      unprotected,
      signatureBytes: decodeBase64url(signature) as Buffer,
      signingInput: (payload) => {
        let input = inputs.get(payload);
        if (input === undefined) {
          input = Buffer.concat([Buffer.from(`${encoded}.`, 'latin1'), this.#payloadBytes(payload)]);
          inputs.set(payload, input);
        }
        return input;
      },
    };
  }

  /**
   * Whether `payload` verifies under `candidate`, with jose's error in `failure.error` when not;
   * `undefined` when no further check may start.
   */
  async #verifies(
    entry: Entry,
    candidate: Candidate,
    payload: string,
    failure: { error?: unknown },
  ): Promise<boolean | undefined> {
    if (this.#checksLeft <= 0) this.#stopped = 'checks';
    else if (this.#deadline !== undefined && performance.now() > this.#deadline) this.#stopped = 'time';
    if (this.#stopped) return undefined;
    this.#checksLeft -= 1;
    const { flattenedVerify, errors } = this.#jose as typeof Jose;
    const { alg } = entry.read;
    // A signature that does not match is still given to jose, over an empty payload and with an
    // empty signature: jose refuses a wrong header, key or algorithm before it looks at either,
    // and so gives the same reason it would give over the card, without copying the card again;
    // an empty signature fails without a second public-key operation.
    const mismatch =
      payload.length >= PRECHECK_BYTES &&
      mismatches(alg, candidate.key, entry.signingInput(payload), entry.signatureBytes);
    const jws: Parameters<typeof Jose.flattenedVerify>[0] = {
      payload: mismatch ? '' : payload,
      protected: entry.encoded,
      signature: mismatch ? '' : entry.signature,
    };
    if (entry.unprotected !== undefined) jws.header = entry.unprotected as Record<string, unknown>;
    try {
      await flattenedVerify(jws, candidate.key, { algorithms: [...this.#algorithms] });
      if (!mismatch) return true;
      failure.error = new errors.JWSSignatureVerificationFailed();
      return false;
    } catch (error) {
      failure.error = error;
      return false;
    }
  }

  /**
   * Checks one signature with each of its candidate keys in turn, over the forms it may cover
   * (`tries`, or every form allowed), until one verifies or the budget runs out; records the
   * outcome on `check`.
   */
  async check(
    check: AgentCardSignatureCheck,
    read: ReadSignature,
    raw: unknown,
    candidates: readonly Candidate[],
  ): Promise<void> {
    const { alg } = read;
    const entry = this.#entry(read, raw);
    let tries: { form: AgentCardCanonicalForm; payload: string }[] | undefined =
      read.form === undefined ? undefined : [{ form: read.form, payload: this.#content.payload(read.form) }];
    const failures: string[] = [];
    let cut = false;
    for (const candidate of candidates) {
      if (candidate.alg !== undefined && candidate.alg !== alg) {
        failures.push(`${candidate.name} is for alg "${candidate.alg}", the signature uses "${alg}"`);
        continue;
      }
      const mismatch = keyMismatch(candidate.key, alg);
      if (mismatch) {
        failures.push(`${candidate.name}: ${mismatch}`);
        continue;
      }
      this.#jose ??= await loadJose();
      const failure: { error?: unknown } = {};
      tries ??= this.#content.payloads();
      for (const { form, payload } of tries) {
        const verified = await this.#verifies(entry, candidate, payload, failure);
        if (verified === undefined) break;
        if (verified) {
          check.valid = true;
          check.form = form;
          break;
        }
      }
      if (check.valid) {
        check.key = candidate.name;
        if (check.form === 'pruned') {
          const away = this.#content.prunedAway();
          if (away.length > 0) check.uncovered = away;
        }
        break;
      }
      if (this.#stopped) {
        cut = true;
        break;
      }
      const diagnosis = await this.#diagnose(entry, candidate, failure);
      if (diagnosis) {
        failures.push(`${candidate.name}: ${diagnosis.reason}`);
        check.uncovered = diagnosis.uncovered;
        continue;
      }
      failures.push(`${candidate.name}: ${describeJoseError(failure.error, alg, this.#jose.errors)}`);
    }
    if (cut) {
      this.#unchecked += 1;
      failures.push(
        failures.length === 0 ? `not checked: ${this.#why()}` : `the other keys were not tried: ${this.#why()}`,
      );
    }
    if (!check.valid) check.reason = failures.join('; ');
  }

  /**
   * For one of the first failures that is a plain mismatch: whether the signature matches the
   * card as the v1.0 model reads it, and what that leaves out. The check it makes records its
   * error in `failure`, as any other.
   */
  async #diagnose(entry: Entry, candidate: Candidate, failure: { error?: unknown }) {
    const { errors } = this.#jose as typeof Jose;
    if (!(failure.error instanceof errors.JWSSignatureVerificationFailed) || this.#diagnosesLeft <= 0) return undefined;
    this.#diagnosesLeft -= 1;
    if (this.#model === null) this.#model = modelPayload(this.#card);
    return uncoveredBy(
      this.#content,
      this.#model,
      async (payload) => (await this.#verifies(entry, candidate, payload, failure)) === true,
    );
  }

  #why(): string {
    return this.#stopped === 'time'
      ? 'the time allowed for this verification ran out'
      : `the ${AGENT_CARD_VERIFY_LIMITS.checks} public-key checks of one verification are used up`;
  }

  /** The sentence for the result's `limits` when the budget left signatures unchecked. */
  limit(): string | undefined {
    const unchecked = this.#unchecked;
    if (unchecked === 0) return undefined;
    const count = `${unchecked} ${unchecked === 1 ? 'signature was' : 'signatures were'} not checked`;
    return this.#stopped === 'time'
      ? `the time allowed for this verification ran out; ${count}`
      : `the card used up the ${AGENT_CARD_VERIFY_LIMITS.checks} public-key checks of one verification; ${count}`;
  }
}
