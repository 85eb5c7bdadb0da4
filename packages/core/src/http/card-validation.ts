import { AgentCardError, formatFindings } from '../errors';
import type { Finding, ValidationProfile } from '../findings';
import type { ResolvedAgentCardOptions } from './options';
import { toPointer } from '../findings';
import { AgentCardSchema, type AgentCard } from '../model';

/** What {@link checkCard} reports. */
export interface CardCheck {
  valid: boolean;
  card?: AgentCard;
  findings: Finding[];
}

/**
 * Validates a card variant before it is served.
 */
export function checkCard(value: unknown, _profile: ValidationProfile): CardCheck {
  const parsed = AgentCardSchema.safeParse(value);
  const findings: Finding[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        rule: 'field-types',
        severity: 'error' as const,
        path: toPointer(issue.path as (string | number)[]),
        message: `${toPointer(issue.path as (string | number)[]) || '/'}: ${issue.message}.`,
        hint: 'Fix the field to match the A2A v1.0 AgentCard shape.',
      }));
  const card = parsed.success ? parsed.data : undefined;
  if (card?.capabilities.extendedAgentCard === true && Object.keys(card.securitySchemes ?? {}).length === 0) {
    findings.push({
      rule: 'extended-card-requires-security',
      severity: 'error',
      path: '/capabilities/extendedAgentCard',
      message: '/capabilities/extendedAgentCard: the extended card is declared but the card has no securitySchemes.',
      hint: 'Declare the scheme that authenticate() checks in securitySchemes (spec §13.3), or remove extendedAgentCard.',
    });
  }
  return { valid: !findings.some((f) => f.severity === 'error'), card: value as AgentCard, findings };
}

/**
 * Validates a card with the configured profile. Errors throw one `ERR_AGENT_CARD_INVALID`
 * listing every finding; warnings go to `warn` (once per distinct text, by the caller).
 */
export function validateVariant(card: unknown, options: ResolvedAgentCardOptions<any>, warn: (findings: Finding[]) => void, where = 'card'): AgentCard {
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

