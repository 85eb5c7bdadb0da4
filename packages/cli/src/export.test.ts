// agent-card export --registry aws|gcp|agntcy: the record each registry takes, its findings and
// exit codes, and (AWS) the same record sent through the AWS SDK's own types and serializer.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type * as AgentCoreControl from '@aws-sdk/client-bedrock-agentcore-control';
import { hostCard } from '../test/card-host';
import { cards, cli, loopbackServers } from '../test/run-cli';

/**
 * Sends `input` with the AWS SDK's CreateRegistryRecordCommand to `endpoint`, in a plain Node
 * process: the SDK as Node loads it (this suite resolves the `module` condition first, which
 * picks the SDK's ES build, whose imports Node cannot resolve). Static fake credentials.
 */
function sendWithSdk(endpoint: string, input: AgentCoreControl.CreateRegistryRecordCommandInput): Promise<string> {
  const script = `
    const { BedrockAgentCoreControlClient, CreateRegistryRecordCommand } = require('@aws-sdk/client-bedrock-agentcore-control');
    const [endpoint, input] = [process.argv[1], JSON.parse(process.argv[2])];
    const client = new BedrockAgentCoreControlClient({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
      maxAttempts: 1,
    });
    client.send(new CreateRegistryRecordCommand(input)).then((out) => process.stdout.write(out.status));`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', script, endpoint, JSON.stringify(input)],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), env: { PATH: process.env.PATH ?? '' }, timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-card-export-'));
const support = () => JSON.parse(readFileSync(join(cards, 'support.json'), 'utf8')) as Record<string, unknown>;
const servers = loopbackServers();
afterAll(() => servers.close());

/** Writes `card` to a fresh directory; returns its path. */
function cardFile(card: unknown): string {
  const file = join(tmp(), 'agent-card.json');
  writeFileSync(file, JSON.stringify(card, null, 2));
  return file;
}

interface Report {
  ok: boolean;
  findings: { rule: string; severity: string; hint: string }[];
  record: any;
}

/** `export --json`'s report. */
async function exported(registry: string, card: unknown, ...args: string[]): Promise<{ code: number; report: Report }> {
  const run = await cli(['export', '--registry', registry, cardFile(card), '--json', ...args]);
  return { code: run.code, report: JSON.parse(run.stdout) as Report };
}

/** The support card with its first skill's description padded so the card is `chars` long as JSON. */
function cardOfLength(chars: number): Record<string, unknown> {
  const card = support();
  const skills = card.skills as { description: string }[];
  skills[0]!.description += 'x'.repeat(chars - JSON.stringify(card).length);
  expect(JSON.stringify(card).length).toBe(chars);
  return card;
}

