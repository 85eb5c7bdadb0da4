import {
  AGENT_CARD_VERIFY_LIMITS,
  type AgentCardCanonicalForm,
  prunedOnlyNote,
  verifyAgentCard,
  verifyAiCatalog,
  type AgentCard,
  type VerifyAgentCardOptions,
  type VerifyAgentCardResult,
} from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError, createPainter } from '../io';
import { isRemote, readJson, toJsonText } from '../read';
import { CardTooLargeError, type CardSource, readCardSource } from '../card-source';
import { DEFAULT_MAX_CARD_BYTES } from '@agent-card/discovery';
import { type OutputFormat, outputFormat, type ReportFinding, writeFormatted } from '../format';
import { visible } from '../terminal';
import { readKeyFile, verifyingKeyId } from './keys';

export interface VerifyCommandOptions {
  key?: string;
  kid?: string;
  jwks?: string;
  allowHttp?: boolean;
  json?: boolean;
  /** `text` (default), `json` (as `--json`), `sarif`, `github` or `junit`. */
  format?: OutputFormat;
  /** Time budget for a URL, or per request for a host. @default 10000 */
  timeout?: number;
  /** The one canonical form a signature may cover. */
  form?: AgentCardCanonicalForm;
  /** `--max-card-bytes`: the largest card verified. @default 262144 (256 KiB) */
  maxCardBytes?: number;
  /** AI Catalog: which entry URLs are fetched to check digests. */
  followArtifacts?: 'same-origin' | 'any';
  /** AI Catalog: let requests reach loopback, private and link-local addresses. */
  allowPrivate?: boolean;
}

/**
 * The verification as findings (`signature-verify`): one per signature, an error for each that
 * failed when none verified (a warning when another did), an info for each that verified; the
 * pruned-form and limit notes as warnings.
 */
function verifyFindings(result: VerifyAgentCardResult): ReportFinding[] {
  const fix =
    'Sign the card again with a key the verifier trusts (agent-card sign), and publish that key in the JWK Set.';
  const findings: ReportFinding[] = [];
  if (result.signatures.length === 0) {
    const path = '/signatures';
    findings.push({
      rule: 'signature-verify',
      severity: 'error',
      path,
      message: `signatures: ${result.reason ?? 'no signatures'}.`,
      hint: fix,
    });
  }
  for (const s of result.signatures.slice(0, AGENT_CARD_VERIFY_LIMITS.signatures)) {
    const head = `signatures[${s.index}] (${s.alg ?? '?'}, kid "${s.kid ?? '?'}")`;
    findings.push(
      s.valid
        ? {
            rule: 'signature-verify',
            severity: 'info',
            path: `/signatures/${s.index}`,
            message: `${head}: verified with ${s.key} over the ${s.form ?? 'pruned'} form.`,
            hint: 'Nothing to do.',
          }
        : {
            rule: 'signature-verify',
            severity: result.valid ? 'warning' : 'error',
            path: `/signatures/${s.index}`,
            message: `${head}: ${s.reason ?? 'did not verify'}.`,
            hint: fix,
          },
    );
  }
  const prunedOnly = prunedOnlyNote(result);
  for (const note of [...(result.limits ?? []), ...(prunedOnly ? [prunedOnly] : [])]) {
    findings.push({
      rule: 'signature-verify',
      severity: 'warning',
      path: '/signatures',
      message: `signatures: ${note}.`,
      hint: 'Sign over the served-as-is form too (agent-card sign writes both).',
    });
  }
  return findings;
}

/**
 * A card over the card size limit: not verified, one `signature-verify` error that names
 * `--max-card-bytes`, exit 1.
 */
function tooLarge(io: CliIO, format: OutputFormat, error: CardTooLargeError): number {
  const finding: ReportFinding = {
    rule: 'signature-verify',
    severity: 'error',
    path: '',
    message: `card: ${error.size}, over the ${error.limit}-byte card size limit; not verified.`,
    hint: 'Keep the card under 100 KiB (registries refuse larger ones), or raise the limit with --max-card-bytes <bytes> to verify it anyway.',
  };
  if (format === 'json') {
    io.stdout.write(toJsonText({ valid: false, signatures: [], reason: finding.message, limit: error.limit }));
  } else if (format !== 'text') {
    writeFormatted(io, format, {
      command: 'verify',
      artifact: { uri: error.source, document: {} },
      findings: [finding],
      ok: false,
    });
  } else {
    const painter = createPainter(io);
    io.stdout.write(`${painter.paint('red', '✖')} ${visible(error.message)}\n`);
    io.stdout.write(painter.paint('red', 'Invalid: the card was not verified.\n'));
  }
  return 1;
}

