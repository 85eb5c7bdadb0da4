/**
 * Which skills of a card no per-skill rule has anything to say about, so the rules that look
 * inside one skill at a time can pass over them.
 *
 * A card built from code often has hundreds of skills of the same plain form (`id`, `name`,
 * `description`, `tags`, `examples`, all strings, and often the same `securityRequirements`,
 * from a route's `@ApiBearerAuth()` say). Each rule module walks every skill in its own
 * way: the structure walker through the schema tables, the placeholder and secret checks through
 * their own loops. One direct look per skill, with the same string checks those rules make, tells
 * which skills would give no finding; the walkers skip those. Anything else (another key, a
 * non-string value, a blank, a placeholder, something that may be a secret) leaves the skill to
 * the full rules, so the findings are those of a full walk by construction.
 *
 * Rules about several skills at once (unique ids, scheme references) still read every skill.
 *
 * Kept for the cards of hundreds of skills a Nest app builds (`bench/nest-boot.mjs --check`, 1,000
 * skills); `quiet-skills.test.ts` holds it to the findings of the full walk,
 * `validateAgentCardInFull`.
 *
 * @packageDocumentation
 */
import type { JsonObject } from '../context';
import { placeholderReason } from './publishing';
import { keyKind, secretIn } from './secrets';

/**
 * A quiet skill has `id`, `name`, `description` and `tags`, and may have `examples` and
 * `securityRequirements` in their plain form; modes take the full rules.
 */
const REQUIRED_KEYS = 4;

/** `value.trim() !== ''`, answered from the first character when it is printable ASCII. */
function isFilled(value: string): boolean {
  const first = value.charCodeAt(0);
  return (first > 0x20 && first < 0x7f) || value.trim() !== '';
}

/**
 * None of the keys a quiet skill may have names a credential, so the secret check of their strings
 * looks at the value alone (`secretIn(undefined, …)` gives what `secretIn(key, …)` gives).
 */
const KEYS_NAME_NO_SECRET = ['id', 'name', 'description', 'tags', 'examples'].every((key) => keyKind(key) === 0);

/**
 * Scopes sit under `list` (the secret scan hands a list's items its key): a key that names no
 * credential either, so their check too looks at the value alone.
 */
const LIST_NAMES_NO_SECRET = keyKind('list') === 0;

/** A string no per-skill rule reports under `key`: not a placeholder, nothing secret-looking. */
function quietText(key: string, value: string, placeholderChecked: boolean): boolean {
  if (placeholderChecked && placeholderReason(value) !== undefined) return false;
  return secretIn(KEYS_NAME_NO_SECRET ? undefined : key, value) === undefined;
}

/** A list of strings no rule reports; `filled` also asks for at least one item, none blank. */
function quietList(key: string, value: unknown, filled: boolean): boolean {
  if (!Array.isArray(value)) return false;
  if (filled && value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string' || (filled && !isFilled(item)) || !quietText(key, item, true)) return false;
  }
  return true;
}

/** An object of the validator's copy with exactly one key, `key`. */
function onlyKey(value: unknown, key: string): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  let keys = 0;
  for (const k in value) {
    keys++;
    if (k !== key) return false;
  }
  return keys === 1;
}

/**
 * Security requirements that the structure and secret rules pass without a word: a non-empty
 * list of `{"schemes": {name: {"list": [scopes]}}}`, exactly those keys, at least one scheme each,
 * the scopes non-blank strings with nothing secret-looking (what `@ApiBearerAuth()` or
 * `@ApiOAuth2([...])` on a route becomes). Whether the named schemes and scopes are declared is
 * for the cross-field rules (20–23), which read every skill.
 */
function quietRequirements(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const requirement: unknown = value[i];
    if (!onlyKey(requirement, 'schemes')) return false;
    const schemes = requirement.schemes;
    if (typeof schemes !== 'object' || schemes === null || Array.isArray(schemes)) return false;
    let names = 0;
    for (const name in schemes) {
      names++;
      const entry: unknown = (schemes as JsonObject)[name];
      if (!onlyKey(entry, 'list')) return false;
      const scopes = entry.list;
      if (!Array.isArray(scopes)) return false;
      for (let j = 0; j < scopes.length; j++) {
        const scope: unknown = scopes[j];
        if (typeof scope !== 'string' || !isFilled(scope)) return false;
        if (secretIn(LIST_NAMES_NO_SECRET ? undefined : 'list', scope) !== undefined) return false;
      }
    }
    if (names === 0) return false;
  }
  return true;
}

/**
 * Whether the structure (rules 5, 9, 10, 14, unknown fields, camelCase), legacy, placeholder,
 * secret and media-type rules would report nothing inside this skill: exactly the keys `id`,
 * `name`, `description`, `tags` and optionally `examples` and `securityRequirements`; non-blank
 * strings; a non-empty list of non-blank tags; a list of strings as examples; security
 * requirements in their plain form (see `quietRequirements`); and no string that looks like a
 * placeholder (name, description, tags, examples, as the placeholder rule reads them) or a secret.
 *
 * `skill` is a node of the validator's own copy of the card: plain data, no getters.
 */
export function isQuietSkill(skill: unknown): boolean {
  if (typeof skill !== 'object' || skill === null || Array.isArray(skill)) return false;
  const s = skill as JsonObject;
  let keys = 0;
  for (const key in s) {
    keys++;
    if (
      key !== 'id' &&
      key !== 'name' &&
      key !== 'description' &&
      key !== 'tags' &&
      key !== 'examples' &&
      key !== 'securityRequirements'
    )
      return false;
  }
  const { id, name, description } = s;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof description !== 'string') return false;
  const examples = Object.hasOwn(s, 'examples');
  const requirements = Object.hasOwn(s, 'securityRequirements');
  if (keys !== REQUIRED_KEYS + (examples ? 1 : 0) + (requirements ? 1 : 0)) return false;
  if (!isFilled(id) || !isFilled(name) || !isFilled(description)) return false;
  if (!quietText('id', id, false) || !quietText('name', name, true) || !quietText('description', description, true))
    return false;
  if (!quietList('tags', s.tags, true)) return false;
  if (examples && !quietList('examples', s.examples, false)) return false;
  return !requirements || quietRequirements(s.securityRequirements);
}

/**
 * The quiet skills of a card (see {@link isQuietSkill}), or `undefined` when there are too few
 * skills for the look-ahead to pay.
 */
export function findQuietSkills(card: JsonObject): ReadonlySet<unknown> | undefined {
  const skills = Object.hasOwn(card, 'skills') ? card.skills : undefined;
  if (!Array.isArray(skills) || skills.length < MIN_SKILLS) return undefined;
  const quiet = new Set<unknown>();
  for (let i = 0; i < skills.length; i++) if (isQuietSkill(skills[i])) quiet.add(skills[i]);
  return quiet.size === 0 ? undefined : quiet;
}

/** Below this many skills the rules walk every skill: the look-ahead would cost as much. */
const MIN_SKILLS = 8;
