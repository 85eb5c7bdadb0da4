import { AgentCardError, formatFindings } from '../errors';
import { toPointer, type Finding, type ValidationProfile } from '../findings';
import type { ResolvedAgentCardOptions } from './options';
import type { AgentCard } from '../model';
import { recordedFindings } from '../validate/recorded';
import { validateAgentCardFindings, type validateAgentCard } from '../validate/validate';

/** What {@link checkCard} reports. */
export interface CardCheck {
  valid: boolean;
  findings: Finding[];
}

/**
 * Validates a card variant before it is served, with the full rule catalogue of
 * {@link validateAgentCard} for the configured profile. A card from `defineAgentCard` was
 * validated there with the same rules; its recorded findings are reused instead.
 */
export function checkCard(value: unknown, profile: ValidationProfile): CardCheck {
  const findings = [...(recordedFindings(value, profile) ?? validateAgentCardFindings(value, { profile }).findings)];
  const card = value as Partial<AgentCard> | null;
  // The responder cannot serve an extended card nobody can authenticate for (spec §13.3), so
  // this stays an error here whatever the rule set says.
  if (
    card?.capabilities?.extendedAgentCard === true &&
    Object.keys(card.securitySchemes ?? {}).length === 0 &&
    !findings.some((f) => f.rule === 'extended-card-requires-security' && f.severity === 'error')
  ) {
    findings.unshift({
      rule: 'extended-card-requires-security',
      severity: 'error',
      path: '/capabilities/extendedAgentCard',
      message: 'capabilities.extendedAgentCard: is true but the card declares no securitySchemes.',
      hint: 'Declare the scheme that extended.authenticate checks in securitySchemes (spec §13.3), or remove extendedAgentCard.',
    });
  }
  const sdkShape = sdkInMemoryShape(card);
  if (sdkShape !== undefined) findings.unshift(sdkShape);
  return { valid: !findings.some((f) => f.severity === 'error'), findings };
}

/**
 * A card in the in-memory shape of `@a2a-js/sdk` (its `AgentCard` type, where a security scheme
 * is `{ scheme: { $case, value } }`) is not the card's JSON; the SDK's own client cannot read it
 * back once served. Names the converter instead of leaving only shape errors.
 */
function sdkInMemoryShape(card: Partial<AgentCard> | null): Finding | undefined {
  const schemes = card?.securitySchemes;
  if (schemes === null || typeof schemes !== 'object') return undefined;
  for (const [name, scheme] of Object.entries(schemes)) {
    const inner = (scheme as { scheme?: { $case?: unknown } } | null)?.scheme;
    if (inner === null || typeof inner !== 'object' || typeof inner.$case !== 'string') continue;
    return {
      rule: 'sdk-in-memory-shape',
      severity: 'error',
      path: toPointer(['securitySchemes', name, 'scheme']),
      message: `securitySchemes.${name}: is in the in-memory shape of @a2a-js/sdk ({"scheme": {"$case": ${JSON.stringify(inner.$case.slice(0, 64))}, "value": …}}), not the JSON of an Agent Card.`,
      hint: 'Convert the card first: fromA2aJsCard(card) from @agent-card/a2a-js (it runs AgentCard.toJSON of @a2a-js/sdk).',
    };
  }
  return undefined;
}

/**
 * Validates a card with the configured profile. Errors throw one `ERR_AGENT_CARD_INVALID`
 * listing every finding; warnings go to `warn` (once per distinct text, by the caller).
 */
export function validateVariant(
  card: unknown,
  options: ResolvedAgentCardOptions<any>,
  warn: (findings: Finding[]) => void,
  where = 'card',
): AgentCard {
  const check = checkCard(card, options.profile);
  const errors = check.findings.filter((f) => f.severity === 'error');
  if (!check.valid || errors.length > 0) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_INVALID',
      `${where}: the Agent Card has ${errors.length} validation error(s) (profile ${options.profile}). Fix them; an invalid card is never served:\n${formatFindings(errors)}`,
      { findings: [...errors, ...check.findings.filter((f) => f.severity !== 'error')] },
    );
  }
  const warnings = check.findings.filter((f) => f.severity === 'warning');
  if (warnings.length > 0) warn(warnings);
  return card as AgentCard;
}