/** An AI Catalog rather than a card: `specVersion` and `entries`. */
function isCatalog(doc: Record<string, unknown>): boolean {
  return typeof doc.specVersion === 'string' && Array.isArray(doc.entries);
}

/** Whether the catalog carries the current Signature object, which needs no key from the caller. */
function hasSignatureObject(doc: Record<string, unknown>): boolean {
  return typeof doc.signature === 'object' && doc.signature !== null && !Array.isArray(doc.signature);
}

/**
 * A signed AI Catalog: its `signature` (a did:web Signature object, or the earlier detached JWS
 * with the keys given), each signed Trust Manifest, then each entry `digest` against the bytes
 * its URL serves (https only, bounded, the catalog's own origin unless --follow-artifacts any,
 * public addresses unless --allow-private; http to this machine with --allow-http).
 */
async function verifyCatalog(
  io: CliIO,
  file: string,
  catalog: Record<string, unknown>,
  keys: VerifyAgentCardOptions,
  options: VerifyCommandOptions,
  catalogUrl: string | undefined,
): Promise<number> {
  const { forms: _forms, ...keyOptions } = keys;
  const result = await verifyAiCatalog(catalog, {
    ...keyOptions,
    ...(options.allowHttp ? { allowInsecureArtifactUrls: true } : {}),
    ...(options.allowPrivate ? { allowPrivateTargets: true } : {}),
    ...(catalogUrl === undefined ? {} : { catalogUrl }),
    ...(options.followArtifacts === undefined ? {} : { followArtifacts: options.followArtifacts }),
  });
  if (options.json) {
    io.stdout.write(toJsonText(result));
    return result.valid ? 0 : 1;
  }
  const painter = createPainter(io);
  const mark = (ok: boolean) => (ok ? painter.paint('green', '✔') : painter.paint('red', '✖'));
  const s = result.signature;
  const by =
    s.form === 'signature-object'
      ? `${visible(s.signer ?? '?')}, ${visible(s.profile ?? '?')}, kid "${visible(s.kid ?? '?')}"`
      : `${visible(s.alg ?? '?')}, kid "${visible(s.kid ?? '?')}"`;
  io.stdout.write(
    `${mark(s.valid)} ${visible(file)}: catalog signature (${by}): ${s.valid ? `verified with ${visible(s.key)}` : visible(s.reason ?? 'did not verify')}
`,
  );
  for (const m of result.manifests)
    io.stdout.write(
      `${mark(m.valid)} entries[${m.entry}].trustManifests[${m.index}] ${visible(m.contributor ?? '')}: ${m.valid ? `signed by ${visible(m.signer ?? '?')}${m.publisher ? ' (the publisher its urn:air identifier names)' : ''}` : visible(m.reason ?? 'did not verify')}
`,
    );
  for (const d of result.digests)
    io.stdout.write(
      `${mark(d.valid)} entries[${d.index}] ${visible(d.identifier ?? '')}: ${d.valid ? `digest matches ${visible(d.url ?? 'its data')}` : visible(d.reason ?? 'did not verify')}
`,
    );
  for (const note of [...(result.notes ?? []), ...(result.limits ?? [])])
    io.stdout.write(`${painter.paint('yellow', '!')} ${visible(note)}
`);
  io.stdout.write(
    result.valid
      ? painter.paint('green', 'Valid: the catalog signature verified and every digest matched.\n')
      : painter.paint('red', `Invalid: ${visible(result.reason ?? 'did not verify')}.\n`),
  );
  return result.valid ? 0 : 1;
}

/**
 * `agent-card verify <file> (--key k | --jwks f|url)`: exit 0 when a signature verifies, 1
 * otherwise. An AI Catalog is verified as one: its signature and every entry digest.
 */
