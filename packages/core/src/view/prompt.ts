/**
 * What a model reads from a card: the text an assistant's context receives when the card is
 * discovered, in two renderings, each kept as pieces that remember the member they came from so
 * that a finding on that member can be marked on the text it concerns.
 *
 * - `a2a-cli`: the text output of `a2a discover <url>` of the official A2A command line
 *   (a2aproject/a2a-cli 0.1.0, commit 8dd9249e9ff7758764b581ebf23ef59b79b36faa,
 *   `formatCard` in `internal/cli/output.go`), which a coding assistant runs and reads.
 * - `tool`: a generic tool description (the card's name and description, then each skill with its
 *   description, tags and examples), the shape agent frameworks turn a card into.
 */
import type { Finding } from '../findings';
import { toPointer } from '../findings';
import { html, type SafeHtml } from './escape';
import { asRecord, member } from './read';

/** One piece of a rendering: text, and the JSON Pointer of the card member it came from. */
export interface PromptPiece {
  text: string;
  /** Where in the card the text came from; absent for the rendering's own words. */
  pointer?: string;
}

/** The renderings of {@link renderPromptPieces}. */
export type PromptRendering = 'a2a-cli' | 'tool';

/** The ids of the rules about text a model reads, marked on the renderings. */
export const PROMPT_SAFETY_RULES: readonly string[] = [
  'hidden-instructions',
  'system-prompt-text',
  'secrets-in-card',
  'url-private-host',
  'template-content',
];

/** Most skills and interfaces rendered (a card is bounded in bytes; this bounds the work). */
const MAX_ITEMS = 10_000;

function items(value: unknown, key: string): unknown[] {
  const found = member(value, key);
  return Array.isArray(found) ? found.slice(0, MAX_ITEMS) : [];
}

/** A string member as Go's `encoding/json` leaves it in a string field: anything else is "". */
function goString(value: unknown, key: string): string {
  const found = member(value, key);
  return typeof found === 'string' ? found : '';
}

/** Go's `%-Ns`: the value, padded with spaces on the right to N runes. */
function padRunes(value: string, width: number): string {
  const runes = [...value].length;
  return runes >= width ? value : value + ' '.repeat(width - runes);
}

/**
 * The interfaces as the a2a-cli's card resolver gives them: `supportedInterfaces` (v1.0), or for a
 * v0.3 card its `url` with `preferredTransport` (JSONRPC when absent), then `additionalInterfaces`.
 */
function interfaces(card: unknown): { binding: string; url: string; at: string; urlAt: string }[] {
  const supported = items(card, 'supportedInterfaces');
  if (supported.length > 0 || member(card, 'url') === undefined) {
    return supported.map((iface, i) => ({
      binding: goString(iface, 'protocolBinding'),
      url: goString(iface, 'url'),
      at: toPointer(['supportedInterfaces', i, 'protocolBinding']),
      urlAt: toPointer(['supportedInterfaces', i, 'url']),
    }));
  }
  const preferred = goString(card, 'preferredTransport');
  const first = {
    binding: preferred === '' ? 'JSONRPC' : preferred,
    url: goString(card, 'url'),
    at: '/preferredTransport',
    urlAt: '/url',
  };
  const more = items(card, 'additionalInterfaces')
    .map((iface, i) => ({
      binding: goString(iface, 'transport'),
      url: goString(iface, 'url'),
      at: toPointer(['additionalInterfaces', i, 'transport']),
      urlAt: toPointer(['additionalInterfaces', i, 'url']),
    }))
    .filter((iface) => !(iface.url === first.url && iface.binding === first.binding));
  return [first, ...more];
}

/** `a2a discover`'s text output (`formatCard`), piece by piece. */
function a2aCliPieces(card: unknown): PromptPiece[] {
  const out: PromptPiece[] = [];
  const say = (text: string, pointer?: string) => out.push(pointer === undefined ? { text } : { text, pointer });
  say('Name:         ');
  say(goString(card, 'name'), '/name');
  say('\n');
  const description = goString(card, 'description');
  if (description !== '') {
    say('Description:  ');
    say(description, '/description');
    say('\n');
  }
  say('Version:      ');
  say(goString(card, 'version'), '/version');
  say('\n');
  const ifaces = interfaces(card);
  if (ifaces.length > 0) {
    say('Interfaces:\n');
    for (const iface of ifaces) {
      say('  ');
      say(iface.binding, iface.at);
      say(`${padRunes(iface.binding, 12).slice(iface.binding.length)} `);
      say(iface.url, iface.urlAt);
      say('\n');
    }
  }
  say(`Streaming:    ${member(member(card, 'capabilities'), 'streaming') === true ? 'true' : 'false'}\n`);
  const skills = items(card, 'skills');
  if (skills.length > 0) {
    say('Skills:\n');
    skills.forEach((skill, i) => {
      const id = goString(skill, 'id');
      say('  ');
      say(id, toPointer(['skills', i, 'id']));
      say(`${padRunes(id, 20).slice(id.length)} `);
      say(goString(skill, 'name'), toPointer(['skills', i, 'name']));
      say('\n');
    });
  }
  return out;
}

