/**
 * `--redact` of `check`, `validate` and `diff`: a report that can be stored or shared without
 * carrying a card's text. Every string of the documents read (names, descriptions, examples, URLs)
 * is replaced, wherever the report would repeat it, by its pointer, its length and a short hash:
 * `«/skills/0/description: 412 chars, sha256:1a2b3c4d»`. The report's structure (its JSON keys,
 * its SARIF, JUnit and GitHub syntax) is never touched: redaction works on the report's data before
 * any format writes it.
 *
 * What counts as a card's text in a report string:
 * - the whole of any string of a document, when it is 4 characters or longer (one shorter than
 *   16 only where no letter or digit touches it: `v1.0` of the tool's own words stays);
 * - any run of 16 or more characters that also occurs in a string of a document (an excerpt a
 *   finding quotes, a URL with its path), replaced by `«excerpt: N chars, sha256:…»`.
 * A pointer segment that is not a plain name (letters, digits, `_`, `-`, `.`, `$`, at most 64) is
 * shown as `#` and its hash: object keys are the card's text too.
 */
import { createHash } from 'node:crypto';
import { readJsonText } from '@agent-card/core';

/** Shortest string of a card replaced where it occurs whole. */
const MIN_WHOLE = 4;
/** Length of the windows an excerpt is found by. */
const WINDOW = 16;
/** Most characters of card text indexed (a card is at most 1 MiB). */
const MAX_INDEXED = 4 * 1024 * 1024;
/** Deepest document walked. */
const MAX_DEPTH = 64;

const escapeRegExp = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const hash8 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8);

const PLAIN_SEGMENT = /^[A-Za-z0-9_.$-]{1,64}$/;

/** A pointer segment as a redacted report shows it. */
function segment(key: string | number): string {
  const s = String(key);
  return PLAIN_SEGMENT.test(s) ? s.replace(/~/g, '~0') : `#${hash8(s)}`;
}

/** `«pointer: N chars, sha256:xxxxxxxx»`. */
export function redactionToken(pointer: string, value: string): string {
  return `«${pointer === '' ? '/' : pointer}: ${[...value].length} chars, sha256:${hash8(value)}»`;
}

/** The card strings of a report and how to replace them. */
export class Redactor {
  private readonly whole = new Map<string, string>();
  private readonly windows = new Set<string>();
  private indexed = 0;
  private sorted: string[] | undefined;

