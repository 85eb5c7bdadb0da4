import { AgentCardError, formatErrorFindings } from '../../errors';
import type { Finding, ValidationProfile } from '../../findings';
import type { AgentCard } from '../../model';
import { applyRuleOverrides, type CardRuleId, type ResolvedRuleOverrides } from '../../rules';
import { recordedFindings } from '../../validate/recorded';
import { validateAgentCardFindings, type validateAgentCard } from '../../validate/validate';

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
export function checkCard(value: unknown, profile: ValidationProfile, rules?: ResolvedRuleOverrides): CardCheck {
  const validated = recordedFindings(value, profile) ?? validateAgentCardFindings(value, { profile }).findings;
  const { findings } = applyRuleOverrides(validated, rules);
  const card = value as Partial<AgentCard> | null;
  // The responder cannot serve an extended card nobody can authenticate for (spec §13.3), so
  // this stays an error here whatever the rule set (or the user's `rules`) says.
  if (
    card?.capabilities?.extendedAgentCard === true &&
    Object.keys(card.securitySchemes ?? {}).length === 0 &&
    !findings.some((f) => f.rule === 'extended-card-requires-security' && f.severity === 'error')
  ) {
    findings.unshift({
      rule: 'extended-card-requires-security' satisfies CardRuleId,
      severity: 'error',
      path: '/capabilities/extendedAgentCard',
      message: 'capabilities.extendedAgentCard: is true but the card declares no securitySchemes.',
      hint: 'Declare the scheme that extended.authenticate checks in securitySchemes (spec §13.3), or remove extendedAgentCard.',
    });
  }
  // The validator's sdk-in-memory-shape error leads: it says what happened, the others follow from it.
  const sdkShape = findings.findIndex((f) => f.rule === 'sdk-in-memory-shape');
  if (sdkShape > 0) findings.unshift(...findings.splice(sdkShape, 1));
  return { valid: !findings.some((f) => f.severity === 'error'), findings };
}

/**
 * Validates a card with the configured profile. Errors throw one `ERR_AGENT_CARD_INVALID`
 * listing every finding; warnings go to `warn` (once per distinct text, by the caller).
 */
export function validateVariant(
  card: unknown,
  options: { readonly profile: ValidationProfile; readonly rules?: ResolvedRuleOverrides | undefined },
  warn: (findings: Finding[]) => void,
  where = 'card',
): AgentCard {
  const check = checkCard(card, options.profile, options.rules);
  const errors = check.findings.filter((f) => f.severity === 'error');
  if (!check.valid || errors.length > 0) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_INVALID',
      `${where}: the Agent Card has ${errors.length} validation error(s) (profile ${options.profile}). Fix them; an invalid card is never served:\n${formatErrorFindings(errors)}`,
      { findings: [...errors, ...check.findings.filter((f) => f.severity !== 'error')] },
    );
  }
  const warnings = check.findings.filter((f) => f.severity === 'warning');
  if (warnings.length > 0) warn(warnings);
  return card as AgentCard;
}
