import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ValidationProfile } from '../../findings';
import { createRuleContext } from '../context';
import { TEMPLATE_FINGERPRINTS } from '../templates';
import { checkTemplateContent, wordHashes, words } from './template-content';
import { validateAgentCard } from '../validate';

const TEMPLATES = ['support', 'booking', 'shopping', 'coding', 'research', 'workflow'] as const;
const example = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../../../../../examples/cards/${name}.json`, import.meta.url), 'utf8'));

const templateFindings = (card: unknown, profile: ValidationProfile = 'production') =>
  validateAgentCard(card, { profile }).findings.filter((f) => f.rule === 'template-content');

/** The support template as `agent-card init --name "Line Doctor" --url …` writes it. */
const initCard = () => {
  const card = example('support');
  delete card.provider;
  delete card.documentationUrl;
  delete card.iconUrl;
  card.version = '0.1.0';
  card.name = 'Line Doctor';
  card.supportedInterfaces = [
    { url: 'https://line-doctor.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ];
  return card;
};

/** A card of the user's own, on the support template's skeleton. */
const ownCard = () => {
  const card = initCard();
  card.description = 'Checks the water meters of Acme Utilities customers and books a plumber when one leaks.';
  card.securitySchemes.customerToken.httpAuthSecurityScheme.description =
    'Customer access token issued by the Acme Utilities customer portal.';
  card.skills = [
    {
      id: 'read-meter',
      name: 'Read a water meter',
      description: 'Reads the smart water meter of a customer and reports the daily consumption of the last month.',
      tags: ['water', 'meters'],
      examples: ['How much water did I use last week?'],
    },
  ];
  return card;
};

/** Sets the value at a JSON Pointer. */
function setAt(card: any, pointer: string, value: unknown): void {
  const segments = pointer.slice(1).split('/');
  let node = card;
  for (const segment of segments.slice(0, -1)) node = node[segment];
  node[segments[segments.length - 1]!] = value;
}

describe('template-content (rule 57): a card made from a template, as a new user edits it', () => {
  // `agent-card init -t <template> --name … --description …`, then the skills replaced by the
  // user's own: what init copied as it is (scheme texts, OAuth endpoints, API key header names,
  // extensions) still belongs to the template's fictional organisation.
  const edited = (name: string) => {
    const card = example(name);
    delete card.provider;
    delete card.documentationUrl;
    delete card.iconUrl;
    card.version = '0.1.0';
    card.name = 'Acme Water Meters';
    card.supportedInterfaces = [
      { url: 'https://meters.acme-corp.io/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ];
    card.description = ownCard().description;
    card.skills = ownCard().skills;
    return card;
  };

  it.each(TEMPLATES)('"%s" does not pass production until every field still the template\'s is replaced', (name) => {
    const card = edited(name);
    const fingerprint = TEMPLATE_FINGERPRINTS.find((f) => f.template === name)!;
    const first = validateAgentCard(card, { profile: 'production' });
    const left = first.findings.filter((f) => f.rule === 'template-content');
    // research's scheme-less card has nothing left once name, description and skills are the user's.
    expect(first.valid).toBe(fingerprint.distinctive.length === 0);
    expect(new Set(left.map((f) => JSON.stringify(atPointer(card, f.path))))).toEqual(
      new Set(fingerprint.distinctive.map((v) => JSON.stringify(v))),
    );
    for (const f of left) {
      expect(f.severity).toBe('error');
      expect(f.message).toMatch(new RegExp(`still the "${name}" template's (URL|text)`));
    }
    // Replacing one field is not enough while another remains; replacing all of them is.
    left.forEach((f, i) => {
      const before = atPointer(card, f.path) as string;
      setAt(card, f.path, before.startsWith('https://') ? `https://auth.acme-corp.io/v${i}` : `Acme meter value ${i}`);
      const now = validateAgentCard(card, { profile: 'production' });
      expect(now.valid).toBe(i === left.length - 1);
    });
    expect(templateFindings(card)).toEqual([]);
  });
});

