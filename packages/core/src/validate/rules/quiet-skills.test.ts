import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ValidationProfile } from '../../findings';
import { baseCard } from '../test-cards';
import { validateAgentCard, validateAgentCardInFull } from '../validate';
import { isQuietSkill } from './quiet-skills';

const PROFILES: readonly ValidationProfile[] = ['development', 'production', 'strict'];

/** A plain skill that every rule accepts, numbered so ids stay distinct. */
const plainSkill = (n: number): Record<string, unknown> => ({
  id: `skill-${n}`,
  name: `Skill ${n}`,
  description: `Handles request type ${n} for signed-in customers.`,
  tags: [`area-${n % 7}`],
  examples: [`Run request ${n}`],
});

const cardWith = (skills: unknown[]): Record<string, unknown> => ({ ...baseCard(), skills });

/** Both paths give the same result, findings and their order included. */
function expectSamePaths(card: unknown): void {
  for (const profile of PROFILES) {
    expect(validateAgentCard(card, { profile })).toEqual(validateAgentCardInFull(card, { profile }));
  }
}

/** Strings that some per-skill rule reports, or that sit right next to what it reports. */
const trickyText = fc.constantFrom(
  '',
  '   ',
  '\t',
  ' padded ',
  'TODO',
  'Plan a TODO list',
  'Todo list helper',
  'your-company',
  'change me',
  'changeme',
  'lorem ipsum dolor',
  '{{name}}',
  '${TOKEN}',
  '<your name>',
  '<b>bold</b>',
  'example',
  'placeholder',
  'password=hunter22',
  'api_key=abc123456',
  'sk-' + 'aZ3kQ9xL2pW7mN4bV8cR1tY6',
  'sk-short',
  'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  'AKIAIOSFODNN7EXAMPLE',
  'xoxb-123456789012-abcdef',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig',
  'Bearer abcdefghijklmnop1234',
  'https://user:pass@example.com/x',
  'mailto:someone@example.com',
  'text/plain',
  'Ünïcödé ✓',
  'İstanbul',
  'x'.repeat(5000),
);

const anyText = fc.oneof(fc.string({ maxLength: 40 }), trickyText);
const notString = fc.constantFrom<unknown>(null, 1, true, [], {}, ['a'], { a: 1 });

type Skill = Record<string, unknown>;

/** Scheme names: declared by the base card (`oauth`, with two scopes), undeclared, odd. */
const schemeName = fc.constantFrom('oauth', 'bearer', '', ' ', '__proto__', 'apiKey', 'password');
/** Scopes: declared ones, undeclared ones, blanks, secrets, placeholders, not strings. */
const scope = fc.oneof(fc.constantFrom('orders:read', 'orders:write', 'admin'), anyText, notString);
/** `{name: {list}}` maps, mostly of the plain form, sometimes not (extra keys, no list, a bare list). */
const schemes = fc.dictionary(
  schemeName,
  fc.oneof(
    { weight: 4, arbitrary: fc.array(scope, { maxLength: 3 }).map((list) => ({ list })) },
    fc.array(scope, { maxLength: 2 }).map((list) => ({ list, extra: true })),
    fc.constantFrom<unknown>({}, { scopes: ['orders:read'] }, ['orders:read'], null, 'orders:read'),
  ),
  { maxKeys: 3 },
);
/**
 * Security requirement lists: the plain form `[{"schemes": {...}}]` (what `@ApiBearerAuth()`
 * becomes), and what sits next to it: empty lists and maps, v0.3 `{name: [scopes]}`, snake_case,
 * extra keys, wrong types.
 */
const requirements = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(
      schemes.map((s) => ({ schemes: s })),
      { maxLength: 2 },
    ),
  },
  fc.array(
    fc.oneof(
      schemes.map((s) => ({ schemes: s, extra: 1 })),
      fc.constantFrom<unknown>({ oauth: ['orders:read'] }, { schemes: [] }, { Schemes: {} }, {}, null, 'oauth'),
    ),
    { minLength: 1, maxLength: 2 },
  ),
  fc.constantFrom<unknown>({}, 'oauth', null, [[]]),
);

