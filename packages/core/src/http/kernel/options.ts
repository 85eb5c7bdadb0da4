// The options every card has, whatever features are on: the card, the validation profile, the
// headers of the documents, CORS, where errors and warnings go, and signing.
import { AgentCardError } from '../../errors';
import type { ValidationProfile } from '../../findings';
import type { AgentCard } from '../../model';
import { checkRuleOverrides, type ResolvedRuleOverrides } from '../../rules';
import type { AgentCardSigner } from '../../sign/sign';
import { type ResolvedSigning, resolveSigning } from '../../sign/signing-options';
import { defaultProfile } from '../../validate/validate';
import { type CorsSetting, resolveCors } from './cors';
import type { AgentCardContext } from './exchange';
import { createHealth, type Health } from './health';
import type { Report } from './problems';
import { showValue } from '../../util';

/** The kernel's options after validation, with every default applied. */
export interface CardSettings<Req = unknown> {
  card: AgentCard | ((ctx: AgentCardContext<Req>) => AgentCard | Promise<AgentCard>) | undefined;
  profile: ValidationProfile;
  /** The user's per-rule settings (`rules`), applied to every variant's validation. */
  rules: ResolvedRuleOverrides | undefined;
  contentType: string;
  cacheControl: string | false;
  cors: CorsSetting;
  onError: (error: unknown) => void;
  logger: Pick<Console, 'warn'>;
  /** Whether `sign` is set (even when it failed its checks). */
  signed: boolean;
  /** Signs each variant once when it is built; `undefined` without `sign`. */
  signer: AgentCardSigner | undefined;
  /** The published key set and the start-up warnings of `sign`; `undefined` without `sign`. */
  signing: ResolvedSigning | undefined;
  /** The agent's id when the responder serves `agents` (what its answers are about). */
  agent: string | undefined;
  /** Where rebuilds report whether they succeeded (shared by every agent of a responder). */
  health: Health;
}

/** What the responder knows about a card besides its options: the agent it is, and its health. */
export interface CardContext {
  agent?: string;
  health?: Health;
}

/** The top-level options the kernel reads. */
export const KERNEL_KEYS = [
  'card',
  'profile',
  'rules',
  'contentType',
  'cacheControl',
  'cors',
  'onError',
  'logger',
  'sign',
];

const PROFILES = ['development', 'production', 'strict'];
/** Visible ASCII and tabs only: what a header value may hold without being rejected by Node. */
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;

/** Checks the kernel's options; problems go to `err` (and `problems` for whole lines). */
export function resolveCardSettings<Req>(
  o: Record<string, unknown>,
  err: Report,
  problems: string[],
  context: CardContext = {},
): CardSettings<Req> {
  const card = o.card;
  if (
    card !== undefined &&
    (typeof card !== 'object' || card === null || Array.isArray(card)) &&
    typeof card !== 'function'
  )
    err(
      'card',
      'must be an Agent Card object or a function returning one',
      card,
      'Pass the card object, or (ctx) => card.',
    );
  if (o.profile !== undefined && !PROFILES.includes(o.profile as string))
    err('profile', 'unknown validation profile', o.profile, `Use one of ${PROFILES.join(', ')}.`);
  if (o.contentType !== undefined && (typeof o.contentType !== 'string' || !HEADER_VALUE.test(o.contentType)))
    err('contentType', 'must be a non-empty header value', o.contentType, "Use e.g. 'application/json'.");
  const cacheControl = o.cacheControl;
  if (
    cacheControl !== undefined &&
    cacheControl !== false &&
    (typeof cacheControl !== 'string' || !HEADER_VALUE.test(cacheControl))
  )
    err(
      'cacheControl',
      'must be a Cache-Control value or false',
      cacheControl,
      "Use e.g. 'public, max-age=600', or false to send none.",
    );
  const rules = checkRuleOverrides(o.rules, 'options.rules');
  problems.push(...rules.problems);
  const cors = resolveCors(o.cors, err);
  if (o.onError !== undefined && typeof o.onError !== 'function')
    err('onError', 'must be a function', o.onError, 'Pass a function or leave it out.');
  const logger = o.logger as Pick<Console, 'warn'> | undefined;
  if (logger !== undefined && (typeof logger !== 'object' || logger === null || typeof logger.warn !== 'function'))
    err('logger', 'must have a warn(message) method', logger, 'Pass console, or a logger with warn().');
  let signing: ResolvedSigning | undefined;
  if (o.sign !== undefined) {
    try {
      signing = resolveSigning(o.sign as Parameters<typeof resolveSigning>[0], 'options.sign');
    } catch (error) {
      problems.push(error instanceof AgentCardError ? error.message : `options.sign: ${String(error)}`);
    }
  }
  return {
    card: card as CardSettings<Req>['card'],
    profile: (o.profile as ValidationProfile | undefined) ?? defaultProfile(),
    rules: rules.overrides,
    contentType: (o.contentType as string | undefined) ?? 'application/a2a+json',
    cacheControl: (cacheControl as string | false | undefined) ?? 'public, max-age=3600',
    cors,
    onError: (o.onError as ((error: unknown) => void) | undefined) ?? (() => {}),
    logger: logger ?? console,
    signed: o.sign !== undefined,
    signer: signing?.signer,
    signing,
    agent: context.agent,
    health: context.health ?? createHealth(),
  };
}

/** The members of `dynamic`. */
export const DYNAMIC_KEYS = [
  'allowedOrigins',
  'allowedTenants',
  'trustProxy',
  'tenant',
  'cacheKey',
  'maxVariants',
  'variantMaxAge',
  'staleIfError',
  'maxConcurrentBuilds',
  'retryAfter',
] as const;

/** Members that only a card function accepts (the others also serve a static card). */
export const DYNAMIC_ONLY = [
  'cacheKey',
  'tenant',
  'allowedTenants',
  'variantMaxAge',
  'staleIfError',
  'allowedOrigins',
  'maxConcurrentBuilds',
] as const;

/**
 * The dynamic-card options written at the top level, as before they were grouped: each is a
 * problem that shows where it goes now.
 */
export function reportMovedOptions(o: Record<string, unknown>, problems: string[], at = 'options'): void {
  for (const key of DYNAMIC_KEYS) {
    if (o[key] !== undefined)
      problems.push(
        `${at}.${key}: moved into dynamic (${showValue(o[key])}). Write dynamic: { ${key}: … } instead, next to the other dynamic-card options.`,
      );
  }
}
