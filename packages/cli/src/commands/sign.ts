import {
  AGENT_CARD_SIGNING_ALGORITHMS,
  AgentCardError,
  readJsonText,
  signAgentCard,
  validateAgentCard,
  type AgentCard,
  type AgentCardSigningAlgorithm,
  type SignAgentCardOptions,
} from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError } from '../io';
import { readBytes, toJsonText, writeText } from '../read';
import { visible } from '../terminal';
import { formatFindings } from '../report';
import { createPainter } from '../io';
import { jwkMember, keyAlgorithm, readKeyFile } from './keys';

export interface SignCommandOptions {
  /** One key file, or several (`--key` repeated): the card carries the signatures of each. */
  key: string | readonly string[];
  kid?: string;
  alg?: string;
  jku?: string;
  output?: string;
  force?: boolean;
}

/** `agent-card sign <file> --key k.pem [--alg ES256] [--kid id]`: the signed card to stdout or `-o`. */
export async function signCommand(io: CliIO, file: string, options: SignCommandOptions): Promise<number> {
  // Bytes, so a file the validator cannot read is its card-json-parse finding, as for validate.
  const result = validateAgentCard(await readBytes(io, file), { profile: 'development' });
  if (!result.card) {
    io.stderr.write(
      `${formatFindings(
        result.findings.filter((f) => f.severity === 'error'),
        createPainter({ ...io, stdout: io.stderr }),
      )}\n`,
    );
    throw new CliError(`${file}: the card has errors; fix them before signing (run "agent-card validate ${file}").`, 1);
  }
  const files = typeof options.key === 'string' ? [options.key] : options.key;
  if (files.length > 1 && (options.kid !== undefined || options.alg !== undefined)) {
    throw new CliError(
      '--kid and --alg name one key: with several --key files, give each its kid and alg in a JWK file, or leave them out (the kid is then the thumbprint, the alg the one the key fits).',
    );
  }
  const signing: SignAgentCardOptions[] = [];
  const algs: string[] = [];
  for (const file of files) {
    const privateKey = await readKeyFile(io, file);
    // Without --kid (or a JWK kid), the key id is the key's RFC 7638 thumbprint.
    const kid = options.kid ?? jwkMember(privateKey, 'kid');
    // A P-256 or Ed25519 key fits one algorithm only; an RSA key fits several, so --alg says which.
    const alg = options.alg ?? jwkMember(privateKey, 'alg') ?? keyAlgorithm(privateKey);
    if (!alg)
      throw new CliError(
        `${files.length > 1 ? `${visible(file)}: ` : ''}--alg: missing, and the key fits more than one algorithm. Pass one of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}${files.length > 1 ? ' as the alg of a JWK file' : ''}.`,
      );
    algs.push(alg);
    signing.push({
      privateKey: privateKey as SignAgentCardOptions['privateKey'],
      ...(kid ? { kid } : {}),
      alg: alg as AgentCardSigningAlgorithm,
      ...(options.jku ? { jku: options.jku } : {}),
    });
  }
  let signed: AgentCard;
  try {
    signed = await signAgentCard(result.card, signing.length === 1 ? signing[0]! : signing);
  } catch (error) {
    if (error instanceof AgentCardError) throw new CliError(error.message, 2);
    throw error;
  }
  const alg = algs.join(' and ');
  const text = toJsonText(signed);
  if (options.output) {
    await writeText(io, options.output, text, { force: options.force ?? false });
    const signatures = (signed.signatures ?? []).slice(result.card.signatures?.length ?? 0);
    // The key ids the new protected headers name (a thumbprint when neither --kid nor the JWK gave one).
    const kidOf = (signature: { protected: string }) => {
      const header = readJsonText(Buffer.from(signature.protected, 'base64url'));
      return header.ok ? (header.value as { kid?: string }).kid : undefined;
    };
    const kids = [...new Set(signatures.map(kidOf))];
    io.stderr.write(
      `Signed with ${visible(alg)} (kid "${visible(kids.join('", "'))}"), ${signatures.length} signature${signatures.length === 1 ? '' : 's'} (one per canonical form${files.length > 1 ? ' and key' : ''}); wrote ${visible(options.output)}.\n`,
    );
  } else {
    io.stdout.write(text);
  }
  return 0;
}