/** One change to a plain skill; many keep it quiet, many do not. */
const skillChange: fc.Arbitrary<(skill: Skill) => void> = fc.oneof(
  fc
    .tuple(fc.constantFrom('id', 'name', 'description'), fc.oneof(anyText, notString))
    .map(([key, value]) => (s: Skill) => {
      s[key] = value;
    }),
  fc.constantFrom('id', 'name', 'description', 'tags', 'examples').map((key) => (s: Skill) => {
    delete s[key];
  }),
  fc.array(fc.oneof(anyText, notString), { maxLength: 3 }).map((tags) => (s: Skill) => {
    s.tags = tags;
  }),
  fc.array(fc.oneof(anyText, notString), { maxLength: 3 }).map((examples) => (s: Skill) => {
    s.examples = examples;
  }),
  fc.constantFrom<unknown>('text', null, 'plain', {}, 3).map((value) => (s: Skill) => {
    s.examples = value;
    s.tags = value;
  }),
  fc
    .tuple(fc.constantFrom('securityRequirements', 'security_requirements'), requirements)
    .map(([key, value]) => (s: Skill) => {
      s[key] = value;
    }),
  fc
    .tuple(
      fc.constantFrom(
        'inputModes',
        'outputModes',
        'securityRequirements',
        'security',
        'input_modes',
        'extra',
        'Id',
        'apiKey',
        'password',
        'token',
      ),
      fc.oneof(
        anyText,
        fc.constant(['text/plain']),
        fc.constant(['text']),
        fc.constant([{ schemes: { oauth: { list: [] } } }]),
      ),
    )
    .map(([key, value]) => (s: Skill) => {
      s[key] = value;
    }),
  fc.constant((s: Skill) => {
    // The same keys, another order.
    const entries = Object.entries(s).reverse();
    for (const key of Object.keys(s)) delete s[key];
    for (const [key, value] of entries) s[key] = value;
  }),
);

/** 8–30 skills, each plain or changed a little; some ids repeat, some differ only in case. */
const skillList = fc
  .array(fc.tuple(fc.nat({ max: 40 }), fc.array(skillChange, { maxLength: 2 }), fc.boolean()), {
    minLength: 8,
    maxLength: 30,
  })
  .map((entries) =>
    entries.map(([n, changes, upper]) => {
      const skill = plainSkill(n);
      if (upper) skill.id = String(skill.id).toUpperCase();
      for (const change of changes) change(skill);
      return skill;
    }),
  );

/** Rules that read every skill, quiet or not. */
const CROSS_FIELD_RULES = new Set([
  'skill-id-unique',
  'security-empty',
  'security-scheme-reference',
  'security-scope-declared',
]);

/**
 * 8–20 skills that each carry security requirements (mostly in the plain form a route's
 * `@ApiBearerAuth()` becomes), sometimes changed a little more.
 */
const requirementSkillList = fc
  .array(fc.tuple(fc.nat({ max: 40 }), requirements, fc.array(skillChange, { maxLength: 1 })), {
    minLength: 8,
    maxLength: 20,
  })
  .map((entries) =>
    entries.map(([n, securityRequirements, changes]) => {
      const skill: Skill = { ...plainSkill(n), securityRequirements };
      for (const change of changes) change(skill);
      return skill;
    }),
  );

