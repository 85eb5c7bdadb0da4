import { mergeExtendedCard, type AgentCard, type AgentSkill, type ExtendedAgentCardOptions } from '@agent-card/core';

/** What core merges over the public card for the extended card (`extended.card`). */
export type ExtendedContent = ExtendedAgentCardOptions<any>['card'];

/** A fully-built single card and what goes only into its extended card. */
export interface AgentCardBuild {
  card: AgentCard;
  extendedSkills: readonly AgentSkill[];
}

/** The extended card of a build: its public card, its extended skills, then `extra` merged by core. */
export function extendedCardOf(
  build: AgentCardBuild,
  extra: Partial<AgentCard> | readonly AgentSkill[] | undefined,
): AgentCard {
  const { card, extendedSkills } = build;
  return mergeExtendedCard(extendedSkills.length > 0 ? mergeExtendedCard(card, extendedSkills) : card, extra);
}

/** The whole extended card of `build` for core to serve (one merge rule), per principal when `extra` is a function. */
export function extendedContentOf(build: AgentCardBuild, extra: ExtendedContent): ExtendedContent {
  if (typeof extra === 'function') return async (principal) => extendedCardOf(build, await extra(principal));
  return extendedCardOf(build, extra);
}
