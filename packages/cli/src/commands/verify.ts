import {
  AGENT_CARD_VERIFY_LIMITS,
  type AgentCardCanonicalForm,
  prunedOnlyNote,
  verifyAgentCard,
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

/** `agent-card verify <file> (--key k | --jwks f|url)`: exit 0 when a signature verifies, 1 otherwise. */
export async function verifyCommand(io: CliIO, file: string, options: VerifyCommandOptions): Promise<number> {
  if (!options.key === !options.jwks)
    throw new CliError('verify: pass exactly one of --key <file> or --jwks <file|url>.');
  const card = await readCard(io, file, { allowHttp: options.allowHttp ?? false });
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
