/**
 * `agent-card export --registry aws|gcp|agntcy <card|url>`: the record an agent registry takes,
 * built from the card, and checked against that registry's published limits.
 */
import { type Finding, readJsonText, validateAgentCard } from '@agent-card/core';
import { readCardSource } from '../card-source';
import type { CliIO } from '../io';
import { createPainter } from '../io';
import { toJsonText, writeText } from '../read';
import { formatFindings, summarize } from '../report';
import { visible } from '../terminal';

export const REGISTRIES = ['aws', 'gcp', 'agntcy'] as const;
export type Registry = (typeof REGISTRIES)[number];

export interface ExportCommandOptions {
  registry: Registry;
  output?: string;
  force?: boolean;
  json?: boolean;
  info?: boolean;
  /** AWS: the registry the record goes into (ARN or id). */
  registryId?: string;
  timeout?: number;
  allowHttp?: boolean;
  maxCardBytes?: number;
}

/** AWS Agent Registry: `A2aAgentCardDescriptor.data`, at most this many characters. */
export const AWS_MAX_CARD_CHARS = 102_400;
/** AWS Agent Registry: a record's `name` (RegistryRecordSummary.name). */
const AWS_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_\-./]*$/;
/** AWS Agent Registry: a record's `recordVersion`. */
const AWS_VERSION = /^[a-zA-Z0-9.-]+$/;
/** AWS Agent Registry: a record's `description` (AWS::AgentRegistry::RegistryRecord). */
const AWS_MAX_DESCRIPTION = 4096;
/** Google Cloud Agent Registry: the A2A versions it indexes (its "A2A protocol" page). */
export const GCP_A2A_VERSIONS = ['1.0', '0.3'] as const;

/** What an export produced: the record, and what the registry would refuse or change. */
export interface RegistryExport {
  registry: Registry;
  record: unknown;
  findings: Finding[];
}

function finding(rule: string, severity: Finding['severity'], path: string, message: string, hint: string): Finding {
  return { rule, severity, path, message, hint };
}

/** The A2A version the card speaks: v0.3's `protocolVersion`, else its first interface's. */
function cardProtocolVersion(card: Record<string, unknown>): string | undefined {
  if (typeof card.protocolVersion === 'string') return card.protocolVersion;
  const interfaces = card.supportedInterfaces;
  if (Array.isArray(interfaces)) {
    const first = interfaces[0] as Record<string, unknown> | undefined;
    if (first && typeof first.protocolVersion === 'string') return first.protocolVersion;
  }
  return undefined;
}

/** `1.0.0` → `1.0`: the major.minor a registry compares. */
function majorMinor(version: string): string {
  const m = /^(\d+)\.(\d+)/.exec(version);
  return m ? `${m[1]}.${m[2]}` : version;
}

/** A record name AWS accepts, from the card's name: `Acme Support` → `Acme-Support`. */
export function awsRecordName(name: string): string {
  const slug = name
    .replace(/[^a-zA-Z0-9_\-./]+/g, '-')
    .replace(/^[^a-zA-Z0-9]+/, '')
    .slice(0, 255);
  return AWS_NAME.test(slug) ? slug : 'agent';
}

/**
 * The card's errors under the development profile (what breaks the A2A schema, not the
 * production advice): each of the three registries validates the card against the A2A schema.
 */
function schemaFindings(card: Record<string, unknown>): Finding[] {
  return validateAgentCard(card, { profile: 'development' }).findings.filter((f) => f.severity === 'error');
}