describe('export --registry aws', () => {
  it('writes the CreateRegistryRecord input: the card as the A2A descriptor data, named for AWS', async () => {
    const run = await cli([
      'export',
      '--registry',
      'aws',
      join(cards, 'support.json'),
      '--registry-id',
      'abcdefghijkl',
    ]);
    expect(run.code).toBe(0);
    const record = JSON.parse(run.stdout);
    expect(record).toEqual({
      registryId: 'abcdefghijkl',
      name: 'Larkspur-Telecom-Support-Agent',
      displayName: 'Larkspur Telecom Support Agent',
      description: support().description,
      recordType: 'AGENT',
      recordVersion: '3.4.1',
      descriptors: { a2aAgentCard: { data: JSON.stringify(support()), dataSchemaVersion: '1.0' } },
    });
    expect(run.stderr).toContain('registry-aws-name');
    expect(run.stderr).toContain('✔ ready');
  });

  it('accepts a card of exactly 102,400 characters and refuses one more, with the fix', async () => {
    const at = await exported('aws', cardOfLength(102_400));
    expect(at.report.findings.map((f) => f.rule)).not.toContain('registry-aws-card-size');
    const over = await exported('aws', cardOfLength(102_401));
    expect(over.code).toBe(1);
    expect(over.report.ok).toBe(false);
    const size = over.report.findings.find((f) => f.rule === 'registry-aws-card-size');
    expect(size?.severity).toBe('error');
    expect(size?.hint).toContain('102,400 characters');
  });

  it('refuses a version AWS does not take as recordVersion', async () => {
    const { code, report } = await exported('aws', { ...support(), version: '3.4.1+build.7' });
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.rule === 'registry-aws-version')?.severity).toBe('error');
  });

  it('refuses a description over 4,096 characters', async () => {
    const { code, report } = await exported('aws', { ...support(), description: 'd'.repeat(4097) });
    expect(code).toBe(1);
    expect(report.findings.map((f) => f.rule)).toContain('registry-aws-description');
  });

  it('reports what the A2A schema refuses, as validate does', async () => {
    const { name: _name, ...nameless } = support();
    const { code, report } = await exported('aws', nameless);
    expect(code).toBe(1);
    expect(report.findings.some((f) => f.severity === 'error' && !f.rule.startsWith('registry-'))).toBe(true);
  });

  it('never prints the control characters of a hostile card name', async () => {
    const run = await cli([
      'export',
      '--registry',
      'aws',
      cardFile({ ...support(), name: 'Evil\u001b[2J\u0007Agent' }),
    ]);
    expect(run.stdout + run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(JSON.parse(run.stdout).displayName).toBe('Evil\u001b[2J\u0007Agent');
  });

  it('builds a request the AWS SDK serializes with the card intact', async () => {
    const bodies: { method?: string; url?: string; body: string }[] = [];
    const url = await servers.listen(
      createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => {
          body += c.toString('utf8');
        });
        req.on('end', () => {
          bodies.push({ method: req.method, url: req.url, body });
          res.writeHead(202, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              recordArn: 'arn:aws:bedrock-agentcore:us-east-1:123456789012:registry/abcdefghijkl/record/abcdefghijkl',
              status: 'CREATING',
            }),
          );
        });
      }),
    );
    const run = await cli([
      'export',
      '--registry',
      'aws',
      join(cards, 'support.json'),
      '--registry-id',
      'abcdefghijkl',
    ]);
    const record = JSON.parse(run.stdout);
    const input: AgentCoreControl.CreateRegistryRecordCommandInput = {
      registryId: record.registryId,
      name: record.name,
      description: record.description,
      descriptorType: 'A2A',
      recordVersion: record.recordVersion,
      descriptors: {
        a2a: {
          agentCard: {
            schemaVersion: record.descriptors.a2aAgentCard.dataSchemaVersion,
            inlineContent: record.descriptors.a2aAgentCard.data,
          },
        },
      },
    };
    const status = await sendWithSdk(url, input);
    expect(status).toBe('CREATING');
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.method).toBe('POST');
    expect(bodies[0]!.url).toBe('/registries/abcdefghijkl/records');
    const sent = JSON.parse(bodies[0]!.body);
    expect(sent.name).toBe('Larkspur-Telecom-Support-Agent');
    expect(JSON.parse(sent.descriptors.a2a.agentCard.inlineContent)).toEqual(support());
    expect(sent.descriptors.a2a.agentCard.schemaVersion).toBe('1.0');
  });
});

describe('export --registry gcp', () => {
  it('writes the A2A agent spec (the card) and says how to register it', async () => {
    const output = join(tmp(), 'gcp.json');
    const run = await cli(['export', '--registry', 'gcp', join(cards, 'support.json'), '-o', output]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(output, 'utf8'))).toEqual(support());
    expect(run.stdout).toContain('--agent-spec-type=a2a-agent-card');
  });

  it('takes a v0.3 card, the other version Google Cloud indexes', async () => {
    const v03 = {
      protocolVersion: '0.3.0',
      name: 'Acme Travel',
      description: 'Books trips.',
      url: 'https://acme.example/a2a',
      version: '1.2.0',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'book', name: 'Book', description: 'Books a trip.', tags: ['travel'] }],
    };
    const { report } = await exported('gcp', v03);
    expect(report.findings.map((f) => f.rule)).not.toContain('registry-gcp-version');
    expect(report.record).toEqual(v03);
  });

  it('refuses a card of an A2A version Google Cloud does not index', async () => {
    const card = support();
    card.supportedInterfaces = (card.supportedInterfaces as Record<string, unknown>[]).map((i) => ({
      ...i,
      protocolVersion: '2.0',
    }));
    const { code, report } = await exported('gcp', card);
    expect(code).toBe(1);
    const found = report.findings.find((f) => f.rule === 'registry-gcp-version');
    expect(found?.severity).toBe('error');
    expect(found?.hint).toContain('A2A 1.0');
  });
});

