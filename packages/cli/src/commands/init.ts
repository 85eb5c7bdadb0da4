import { createInterface } from 'node:readline/promises';
import { type Finding, validateAgentCard } from '@agent-card/core';
import type { CliIO } from '../io';
import { CliError, createPainter, selfCommand } from '../io';
import { toJsonText, writeText } from '../read';
import { formatFindings } from '../report';
import { visible } from '../terminal';
import { TEMPLATE_NAMES, TEMPLATES, type TemplateName } from '../templates';

/** The protocol bindings `init` offers (A2A v1.0 §5.8); the REST extended card needs `HTTP+JSON`. */
export const INIT_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;
export type InitBinding = (typeof INIT_BINDINGS)[number];

export interface InitCommandOptions {
  template?: string;
  name?: string;
  description?: string;
  url?: string;
  binding?: string;
  output?: string;
  force?: boolean;
  interactive?: boolean;
  /** Write an AI Catalog of the `agent` cards instead of a card (see `initCatalogCommand`). */
  catalog?: boolean;
  agent?: string[];
  hostName?: string;
  baseUrl?: string;
  agentsPath?: string;
}

/** The endpoint a starter card points at until the user gives a public one: the local service. */
export function defaultUrl(binding: InitBinding): string {
  return binding === 'GRPC' ? 'localhost:50051' : 'http://localhost:3000/a2a';
}

/**
 * Where the card still holds the template's content besides its name, description and skills
 * (which have lines of their own): the template's URLs, scheme texts, API key header names and
 * extensions, as the validator's `template-content` findings name them.
 */
function otherLeftovers(findings: readonly Finding[]): string[] {
  const out: string[] = [];
  for (const f of findings) {
    if (f.rule !== 'template-content' || f.path === '/name' || f.path === '/description') continue;
    if (f.path.startsWith('/skills/')) continue;
    const end = f.message.indexOf(': still');
    out.push(end === -1 ? f.path : f.message.slice(0, end));
  }
  return out;
}

async function ask(io: CliIO, options: InitCommandOptions): Promise<InitCommandOptions> {
  // readline draws its prompt with its own cursor controls, and echoes only what the user types:
  // it gets the terminal itself rather than the guarded writer (which would escape them).
  const output = ((io.stdout as { unguarded?: unknown }).unguarded ?? io.stdout) as { write?: (s: string) => unknown };
  const rl = createInterface({ input: io.stdin, output: output as NodeJS.WritableStream, terminal: true });
  // Lines pasted several at once arrive before their questions are asked: each waits in order for
  // its question (readline's `question` would drop every line that comes while none is pending).
  const pasted: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let closed = false;
  rl.on('line', (line) => {
    if (waiting === undefined) pasted.push(line);
    else {
      const take = waiting;
      waiting = undefined;
      take(line);
    }
  });
  rl.on('close', () => {
    closed = true;
    waiting?.(undefined);
  });
  const nextLine = (prompt: string): Promise<string | undefined> => {
    rl.setPrompt(prompt);
    rl.prompt();
    if (pasted.length > 0) {
      const line = pasted.shift() ?? '';
      // readline echoed the pasted lines under the first prompt, as they came; this prompt shows
      // its own answer, so the screen reads as question and answer. The user's own typing,
      // through the guard's escaping: a pasted control character cannot move the cursor.
      output.write?.(`${visible(line)}\n`);
      return Promise.resolve(line);
    }
    if (closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      waiting = resolve;
    });
  };
  try {
    const answer = async (question: string, fallback?: string) => {
      const text = ((await nextLine(`${question}${fallback ? ` (${fallback})` : ''}: `)) ?? '').trim();
      return text || fallback;
    };
    const template = options.template ?? (await answer(`Template [${TEMPLATE_NAMES.join('/')}]`, 'support'));
    const name = options.name ?? (await answer('Agent name'));
    const description = options.description ?? (await answer('What does the agent do?'));
    const binding = options.binding ?? (await answer(`Protocol binding [${INIT_BINDINGS.join('/')}]`, 'JSONRPC'));
    const url =
      options.url ??
      (await answer(
        'Public URL of the A2A endpoint',
        defaultUrl(INIT_BINDINGS.includes(binding as InitBinding) ? (binding as InitBinding) : 'JSONRPC'),
      ));
    return { ...options, template, name, description, binding, url };
  } finally {
    rl.close();
  }
}

