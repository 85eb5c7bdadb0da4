import {
  AGENT_CARD_SIGNING_ALGORITHMS,
  AgentCardError,
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
import { jwkMember, readKeyFile } from './keys';

export interface SignCommandOptions {
  key: string;
  kid?: string;
  alg?: string;
  jku?: string;
  output?: string;
  force?: boolean;
}

/** `agent-card sign <file> --key k.pem --kid id --alg ES256`: the signed card to stdout or `-o`. */
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
  const privateKey = await readKeyFile(io, options.key);
  const kid = options.kid ?? jwkMember(privateKey, 'kid');
  if (!kid)
    throw new CliError('--kid: missing. Pass the key id verifiers will look the key up by (or use a JWK with "kid").');
  const alg = options.alg ?? jwkMember(privateKey, 'alg');
  if (!alg) throw new CliError(`--alg: missing. Pass one of ${AGENT_CARD_SIGNING_ALGORITHMS.join(', ')}.`);
  let signed: AgentCard;
  try {
    signed = await signAgentCard(result.card, {
      privateKey: privateKey as SignAgentCardOptions['privateKey'],
      kid,
      alg: alg as AgentCardSigningAlgorithm,
      ...(options.jku ? { jku: options.jku } : {}),
    });
  } catch (error) {
    if (error instanceof AgentCardError) throw new CliError(error.message, 2);
    throw error;
  }
  const text = toJsonText(signed);
  if (options.output) {
    await writeText(io, options.output, text, { force: options.force ?? false });
    io.stderr.write(`Signed with ${visible(alg)} (kid "${visible(kid)}"); wrote ${visible(options.output)}.\n`);
  } else {
    io.stdout.write(text);
  }
  return 0;
}
