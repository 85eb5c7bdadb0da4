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

/**
 * Reflect-metadata key under which {@link Skill} also lists, on the prototype that declares the
 * methods, its decorated methods (`readonly SkillMethodRecord[]`: name, decorated function and
 * options; one list per prototype, each name once). The explorer reads this one entry per
 * controller instead of scanning every method and reading each one's metadata. Internal: not
 * exported from the package.
 */
export const SKILL_METHODS_METADATA = 'agent-card:skill-methods';
