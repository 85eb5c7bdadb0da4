import { type AgentCardDefinition, type AgentCardLogger, defineAgentCard } from './define';
import type { CardRuleId } from './rules';
import { AgentCardError, formatFindings } from './errors';
import type { Finding, ValidationProfile } from './findings';
import type { AgentCard } from './model';
import { readJsonText } from './json/read';
import { nodeBuiltin } from './node-builtins';
import { BYTE_ORDER_MARK } from './validate/decode';
import { describePath } from './validate/shape';

/**
 * `node:fs` and `node:path`, or a start-up error on a runtime that cannot read files (Workers,
 * Next.js's edge runtime), where the card is passed in instead.
 */
function fileSystem() {
  const fs = nodeBuiltin('node:fs');
  const path = nodeBuiltin('node:path');
  if (fs === undefined || path === undefined) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      `${AGENT_CARD_CONFIG_FILE}: this runtime cannot read files (it has no node:fs), so the card cannot come from a file. ` +
        'Pass the card itself: createAgentCardFetchHandler({ card }) with card = defineAgentCard({ ... }), or import the JSON file into your bundle.',
    );
  }
  return { fs, path };
}

/** The file name {@link loadAgentCardConfig} looks for. */
export const AGENT_CARD_CONFIG_FILE = 'agent-card.json';

/** Options of {@link loadAgentCardConfig} and {@link readAgentCardConfig}. */
export interface LoadAgentCardConfigOptions {
  /**
   * The directory to start from.
   * @default process.cwd()
   */
  cwd?: string;
  /**
   * The card definition file, relative to `cwd` or absolute.
   * @default "agent-card.json"
   */
  file?: string;
  /**
   * The validation profile (only {@link loadAgentCardConfig} validates).
   * @default the default of `validateAgentCard`
   */
  profile?: ValidationProfile;
  /** Receives one line per warning (only {@link loadAgentCardConfig}). */
  logger?: AgentCardLogger;
}

/** What {@link readAgentCardConfig} found. */
export interface AgentCardConfig {
  /** The definition: the file's content, with `name`, `description`, `version` filled in. */
  definition: AgentCardDefinition;
  /** Absolute path of the definition file. */
  file: string;
  /** Absolute path of the `package.json` used to fill fields, if one was found. */
  packageJson?: string;
  /**
   * Warnings about the file itself: a byte order mark gives `card-json-parse` (warning), as
   * `validateAgentCard` reports it for JSON text. {@link loadAgentCardConfig} logs them.
   */
  findings: readonly Finding[];
}

/** The fields a `package.json` can fill in. */
const FROM_PACKAGE_JSON = ['name', 'description', 'version'] as const;

/**
 * Reads `agent-card.json` and builds the validated card from it: zero-config for services that
 * keep their card next to their code.
 *
 * The file holds an {@link AgentCardDefinition} (a full card, or the friendly form with the
 * `url` + `binding` shorthand). `name`, `description` and `version` that the file leaves out are
 * taken from the nearest `package.json` (searched from the file's folder upwards). A `$schema` key
 * is ignored, so the file can point an editor at the card's JSON Schema.
 *
 * @returns The validated, frozen card (see `defineAgentCard`).
 * @throws AgentCardError `ERR_AGENT_CARD_CONFIG` when the file is missing, unreadable or not
 *   valid JSON (the message names the file, line and column); `ERR_AGENT_CARD_INVALID` when the
 *   card has errors (the message names the file and lists every error).
 * @example
 * // agent-card.json: { "url": "https://support.acme-corp.io/a2a/v1", "binding": "JSONRPC", "skills": [...] }
 * // package.json:    { "name": "acme-support", "description": "...", "version": "2.3.0" }
 * const card = loadAgentCardConfig({ profile: 'production', logger: console });
 */