function awsExport(card: Record<string, unknown>, registryId: string | undefined): RegistryExport {
  const findings = schemaFindings(card);
  const data = JSON.stringify(card);
  if (data.length > AWS_MAX_CARD_CHARS) {
    findings.push(
      finding(
        'registry-aws-card-size',
        'error',
        '',
        `the card is ${data.length} characters as JSON, over AWS Agent Registry's ${AWS_MAX_CARD_CHARS} (A2aAgentCardDescriptor.data).`,
        'Shorten descriptions and examples, or move skills to another card, until the card is at most 102,400 characters.',
      ),
    );
  }
  const cardName = typeof card.name === 'string' ? card.name : '';
  const name = awsRecordName(cardName);
  if (name !== cardName) {
    findings.push(
      finding(
        'registry-aws-name',
        'info',
        '/name',
        `/name: AWS record names match [a-zA-Z0-9][a-zA-Z0-9_-./]*; the record is named ${JSON.stringify(name)} and the card's name is its displayName.`,
        'Nothing to do: the registry shows the card name as the record displayName.',
      ),
    );
  }
  const version = typeof card.version === 'string' ? card.version : undefined;
  if (version !== undefined && (!AWS_VERSION.test(version) || version.length > 255)) {
    findings.push(
      finding(
        'registry-aws-version',
        'error',
        '/version',
        `/version: AWS recordVersion must match [a-zA-Z0-9.-]+ (at most 255 characters) (${JSON.stringify(version)}).`,
        'Use a version of letters, digits, dots and hyphens, e.g. 1.2.0 (no + build metadata).',
      ),
    );
  }
  const description = typeof card.description === 'string' ? card.description : undefined;
  if (description !== undefined && description.length > AWS_MAX_DESCRIPTION) {
    findings.push(
      finding(
        'registry-aws-description',
        'error',
        '/description',
        `/description: ${description.length} characters, over the ${AWS_MAX_DESCRIPTION} AWS allows a record's description.`,
        'Shorten the description to at most 4,096 characters.',
      ),
    );
  }
  const protocol = cardProtocolVersion(card);
  const record = {
    ...(registryId === undefined ? {} : { registryId }),
    name,
    ...(cardName === '' ? {} : { displayName: cardName }),
    ...(description === undefined || description === ''
      ? {}
      : { description: description.slice(0, AWS_MAX_DESCRIPTION) }),
    recordType: 'AGENT',
    ...(version === undefined ? {} : { recordVersion: version }),
    descriptors: {
      a2aAgentCard: { data, ...(protocol === undefined ? {} : { dataSchemaVersion: majorMinor(protocol) }) },
    },
  };
  return { registry: 'aws', record, findings };
}

function gcpExport(card: Record<string, unknown>): RegistryExport {
  const findings = schemaFindings(card);
  const protocol = cardProtocolVersion(card);
  if (protocol === undefined || !(GCP_A2A_VERSIONS as readonly string[]).includes(majorMinor(protocol))) {
    findings.push(
      finding(
        'registry-gcp-version',
        'error',
        '',
        `the card speaks A2A ${protocol === undefined ? '(no version)' : JSON.stringify(protocol)}; Google Cloud Agent Registry indexes A2A 1.0 and 0.3 cards.`,
        'Publish an A2A 1.0 card (agent-card migrate turns a v0.3 card into one).',
      ),
    );
  }
  return { registry: 'gcp', record: card, findings };
}

function agntcyExport(card: Record<string, unknown>): RegistryExport {
  const findings = schemaFindings(card);
  // The OASF record dirctl makes from the card requires these (OASF 1.0.0 record).
  for (const field of ['name', 'version', 'description'] as const) {
    const value = card[field];
    if (typeof value !== 'string' || value.trim() === '') {
      findings.push(
        finding(
          'registry-agntcy-required',
          'error',
          `/${field}`,
          `/${field}: the OASF record made from the card requires ${field}, and the card has none.`,
          `Add a non-empty "${field}" to the card.`,
        ),
      );
    }
  }
  if (!Array.isArray(card.skills) || card.skills.length === 0) {
    findings.push(
      finding(
        'registry-agntcy-skills',
        'warning',
        '/skills',
        '/skills: no skill; the OASF record requires skills, and the directory finds agents by them.',
        'List at least one skill with an id, a name and a description.',
      ),
    );
  }
  return { registry: 'agntcy', record: card, findings };
}

