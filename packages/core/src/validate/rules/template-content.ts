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
 */
import { isObject, type JsonObject, type RuleCheck, type RuleContext } from '../context';
import { TEMPLATE_FINGERPRINTS, type TemplateFingerprint } from '../templates';
import { own, ownArray, ownObject, quote, where, type Segments } from './read-json';

/** Share of distinct words two texts must have in common (Jaccard index) to be the same text. */
const SAME_TEXT = 0.8;
/** Longer texts are not read: no template text is near this long, so none can match. */
const MAX_TEXT = 1024;

/** Distinct lower-case words (letters and digits; any non-ASCII character counts as a letter). */
function words(text: string): Set<string> {
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

interface Text {
  readonly length: number;
  readonly words: ReadonlySet<string>;
}

const text = (value: string): Text => ({ length: value.length, words: words(value) });

/** Whether `value` is `template`, or a light edit of it. */
function sameText(value: unknown, template: Text): boolean {
  if (typeof value !== 'string' || value.length > MAX_TEXT) return false;
  // The Jaccard index cannot reach SAME_TEXT when the lengths are far apart: skip the word split.
  if (value.length < template.length * 0.6 || value.length > template.length * 1.6) return false;
  const mine = words(value);
  let shared = 0;
  for (const word of mine) if (template.words.has(word)) shared++;
  const union = mine.size + template.words.size - shared;
  return union > 0 && shared / union >= SAME_TEXT;
}

const normal = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= MAX_TEXT ? value.trim().toLowerCase() : undefined;

interface Prepared {
  readonly fingerprint: TemplateFingerprint;
  readonly description: Text;
  readonly skills: readonly { readonly id: string; readonly name: string; readonly words: number }[];
}

/** Every template, and an index from a word to the template skills whose description has it. */
interface Index {
  readonly templates: readonly Prepared[];
  readonly byWord: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  readonly byId: ReadonlyMap<string, readonly (readonly [number, number])[]>;
  readonly shortest: number;
  readonly longest: number;
}

let index: Index | undefined;

function push<K>(map: Map<K, [number, number][]>, key: K, at: [number, number]): void {
  const list = map.get(key);
  if (list) list.push(at);
  else map.set(key, [at]);
}

function templates(): Index {
  if (index) return index;
  const byWord = new Map<string, [number, number][]>();
  const byId = new Map<string, [number, number][]>();
  let shortest = Number.POSITIVE_INFINITY;
  let longest = 0;
  const prepared = TEMPLATE_FINGERPRINTS.map((fingerprint, t) => ({
    fingerprint,
    description: text(fingerprint.description),
    skills: fingerprint.skills.map((skill, s) => {
      const own = words(skill.description);
      for (const word of own) push(byWord, word, [t, s]);
      push(byId, skill.id, [t, s]);
      shortest = Math.min(shortest, skill.description.length);
      longest = Math.max(longest, skill.description.length);
      return { id: skill.id, name: skill.name.toLowerCase(), words: own.size };
    }),
  }));
  index = { templates: prepared, byWord, byId, shortest, longest };
  return index;
}

/**
 * The template skills `skill` still is, as `[template, skill]` index pairs: same `id` and
 * `name`, or a description that shares {@link SAME_TEXT} of its distinct words. One pass over
 * the skill's words, whatever the number of templates.
 */
function templateSkills(skill: unknown, idx: Index): (readonly [number, number])[] {
  if (!isObject(skill)) return [];
  const out: (readonly [number, number])[] = [];
  const id = own(skill, 'id');
  if (typeof id === 'string') {
    const name = normal(own(skill, 'name'));
    for (const at of idx.byId.get(id) ?? []) {
      if (idx.templates[at[0]]!.skills[at[1]]!.name === name) out.push(at);
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
  const mine = words(description);
  const shared = new Map<string, number>();
  for (const word of mine) {
    for (const at of idx.byWord.get(word) ?? []) {
      const key = `${at[0]}/${at[1]}`;
      shared.set(key, (shared.get(key) ?? 0) + 1);
    }
  }
  for (const [key, count] of shared) {
    const slash = key.indexOf('/');
    const at = [Number(key.slice(0, slash)), Number(key.slice(slash + 1))] as const;
    const size = idx.templates[at[0]]!.skills[at[1]]!.words;
    if (count / (mine.size + size - count) >= SAME_TEXT) out.push(at);
  }
  return out;
}

/** Whether a URL's host is one of the template's domains or under one. */
function onTemplateDomain(value: unknown, fingerprint: TemplateFingerprint): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return false;
  }
  return fingerprint.domains.some((d) => host === d || host.endsWith(`.${d}`));
}

interface Leftover {
  readonly path: Segments;
  readonly what: string;
  readonly shown: string;
  readonly hint: string;
}

function leftovers(card: JsonObject, template: Prepared, skillMatches: ReadonlyMap<number, number>): Leftover[] {
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
  const urlHint = `Use your own public URL: ${fp.domains.join(', ')} is the template's domain.`;
  const interfaces = ownArray(card, 'supportedInterfaces') ?? [];
  for (let i = 0; i < interfaces.length; i++) {
    const url = own(interfaces[i], 'url');
    if (onTemplateDomain(url, fp)) {
      out.push({ path: ['supportedInterfaces', i, 'url'], what: 'URL', shown: quote(url as string), hint: urlHint });
    }
  }
  const links: [Segments, unknown][] = [
    [['provider', 'url'], own(provider, 'url')],
    [['documentationUrl'], own(card, 'documentationUrl')],
    [['iconUrl'], own(card, 'iconUrl')],
  ];
  for (const [path, url] of links) {
    if (onTemplateDomain(url, fp)) out.push({ path, what: 'URL', shown: quote(url as string), hint: urlHint });
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
 * template's description or every one of its skills: an error in `production` and `strict` (a
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
  for (let i = 0; i < skills.length; i++) {
    for (const [t, s] of templateSkills(skills[i], idx)) {
      if (seen[t]!.has(s)) continue;
      seen[t]!.add(s);
      matches[t]!.set(i, s);
    }
  }
  const description = own(card, 'description');
  for (let t = 0; t < idx.templates.length; t++) {
    const template = idx.templates[t]!;
    const allSkills = seen[t]!.size === template.skills.length;
    if (!allSkills && !sameText(description, template.description)) continue;
    const name = template.fingerprint.template;
    for (const left of leftovers(card, template, matches[t]!)) {
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