export function loadAgentCardConfig(options: LoadAgentCardConfigOptions = {}): AgentCard {
  const { definition, file, findings, packageJson } = readAgentCardConfig(options);
  for (const finding of findings) options.logger?.warn(`agent-card: ${formatFindings([finding]).trim().slice(2)}`);
  try {
    return defineAgentCard(definition, {
      ...(options.profile === undefined ? {} : { profile: options.profile }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  } catch (error) {
    if (error instanceof AgentCardError && error.code === 'ERR_AGENT_CARD_INVALID') {
      const message = error.message.replace(/^defineAgentCard:/, `${file}:`);
      throw new AgentCardError('ERR_AGENT_CARD_INVALID', message + packageJsonNotes(error, definition, packageJson), {
        findings: error.findings,
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Says where a missing `name`, `description` or `version` was looked for: a blank value in
 * `package.json` (`"description": ""`) is not used, and the reader should learn that it came from
 * there rather than hunt for it in `agent-card.json`.
 */
function packageJsonNotes(error: AgentCardError, definition: AgentCardDefinition, packageJson?: string): string {
  if (packageJson === undefined) return '';
  let pkg: unknown;
  try {
    pkg = readJson(packageJson).value;
  } catch {
    return '';
  }
  if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg)) return '';
  const notes: string[] = [];
  for (const key of FROM_PACKAGE_JSON) {
    if ((definition as unknown as Record<string, unknown>)[key] !== undefined) continue;
    if (!error.findings.some((finding) => finding.path === `/${key}`)) continue;
    const value = (pkg as Record<string, unknown>)[key];
    const found =
      value === undefined
        ? `has no "${key}" either`
        : `sets "${key}" to ${JSON.stringify(value)}, which cannot be used (${typeof value === 'string' ? 'blank' : `a ${typeof value}, not a string`})`;
    notes.push(
      `\n  ${key} comes from ${packageJson} when ${AGENT_CARD_CONFIG_FILE} leaves it out; that file ${found}. ` +
        `Set "${key}" in one of the two files.`,
    );
  }
  return notes.join('');
}

/**
 * Reads `agent-card.json` and fills `name`, `description` and `version` from the nearest
 * `package.json`, without validating: for callers that add to the definition first (for example
 * skills collected from code) and then call `defineAgentCard`.
 *
 * @throws AgentCardError `ERR_AGENT_CARD_CONFIG` when the file is missing, unreadable or not a
 *   JSON object.
 * @example
 * const { definition } = readAgentCardConfig();
 * const card = defineAgentCard({ ...definition, skills: [...definition.skills ?? [], ...collected] });
 */
export function readAgentCardConfig(
  options: Omit<LoadAgentCardConfigOptions, 'profile' | 'logger'> = {},
): AgentCardConfig {
  const { fs, path } = fileSystem();
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = path.resolve(cwd, options.file ?? AGENT_CARD_CONFIG_FILE);
  const packageJson = findUp(path.dirname(file), 'package.json');

  if (!fs.existsSync(file)) {
    const found = packageJson
      ? `name, description and version can come from ${packageJson}`
      : 'no package.json was found either, so the file must also set name, description and version';
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      `${file}: the agent card definition is missing. Create ${AGENT_CARD_CONFIG_FILE} with at least ` +
        `url, binding and skills (${found}), or run \`${initCommand(cwd)}\` to write a starter file.`,
    );
  }

  const { value: content, bom } = readJson(file, { card: true });
  const findings: Finding[] = bom
    ? [
        {
          rule: 'card-json-parse' satisfies CardRuleId,
          severity: 'warning',
          path: '',
          message: `${file}: ${BYTE_ORDER_MARK.message}`,
          hint: BYTE_ORDER_MARK.hint,
        },
      ]
    : [];
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      `${file}: the top level is ${Array.isArray(content) ? 'an array' : content === null ? 'null' : `a ${typeof content}`}, not an object. ` +
        'Write the card as one JSON object: { "url": ..., "binding": ..., "skills": [...] }.',
    );
  }

  const definition: Record<string, unknown> = { ...(content as Record<string, unknown>) };
  // `$schema` only serves editors; it is not a card field.
  delete definition.$schema;
  if (packageJson) {
    const pkg = readJson(packageJson).value;
    if (pkg !== null && typeof pkg === 'object' && !Array.isArray(pkg)) {
      for (const key of FROM_PACKAGE_JSON) {
        const value = (pkg as Record<string, unknown>)[key];
        if (definition[key] === undefined && typeof value === 'string' && value.trim() !== '') definition[key] = value;
      }
    }
  }
  return {
    definition: definition as unknown as AgentCardDefinition,
    file,
    ...(packageJson === undefined ? {} : { packageJson }),
    findings,
  };
}

function findUp(from: string, name: string): string | undefined {
  const { fs, path } = fileSystem();
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Largest definition or `package.json` read: far more than any card, and a bound on a path gone wrong. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/**
 * The bytes of a regular file of at most {@link MAX_CONFIG_BYTES}: anything else (a device, a
 * pipe, a file grown by mistake) is refused before it is read, instead of blocking or filling
 * memory at start-up.
 */
function readBounded(file: string): Uint8Array {
  const { closeSync, constants, fstatSync, openSync, readSync } = fileSystem().fs;
  // Non-blocking, so that opening a pipe with no writer returns at once to be refused below.
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    // Reported by the caller as any other read error: `cannot be read (EISDIR)`.
    if (stat.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
    if (!stat.isFile()) {
      throw new AgentCardError(
        'ERR_AGENT_CARD_CONFIG',
        `${file}: cannot be read (not a regular file, but a device, a pipe or a socket). Point it at a JSON file.`,
      );
    }
    if (stat.size > MAX_CONFIG_BYTES) {
      throw new AgentCardError(
        'ERR_AGENT_CARD_CONFIG',
        `${file}: larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB (${stat.size} bytes), far more than a card. Check the path.`,
      );
    }
    const bytes = new Uint8Array(stat.size);
    let read = 0;
    while (read < bytes.byteLength) {
      const n = readSync(fd, bytes, read, bytes.byteLength - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Members named twice that one error lists. */
const DUPLICATES_LISTED = 8;

/**
 * Reads a JSON file as strict UTF-8: bytes that are not UTF-8 fail with their offset instead of
 * turning into U+FFFD, so the card says what the file says. With `card`, a member named twice in
 * one object fails too (listing every one), as `validateAgentCard` reports it for JSON text: which
 * value applies depends on the parser, and the definition must not.
 */
function readJson(file: string, { card = false } = {}): { value: unknown; bom: boolean } {
  let bytes: Uint8Array;
  try {
    bytes = readBounded(file);
  } catch (cause) {
    if (cause instanceof AgentCardError) throw cause;
    const reason = (cause as NodeJS.ErrnoException).code ?? String(cause);
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      `${file}: cannot be read (${reason}). Check that it is a readable file.`,
      {
        cause,
      },
    );
  }
  // Any depth: the validator reports a card nested too deep, with the rest of its findings.
  const read = readJsonText(bytes, {
    maxDepth: Number.POSITIVE_INFINITY,
    duplicates: card ? DUPLICATES_LISTED : 0,
    inexactNumbers: 0,
  });
  if (!read.ok) {
    // The syntax error as `JSON.parse` raised it, for callers that look at the cause.
    const cause = read.error === 'syntax' ? new SyntaxError(read.reason) : undefined;
    throw new AgentCardError('ERR_AGENT_CARD_CONFIG', `${file}: ${unreadable(read)}`, cause && { cause });
  }
  const duplicates = read.duplicates;
  if (duplicates.length > 0) {
    const which = duplicates.length === DUPLICATES_LISTED ? `the first ${DUPLICATES_LISTED}` : 'each';
    throw new AgentCardError(
      'ERR_AGENT_CARD_CONFIG',
      `${file}: names a member twice in one object, and JSON parsers disagree about which value applies:` +
        duplicates.map((path) => `\n  - ${describePath(path)}`).join('') +
        `\nKeep one of ${which}.`,
    );
  }
  return { value: read.value, bom: read.bom };
}

/** Why a file is not JSON, as the error after its name says it. */
function unreadable(read: Exclude<ReturnType<typeof readJsonText>, { ok: true }>): string {
  if (read.error === 'utf-8') {
    return `not valid UTF-8 (byte 0x${read.byte.toString(16).padStart(2, '0')} at offset ${read.offset}). Save the file as UTF-8.`;
  }
  if (read.error === 'too-large') return `larger than ${read.limit} bytes.`;
  const near = read.text.slice(read.offset, read.offset + 20).split(/\r?\n/)[0] ?? '';
  const what = read.offset >= read.text.length ? 'unexpected end of file' : `unexpected ${JSON.stringify(near)}`;
  return (
    `invalid JSON at line ${read.line}, column ${read.column} (${what}). ` +
    'Fix the syntax there: JSON has no comments, no trailing commas and only double-quoted strings.'
  );
}

/**
 * The init command that runs from `cwd`: the installed CLI's bin when the project has
 * `@agent-card/cli` (it runs before the package is on npm, from its tarball), else the registry's.
 */
function initCommand(cwd: string): string {
  return findUp(cwd, 'node_modules/@agent-card/cli/package.json') ? 'npx agent-card init' : 'npx @agent-card/cli init';
}
