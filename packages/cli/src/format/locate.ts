/**
 * The line and column where the value at a JSON Pointer starts in a JSON text, so that SARIF
 * results and GitHub annotations point at the line of the file a finding is about.
 */
import { pointerSegments } from '../diff-impact';

/** A 1-based position in a text. */
export interface TextPosition {
  line: number;
  column: number;
}

const escapeSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * One pass over `text` (no recursion: an explicit stack), recording where each pointer of
 * `wanted` starts. Text that is not JSON ends the pass where it stops making sense: the pointers
 * found until then are kept.
 */
export function locatePointers(text: string, wanted: ReadonlySet<string>): Map<string, TextPosition> {
  const found = new Map<string, TextPosition>();
  const stack: { array: boolean; pointer: string; index: number; expectKey: boolean }[] = [];
  let pending: string | undefined = '';
  let line = 1;
  let lineStart = 0;
  const record = (at: number) => {
    if (pending !== undefined && wanted.has(pending) && !found.has(pending)) {
      found.set(pending, { line, column: at - lineStart + 1 });
    }
    pending = undefined;
  };
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length && found.size < wanted.size) {
    const c = text[i]!;
    if (c === '\n') {
      line += 1;
      lineStart = i + 1;
      i += 1;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === ':') {
      i += 1;
    } else if (c === '{' || c === '[') {
      const pointer: string = pending ?? '';
      record(i);
      stack.push({ array: c === '[', pointer, index: 0, expectKey: c === '{' });
      pending = c === '[' ? `${pointer}/0` : undefined;
      i += 1;
    } else if (c === '}' || c === ']') {
      stack.pop();
      pending = undefined;
      i += 1;
    } else if (c === ',') {
      const top = stack.at(-1);
      if (top?.array) {
        top.index += 1;
        pending = `${top.pointer}/${top.index}`;
      } else if (top) top.expectKey = true;
      i += 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top && !top.array && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          break;
        }
        pending = `${top.pointer}/${escapeSegment(key)}`;
        top.expectKey = false;
      } else record(i);
      i = j + 1;
    } else {
      record(i);
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i += 1;
    }
  }
  return found;
}

/**
 * A pointer of the CLI (which may key array elements, `/skills[id=book]`) as a plain JSON
 * Pointer into `document`: each `[member=value]` becomes the index of the element that has it.
 * Where the document has no such value, the pointer of the deepest part that exists.
 */
export function plainPointer(document: unknown, path: string): string {
  let value = document;
  let out = '';
  for (const segment of pointerSegments(path)) {
    const keyed = /^(.*?)\[([^=\]]+)=(.*)\]$/.exec(segment);
    const name = (keyed ? keyed[1] : segment)!.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return out;
    value = (value as Record<string, unknown>)[name];
    out += `/${escapeSegment(name)}`;
    if (keyed) {
      if (!Array.isArray(value)) return out;
      const index = value.findIndex(
        (x) => typeof x === 'object' && x !== null && (x as Record<string, unknown>)[keyed[2]!] === keyed[3],
      );
      if (index === -1) return out;
      value = value[index];
      out += `/${index}`;
    }
  }
  return out;
}

/** Where one finding is: the document, the pointer, and the line when the document is a local text. */
export interface FindingLocation {
  /** A local file, relative as given. */
  file?: string;
  /** The URL (or `stdin`, `rev:path`) when the finding is not about a local file. */
  uri: string;
  pointer: string;
  line?: number;
  column?: number;
}

/** A document findings are about (see `ReportArtifact`). */
interface Located {
  file?: string;
  uri?: string;
  text?: string;
  document?: unknown;
}

/**
 * Where each finding of a report is, in the order of `findings`: in the artifact whose `uri` is
 * the finding's `url` (the first artifact when it has none), at the line of its pointer when that
 * artifact's text is known; a finding about any other URL is located at that URL.
 */
export function locateFindings(
  artifacts: readonly Located[],
  findings: readonly { path: string; url?: string }[],
): FindingLocation[] {
  const artifactOf = (f: { url?: string }) =>
    f.url === undefined ? artifacts[0] : artifacts.find((a) => a.uri !== undefined && a.uri === f.url);
  const plain = findings.map((f) => {
    const artifact = artifactOf(f);
    return artifact?.document !== undefined ? plainPointer(artifact.document, f.path) : f.path;
  });
  const lines = new Map<Located, Map<string, TextPosition>>();
  for (const artifact of artifacts) {
    if (artifact.text === undefined) continue;
    const wanted = new Set(plain.filter((_, i) => artifactOf(findings[i]!) === artifact));
    lines.set(artifact, locatePointers(artifact.text, wanted));
  }
  return findings.map((f, i) => {
    const artifact = artifactOf(f);
    const location: FindingLocation = {
      uri: artifact ? (artifact.file ?? artifact.uri ?? '') : (f.url ?? ''),
      pointer: f.path,
    };
    if (artifact?.file !== undefined) location.file = artifact.file;
    const position = artifact ? lines.get(artifact)?.get(plain[i]!) : undefined;
    if (position) {
      location.line = position.line;
      location.column = position.column;
    }
    return location;
  });
}