export async function verifyCommand(io: CliIO, file: string, options: VerifyCommandOptions): Promise<number> {
  const keyError = 'verify: pass exactly one of --key <file> or --jwks <file|url>.';
  if (options.key && options.jwks) throw new CliError(keyError);
  const format = outputFormat(options);
  const limit = options.maxCardBytes ?? DEFAULT_MAX_CARD_BYTES;
  let source: CardSource;
  try {
    source = await readCardSource(io, file, {
      allowHttp: options.allowHttp ?? false,
      timeoutMs: options.timeout ?? 10_000,
      maxCardBytes: limit,
    });
  } catch (error) {
    if (error instanceof CardTooLargeError) return tooLarge(io, format, error);
    throw error;
  }
  const card = source.card;
  // A catalog is held to its own limits (verifyAiCatalog); a card to the card size limit.
  if (!isCatalog(card) && source.bytes !== undefined && source.bytes.byteLength > limit) {
    return tooLarge(io, format, new CardTooLargeError(source.name, `${source.bytes.byteLength} bytes`, limit));
  }
  const catalogUrl = source.file === undefined && /^https?:\/\//.test(source.name) ? source.name : undefined;
  if (!options.key && !options.jwks) {
    if (isCatalog(card) && hasSignatureObject(card)) return verifyCatalog(io, file, card, {}, options, catalogUrl);
    throw new CliError(keyError);
  }
  const verifyOptions: VerifyAgentCardOptions = options.form ? { forms: [options.form] } : {};
  if (options.key) {
    const key = await readKeyFile(io, options.key);
    verifyOptions.keys = {
      [verifyingKeyId(options.kid, key, true)]: key as NonNullable<VerifyAgentCardOptions['keys']>[string],
    };
  } else if (options.jwks && isRemote(options.jwks)) {
    verifyOptions.jwksUrl = options.jwks;
    if (options.allowHttp) verifyOptions.allowInsecureJwksUrl = true;
  } else if (options.jwks) {
    const jwks = await readJson(io, options.jwks);
    if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as { keys?: unknown }).keys)) {
      throw new CliError(`${options.jwks}: not a JWK Set (expected {"keys": [...]}).`);
    }
    verifyOptions.jwks = jwks as NonNullable<VerifyAgentCardOptions['jwks']>;
  }
  if (isCatalog(card)) return verifyCatalog(io, file, card, verifyOptions, options, catalogUrl);
  const result = await verifyAgentCard(card as AgentCard, verifyOptions);
  if (format !== 'text' && format !== 'json') {
    const artifact = {
      ...(source.file === undefined ? { uri: source.name } : { file: source.file }),
      ...(source.bytes === undefined ? {} : { text: Buffer.from(source.bytes).toString('utf8') }),
      document: card,
    };
    writeFormatted(io, format, { command: 'verify', artifact, findings: verifyFindings(result), ok: result.valid });
    return result.valid ? 0 : 1;
  }
  if (format === 'json') {
    io.stdout.write(toJsonText(result));
    return result.valid ? 0 : 1;
  }
  const painter = createPainter(io);
  if (result.signatures.length === 0)
    io.stdout.write(`${visible(file)}: ${visible(result.reason ?? 'no signatures')}\n`);
  // Signatures past the per-card limit are summed up by `limits`, not listed one by one.
  for (const s of result.signatures.slice(0, AGENT_CARD_VERIFY_LIMITS.signatures)) {
    const head = `signature ${s.index} (${visible(s.alg ?? '?')}, kid "${visible(s.kid ?? '?')}")`;
    io.stdout.write(
      s.valid
        ? `${painter.paint('green', '✔')} ${head}: verified with ${visible(s.key)} over the ${visible(s.form ?? 'pruned')} form${s.uncovered ? `, which does not cover ${visible(s.uncovered.join(', '))} (members at their default value)` : ''}\n`
        : `${painter.paint('red', '✖')} ${head}: ${visible(s.reason ?? 'did not verify')}\n`,
    );
  }
  const prunedOnly = prunedOnlyNote(result);
  for (const note of [...(result.limits ?? []), ...(prunedOnly ? [prunedOnly] : [])]) {
    io.stdout.write(`${painter.paint('yellow', '!')} ${visible(note)}\n`);
  }
  io.stdout.write(
    result.valid
      ? painter.paint('green', 'Valid: at least one signature verified.\n')
      : painter.paint('red', 'Invalid: no signature verified.\n'),
  );
  return result.valid ? 0 : 1;
}