/** The value at a JSON Pointer. */
function atPointer(card: any, pointer: string): unknown {
  let node = card;
  for (const segment of pointer.slice(1).split('/')) node = node?.[segment];
  return node;
}

describe('template-content (rule 57)', () => {
  it.each(TEMPLATES)('an untouched "%s" template is an error in production, naming the template', (name) => {
    const result = validateAgentCard(example(name), { profile: 'production' });
    expect(result.valid).toBe(false);
    const found = result.findings.filter((f) => f.rule === 'template-content');
    expect(found.every((f) => f.severity === 'error')).toBe(true);
    expect(found.map((f) => f.path)).toEqual(
      expect.arrayContaining(['/name', '/description', '/skills/0', '/skills/1', '/skills/2']),
    );
    for (const f of found) {
      expect(f.message).toContain(`still the "${name}" template's`);
      expect(f.hint).toContain(`This card still carries the "${name}" starter template of agent-card init.`);
    }
  });

  it('lists every field of the support template still to replace, with exact messages', () => {
    const found = templateFindings(example('support'));
    expect(found.map((f) => [f.severity, f.path, f.message])).toEqual([
      ['error', '/name', 'name: still the "support" template\'s name ("Larkspur Telecom Support Agent").'],
      [
        'error',
        '/description',
        'description: still the "support" template\'s description ("Answers questions about Larkspur mobile and broadband plans, diagnoses connecti…").',
      ],
      [
        'error',
        '/supportedInterfaces/0/url',
        'supportedInterfaces[0].url: still the "support" template\'s URL ("https://support-agent.larkspur-telecom.com/a2a/v1").',
      ],
      [
        'error',
        '/supportedInterfaces/1/url',
        'supportedInterfaces[1].url: still the "support" template\'s URL ("https://support-agent.larkspur-telecom.com/a2a/rest").',
      ],
      [
        'error',
        '/provider/url',
        'provider.url: still the "support" template\'s URL ("https://www.larkspur-telecom.com").',
      ],
      [
        'error',
        '/provider/organization',
        'provider.organization: still the "support" template\'s organization ("Larkspur Telecom Ltd.").',
      ],
      [
        'error',
        '/documentationUrl',
        'documentationUrl: still the "support" template\'s URL ("https://developers.larkspur-telecom.com/agents/support").',
      ],
      [
        'error',
        '/securitySchemes/customerToken/httpAuthSecurityScheme/description',
        'securitySchemes.customerToken.httpAuthSecurityScheme.description: still the "support" template\'s text ("Customer access token issued by the Larkspur account service.").',
      ],
      ['error', '/skills/0', 'skills[0]: still the "support" template\'s skill ("diagnose-connection").'],
      ['error', '/skills/1', 'skills[1]: still the "support" template\'s skill ("explain-bill").'],
      ['error', '/skills/2', 'skills[2]: still the "support" template\'s skill ("open-ticket").'],
      [
        'error',
        '/iconUrl',
        'iconUrl: still the "support" template\'s URL ("https://cdn.larkspur-telecom.com/agents/support/icon-256.png").',
      ],
    ]);
    expect(found[0]!.hint).toBe(
      'Give the agent your own name. This card still carries the "support" starter template of agent-card init.',
    );
  });

  it('is a warning in development and an error in strict', () => {
    const dev = validateAgentCard(initCard(), { profile: 'development' });
    expect(dev.valid).toBe(true);
    expect(dev.findings.filter((f) => f.rule === 'template-content').map((f) => [f.severity, f.path])).toEqual([
      ['warning', '/description'],
      ['warning', '/securitySchemes/customerToken/httpAuthSecurityScheme/description'],
      ['warning', '/skills/0'],
      ['warning', '/skills/1'],
      ['warning', '/skills/2'],
    ]);
    expect(templateFindings(initCard(), 'strict').map((f) => f.severity)).toEqual([
      'error',
      'error',
      'error',
      'error',
      'error',
    ]);
  });

  it('reports nothing once the user has replaced everything', () => {
    expect(templateFindings(ownCard())).toEqual([]);
    expect(validateAgentCard(ownCard(), { profile: 'production' }).valid).toBe(true);
  });

  it('lets a user keep one template skill on purpose', () => {
    const card = ownCard();
    card.skills.push(example('support').skills[1]);
    expect(templateFindings(card)).toEqual([]);
  });

  it('still reports the skills when the description is new but every template skill is kept', () => {
    const card = initCard();
    card.description = ownCard().description;
    expect(templateFindings(card).map((f) => f.path)).toEqual([
      '/securitySchemes/customerToken/httpAuthSecurityScheme/description',
      '/skills/0',
      '/skills/1',
      '/skills/2',
    ]);
  });

  it('sees through a light edit: one word changed, case and spacing', () => {
    const card = ownCard();
    card.description = `  ${example('support').description.replace('human', 'field').toUpperCase()}  `;
    expect(templateFindings(card).map((f) => f.path)).toEqual(['/description']);
  });

  it('matches a skill by id and name when its description was rewritten', () => {
    const card = initCard();
    card.description = ownCard().description;
    card.skills[0].description = 'Runs our own checks.';
    expect(templateFindings(card).map((f) => f.path)).toEqual([
      '/securitySchemes/customerToken/httpAuthSecurityScheme/description',
      '/skills/0',
      '/skills/1',
      '/skills/2',
    ]);
  });

  it('does not report a card that only shares the name or a host of a template', () => {
    const card = ownCard();
    card.name = 'Larkspur Telecom Support Agent';
    card.supportedInterfaces[0].url = 'https://support-agent.larkspur-telecom.com/a2a/v1';
    card.provider = { organization: 'Larkspur Telecom Ltd.', url: 'https://www.larkspur-telecom.com' };
    expect(templateFindings(card)).toEqual([]);
  });

  it('does not take a look-alike domain for the template domain', () => {
    const card = example('support');
    card.supportedInterfaces[0].url = 'https://support-agent.notlarkspur-telecom.com/a2a/v1';
    card.supportedInterfaces[1].url = 'https://larkspur-telecom.com.evil.io/a2a/rest';
    const paths = templateFindings(card).map((f) => f.path);
    expect(paths).not.toContain('/supportedInterfaces/0/url');
    expect(paths).not.toContain('/supportedInterfaces/1/url');
  });

  it('reports the template URLs anywhere outside skills: OAuth endpoints included', () => {
    const found = templateFindings(example('booking')).filter((f) => f.path.startsWith('/securitySchemes'));
    const at = 'securitySchemes.harbourlineId.oauth2SecurityScheme';
    expect(found.map((f) => f.message)).toEqual([
      `${at}.description: still the "booking" template's text ("Harbourline ID sign-in; the agent acts on behalf of the traveller.").`,
      `${at}.flows.authorizationCode.authorizationUrl: still the "booking" template's URL ("https://id.harbourline-travel.com/oauth2/authorize").`,
      `${at}.flows.authorizationCode.tokenUrl: still the "booking" template's URL ("https://id.harbourline-travel.com/oauth2/token").`,
      `${at}.flows.authorizationCode.refreshUrl: still the "booking" template's URL ("https://id.harbourline-travel.com/oauth2/token").`,
      `${at}.flows.authorizationCode.scopes["bookings:read"]: still the "booking" template's text ("See the traveller's bookings").`,
      `${at}.flows.authorizationCode.scopes["bookings:write"]: still the "booking" template's text ("Create, change and cancel bookings").`,
      `${at}.oauth2MetadataUrl: still the "booking" template's URL ("https://id.harbourline-travel.com/.well-known/oauth-authorization-server").`,
    ]);
  });

  it('never repeats a password from a template URL in its message', () => {
    const card = example('support');
    card.supportedInterfaces[0].url = 'https://agent:hunter2@support-agent.larkspur-telecom.com/a2a/v1';
    const found = templateFindings(card).find((f) => f.path === '/supportedInterfaces/0/url');
    expect(found?.message).toBe(
      'supportedInterfaces[0].url: still the "support" template\'s URL ("https://agent:***@support-agent.larkspur-telecom.com/a2a/v1").',
    );
  });

  it('walks a deeply nested card within the node bound, without a stack overflow', () => {
    const card = initCard();
    let deep: unknown = 'https://support-agent.larkspur-telecom.com/deep';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    card.metadataDeep = deep;
    const start = performance.now();
    const found = templateFindings(card, 'development');
    expect(performance.now() - start).toBeLessThan(5000);
    expect(found.map((f) => f.path)).toEqual([
      '/description',
      '/securitySchemes/customerToken/httpAuthSecurityScheme/description',
      '/skills/0',
      '/skills/1',
      '/skills/2',
    ]);
  });

  it('survives hostile values: wrong types, a 1 MiB description, 20 000 copies of a template skill', () => {
    const wrongTypes = {
      ...example('support'),
      securitySchemes: ownCard().securitySchemes,
      description: 42,
      skills: [null, 7, { id: {}, description: [] }],
    };
    expect(templateFindings(wrongTypes)).toEqual([]);
    const huge = { ...ownCard(), description: `${example('support').description} `.repeat(6000) };
    expect(templateFindings(huge)).toEqual([]);
    const skill = example('support').skills[0];
    const many = { ...ownCard(), skills: Array.from({ length: 20_000 }, (_, i) => ({ ...skill, id: `s${i}` })) };
    // One template skill of three kept (20 000 times): not the template.
    expect(templateFindings(many)).toEqual([]);
    // The rule alone, timed: one pass over the skills' words, whatever the number of templates.
    const ctx = createRuleContext('production', 'v1.0');
    const start = performance.now();
    checkTemplateContent(many, ctx);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(ctx.findings).toEqual([]);
  });
});

