import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { validateAgentCard } from '@agent-card/core';
import { run, type CliIO } from './index';

/** A terminal session: stdin and stdout claim to be a TTY; answers are typed as prompts appear. */
function terminal(answers: string[]) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let screen = '';
  let prompts = 0;
  const stdout = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        const text = chunk.toString();
        screen += text;
        // readline writes each prompt in one piece ending with ": "; answer it once it is shown.
        if (text.endsWith(': ') && prompts < answers.length) stdin.write(`${answers[prompts++]}\n`);
        done();
      },
    }),
    { isTTY: true },
  );
  const stderr = { write: (s: string) => void (screen += s) };
  return { stdin, stdout, stderr, screen: () => screen };
}

describe('agent-card init on a terminal', () => {
  it('asks for the template, name, description and endpoint, then writes a valid card', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-card-init-'));
    const t = terminal([
      'research',
      'Paper Scout',
      'Finds and summarises papers on a topic for a research team.',
      'https://scout.acme-corp.io/a2a',
    ]);
    const io: CliIO = { stdin: t.stdin, stdout: t.stdout, stderr: t.stderr, env: {}, cwd };
    const code = await run(['init'], io);
    expect(t.screen()).toContain('Template [support/booking/shopping/coding/research/workflow] (support): ');
    expect(t.screen()).toContain('Agent name: ');
    expect(t.screen()).toContain('JSON-RPC endpoint URL (http://localhost:3000/a2a): ');
    expect(code).toBe(0);
    const card = JSON.parse(readFileSync(join(cwd, 'agent-card.json'), 'utf8'));
    expect(card).toMatchObject({
      name: 'Paper Scout',
      description: 'Finds and summarises papers on a topic for a research team.',
      version: '0.1.0',
      supportedInterfaces: [
        { url: 'https://scout.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    });
    expect(validateAgentCard(card, { profile: 'development' }).valid).toBe(true);
  });

  it('takes the defaults when the answers are empty, and skips prompts answered by flags', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-card-init-'));
    const t = terminal(['', '']);
    const code = await run(['init', '--template', 'coding', '--name', 'Patch Bot'], {
      stdin: t.stdin,
      stdout: t.stdout,
      stderr: t.stderr,
      env: {},
      cwd,
    });
    expect(code).toBe(0);
    expect(t.screen()).not.toContain('Template [');
    expect(t.screen()).not.toContain('Agent name: ');
    const card = JSON.parse(readFileSync(join(cwd, 'agent-card.json'), 'utf8'));
    expect(card.name).toBe('Patch Bot');
    expect(card.supportedInterfaces[0].url).toBe('http://localhost:3000/a2a');
  });
});