/** A generic tool description of the card, piece by piece. */
function toolPieces(card: unknown): PromptPiece[] {
  const out: PromptPiece[] = [];
  const say = (text: string, pointer?: string) => out.push(pointer === undefined ? { text } : { text, pointer });
  say('Agent: ');
  say(goString(card, 'name'), '/name');
  say('\n');
  const description = goString(card, 'description');
  if (description !== '') {
    say(description, '/description');
    say('\n');
  }
  const skills = items(card, 'skills');
  if (skills.length > 0) say('\nSkills:\n');
  skills.forEach((skill, i) => {
    say('- ');
    say(goString(skill, 'name'), toPointer(['skills', i, 'name']));
    say(' (');
    say(goString(skill, 'id'), toPointer(['skills', i, 'id']));
    say(')');
    const about = goString(skill, 'description');
    if (about !== '') {
      say(': ');
      say(about, toPointer(['skills', i, 'description']));
    }
    say('\n');
    const tags = items(skill, 'tags');
    const tagged = tags.map((tag, j) => ({ tag, j })).filter(({ tag }) => typeof tag === 'string' && tag !== '');
    if (tagged.length > 0) {
      say('  Tags: ');
      tagged.forEach(({ tag, j }, k) => {
        if (k > 0) say(', ');
        say(tag as string, toPointer(['skills', i, 'tags', j]));
      });
      say('\n');
    }
    const examples = items(skill, 'examples')
      .map((example, j) => ({ example, j }))
      .filter(({ example }) => typeof example === 'string' && example !== '');
    for (const { example, j } of examples) {
      say('  Example: ');
      say(example as string, toPointer(['skills', i, 'examples', j]));
      say('\n');
    }
  });
  return out;
}

/** The rendering as pieces, each naming the card member it came from. */
export function renderPromptPieces(card: unknown, rendering: PromptRendering): PromptPiece[] {
  if (asRecord(card) === undefined) return [];
  return rendering === 'a2a-cli' ? a2aCliPieces(card) : toolPieces(card);
}

/** The rendering as the text a model receives. */
export function renderPromptText(card: unknown, rendering: PromptRendering): string {
  return renderPromptPieces(card, rendering)
    .map((piece) => piece.text)
    .join('');
}

/** Whether a finding at `path` concerns the member at `pointer` (the member, or something in it). */
function concerns(path: string, pointer: string): boolean {
  return path === pointer || path.startsWith(`${pointer}/`);
}

/** The findings of the prompt-safety rules that concern a piece of the rendering. */
export function promptFindingsOf(pieces: readonly PromptPiece[], findings: readonly Finding[]): Finding[] {
  return findings.filter(
    (f) =>
      PROMPT_SAFETY_RULES.includes(f.rule) &&
      pieces.some((piece) => piece.pointer !== undefined && concerns(f.path, piece.pointer)),
  );
}

/** Options of {@link renderPromptSection}. */
export interface PromptSectionOptions {
  /** Findings of the card; those of {@link PROMPT_SAFETY_RULES} are marked on the text. */
  findings?: readonly Finding[];
  /** Counts the tokens of a rendering; without it the section gives characters only. */
  countTokens?: (text: string) => number;
  /** The tokenizer's encoding, named next to the counts (e.g. `o200k_base`). */
  encoding?: string;
}

function renderingBlock(
  card: unknown,
  rendering: PromptRendering,
  title: string,
  about: string,
  options: PromptSectionOptions,
): SafeHtml {
  const pieces = renderPromptPieces(card, rendering);
  const text = pieces.map((p) => p.text).join('');
  const findings = (options.findings ?? []).filter((f) => PROMPT_SAFETY_RULES.includes(f.rule));
  const marked = pieces.map((piece) => {
    const on = piece.pointer === undefined ? [] : findings.filter((f) => concerns(f.path, piece.pointer as string));
    if (on.length === 0) return piece.text;
    const label = on.map((f) => `${f.rule}: ${f.message}`).join('\n');
    return html`<mark title="${label}">${piece.text}</mark>`;
  });
  const tokens =
    options.countTokens === undefined
      ? ''
      : `, ${options.countTokens(text)} tokens${options.encoding === undefined ? '' : ` (${options.encoding})`}`;
  const chars = [...text].length;
  const notes = findings.filter((f) => pieces.some((p) => p.pointer !== undefined && concerns(f.path, p.pointer)));
  const list =
    notes.length === 0
      ? ''
      : html`<ul>${notes.map((f) => html`<li><code>${f.rule}</code> at <code>${f.path}</code>: ${f.message}</li>`)}</ul>`;
  return html`<h3>${title}</h3><p class="muted">${about} ${chars} characters${tokens}.</p><pre tabindex="0" aria-label="${title}">${marked}</pre>${list}`;
}

/**
 * "What a model reads": the card as `a2a discover` prints it into an assistant's context, and as
 * a generic tool description, with each finding of a prompt-safety rule marked on its text.
 */
export function renderPromptSection(card: unknown, options: PromptSectionOptions = {}): SafeHtml {
  if (asRecord(card) === undefined) return html``;
  return html`<section class="prompt"><h2>What a model reads</h2><p class="muted">Every character below was written by the card's host; a model given it should read it as data. Marked text is what a rule on prompt safety reported.</p>${renderingBlock(card, 'a2a-cli', 'a2a discover (official A2A CLI)', 'The text output of a2a discover, which a coding assistant reads:', options)}${renderingBlock(card, 'tool', 'As a tool description', 'The card as a tool description for a model:', options)}</section>`;
}