  /** Adds every string (and object key) of `document`; returns the document with each string as its token. */
  addDocument(document: unknown, base = ''): unknown {
    this.sorted = undefined;
    const walk = (value: unknown, pointer: string, depth: number): unknown => {
      if (typeof value === 'string') {
        this.addString(value, pointer);
        return this.whole.get(value) ?? redactionToken(pointer, value);
      }
      if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
      if (Array.isArray(value)) return value.map((item, i) => walk(item, `${pointer}/${i}`, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        if (!PLAIN_SEGMENT.test(key)) this.addString(key, `${pointer}/${segment(key)}`);
        out[segment(key)] = walk(item, `${pointer}/${segment(key)}`, depth + 1);
      }
      return out;
    };
    return walk(document, base, 0);
  }

  private addString(value: string, pointer: string): void {
    if (value.length >= MIN_WHOLE && !this.whole.has(value)) this.whole.set(value, redactionToken(pointer, value));
    if (this.indexed >= MAX_INDEXED) return;
    for (let i = 0; i + WINDOW <= value.length && this.indexed < MAX_INDEXED; i++, this.indexed++) {
      this.windows.add(value.slice(i, i + WINDOW));
    }
  }

  /** `text` with every card string in it, and every excerpt of one, replaced. */
  text(text: string): string {
    const exact = this.whole.get(text);
    if (exact !== undefined) return exact;
    this.sorted ??= [...this.whole.keys()].sort((a, b) => b.length - a.length);
    let out = text;
    for (const value of this.sorted) {
      if (value.length > out.length || !out.includes(value)) continue;
      const token = this.whole.get(value) as string;
      if (value.length >= WINDOW) out = out.split(value).join(token);
      else
        out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(value)}(?![\\p{L}\\p{N}])`, 'gu'), () => token);
    }
    return this.excerpts(out);
  }

  /** Runs of `text` covered by windows of card text, replaced by an excerpt token. */
  private excerpts(text: string): string {
    if (text.length < WINDOW || this.windows.size === 0) return text;
    const covered = new Uint8Array(text.length);
    let any = false;
    for (let i = 0; i + WINDOW <= text.length; i++) {
      if (this.windows.has(text.slice(i, i + WINDOW))) {
        covered.fill(1, i, i + WINDOW);
        any = true;
      }
    }
    if (!any) return text;
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (covered[i] === 0) {
        out += text[i];
        i++;
        continue;
      }
      let j = i;
      while (j < text.length && covered[j] === 1) j++;
      const run = text.slice(i, j);
      out += `«excerpt: ${[...run].length} chars, sha256:${hash8(run)}»`;
      i = j;
    }
    return out;
  }

  /** A pointer with each segment that is not a plain name shown as its hash. */
  pointer(pointer: string): string {
    if (pointer === '') return pointer;
    return pointer
      .split('/')
      .slice(1)
      .map((s) => `/${segment(s.replace(/~1/g, '/').replace(/~0/g, '~'))}`)
      .join('');
  }

  /**
   * A report's data with every string redacted, its keys kept; `document` members (a card, a
   * catalog) become their tokens, `path` members (pointers) keep their plain segments, and the
   * members named in `keep` (the user's own input: the target, the profile) are left as they are.
   */
  report<T>(value: T, keep: ReadonlySet<string> = KEEP): T {
    const walk = (v: unknown, key: string | undefined, depth: number): unknown => {
      if (typeof v === 'string') {
        if (key !== undefined && keep.has(key)) return v;
        if (key === 'path' && (v === '' || v.startsWith('/'))) return this.pointer(v);
        return this.text(v);
      }
      if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return v;
      if (Array.isArray(v)) return v.map((item) => walk(item, undefined, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        out[PLAIN_SEGMENT.test(k) ? k : `#${hash8(k)}`] =
          k === 'document' || k === 'card' ? this.documentOf(item, depth) : walk(item, k, depth + 1);
      }
      return out;
    };
    return walk(value, undefined, 0) as T;
  }

  /** A `document` member: a card or catalog (tokens), or something else (walked as report data). */
  private documentOf(value: unknown, depth: number): unknown {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && !('status' in value)) {
      return this.addDocument(value);
    }
    return depth > MAX_DEPTH ? undefined : this.report(value, KEEP);
  }
}

/** Members of a report that are the user's own input or the tool's own words, never redacted. */
const KEEP: ReadonlySet<string> = new Set([
  'rule',
  'severity',
  'profile',
  'input',
  'origin',
  'command',
  'method',
  'kind',
  'impact',
  'failOn',
  'shape',
  'outcome',
  'grade',
]);

/** Every document a report holds (members named `document`), added to `redactor`. */
export function collectDocuments(redactor: Redactor, value: unknown, depth = 0): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectDocuments(redactor, item, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key === 'document' && typeof item === 'object' && item !== null) redactor.addDocument(item);
    else collectDocuments(redactor, item, depth + 1);
  }
}

/** A redactor holding the strings of the JSON document in `bytes` (none when it is not JSON). */
export function redactorOf(...texts: (Uint8Array | string | undefined)[]): Redactor {
  const redactor = new Redactor();
  for (const bytes of texts) {
    if (bytes === undefined) continue;
    const read = readJsonText(bytes, { maxBytes: 16 * 1024 * 1024 });
    if (read.ok) redactor.addDocument(read.value);
  }
  return redactor;
}
