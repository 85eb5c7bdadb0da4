import { computeEtag } from '../../http/kernel/etag';
import type { AgentCardContext, AgentCardOptions } from '../../http/types';
import type { AgentCard } from '../../model';
import { CONFORMANCE_CARD, CONFORMANCE_TOKEN } from '../cards';
import { readRequestHeader } from '../request-header';

export const CARD_PATH = '/.well-known/agent-card.json';
export const LEGACY_PATH = '/.well-known/agent.json';
export const CARD_BYTES = new TextEncoder().encode(JSON.stringify(CONFORMANCE_CARD));
export const CARD_ETAG = computeEtag(CARD_BYTES);

/** Accepts the bearer {@link CONFORMANCE_TOKEN}. */
export const authenticate = (raw: unknown) =>
  readRequestHeader(raw, 'authorization') === `Bearer ${CONFORMANCE_TOKEN}` ? { sub: 'conformance' } : undefined;

/** The card a card function builds: {@link CONFORMANCE_CARD} with one interface at the request's origin. */
export function cardFor(ctx: AgentCardContext): AgentCard {
  return {
    ...CONFORMANCE_CARD,
    supportedInterfaces: [{ url: `${ctx.origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
  };
}

/** The test hosts listen on 127.0.0.1; the conformance names stand for public origins. */
export const conformanceOrigins = (origin: string) =>
  origin.startsWith('http://127.0.0.1:') || /^https:\/\/[ab]\.conformance\.dev$/.test(origin);

/** The options of a card function (dynamic cards), as the fixtures set them. */
export type DynamicCardOptions = Pick<
  NonNullable<AgentCardOptions<any>['dynamic']>,
  'allowedOrigins' | 'trustProxy' | 'maxConcurrentBuilds' | 'retryAfter' | 'staleIfError' | 'variantMaxAge'
>;

/**
 * Puts the dynamic-card options into a fixture's options: the one place the suite spells
 * where they go in `AgentCardOptions`.
 */
export function dynamicOptions(options: DynamicCardOptions): Partial<AgentCardOptions<any>> {
  return { dynamic: options };
}