/** One flag value checked against the accepted ones: a usage error (exit 2) that lists them. */
function oneOf<T extends string>(flag: string, value: string, accepted: readonly T[]): T {
  if (accepted.includes(value as T)) return value as T;
  throw new CliError(`${flag}: unknown value "${visible(value)}". Use one of ${accepted.join(', ')}.`);
}

/** The endpoint URL for `binding`: an absolute http(s) URL, or `host:port` for gRPC. */
function checkUrl(url: string, binding: InitBinding): string {
  const hostPort = /^[A-Za-z0-9.-]+:\d{1,5}$/.test(url);
  let absolute = false;
  try {
    absolute = /^https?:$/.test(new URL(url).protocol) && !hostPort;
  } catch {
    absolute = false;
  }
  if (absolute || (binding === 'GRPC' && hostPort)) return url;
  throw new CliError(
    `--url: not an absolute URL ("${visible(url)}"). Use e.g. https://agent.acme.io/a2a${binding === 'GRPC' ? ' or agent.acme.io:443' : ''}.`,
  );
}

/** A file name as the user types it in a shell. */
const shellWord = (word: string) => (/^[\w./@:+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/**
 * What is left to do after `init`, in the order a user does it. The first command it names
 * passes on what `init` wrote; its warnings (`template-content`) list what is still the template's.
 */
function nextSteps(
  answers: InitCommandOptions,
  findings: readonly Finding[],
  output: string,
  url: string,
  templateName: TemplateName,
  self: string,
): string[] {
  const lines: string[] = ['Next:'];
  if (!answers.name && !answers.description) lines.push('  - set "name" and "description" to describe your agent;');
  else if (!answers.description) {
    lines.push(`  - set "description" to describe your agent (it is still the "${templateName}" template's);`);
  } else if (!answers.name) lines.push(`  - set "name" (it is still the "${templateName}" template's);`);
  const leftovers = otherLeftovers(findings);
  // Several are one per line: they are long JSON paths (an OAuth flow's URLs).
  if (leftovers.length === 1)
    lines.push(`  - replace what is still the "${templateName}" template's: ${leftovers[0]};`);
  else if (leftovers.length > 1) {
    lines.push(`  - replace what is still the "${templateName}" template's:`, ...leftovers.map((l) => `      ${l}`));
  }
  lines.push(`  - edit "skills" to list what your agent does (they are still the "${templateName}" template's);`);
  const local = !/^https:\/\//.test(url) || /^(https?:\/\/)?(localhost|127\.|\[::1\])/.test(url);
  if (local) lines.push(`  - before publishing, set your public https URL (--url; now ${url});`);
  const file = shellWord(output);
  lines.push(
    `  - check it now (warnings list what is still the template's): ${self} validate ${file} --profile development`,
    `  - before publishing (the production profile: template content and local URLs are errors): ${self} validate ${file}`,
  );
  return lines;
}

/**
 * `agent-card init`: writes a starter `agent-card.json` from a template. Prompts on a terminal
 * for whatever no flag gives (template, name, description, binding, URL); never prompts with
 * `--no-interactive` or without a terminal. Refuses to overwrite without `--force`.
 */
export async function initCommand(io: CliIO, options: InitCommandOptions): Promise<number> {
  const interactive = options.interactive !== false && io.stdin.isTTY === true && io.stdout.isTTY === true;
  const answers = interactive ? await ask(io, options) : options;
  const templateName = oneOf('--template', answers.template ?? 'support', TEMPLATE_NAMES);
  const binding = oneOf('--binding', answers.binding ?? 'JSONRPC', INIT_BINDINGS);
  const url = checkUrl(answers.url ?? defaultUrl(binding), binding);
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
  // The template's endpoints are another organisation's: the card gets the user's one.
  card.supportedInterfaces = [{ url, protocolBinding: binding, protocolVersion: '1.0' }];
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
  const lines = [
    `${painter.paint('green', '✔')} Wrote ${visible(output)} from the "${templateName}" template.`,
    ...nextSteps(answers, result.findings, output, url, templateName, selfCommand(io)),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