/** The record `registry` takes, built from `card`, with its findings. */
export function exportForRegistry(
  card: Record<string, unknown>,
  registry: Registry,
  options: { registryId?: string } = {},
): RegistryExport {
  if (registry === 'aws') return awsExport(card, options.registryId);
  if (registry === 'gcp') return gcpExport(card);
  return agntcyExport(card);
}

/** How the record is handed to each registry, printed after the report. */
function nextStep(registry: Registry, file: string): string {
  if (registry === 'aws')
    return `Send it as the CreateRegistryRecord request, e.g. with the AWS CLI: create-registry-record --cli-input-json file://${file}`;
  if (registry === 'gcp')
    return `Register it with: gcloud alpha agent-registry services create NAME --agent-spec-type=a2a-agent-card --agent-spec-content=@${file}`;
  return `Import it with: dirctl import --type=a2a --file-path ${file}`;
}

/** `agent-card export`: exit 1 when the registry would refuse the record. */
export async function exportCommand(io: CliIO, source: string, options: ExportCommandOptions): Promise<number> {
  const read = await readCardSource(io, source, {
    timeoutMs: options.timeout ?? 10_000,
    allowHttp: options.allowHttp ?? false,
    ...(options.maxCardBytes === undefined ? {} : { maxCardBytes: options.maxCardBytes }),
  });
  const result = exportForRegistry(read.card, options.registry, {
    ...(options.registryId === undefined ? {} : { registryId: options.registryId }),
  });
  const ok = !result.findings.some((f) => f.severity === 'error');
  const recordText = toJsonText(result.record);
  if (options.output !== undefined) await writeText(io, options.output, recordText, { force: options.force ?? false });
  if (options.json) {
    io.stdout.write(
      toJsonText({
        source: read.name,
        registry: result.registry,
        ok,
        findings: result.findings,
        record: result.record,
      }),
    );
    return ok ? 0 : 1;
  }
  // The record on stdout (to pipe), the report on stderr; with -o the report goes to stdout.
  if (options.output === undefined) io.stdout.write(recordText);
  const out = options.output === undefined ? io.stderr : io.stdout;
  const painter = createPainter(io);
  out.write(`${visible(read.name)}: record for ${options.registry}\n`);
  const body = formatFindings(result.findings, painter, { showInfo: options.info !== false });
  if (body) out.write(`${body}\n`);
  const verdict = ok ? painter.paint('green', '✔ ready') : painter.paint('red', '✖ the registry would refuse it');
  out.write(`${verdict}: ${summarize(result.findings, painter)}\n`);
  if (options.output !== undefined)
    out.write(`Wrote ${visible(options.output)}. ${nextStep(options.registry, options.output)}\n`);
  return ok ? 0 : 1;
}

/**
 * The card inside an exported AWS record (`descriptors.a2aAgentCard.data`, or the SDK's
 * `descriptors.a2a.agentCard.inlineContent`), read with the card's own bounds (depth, size of
 * the record already read). `undefined` when `value` is no such record: Google Cloud's and
 * AGNTCY's records are the card itself.
 */
export function cardOfRegistryRecord(
  value: Record<string, unknown>,
): { card: Record<string, unknown> } | { error: string } | undefined {
  const descriptors = value.descriptors as Record<string, unknown> | undefined;
  if (typeof descriptors !== 'object' || descriptors === null) return undefined;
  const ga = descriptors.a2aAgentCard as Record<string, unknown> | undefined;
  const sdk = (descriptors.a2a as Record<string, unknown> | undefined)?.agentCard as
    | Record<string, unknown>
    | undefined;
  const data =
    typeof ga === 'object' && ga !== null
      ? ga.data
      : typeof sdk === 'object' && sdk !== null
        ? sdk.inlineContent
        : undefined;
  if (data === undefined) return undefined;
  if (typeof data !== 'string') return { error: "the AWS record's A2A descriptor holds no card text." };
  const read = readJsonText(data, { maxDepth: 64 });
  if (!read.ok || typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
    return { error: "the AWS record's A2A descriptor data is not a JSON object (an Agent Card)." };
  }
  return { card: read.value as Record<string, unknown> };
}
