import { mergeExtendedCard, type AgentCard, type AgentSkill, type ExtendedAgentCardOptions } from '@agent-card/core';
import type { AgentCardBuild } from './agent-card.options';

/** What core merges over the public card for the extended card (`extended.card`). */
export type ExtendedContent = ExtendedAgentCardOptions<any>['card'];

/** The extended card of a build: its public card, its extended skills, then `extra` merged by core. */
export function extendedCardOf(
  build: AgentCardBuild,
  extra: Partial<AgentCard> | readonly AgentSkill[] | undefined,
): AgentCard {
  const { card, extendedSkills } = build;
  const withExtendedSkills = extendedSkills.length > 0 ? mergeExtendedCard(card, extendedSkills) : card;
  return mergeExtendedCard(withExtendedSkills, extra);
}

/** The extended card when it is the same for every principal. */
export function staticCardOf(content: ExtendedContent): AgentCard | undefined {
  return content !== undefined && typeof content !== 'function' && !Array.isArray(content)
    ? (content as AgentCard)
    : undefined;
}
