import { createInterface } from 'node:readline/promises';
import { validateAgentCard } from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError, createPainter } from '../io';
import { toJsonText, writeText } from '../read';
import { formatFindings } from '../report';
import { TEMPLATE_NAMES, TEMPLATES, type TemplateName } from '../templates';

export interface InitCommandOptions {
  template?: string;
  name?: string;
  description?: string;
  url?: string;
  output?: string;
  force?: boolean;
  interactive?: boolean;
}

/** Collects every string that looks like a URL, to tell the user which ones still point at the template's hosts. */
function urlsIn(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) out.add(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

async function ask(io: CliIO, options: InitCommandOptions): Promise<InitCommandOptions> {
  // readline draws its prompt with its own cursor controls, and echoes only what the user types:
  // it gets the terminal itself rather than the guarded writer (which would escape them).
  const output = (io.stdout as { unguarded?: unknown }).unguarded ?? io.stdout;
  const rl = createInterface({ input: io.stdin, output: output as NodeJS.WritableStream, terminal: true });
  try {
    const answer = async (question: string, fallback?: string) => {
      const text = (await rl.question(`${question}${fallback ? ` (${fallback})` : ''}: `)).trim();
      return text || fallback;
    };
    const template = options.template ?? (await answer(`Template [${TEMPLATE_NAMES.join('/')}]`, 'support'));
    const name = options.name ?? (await answer('Agent name'));
    const description = options.description ?? (await answer('What does the agent do?'));
    const url = options.url ?? (await answer('JSON-RPC endpoint URL', 'http://localhost:3000/a2a'));
    return { ...options, template, name, description, url };
  } finally {
    rl.close();
  }
}

/**
 * `agent-card init`: writes a starter `agent-card.json` from a template. Prompts on a terminal,
 * takes flags otherwise; refuses to overwrite without `--force`.
 */
export async function initCommand(io: CliIO, options: InitCommandOptions): Promise<number> {
  const interactive = options.interactive !== false && io.stdin.isTTY === true && io.stdout.isTTY === true;
  const answers = interactive ? await ask(io, options) : options;
  const templateName = (answers.template ?? 'support') as TemplateName;
  if (!TEMPLATE_NAMES.includes(templateName)) {
    throw new CliError(`--template: unknown template "${templateName}". Use one of ${TEMPLATE_NAMES.join(', ')}.`);
  }
  // A fresh copy: the template objects are shared module state.
  const card = structuredClone(TEMPLATES[templateName]) as Record<string, unknown>;
  // A starter file belongs to the user's organisation, not the template's.
  delete card.provider;
  delete card.documentationUrl;
  delete card.iconUrl;
  delete card.signatures;
  card.version = '0.1.0';
  if (answers.name) card.name = answers.name;
  if (answers.description) card.description = answers.description;
  if (answers.url) {
    try {
      new URL(answers.url);
    } catch {
      throw new CliError(`--url: not an absolute URL ("${answers.url}"). Use e.g. https://agent.acme.io/a2a.`);
    }
    card.supportedInterfaces = [{ url: answers.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }];
  }
  const result = validateAgentCard(card, { profile: 'development' });
  const painter = createPainter(io);
  if (!result.valid) {
    io.stderr.write(
      `${formatFindings(
        result.findings.filter((f) => f.severity === 'error'),
        painter,
      )}\n`,
    );
    throw new CliError('the starter card has errors (see above); nothing was written.', 1);
  }
  const output = answers.output ?? 'agent-card.json';
  await writeText(io, output, toJsonText(card), { force: answers.force ?? false });
  const leftovers = [...urlsIn(card, new Set())].filter((u) => u !== answers.url);
  const lines = [`${painter.paint('green', '✔')} Wrote ${output} from the "${templateName}" template.`, 'Next:'];
  if (!answers.name) lines.push('  - set "name" and "description" to describe your agent;');
  if (leftovers.length > 0) lines.push(`  - replace the template's URLs: ${leftovers.join(', ')};`);
  lines.push('  - edit "skills" to list what your agent does;', `  - run: agent-card validate ${output}`);
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