describe('quiet skills', () => {
  it('gives the findings of a full walk, in the same order, for cards of mixed skills', () => {
    fc.assert(
      fc.property(skillList, (skills) => {
        expectSamePaths(cardWith(skills));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the findings of a full walk for cards whose skills carry security requirements', () => {
    fc.assert(
      fc.property(requirementSkillList, (skills) => {
        expectSamePaths(cardWith(skills));
      }),
      { numRuns: 200 },
    );
  });

  it('counts as quiet only a skill that a full walk reports nothing inside', () => {
    fc.assert(
      fc.property(fc.oneof(skillList, requirementSkillList), (skills) => {
        const card = cardWith(skills);
        const { findings } = validateAgentCardInFull(card, { profile: 'strict' });
        skills.forEach((skill, index) => {
          if (!isQuietSkill(skill)) return;
          const inside = findings.filter(
            (f) => f.path.startsWith(`/skills/${index}/`) || f.path === `/skills/${index}`,
          );
          // The rules that still read every skill: 19 compares ids across skills, 20–23 check
          // security requirements against the card's schemes, and 40 notes a skill without
          // examples.
          expect(
            inside.filter(
              (f) => !CROSS_FIELD_RULES.has(f.rule) && !(f.rule === 'metadata-quality' && f.path.endsWith('/examples')),
            ),
          ).toEqual([]);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every finding of a long card whose skills are almost all quiet', () => {
    const skills = Array.from({ length: 40 }, (_, n) => plainSkill(n));
    skills[3]!.description = 'TODO: describe';
    skills[11]!.examples = ['Call with password=hunter22'];
    skills[17]!.tags = ['  '];
    skills[23]!.inputModes = ['text'];
    skills[29]!.id = 'skill-4';
    skills[31]!.id = 'SKILL-5';
    skills[37]!.extra = true;
    const card = cardWith(skills);
    const result = validateAgentCard(card, { profile: 'production' });
    expect(result).toEqual(validateAgentCardInFull(card, { profile: 'production' }));
    expect(result.findings.map((f) => `${f.rule} ${f.path}`)).toEqual(
      expect.arrayContaining([
        'url-placeholder /skills/3/description',
        'secrets-in-card /skills/11/examples/0',
        'skill-tags-required /skills/17/tags/0',
        'mode-media-type /skills/23/inputModes/0',
        'skill-id-unique /skills/29/id',
        'skill-id-unique /skills/31/id',
        'unknown-field /skills/37/extra',
      ]),
    );
  });

  it('keeps every finding inside security requirements when the other skills are quiet', () => {
    const requirement = (list: unknown[], name = 'oauth') => [{ schemes: { [name]: { list } } }];
    const skills: Skill[] = Array.from({ length: 20 }, (_, n) => ({
      ...plainSkill(n),
      securityRequirements: requirement(['orders:read']),
    }));
    skills[2]!.securityRequirements = requirement(['sk-' + 'aZ3kQ9xL2pW7mN4bV8cR1tY6']);
    skills[5]!.securityRequirements = requirement([], 'jwt');
    skills[7]!.securityRequirements = requirement(['orders:delete']);
    skills[9]!.securityRequirements = [{ oauth: ['orders:read'] }];
    skills[11]!.securityRequirements = [{ schemes: { oauth: { list: ['orders:read'], extra: true } } }];
    skills[13]!.securityRequirements = [{ schemes: {} }];
    const card = cardWith(skills);
    expect(skills.filter(isQuietSkill)).toHaveLength(16);
    const result = validateAgentCard(card, { profile: 'production' });
    expect(result).toEqual(validateAgentCardInFull(card, { profile: 'production' }));
    expect(result.findings.map((f) => `${f.rule} ${f.path}`)).toEqual(
      expect.arrayContaining([
        'secrets-in-card /skills/2/securityRequirements/0/schemes/oauth/list/0',
        'security-scheme-reference /skills/5/securityRequirements/0/schemes/jwt',
        'security-scope-declared /skills/7/securityRequirements/0/schemes/oauth/list/0',
        'security-requirement-shape /skills/9/securityRequirements/0',
        'unknown-field /skills/11/securityRequirements/0/schemes/oauth/extra',
        'security-empty /skills/13/securityRequirements/0',
      ]),
    );
  });

  it('stops the secret scan at the same value as a full walk when the card is very large', () => {
    // 20,000 skills of six values each pass the scan's budget of 100,000 values: a secret in an
    // early skill is found, one past the budget is not, either way, and the stop is said.
    const skills = Array.from({ length: 20_000 }, (_, n) => plainSkill(n));
    skills[100]!.examples = ['password=early-secret'];
    skills[19_990]!.examples = ['password=late-secret'];
    const card = cardWith(skills);
    const result = validateAgentCard(card, { profile: 'development' });
    expect(result.findings).toEqual(validateAgentCardInFull(card, { profile: 'development' }).findings);
    const secrets = result.findings.filter((f) => f.rule === 'secrets-in-card').map((f) => [f.severity, f.path]);
    expect(secrets).toEqual([
      ['error', '/skills/100/examples/0'],
      ['info', ''],
    ]);
  });

  it('treats skills that are not plain JSON as the full walk does', () => {
    const skills: unknown[] = Array.from({ length: 10 }, (_, n) => plainSkill(n));
    skills[2] = Object.defineProperty(plainSkill(2), 'name', { get: () => 'Computed name', enumerable: true });
    skills[4] = { ...plainSkill(4), description: undefined };
    skills[6] = { ...plainSkill(6), tags: [Number.NaN] };
    const cyclic = plainSkill(8);
    cyclic.examples = [cyclic];
    skills[8] = cyclic;
    expectSamePaths(cardWith(skills));
  });

  it('leaves cards with few skills to the full walk', () => {
    const skills = Array.from({ length: 3 }, (_, n) => plainSkill(n));
    skills[1]!.name = '';
    expectSamePaths(cardWith(skills));
  });
});
