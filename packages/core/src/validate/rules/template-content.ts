/**
 * Rule 57 `template-content` (RULES.md §6.3): a card that still carries a starter template of
 * `agent-card init` (its description, or all of its skills) is the template's agent, not the
 * user's. Every field still the template's is reported, so the user sees what is left to replace.
 *
 * Matching is by content, not by name alone: the templates' organisations and domains are
 * fictional but could exist, and a card that only shares a name or a host is not a template.
 * A description or a skill description counts as the template's when it shares at least 80% of
 * its distinct words with the template's (so a lightly edited sentence still counts); a skill
 * also counts when its `id` and `name` are the template's.
 *
 * A card whose name, description and skills were all replaced can still carry what `init` copied
 * as it is: the security schemes' texts, OAuth endpoints and API key header names, the
 * extensions. Those values only the template has (`TemplateFingerprint.distinctive`): one of them
 * left outside `skills` is enough, and every field still the template's is reported.
 */
import { isObject, type JsonObject, keysOf, type RuleCheck, type RuleContext } from '../context';
import { TEMPLATE_FINGERPRINTS, type TemplateFingerprint, templatesWithValue } from '../templates';
import { parseAbsoluteUrl, redactUrl } from '../urls';
import { cardStrings } from './card-strings';
import { own, ownArray, ownObject, quote, where, type Segments } from './read-json';

/** Share of distinct words two texts must have in common (Jaccard index) to be the same text. */
const SAME_TEXT = 0.8;
/** Longer texts are not read: no template text is near this long, so none can match. */
const MAX_TEXT = 1024;

/** Distinct lower-case words (letters and digits; any non-ASCII character counts as a letter). */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    const letter = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c > 127;
    if (letter && start === -1) start = i;
    else if (!letter && start !== -1) {
      out.add(lower.slice(start, i));
      start = -1;
    }
  }
  return out;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/**
 * The words of {@link words} as 30-bit FNV-1a hashes: the same split and the same case folding
 * (`toLowerCase` when the text has a non-ASCII character), without a string per word. Used to
 * find the templates a text may be; a match is then confirmed on the words themselves, so a
 * hash collision can cost a comparison but never change a finding (no two words of one template
 * text share a hash: a test holds that for the shipped templates).
 */
export function wordHashes(text: string, lowered = false): Set<number> {
  const out = new Set<number>();
  let h = FNV_OFFSET;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127 && !lowered) return wordHashes(text.toLowerCase(), true);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c > 127) {
      h = Math.imul(h ^ c, FNV_PRIME);
      inWord = true;
    } else if (inWord) {
      // 30 bits: a small integer to V8, so the set holds no boxed numbers.
      out.add(h >>> 2);
      h = FNV_OFFSET;
      inWord = false;
    }
  }
  return out;
}

/** Whether two word sets share at least {@link SAME_TEXT} of their distinct words. */
function similar<T>(mine: ReadonlySet<T>, theirs: ReadonlySet<T>): boolean {
  let shared = 0;
  for (const word of mine) if (theirs.has(word)) shared++;
  const union = mine.size + theirs.size - shared;
  return union > 0 && shared / union >= SAME_TEXT;
}

interface Text {
  readonly length: number;
  readonly words: ReadonlySet<string>;
  readonly hashes: ReadonlySet<number>;
}

const text = (value: string): Text => ({ length: value.length, words: words(value), hashes: wordHashes(value) });

/**
 * Whether `value` is `template`, or a light edit of it. `hashesOf` gives `value`'s word hashes
 * when one text is compared with several templates, so that it is split once.
 */
function sameText(value: unknown, template: Text, hashesOf: (text: string) => Set<number> = wordHashes): boolean {
  if (typeof value !== 'string' || value.length > MAX_TEXT) return false;
  // The Jaccard index cannot reach SAME_TEXT when the lengths are far apart: skip the word split.
  if (value.length < template.length * 0.6 || value.length > template.length * 1.6) return false;
  return similar(hashesOf(value), template.hashes) && similar(words(value), template.words);
}

const normal = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= MAX_TEXT ? value.trim().toLowerCase() : undefined;

interface Prepared {
  readonly fingerprint: TemplateFingerprint;
  readonly description: Text;
  readonly skills: readonly {
    readonly id: string;
    readonly name: string;
    readonly words: number;
    readonly description: ReadonlySet<string>;
  }[];
}

/** Every template, and an index from a word to the template skills whose description has it. */
interface Index {
  readonly templates: readonly Prepared[];
  /** Every template skill, as `[template, skill]`; the other maps hold indexes into this list. */
  readonly all: readonly (readonly [number, number])[];
  readonly words: readonly number[];
  /** By word hash (see {@link wordHashes}). */
  readonly byWord: ReadonlyMap<number, readonly number[]>;
  readonly byId: ReadonlyMap<string, readonly number[]>;
  readonly shortest: number;
  readonly longest: number;
}

let index: Index | undefined;

function push<K>(map: Map<K, number[]>, key: K, at: number): void {
  const list = map.get(key);
  if (list) list.push(at);
  else map.set(key, [at]);
}

