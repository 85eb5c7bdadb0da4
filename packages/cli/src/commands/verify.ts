import {
  AGENT_CARD_VERIFY_LIMITS,
  type AgentCardCanonicalForm,
  prunedOnlyNote,
  verifyAgentCard,
  verifyAiCatalog,
  type AgentCard,
  type VerifyAgentCardOptions,
} from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError, createPainter } from '../io';
import { isRemote, readCard, readJson, toJsonText } from '../read';
import { visible } from '../terminal';
import { readKeyFile, verifyingKeyId } from './keys';

export interface VerifyCommandOptions {
  key?: string;
  kid?: string;
  jwks?: string;
  allowHttp?: boolean;
  json?: boolean;
  /** The one canonical form a signature may cover. */
  form?: AgentCardCanonicalForm;
}

/** An AI Catalog rather than a card: `specVersion` and `entries`. */
function isCatalog(doc: Record<string, unknown>): boolean {
  return typeof doc.specVersion === 'string' && Array.isArray(doc.entries);
}

/**
 * A signed AI Catalog: its `signature` with the same keys, and each entry `digest` against the
 * bytes its URL serves (https only, bounded; http to this machine with --allow-http).
 */
async function verifyCatalog(
  io: CliIO,
  file: string,
  catalog: Record<string, unknown>,
  keys: VerifyAgentCardOptions,
  options: VerifyCommandOptions,
): Promise<number> {
  const { forms: _forms, ...keyOptions } = keys;
  const result = await verifyAiCatalog(catalog, {
    ...keyOptions,
    ...(options.allowHttp ? { allowInsecureArtifactUrls: true } : {}),
  });
  if (options.json) {
    io.stdout.write(toJsonText(result));
    return result.valid ? 0 : 1;
  }
  const painter = createPainter(io);
  const mark = (ok: boolean) => (ok ? painter.paint('green', '✔') : painter.paint('red', '✖'));
  const s = result.signature;
  io.stdout.write(
    `${mark(s.valid)} ${visible(file)}: catalog signature (${visible(s.alg ?? '?')}, kid "${visible(s.kid ?? '?')}"): ${s.valid ? `verified with ${visible(s.key)}` : visible(s.reason ?? 'did not verify')}
`,
  );
  for (const d of result.digests)
    io.stdout.write(
      `${mark(d.valid)} entries[${d.index}] ${visible(d.identifier ?? '')}: ${d.valid ? `digest matches ${visible(d.url ?? 'its data')}` : visible(d.reason ?? 'did not verify')}
`,
    );
  for (const note of result.limits ?? [])
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
  if (!options.key === !options.jwks)
    throw new CliError('verify: pass exactly one of --key <file> or --jwks <file|url>.');
  const card = await readCard(io, file, { allowHttp: options.allowHttp ?? false });
  const verifyOptions: VerifyAgentCardOptions = options.form ? { forms: [options.form] } : {};
  if (options.key) {
    const key = await readKeyFile(io, options.key);
    verifyOptions.keys = {
      [verifyingKeyId(options.kid, key)]: key as NonNullable<VerifyAgentCardOptions['keys']>[string],
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
  if (isCatalog(card)) return verifyCatalog(io, file, card, verifyOptions, options);
  const result = await verifyAgentCard(card as AgentCard, verifyOptions);
  if (options.json) {
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
