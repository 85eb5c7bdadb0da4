/**
 * What reaches the terminal. Card fields, header values, URLs, error messages and file names come
 * from hosts and files the user does not control: a raw ESC, OSC or bidi override in them would
 * clear the screen, forge a link, hide text or reorder a line (issue 11, item 6).
 */
import { inspect } from 'node:util';

/**
 * C0 controls (newline and tab included: a forged line break can fake a report line), DEL, C1
 * controls, the bidi embeddings, overrides and isolates, the implicit direction marks and the
 * Unicode line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The same set without newline, for text the CLI itself lays out in lines. */
const UNSAFE_IN_OUTPUT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A string from a card, a header, a URL or a file, with every control and bidi character shown as
 * a `\uXXXX` escape (`ESC` → `\u001b`, a newline → `\u000a`), so printing it cannot move the
 * cursor, open a link, hide text or break a report line.
 *
 * @example visible('\u001b[2JAcme') // '\\u001b[2JAcme'
 */
export function visible(value: unknown): string {
  return String(value).replace(UNSAFE, unicodeEscape);
}

/** The colours the painter uses: only their exact SGR sequences may pass {@link guardOutput}. */
export const PAINT_STYLES = ['red', 'yellow', 'cyan', 'green', 'bold', 'dim'] as const;

const SGR_CODES = new Set(PAINT_STYLES.flatMap((style) => inspect.colors[style] ?? []).map(String));
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what this finds.
const SGR = /\u001b\[(\d{1,2})m/y;

/**
 * Everything a command writes, made safe as a last line of defence: the painter's own colour
 * codes and newlines pass; any other control or bidi character, wherever it came from, is
 * escaped as {@link visible} does. In JSON output the escape is the JSON one, so the document
 * still parses to the same value.
 */
export function guardOutput(text: string): string {
  let out = '';
  let last = 0;
  UNSAFE_IN_OUTPUT.lastIndex = 0;
  for (let m = UNSAFE_IN_OUTPUT.exec(text); m !== null; m = UNSAFE_IN_OUTPUT.exec(text)) {
    const at = m.index;
    if (text.charCodeAt(at) === 0x1b) {
      SGR.lastIndex = at;
      const sgr = SGR.exec(text);
      if (sgr !== null && SGR_CODES.has(sgr[1] ?? '')) {
        UNSAFE_IN_OUTPUT.lastIndex = SGR.lastIndex;
        continue;
      }
    }
    out += text.slice(last, at) + unicodeEscape(text.charAt(at));
    last = at + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Where a stream is in its current line, for {@link inertWorkflowCommands}: still in the leading
 * whitespace (`blank`), just after a leading `:` (`colon`), or past the start (`text`); and how
 * many `#` end what was written.
 */
export interface WorkflowCommandState {
  head: 'blank' | 'colon' | 'text';
  hashes: number;
}

/** What the GitHub Actions runner trims from the start of a line (.NET `char.IsWhiteSpace`). */
const RUNNER_WHITESPACE = /[\s\u0085]/;

/**
 * Text that the GitHub Actions runner reads as no workflow command. The runner runs a line whose
 * start, after whitespace, is `::name …::` and, in the legacy form, a line holding `##[name …]`
 * anywhere (actions/runner `ActionCommand.TryParseV2` and `TryParse`), so a card's name printed in
 * a report could set a step output, mask a value or stop the CLI's own annotations. Here the second
 * `:` of a line's leading `::` is `\u003a` and the `[` after `##` is `\u005b`: in JSON the same
 * value, elsewhere the CLI's usual escape. `state` carries a line across chunks; `commandLines`
 * leaves line starts as they are (the `--format github` annotations, whose lines the CLI starts).
 */
export function inertWorkflowCommands(text: string, state: WorkflowCommandState, commandLines = false): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    let replacement: string | undefined;
    if (c === '\n') {
      state.head = 'blank';
    } else if (state.head === 'blank') {
      if (c === ':') state.head = commandLines ? 'text' : 'colon';
      else if (!RUNNER_WHITESPACE.test(c)) state.head = 'text';
    } else if (state.head === 'colon') {
      if (c === ':') replacement = '\\u003a';
      state.head = 'text';
    }
    if (c === '[' && state.hashes >= 2) replacement = '\\u005b';
    state.hashes = c === '#' ? state.hashes + 1 : 0;
    if (replacement !== undefined) {
      out += text.slice(last, i) + replacement;
      last = i + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** A stream of the CLI's output as {@link guardStream} makes it. */
export interface GuardedStream<T> {
  write(chunk: string): unknown;
  /**
   * Writes lines the CLI starts itself with a workflow command (`--format github`): guarded as
   * `write` does, except that a line's leading `::` stays a command.
   */
  commands(chunk: string): unknown;
  isTTY?: boolean;
  readonly columns?: number;
  readonly unguarded: T;
}

/**
 * A writable that passes every chunk through {@link guardOutput}; `unguarded` is the stream itself.
 * With `workflowCommands` (the CLI runs in GitHub Actions), also through
 * {@link inertWorkflowCommands}.
 */
export function guardStream<T extends { write(chunk: string): unknown; isTTY?: boolean; columns?: number }>(
  stream: T,
  options: { workflowCommands?: boolean } = {},
): GuardedStream<T> {
  const state: WorkflowCommandState = { head: 'blank', hashes: 0 };
  const guard = (chunk: string, commandLines: boolean) => {
    const text = guardOutput(String(chunk));
    return options.workflowCommands ? inertWorkflowCommands(text, state, commandLines) : text;
  };
  const guarded: GuardedStream<T> = {
    write: (chunk: string) => stream.write(guard(chunk, false)),
    commands: (chunk: string) => stream.write(guard(chunk, true)),
    get columns() {
      return stream.columns;
    },
    unguarded: stream,
  };
  if (stream.isTTY !== undefined) guarded.isTTY = stream.isTTY;
  return guarded;
}