function templates(): Index {
  if (index) return index;
  const byWord = new Map<number, number[]>();
  const byId = new Map<string, number[]>();
  const all: [number, number][] = [];
  const sizes: number[] = [];
  let shortest = Number.POSITIVE_INFINITY;
  let longest = 0;
  const prepared = TEMPLATE_FINGERPRINTS.map((fingerprint, t) => ({
    fingerprint,
    description: text(fingerprint.description),
    skills: fingerprint.skills.map((skill, s) => {
      const g = all.length;
      all.push([t, s]);
      const own = words(skill.description);
      const hashes = wordHashes(skill.description);
      sizes.push(hashes.size);
      for (const hash of hashes) push(byWord, hash, g);
      push(byId, skill.id, g);
      shortest = Math.min(shortest, skill.description.length);
      longest = Math.max(longest, skill.description.length);
      return { id: skill.id, name: skill.name.toLowerCase(), words: hashes.size, description: own };
    }),
  }));
  index = {
    templates: prepared,
    all,
    words: sizes,
    byWord,
    byId,
    shortest,
    longest,
  };
  return index;
}

/**
 * The template skills `skill` still is, as indexes into `Index.all`: same `id` and `name`, or a
 * description that shares {@link SAME_TEXT} of its distinct words. One pass over the skill's
 * words, whatever the number of templates.
 */
function templateSkills(skill: unknown, idx: Index, shared: Int32Array): number[] {
  if (!isObject(skill)) return [];
  const out: number[] = [];
  const id = own(skill, 'id');
  if (typeof id === 'string') {
    const byId = idx.byId.get(id);
    if (byId !== undefined) {
      const name = normal(own(skill, 'name'));
      for (const g of byId) {
        const [t, s] = idx.all[g]!;
        if (idx.templates[t]!.skills[s]!.name === name) out.push(g);
      }
    }
  }
  const description = own(skill, 'description');
  if (
    typeof description !== 'string' ||
    description.length > MAX_TEXT ||
    description.length < idx.shortest * 0.6 ||
    description.length > idx.longest * 1.6
  ) {
    return out;
  }
  const mine = wordHashes(description);
  shared.fill(0);
  for (const hash of mine) {
    const list = idx.byWord.get(hash);
    if (list !== undefined) for (const g of list) shared[g]! += 1;
  }
  let exact: Set<string> | undefined;
  for (let g = 0; g < shared.length; g++) {
    const count = shared[g]!;
    if (count === 0 || count / (mine.size + idx.words[g]! - count) < SAME_TEXT || out.includes(g)) continue;
    const [t, s] = idx.all[g]!;
    exact ??= words(description);
    if (similar(exact, idx.templates[t]!.skills[s]!.description)) out.push(g);
  }
  return out;
}

/** Whether a string is an http(s) URL whose host is one of the template's domains or under one. */
function onTemplateDomain(value: string, fingerprint: TemplateFingerprint): boolean {
  if (value.length > 2048 || !(value.startsWith('https://') || value.startsWith('http://'))) return false;
  const host = parseAbsoluteUrl(value)?.hostname;
  return host !== undefined && fingerprint.domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** Most nodes of a card searched for template URLs (a template card has a few hundred). */
const MAX_NODES = 100_000;

/**
 * Every string of the card outside `skills` (reported skill by skill) that is a URL on the
 * template's domain, in document order: interfaces, provider, links, OAuth and OIDC endpoints.
 * Iterative and bounded, whatever the nesting.
 */
function templateUrls(card: JsonObject, fingerprint: TemplateFingerprint): [Segments, string][] {
  const out: [Segments, string][] = [];
  // Each visited node keeps its parent's index and its own key: a path is built only for a hit,
  // so a deeply nested card costs no more than a flat one.
  const parents: number[] = [];
  const segments: (string | number)[] = [];
  const stack: [node: unknown, parent: number, segment: string | number][] = [];
  const keys = keysOf(card);
  for (let k = keys.length - 1; k >= 0; k--) if (keys[k] !== 'skills') stack.push([card[keys[k]!], -1, keys[k]!]);
  while (stack.length > 0 && parents.length < MAX_NODES) {
    const [node, parent, segment] = stack.pop()!;
    const at = parents.length;
    parents.push(parent);
    segments.push(segment);
    if (typeof node === 'string') {
      if (!onTemplateDomain(node, fingerprint)) continue;
      const path: (string | number)[] = [];
      for (let i = at; i !== -1; i = parents[i]!) path.unshift(segments[i]!);
      out.push([path, node]);
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], at, i]);
    } else if (isObject(node)) {
      const names = keysOf(node);
      for (let i = names.length - 1; i >= 0; i--) stack.push([node[names[i]!], at, names[i]!]);
    }
  }
  return out;
}

interface Leftover {
  readonly path: Segments;
  readonly what: string;
  readonly shown: string;
  readonly hint: string;
}

/** A distinctive template value found in the card, outside `skills`. */
interface Hit {
  readonly path: Segments;
  readonly value: string;
}