/** URLs, sentences and API key header names under `value`: what `init` copies and only the template has. */
function distinctiveValues(value: unknown, key = '', apiKey = false): string[] {
  if (typeof value === 'string')
    return /^https?:\/\//.test(value) || value.includes(' ') || (apiKey && key === 'name') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => distinctiveValues(v, key, apiKey));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => distinctiveValues(v, k, apiKey || k === 'apiKeySecurityScheme'));
  return [];
}

describe('TEMPLATE_FINGERPRINTS', () => {
  it.each(TEMPLATES)('says what examples/cards/%s.json says', (name) => {
    const card = example(name);
    const fingerprint = TEMPLATE_FINGERPRINTS.find((f) => f.template === name);
    const domains = [
      ...new Set(
        card.supportedInterfaces.map((i: { url: string }) => new URL(i.url).hostname.split('.').slice(1).join('.')),
      ),
    ];
    // When this fails, an example card changed: update src/validate/templates.ts to match.
    expect(fingerprint).toEqual({
      template: name,
      name: card.name,
      description: card.description,
      organization: card.provider.organization,
      domains,
      skills: card.skills.map((s: { id: string; name: string; description: string }) => ({
        id: s.id,
        name: s.name,
        description: s.description,
      })),
      distinctive: [...new Set(distinctiveValues([card.securitySchemes, card.capabilities.extensions]))],
    });
  });
});

describe('word hashes', () => {
  it('give every word of a shipped template text its own hash, so that no template match is missed', () => {
    for (const fingerprint of TEMPLATE_FINGERPRINTS) {
      for (const text of [fingerprint.description, ...fingerprint.skills.map((skill) => skill.description)]) {
        expect(wordHashes(text).size, text).toBe(words(text).size);
      }
    }
  });

  it('split and fold case as the words do, non-ASCII text included', () => {
    for (const text of [
      'Books FLIGHTS, books hotels.',
      'Ünïcode CAFÉ café',
      'ǅungla ǆ',
      'a1 A1 b-2',
      'İstanbul KELVIN \u212a',
    ]) {
      const exact = words(text);
      expect(wordHashes(text).size, text).toBe(exact.size);
      expect(wordHashes(text)).toEqual(wordHashes([...exact].join(' ')));
    }
  });
});
