import {
  readJsonText,
  type RuleOverrides,
  validateAgentCard,
  validateAiCatalog,
  validateArdManifest,
  type ValidationProfile,
} from '@agent-card/core';
import { ARD_SPEC } from '@agent-card/core/http';
import type { CliIO } from '../io';
import { createPainter } from '../io';
import { catalogText, readBytes, toJsonText } from '../read';
import { visible } from '../terminal';
import { formatFindings, summarize } from '../report';
import { type OutputFormat, outputFormat, writeFormatted } from '../format';
import { redactorOf } from '../redact';
import { applySettings, resolveRuleSettings, turnedOffLine } from '../rule-settings';

export interface ValidateCommandOptions {
  profile?: ValidationProfile;
  strict?: boolean;
  json?: boolean;
  /** `text` (default), `json` (as `--json`), `sarif`, `github` or `junit`. */
  format?: OutputFormat;
  info?: boolean;
  /** Read the file as an AI Catalog, whatever it looks like. */
  catalog?: boolean;
  /** `--rule <id>=<setting>`, repeated; after the `rules` of agent-card.config.json. */
  rule?: string[];
  /** Replace every string of the document in the report by its pointer, length and hash. */
  redact?: boolean;
}

/** `agent-card validate <file|->`: exit 1 when the card has errors. */
export async function validateCommand(io: CliIO, file: string, options: ValidateCommandOptions): Promise<number> {
  const rules = await resolveRuleSettings(io, options.rule);
  const bytes = await readBytes(io, file);
  const profile: ValidationProfile = options.strict ? 'strict' : (options.profile ?? 'production');
  // The bytes go to the validator, so invalid UTF-8, invalid JSON and over-deep nesting are the
  // same card-json-parse findings validateAgentCard(bytes) reports, never a lossy decode or a crash.
  const name = file === '-' ? 'stdin' : file;
  const format = outputFormat(options);
  const catalog = catalogText(bytes, name, options.catalog === true);
  if (catalog !== undefined) return validateCatalog(io, name, catalog, profile, { ...options, format }, rules);
  const ard = ardText(bytes);
  if (ard !== undefined) return validateCatalog(io, name, ard, profile, { ...options, format }, rules, 'ard');
  const redactor = options.redact === true ? redactorOf(bytes) : undefined;
  const validated = validateAgentCard(bytes, { profile, ...(rules ? { rules } : {}) });
  const result = redactor ? redactor.report(validated) : validated;
  const { turnedOff } = result;
  if (format !== 'text' && format !== 'json') {
    const artifact = file === '-' ? { uri: 'stdin' } : { file };
    const text = Buffer.from(bytes).toString('utf8');
    writeFormatted(io, format, {
      command: 'validate',
      artifact: { ...artifact, text },
      findings: result.findings,
      ok: result.valid,
    });
    return result.valid ? 0 : 1;
  }
  if (format === 'json') {
    io.stdout.write(
      toJsonText({
        file: name,
        profile,
        valid: result.valid,
        shape: result.shape,
        findings: result.findings,
        ...(turnedOff ? { turnedOff } : {}),
      }),
    );
    return result.valid ? 0 : 1;
  }
  const painter = createPainter(io);
  // An invalid card keeps its name and version in the header, when they are strings.
  const named = result.card ?? namedDocument(bytes);
  const card = redactor && named ? redactor.report({ document: named }).document : named;
  const title =
    card?.name !== undefined
      ? `${painter.paint('bold', visible(card.name))}${card.version === undefined ? '' : ` ${visible(card.version)}`} (${result.shape})`
      : `(${result.shape} card)`;
  io.stdout.write(`${visible(name)}: ${title}, profile ${profile}\n`);
  const body = formatFindings(result.findings, painter, { showInfo: options.info !== false });
  if (body) io.stdout.write(`${body}\n`);
  io.stdout.write(turnedOffLine(turnedOff, painter));
  const verdict = result.valid ? painter.paint('green', '✔ valid') : painter.paint('red', '✖ invalid');
  io.stdout.write(`${verdict}: ${summarize(result.findings, painter)}\n`);
  return result.valid ? 0 : 1;
}

/**
 * The text of an ARD manifest (`/.well-known/ard.json`): a JSON object with `entries` and no
 * `specVersion` (which an AI Catalog has), whose entries carry ARD's `type` or `@context`.
 */
function ardText(bytes: Uint8Array): string | undefined {
  const read = readJsonText(bytes, { duplicates: 0, inexactNumbers: 0 });
  if (!read.ok) return undefined;
  const value = read.value as Record<string, unknown> | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (Object.hasOwn(value, 'specVersion') || !Array.isArray(value.entries)) return undefined;
  const first = value.entries[0] as Record<string, unknown> | undefined;
  const looksArd =
    value.entries.length === 0 ||
    (typeof first === 'object' && first !== null && (Object.hasOwn(first, '@context') || Object.hasOwn(first, 'type')));
  return looksArd ? (read.bom ? `\uFEFF${read.text}` : read.text) : undefined;
}

/**
 * `agent-card validate` of an AI Catalog (the `catalog-*` findings of `validateAiCatalog`) or of
 * an ARD manifest (the `ard-*` findings of `validateArdManifest`).
 */
function validateCatalog(
  io: CliIO,
  name: string,
  text: string,
  profile: ValidationProfile,
  options: ValidateCommandOptions,
  rules: RuleOverrides | undefined,
  kind: 'ai-catalog' | 'ard' = 'ai-catalog',
): number {
  const validated = kind === 'ard' ? validateArdManifest(text, { profile }) : validateAiCatalog(text, { profile });
  const applied = applySettings(validated.findings, rules);
  const { turnedOff } = applied;
  const findings = options.redact === true ? redactorOf(text).report(applied.findings) : applied.findings;
  const result = { valid: !findings.some((f) => f.severity === 'error'), findings };
  const format = options.format ?? 'text';
  if (format !== 'text' && format !== 'json') {
    const artifact = name === 'stdin' ? { uri: 'stdin' } : { file: name };
    writeFormatted(io, format, {
      command: 'validate',
      artifact: { ...artifact, text },
      findings: result.findings,
      ok: result.valid,
    });
    return result.valid ? 0 : 1;
  }
  if (format === 'json') {
    io.stdout.write(
      toJsonText({
        file: name,
        kind,
        profile,
        valid: result.valid,
        findings: result.findings,
        ...(rules ? { turnedOff } : {}),
      }),
    );
    return result.valid ? 0 : 1;
  }
  const painter = createPainter(io);
  const what = kind === 'ard' ? `ARD manifest (v${ARD_SPEC.version})` : 'AI Catalog';
  io.stdout.write(`${visible(name)}: ${what}, profile ${profile}\n`);
  const body = formatFindings(result.findings, painter, { showInfo: options.info !== false });
  if (body) io.stdout.write(`${body}\n`);
  io.stdout.write(turnedOffLine(turnedOff, painter));
  const verdict = result.valid ? painter.paint('green', '✔ valid') : painter.paint('red', '✖ invalid');
  io.stdout.write(`${verdict}: ${summarize(result.findings, painter)}\n`);
  return result.valid ? 0 : 1;
}

/** The `name` and `version` of a JSON object that is not a valid card, where they are strings. */
export function namedDocument(bytes: Uint8Array): { name?: string; version?: string } | undefined {
  const read = readJsonText(bytes, { duplicates: 0, inexactNumbers: 0 });
  if (!read.ok || typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) return undefined;
  const { name, version } = read.value as Record<string, unknown>;
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof version === 'string' ? { version } : {}),
  };
}