/**
 * Per template, the card's strings outside `skills` that are one of its distinctive values (see
 * `TemplateFingerprint.distinctive`; compared trimmed and without case). One pass over the
 * strings the validation lists once for every rule.
 */
function distinctiveHits(card: JsonObject, ctx: RuleContext, idx: Index): Hit[][] {
  const hits: Hit[][] = idx.templates.map(() => []);
  const strings = cardStrings(card, ctx);
  for (let i = 0; i < strings.values.length; i++) {
    const value = strings.values[i]!;
    const templatesWithIt = templatesWithValue(value);
    if (templatesWithIt === undefined) continue;
    const path = strings.path(i);
    if (path[0] === 'skills') continue;
    for (const t of templatesWithIt) hits[t]!.push({ path, value });
  }
  return hits;
}

const isUrl = (value: string): boolean => value.startsWith('https://') || value.startsWith('http://');

function leftovers(
  card: JsonObject,
  template: Prepared,
  skillMatches: ReadonlyMap<number, number>,
  hits: readonly Hit[],
): Leftover[] {
  const fp = template.fingerprint;
  const out: Leftover[] = [];
  const name = own(card, 'name');
  if (typeof name === 'string' && normal(name) === normal(fp.name)) {
    out.push({ path: ['name'], what: 'name', shown: quote(name), hint: 'Give the agent your own name.' });
  }
  const description = own(card, 'description');
  if (typeof description === 'string' && sameText(description, template.description)) {
    out.push({
      path: ['description'],
      what: 'description',
      shown: quote(description),
      hint: 'Describe what your agent does, in your own words.',
    });
  }
  const provider = ownObject(card, 'provider');
  const organization = own(provider, 'organization');
  if (typeof organization === 'string' && normal(organization) === normal(fp.organization)) {
    out.push({
      path: ['provider', 'organization'],
      what: 'organization',
      shown: quote(organization),
      hint: 'Name your organization, or remove "provider".',
    });
  }
  const urlHint = `Use your own URL: ${fp.domains.join(', ')} is the template's domain.`;
  const urls = templateUrls(card, fp);
  for (const [path, url] of urls) out.push({ path, what: 'URL', shown: quote(redactUrl(url)), hint: urlHint });
  const listed = new Set(urls.map(([path]) => path.join('/')));
  for (const { path, value } of hits) {
    if (listed.has(path.join('/'))) continue;
    const url = isUrl(value);
    out.push({
      path,
      what: url ? 'URL' : 'text',
      shown: quote(url ? redactUrl(value) : value),
      hint: url ? urlHint : "Replace it with your own: it describes the template's fictional organisation.",
    });
  }
  const skills = ownArray(card, 'skills') ?? [];
  for (const [index, j] of skillMatches) {
    const id = own(skills[index], 'id');
    out.push({
      path: ['skills', index],
      what: 'skill',
      shown: quote(typeof id === 'string' ? id : fp.skills[j]!.id),
      hint: 'Describe a skill your agent has (id, name, description, tags, examples), or remove this one.',
    });
  }
  return out;
}

/**
 * Reports every field of a card that is still a shipped template's, when the card keeps the
 * template's description, every one of its skills, or one of its distinctive values: an error in `production` and `strict` (a
 * published template advertises someone else's agent), a warning in `development` (the state
 * `agent-card init` leaves a card in).
 * @see packages/core/RULES.md §6.3
 */
export const checkTemplateContent: RuleCheck = (card: JsonObject, ctx: RuleContext) => {
  const skills = ownArray(card, 'skills') ?? [];
  const severity = ctx.profile === 'development' ? 'warning' : 'error';
  const idx = templates();
  // Per template: card skill index → template skill index; each template skill counts once.
  const matches = idx.templates.map(() => new Map<number, number>());
  const seen = idx.templates.map(() => new Set<number>());
  const shared = new Int32Array(idx.all.length);
  for (let i = 0; i < skills.length; i++) {
    for (const g of templateSkills(skills[i], idx, shared)) {
      const [t, s] = idx.all[g]!;
      if (seen[t]!.has(s)) continue;
      seen[t]!.add(s);
      matches[t]!.set(i, s);
    }
  }
  const description = own(card, 'description');
  let descriptionHashes: Set<number> | undefined;
  const hashesOnce = (text: string) => {
    descriptionHashes ??= wordHashes(text);
    return descriptionHashes;
  };
  const hits = distinctiveHits(card, ctx, idx);
  for (let t = 0; t < idx.templates.length; t++) {
    const template = idx.templates[t]!;
    const allSkills = seen[t]!.size === template.skills.length;
    if (!allSkills && !sameText(description, template.description, hashesOnce) && hits[t]!.length === 0) continue;
    const name = template.fingerprint.template;
    for (const left of leftovers(card, template, matches[t]!, hits[t]!)) {
      ctx.report(
        'template-content',
        severity,
        left.path,
        `${where(left.path)}: still the "${name}" template's ${left.what} (${left.shown}).`,
        `${left.hint} This card still carries the "${name}" starter template of agent-card init.`,
      );
    }
  }
};
