import { SetMetadata } from '@nestjs/common';
import type { SecurityRequirement } from '@agent-card/core';
import { AGENT_SKILLS_METADATA, SKILL_METADATA } from './agent-card.constants';

/**
 * What {@link Skill} declares about one controller method: one `AgentSkill` of the card.
 * `description` and `tags` are required by the card; when they are missing (for example with the
 * `@Skill('id')` shorthand) the application fails at start-up with a message naming the method.
 * @see A2A spec §4.4.5 `AgentSkill`
 */
export interface SkillOptions {
  /**
   * Unique id of the skill within the card.
   * @default the method name in kebab-case (`createOrder` → `create-order`)
   */
  id?: string;
  /**
   * Human-readable name.
   * @default derived from the id (`create-order` → `Create order`)
   */
  name?: string;
  /** What the skill does, for people and for agents choosing it. Required. */
  description?: string;
  /**
   * Keywords; at least one, from here or from {@link AgentSkills} on the controller (the two
   * lists are merged, controller tags first, duplicates removed).
   */
  tags?: readonly string[];
  /** Example prompts or scenarios. */
  examples?: readonly string[];
  /**
   * Input media types, overriding the card's `defaultInputModes`.
   * @default the controller's {@link AgentSkillsOptions.inputModes}, else none
   */
  inputModes?: readonly string[];
  /**
   * Output media types, overriding the card's `defaultOutputModes`.
   * @default the controller's {@link AgentSkillsOptions.outputModes}, else none
   */
  outputModes?: readonly string[];
  /**
   * Security needed for this skill, overriding the card-level requirements.
   * @default the controller's {@link AgentSkillsOptions.securityRequirements}, else none
   */
  securityRequirements?: readonly SecurityRequirement[];
  /**
   * Publish the skill only in the extended card (spec §3.1.11), behind the module's `guards` or
   * `extended.authenticate`.
   * @default the controller's {@link AgentSkillsOptions.extended}, else `false`
   */
  extended?: boolean;
  /**
   * With `AgentCardModule.forRoot({ agents })`: the id of the agent whose card lists the skill.
   * @default the controller's {@link AgentSkillsOptions.agent}, else the `default` agent
   */
  agent?: string;
}

/**
 * Controller-wide defaults for every {@link Skill} of a controller. A value on the method wins,
 * except `tags`, which are merged (controller tags first, duplicates removed).
 */
export interface AgentSkillsOptions {
  /** Tags added to every skill of the controller. */
  tags?: readonly string[];
  /** Default input media types of the controller's skills. */
  inputModes?: readonly string[];
  /** Default output media types of the controller's skills. */
  outputModes?: readonly string[];
  /** Default security requirements of the controller's skills. */
  securityRequirements?: readonly SecurityRequirement[];
  /** Publish every skill of the controller only in the extended card. */
  extended?: boolean;
  /** With `forRoot({ agents })`: the id of the agent whose card lists the controller's skills. */
  agent?: string;
}

/**
 * Declares that a controller method implements an A2A skill. The explorer collects it at start-up
 * and publishes it in the Agent Card.
 *
 * Stores one plain object (`SkillOptions`, the string shorthand becomes `{ id }`) under
 * {@link SKILL_METADATA} on the method; it does nothing else.
 *
 * @example
 * ```ts
 * @Controller('orders')
 * export class OrdersController {
 *   @Post()
 *   @Skill({ description: 'Places an order for a product.', tags: ['orders'] })
 *   create() {}
 *
 *   @Get(':id')
 *   @Skill('track-order', { description: 'Tracks an order.', tags: ['orders'] })
 *   track() {}
 * }
 * ```
 * @see A2A spec §4.4.5 `AgentSkill`
 */
export function Skill(options?: SkillOptions): MethodDecorator;
/** `@Skill('id')` shorthand, optionally with the other options. */
export function Skill(id: string, options?: Omit<SkillOptions, 'id'>): MethodDecorator;
export function Skill(idOrOptions?: string | SkillOptions, rest?: Omit<SkillOptions, 'id'>): MethodDecorator {
  const metadata: SkillOptions = typeof idOrOptions === 'string' ? { ...rest, id: idOrOptions } : { ...idOrOptions };
  return SetMetadata(SKILL_METADATA, metadata);
}

/**
 * Defaults for the {@link Skill} methods of a controller. Stores one plain object
 * (`AgentSkillsOptions`) under {@link AGENT_SKILLS_METADATA} on the class.
 *
 * @example
 * ```ts
 * @AgentSkills({ tags: ['orders'], outputModes: ['application/json'] })
 * @Controller('orders')
 * export class OrdersController {}
 * ```
 */
export function AgentSkills(options: AgentSkillsOptions): ClassDecorator {
  return SetMetadata(AGENT_SKILLS_METADATA, { ...options });
}
