/**
 * The prompt view of a card: what a model reads from it (`agent-card view --prompt`, the "What a
 * model reads" section of `check --html`), its size in tokens, and rule `prompt-size`.
 *
 * Tokens are counted with gpt-tokenizer's `o200k_base` encoding, whose ranks ship inside the
 * package (no download): the encoding of OpenAI's current models (GPT-4o, GPT-4.1, o-series,
 * GPT-5). Other vendors' tokenizers differ by some tens of percent on English prose; the count is
 * an estimate of the same order for all of them, which is what a size budget needs.
 */
import type { Finding, ValidationProfile } from '@agent-card/core';
import { type PromptRendering, promptFindingsOf, renderPromptPieces } from '@agent-card/core/view';
import type { DiscoveryFinding } from '@agent-card/discovery';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { visible } from './terminal';

/** The encoding the token counts are given in. */
export const PROMPT_ENCODING = 'o200k_base';

/**
 * Most tokens the tool-description rendering of a public card may take before `prompt-size`
 * reports it. An assistant that discovers agents puts every card it considers into its context
 * at once: twenty agents of a catalog at 1,000 tokens each already take 20,000 tokens before any
 * work. 1,000 tokens is about 750 English words: a description and a dozen skills each with a
 * paragraph, tags and a few examples fit; manuals, policies and long example lists do not, and
 * belong in the extended card, which only authenticated callers read.
 */
export const PROMPT_TOKEN_BUDGET = 1_000;

/** The tokens of `text` in {@link PROMPT_ENCODING}; special-token text is counted as plain text. */
export function countPromptTokens(text: string): number {
  return countTokens(text, { disallowedSpecial: new Set() });
}

/** The renderings, in the order they are shown. */
const RENDERINGS: readonly { id: PromptRendering; title: string }[] = [
  { id: 'a2a-cli', title: 'a2a discover (official A2A CLI 0.1.0, text output)' },
  { id: 'tool', title: 'As a tool description' },
];

/** Rule `prompt-size` for a public card: its tool description over {@link PROMPT_TOKEN_BUDGET} tokens. */
export function promptSizeFindings(card: unknown, profile: ValidationProfile, url?: string): DiscoveryFinding[] {
  if (typeof card !== 'object' || card === null || Array.isArray(card)) return [];
  const text = renderPromptPieces(card, 'tool')
    .map((p) => p.text)
    .join('');
  const tokens = countPromptTokens(text);
  if (tokens <= PROMPT_TOKEN_BUDGET) return [];
  return [
    {
      rule: 'prompt-size',
      severity: profile === 'development' ? 'info' : 'warning',
      path: '',
      message: `The card as a tool description is ${tokens} tokens (${PROMPT_ENCODING}), over ${PROMPT_TOKEN_BUDGET}: every assistant that considers this agent reads all of it.`,
      hint: 'Keep the public card short (a description and each skill in a sentence or two); move long descriptions, policies and examples to the extended card (capabilities.extendedAgentCard), which only authenticated callers read.',
      ...(url === undefined ? {} : { url }),
    },
  ];
}

/**
 * The text of `view --prompt`: each rendering under a heading with its size, the text a model
 * reads with each piece a prompt-safety finding concerns between ⟦ and ⟧, then those findings.
 * Every character of the card is made visible (a control character is printed as \uXXXX).
 */
export function formatPromptView(card: unknown, findings: readonly Finding[]): string {
  const out: string[] = [];
  for (const { id, title } of RENDERINGS) {
    const pieces = renderPromptPieces(card, id);
    const text = pieces.map((p) => p.text).join('');
    const marked = promptFindingsOf(pieces, findings);
    out.push(`── ${title}: ${countPromptTokens(text)} tokens (${PROMPT_ENCODING}), ${[...text].length} characters ──`);
    out.push(
      pieces
        .map((p) => {
          // The card's text is made visible (a newline in it too); the layout's own newlines stay.
          const shown = p.pointer === undefined ? p.text : visible(p.text);
          const hit =
            p.pointer !== undefined && marked.some((f) => f.path === p.pointer || f.path.startsWith(`${p.pointer}/`));
          return hit ? `⟦${shown}⟧` : shown;
        })
        .join('')
        .replace(/\n$/, ''),
    );
    out.push('');
  }
  const marked = promptFindingsOf(
    [...renderPromptPieces(card, 'a2a-cli'), ...renderPromptPieces(card, 'tool')],
    findings,
  );
  if (marked.length > 0) {
    out.push('Marked ⟦…⟧ by the prompt-safety rules:');
    for (const f of marked) out.push(`  ${f.severity} ${f.rule} at ${visible(f.path)}: ${visible(f.message)}`);
    out.push('');
  }
  out.push("Every character above was written by the card's host: give it to a model as data, never as instructions.");
  return `${out.join('\n')}\n`;
}
