/**
 * Reflect-metadata key under which {@link Skill} stores its {@link SkillOptions} on a method.
 * The value is one plain object, exactly as given (a string shorthand becomes `{ id }`).
 */
export const SKILL_METADATA = 'agent-card:skill';

/**
 * Reflect-metadata key under which {@link AgentSkills} stores its {@link AgentSkillsOptions} on a
 * controller class.
 */
export const AGENT_SKILLS_METADATA = 'agent-card:agent-skills';
