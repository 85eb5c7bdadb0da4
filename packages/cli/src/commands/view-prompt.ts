import { validateAgentCard } from '@agent-card/core';
import { discoverAgentCard } from '@agent-card/discovery';
import type { CliIO } from '../io';
import { CliError } from '../io';
import { formatPromptView, promptSizeFindings } from '../prompt';
import { cardFromBytes, documentUrl, fetchBytes, isRemote, readBytes } from '../read';
import { guardOutput, visible } from '../terminal';

export interface ViewPromptOptions {
  timeout?: number;
  allowHttp?: boolean;
}

/** The card of a file, stdin, a document URL or a host (its well-known card, as `check` finds it). */
async function readCard(io: CliIO, source: string, options: ViewPromptOptions): Promise<Record<string, unknown>> {
  if (!isRemote(source)) return cardFromBytes(await readBytes(io, source), source);
  const url = documentUrl(source, options.allowHttp === true);
  if (url.pathname !== '/' || url.search !== '') {
    return cardFromBytes(await fetchBytes(url.href, options.timeout ?? 10_000), url.href);
  }
  const report = await discoverAgentCard(url.origin, {
    profile: 'production',
    timeoutMs: options.timeout ?? 10_000,
    allowHttp: options.allowHttp ?? false,
    probeHttp: false,
    followCatalog: false,
  });
  const document = report.document;
  if (typeof document === 'object' && document !== null && !Array.isArray(document)) {
    return document as Record<string, unknown>;
  }
  throw new CliError(
    `${visible(url.origin)}: serves no Agent Card at ${report.primary.path}. Run "agent-card check ${visible(url.origin)}" for details.`,
  );
}

/**
 * `agent-card view --prompt <card|url>`: the text a model reads from the card, as the official
 * A2A CLI's `a2a discover` prints it and as a tool description, each with its token count, the
 * prompt-safety findings marked on it, and rule `prompt-size`. Exit 0 when shown, 1 when the card
 * is not readable JSON, 2 on usage and I/O errors.
 */
export async function viewPromptCommand(io: CliIO, source: string, options: ViewPromptOptions): Promise<number> {
  const card = await readCard(io, source, options);
  const findings = validateAgentCard(card, { profile: 'production' }).findings;
  const size = promptSizeFindings(card, 'production');
  let text = formatPromptView(card, findings);
  for (const f of size) text += `${f.severity} ${f.rule}: ${f.message}\n  fix: ${f.hint}\n`;
  io.stdout.write(guardOutput(text));
  return 0;
}
