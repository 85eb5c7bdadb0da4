import type { AgentSkill } from '@agent-card/core';
import type { OpenApiRoute } from './openapi-route';
import type { AgentSkillsOptions, SkillOptions } from './skill.decorator';
import { toSkillId, toSkillName } from './skill-naming';

/** One skill and where it was declared, as the explorer found it. */
export interface SkillSource {
  /** `Controller#method`, or `AgentCardModule skills[i]`; `declaredBy`: the decorator or option to fix. */
  readonly origin: string;
  readonly declaredBy: string;
  readonly controller?: string;
  /** With defaults applied; may be incomplete until checked. */
  readonly skill: AgentSkill;
  readonly extended: boolean;
  readonly openApi?: OpenApiRoute;
  /** The decorator to name for a problem with `securityRequirements`, when not `declaredBy`. */
  readonly securityDeclaredBy?: string;
  readonly agent?: string;
}

/**
 * A `@Skill()` as found on a controller method. Every instance has the same fields, set once;
 * the names used in messages are worded only when a message needs them (a boot of a thousand
 * skills words none).
 */
class DecoratedSkill implements SkillSource {
  constructor(
    readonly controller: string,
    private readonly method: string,
    readonly skill: AgentSkill,
    readonly extended: boolean,
    readonly openApi: OpenApiRoute | undefined,
    readonly agent: string | undefined,
    /** `securityRequirements` came from the route's OpenAPI decorators. */
    private readonly securityFromOpenApi: boolean,
  ) {}

  get origin(): string {
    return `${this.controller}#${this.method}`;
  }

  get declaredBy(): string {
    return `@Skill() on ${this.origin}`;
  }

  get securityDeclaredBy(): string | undefined {
    return this.securityFromOpenApi ? `@ApiSecurity() / @ApiBearerAuth() / @ApiOAuth2() on ${this.origin}` : undefined;
  }
}

/** A copy of a list, so the card shares no array with metadata; a non-list is passed on for validation. */
function copy<T>(list: readonly T[] | undefined): T[] | undefined {
  if (list == null) return undefined;
  return Array.isArray(list) ? list.slice() : (list as unknown as T[]);
}

/** `a` then `b`, each value once; one that is not a list is passed on, for validation to report. */
function mergeTags(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] {
  const notList = [a, b].find((list) => list != null && !Array.isArray(list));
  if (notList !== undefined) return notList as string[];
  const out: string[] = [];
  addTags(out, a);
  addTags(out, b);
  return out;
}

/** Indexed loops: this runs once per skill at boot, mostly before the JIT has optimised it. */
function addTags(out: string[], list: readonly string[] | undefined): void {
  if (list == null) return;
  for (let i = 0; i < list.length; i++) if (!out.includes(list[i]!)) out.push(list[i]!);
}

/**
 * One `@Skill()` with its defaults applied: the method's values win, then the controller's
 * `@AgentSkills()`, then the route's OpenAPI metadata (README: "Reusing what `@nestjs/swagger`
 * already says"), then the id and name derived from the method name.
 */
export function skillFromDecorator(
  controller: string,
  method: string,
  options: SkillOptions,
  defaults: AgentSkillsOptions = {},
  openApi?: OpenApiRoute,
): SkillSource {
  const id = options.id ?? toSkillId(method);
  const tags = mergeTags(defaults.tags, options.tags ?? openApi?.tags);
  const name = options.name ?? openApi?.summary ?? (typeof id === 'string' ? toSkillName(id) : (id as never));
  const description = (options.description ?? openApi?.description ?? openApi?.summary) as string;
  const examples = copy(options.examples);
  // The usual skill is made in one step, in its final shape, rather than grown field by field.
  const skill: AgentSkill = examples ? { id, name, description, tags, examples } : { id, name, description, tags };
  const inputModes = copy(options.inputModes ?? defaults.inputModes);
  const outputModes = copy(options.outputModes ?? defaults.outputModes);
  const own = options.securityRequirements ?? defaults.securityRequirements;
  const securityRequirements = copy(own ?? openApi?.securityRequirements);
  if (inputModes) skill.inputModes = inputModes;
  if (outputModes) skill.outputModes = outputModes;
  if (securityRequirements) skill.securityRequirements = securityRequirements;
  return new DecoratedSkill(
    controller,
    method,
    skill,
    options.extended ?? defaults.extended ?? false,
    openApi,
    options.agent ?? defaults.agent,
    own === undefined && openApi?.securityRequirements !== undefined,
  );
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
