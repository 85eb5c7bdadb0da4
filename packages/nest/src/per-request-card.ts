import {
  AgentCardError,
  type AgentCard,
  type AgentCardContext,
  type AgentSkill,
  type Principal,
} from '@agent-card/core';
import * as messages from './agent-card.messages';
import type { ExtendedContent } from './extended-card';

/** A per-request card: the `card` option as a function of the request context. */
export type CardFunction = (ctx: AgentCardContext<any>) => AgentCard | Promise<AgentCard>;

/** Appends the decorated public skills to every variant of a per-request card. */
export function withSkills(card: CardFunction, skills: readonly AgentSkill[]): CardFunction {
  if (skills.length === 0) return card;
  const add = (variant: AgentCard): AgentCard => ({ ...variant, skills: [...(variant.skills ?? []), ...skills] });
  return (ctx) => {
    const variant = card(ctx);
    return variant instanceof Promise ? variant.then(add) : add(variant);
  };
}

/**
 * For a per-request card: the extended content core merges over each variant, i.e. the
 * `extended: true` skills followed by what `extended.card` returns.
 */
export function withExtendedSkills(extra: ExtendedContent, skills: readonly AgentSkill[]): ExtendedContent {
  if (skills.length === 0) return extra;
  const combine = (
    content: Partial<AgentCard> | readonly AgentSkill[] | undefined,
  ): Partial<AgentCard> | readonly AgentSkill[] => {
    if (content === undefined) return skills;
    if (Array.isArray(content)) return [...skills, ...(content as readonly AgentSkill[])];
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.partialExtendedPerRequest);
  };
  if (typeof extra === 'function') return async (principal: Principal) => combine(await extra(principal));
  return combine(extra);
}
