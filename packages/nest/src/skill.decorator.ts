import { SetMetadata } from '@nestjs/common';
import type { SecurityRequirement } from '@agent-card/core';
import { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';

/**
 * What {@link Skill} declares about one controller method: one `AgentSkill` of the card. A
 * missing `description` or `tags` fails start-up with a message naming the method.
 * @see A2A spec §4.4.5 `AgentSkill`
 */
export interface SkillOptions {
  /** @default the method name in kebab-case (`createOrder` → `create-order`) */
  id?: string;
  /** @default derived from the id (`create-order` → `Create order`) */
  name?: string;
  description?: string;
  /** Merged with the controller's `@AgentSkills()` tags (those first, duplicates removed). */
  tags?: readonly string[];
  examples?: readonly string[];
  /** @default the controller's, else the card's `defaultInputModes` */
  inputModes?: readonly string[];
  /** @default the controller's, else the card's `defaultOutputModes` */
  outputModes?: readonly string[];
  /** @default the controller's, else the route's `@ApiSecurity()`, else the card's */
  securityRequirements?: readonly SecurityRequirement[];
  /** Publish the skill only in the extended card. @default the controller's, else `false` */
  extended?: boolean;
  /** With `forRoot({ agents })`: the agent whose card lists it. @default the controller's, else `default` */
  agent?: string;
}

/** Controller-wide defaults of {@link Skill}: a method's value wins, except `tags`, which are merged. */
export type AgentSkillsOptions = Pick<
  SkillOptions,
  'tags' | 'inputModes' | 'outputModes' | 'securityRequirements' | 'extended' | 'agent'
>;

/**
 * Declares that a controller method implements an A2A skill; stores its options (the string
 * shorthand as `{ id }`) under {@link SKILL_METADATA}.
 *
 * @example
 * ```ts
 * @Get(':id')
 * @Skill('track-order', { description: 'Tracks an order.', tags: ['orders'] })
 * track() {}
 * ```
 */
export function Skill(options?: SkillOptions): MethodDecorator;
/** `@Skill('id')` shorthand, optionally with the other options. */
export function Skill(id: string, options?: Omit<SkillOptions, 'id'>): MethodDecorator;
export function Skill(idOrOptions?: string | SkillOptions, rest?: Omit<SkillOptions, 'id'>): MethodDecorator {
  const metadata: SkillOptions = typeof idOrOptions === 'string' ? { ...rest, id: idOrOptions } : { ...idOrOptions };
  return SetMetadata(SKILL_METADATA, metadata);
}

/**
 * Defaults for the {@link Skill} methods of a controller, stored under {@link AGENT_SKILLS_METADATA}.
 * @example `@AgentSkills({ tags: ['orders'], outputModes: ['application/json'] })`
 */
export function AgentSkills(options: AgentSkillsOptions): ClassDecorator {
  return SetMetadata(AGENT_SKILLS_METADATA, { ...options });
}
