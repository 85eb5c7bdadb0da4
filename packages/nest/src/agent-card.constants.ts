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
 * The `@nestjs/swagger` metadata keys the explorer reads, so a route documented for OpenAPI needs
 * no second description. Copied from `DECORATORS` in `lib/constants.ts` of `@nestjs/swagger` 11.4
 * and 12.0 (the same in both; the tests decorate with both majors): the library never imports
 * `@nestjs/swagger`, which stays optional. Internal: not exported from the package.
 */
export const OPENAPI_METADATA = {
  /** `@ApiOperation(options)` on a method: the options object. */
  operation: 'swagger/apiOperation',
  /** `@ApiTags(...tags)` on a class or method: the tag names. */
  tags: 'swagger/apiUseTags',
  /** `@ApiSecurity` / `@ApiBearerAuth` / `@ApiOAuth2` on a class or method: `[{ [scheme]: scopes }]`. */
  security: 'swagger/apiSecurity',
  /** `@ApiExcludeEndpoint(disable)` on a method: `{ disable }`. */
  excludeEndpoint: 'swagger/apiExcludeEndpoint',
  /** `@ApiExcludeController(disable)` on a class: `[disable, …]`, the first one counts. */
  excludeController: 'swagger/apiExcludeController',
} as const;
