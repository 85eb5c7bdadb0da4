export { AgentCardModule } from './agent-card.module';
export {
  AGENT_CARD_MODULE_OPTIONS,
  type AgentCardModuleAsyncOptions,
  type AgentCardModuleForRootOptions,
} from './agent-card.module-definition';
export type {
  AgentCardGuard,
  AgentCardModuleExtendedOptions,
  AgentCardModuleOptions,
  NestAgentCardOptions,
} from './agent-card.options';
export { AgentCardService } from './agent-card.service';
export { buildAgentCard, type BuildAgentCardOptions, type BuiltAgentCard } from './agent-card.offline';
export { AgentSkills, Skill, type AgentSkillsOptions, type SkillOptions } from './skill.decorator';
export { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';
export { toSkillId, toSkillName } from './skill-naming';
