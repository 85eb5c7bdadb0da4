import { AgentCardError, type AgentCardOptions } from '@agent-card/core';
import * as messages from './agent-card.messages';
import type { AgentCardModuleOptions, AgentCardServingOption } from './agent-card.options';

/** Option keys that belong to the responder, not to the card. */
export const RESPONDER_KEYS = [
  'profile',
  'contentType',
  'cacheControl',
  'cors',
  'legacy',
  'trustProxy',
  'allowedOrigins',
  'maxConcurrentBuilds',
  'cacheKey',
  'allowedTenants',
  'maxVariants',
  'variantMaxAge',
  'staleIfError',
  'retryAfter',
  'onError',
  'logger',
  'sign',
  'viewer',
] as const satisfies readonly AgentCardServingOption[];

// Fails to compile when core gains a responder option this list lacks, which would otherwise be
// taken for a card field.
const everyServingOption: Exclude<AgentCardServingOption, (typeof RESPONDER_KEYS)[number]> extends never
  ? true
  : never = true;
void everyServingOption;

/**
 * The module options as the card's fields and the core responder's options (the `logger`
 * defaulting to `fallbackLogger`); `base` is the `card` option.
 */
export function splitOptions(options: AgentCardModuleOptions, fallbackLogger: { warn(message: string): void }) {
  const {
    card: base,
    skills: _skills,
    extended: _extended,
    guards: _guards,
    serve: _serve,
    openApi: _openApi,
    tenant,
    ...fields
  } = options;
  const responderOptions: AgentCardOptions<any> = { logger: fields.logger ?? fallbackLogger };
  const definition: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if ((RESPONDER_KEYS as readonly string[]).includes(key)) (responderOptions as Record<string, unknown>)[key] = value;
    else definition[key] = value;
  }
  if (typeof tenant === 'function') responderOptions.tenant = tenant;
  else if (tenant !== undefined) definition.tenant = tenant;
  if (base !== undefined && Object.keys(definition).length > 0) {
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.cardAndFields(Object.keys(definition)));
  }
  return { base, definition, responderOptions };
}
