import type { AgentSkill } from '@agent-card/core';
import type { AgentSkillsOptions, SkillOptions } from './skill.decorator';
import { toSkillId, toSkillName } from './skill-naming';

/** One skill and where it was declared, as the explorer found it. */
export interface SkillSource {
  /** `Controller#method`, or `AgentCardModule skills[i]` for a static skill. */
  origin: string;
  /** The decorator to name in error messages, or the option path for a static skill. */
  declaredBy: string;
  /** The controller's name, when the skill comes from a decorator. */
  controller?: string;
  /** The skill with defaults applied; may be incomplete until checked. */
  skill: AgentSkill;
  /** Only in the extended card. */
  extended: boolean;
}

const copy = <T>(list: readonly T[] | undefined): T[] | undefined => (list ? [...list] : undefined);

/**
 * Applies `@AgentSkills()` defaults and the id/name defaults to one `@Skill()`. Method values
 * win; tags are merged (controller tags first, duplicates removed).
 */
export function skillFromDecorator(
  controller: string,
  method: string,
  options: SkillOptions,
  defaults: AgentSkillsOptions = {},
): SkillSource {
  const id = options.id ?? toSkillId(method);
  const tags = [...new Set([...(defaults.tags ?? []), ...(options.tags ?? [])])];
  const skill: AgentSkill = {
    id,
    name: options.name ?? (typeof id === 'string' ? toSkillName(id) : (id as never)),
    description: options.description as string,
    tags,
  };
  const examples = copy(options.examples);
  const inputModes = copy(options.inputModes ?? defaults.inputModes);
  const outputModes = copy(options.outputModes ?? defaults.outputModes);
  const securityRequirements = copy(options.securityRequirements ?? defaults.securityRequirements);
  if (examples) skill.examples = examples;
  if (inputModes) skill.inputModes = inputModes;
  if (outputModes) skill.outputModes = outputModes;
  if (securityRequirements) skill.securityRequirements = securityRequirements;
  return {
    origin: `${controller}#${method}`,
    declaredBy: `@Skill() on ${controller}#${method}`,
    controller,
    skill,
    extended: options.extended ?? defaults.extended ?? false,
  };
}

/** Wraps one of the module's static `skills` so errors can name it. */
export function skillFromOptions(skill: AgentSkill, index: number): SkillSource {
  return {
    origin: `AgentCardModule skills[${index}]`,
    declaredBy: `skills[${index}] of AgentCardModule.forRoot()`,
    skill,
    extended: false,
  };
}