describe('export --registry agntcy', () => {
  it('writes the card dirctl import --type=a2a reads', async () => {
    const output = join(tmp(), 'agntcy.json');
    const run = await cli(['export', '--registry', 'agntcy', join(cards, 'support.json'), '-o', output]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(output, 'utf8'))).toEqual(support());
    expect(run.stdout).toContain(`dirctl import --type=a2a --file-path ${output}`);
  });

  it('warns of a card without skills, which the OASF record requires', async () => {
    const { code, report } = await exported('agntcy', { ...support(), skills: [] });
    expect(report.findings.find((f) => f.rule === 'registry-agntcy-skills')?.severity).toBe('warning');
    expect(code).toBe(report.findings.some((f) => f.severity === 'error') ? 1 : 0);
  });
});

describe('export usage', () => {
  it('export --help shows usage and an example', async () => {
    const run = await cli(['export', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: agent-card export');
    expect(run.stdout).toMatch(/Examples:\n\s+\$ agent-card export --registry aws/);
  });

  it('-o writes the AWS record and says how to send it', async () => {
    const output = join(tmp(), 'aws.json');
    const run = await cli(['export', '--registry', 'aws', join(cards, 'support.json'), '-o', output]);
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(output, 'utf8')).recordType).toBe('AGENT');
    expect(run.stdout).toContain(`create-registry-record --cli-input-json file://${output}`);
  });

  it('exits 2 without --registry or with an unknown one', async () => {
    expect((await cli(['export', join(cards, 'support.json')])).code).toBe(2);
    const unknown = await cli(['export', '--registry', 'azure', join(cards, 'support.json')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('aws, gcp, agntcy');
  });
});

/** A host serving `card` with core's responder. */
const deploy = (card: unknown) => hostCard(servers, card);

describe('check --against an exported record (the registry copy)', () => {
  const reviewed = support();
  const drift = (stdout: string) =>
    (JSON.parse(stdout) as Report).findings.filter((f) => f.rule.startsWith('diff-')).map((f) => f.rule);

  it('compares the card inside an AWS record with the served one', async () => {
    const dir = tmp();
    const record = join(dir, 'aws-record.json');
    expect((await cli(['export', '--registry', 'aws', cardFile(reviewed), '-o', record])).code).toBe(0);
    const same = await deploy(reviewed);
    const ok = await cli(['check', same, '--allow-http', '--against', record, '--json']);
    expect(drift(ok.stdout)).toEqual([]);
    const lost = await deploy({ ...reviewed, skills: (reviewed.skills as unknown[]).slice(1) });
    const failed = await cli(['check', lost, '--allow-http', '--against', record, '--json']);
    expect(failed.code).toBe(1);
    expect(drift(failed.stdout)).toContain('diff-skill-removed');
  });

  it('reads the record as the AWS SDK takes it too, and the card Google Cloud and AGNTCY take', async () => {
    const sdkRecord = cardFile({
      name: 'x',
      descriptorType: 'A2A',
      descriptors: { a2a: { agentCard: { schemaVersion: '1.0', inlineContent: JSON.stringify(reviewed) } } },
    });
    const gcp = join(tmp(), 'gcp.json');
    await cli(['export', '--registry', 'gcp', cardFile(reviewed), '-o', gcp]);
    const lost = await deploy({ ...reviewed, skills: (reviewed.skills as unknown[]).slice(1) });
    for (const against of [sdkRecord, gcp]) {
      const run = await cli(['check', lost, '--allow-http', '--against', against, '--json']);
      expect(drift(run.stdout), against).toContain('diff-skill-removed');
    }
  });

  it('refuses a record whose descriptor holds no card, exit 2', async () => {
    const url = await deploy(reviewed);
    const bad = cardFile({ name: 'x', descriptors: { a2aAgentCard: { data: '[1,2' } } });
    const run = await cli(['check', url, '--allow-http', '--against', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not a JSON object');
  });
});
