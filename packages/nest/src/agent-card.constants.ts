/** Reflect-metadata key of {@link Skill}'s options on a method (one plain object, as given). */
export const SKILL_METADATA = 'agent-card:skill';

/** Reflect-metadata key of {@link AgentSkills}' options on a controller class. */
export const AGENT_SKILLS_METADATA = 'agent-card:agent-skills';

/**
 * The `@nestjs/swagger` metadata keys the accessor reads, copied from `DECORATORS` in its
 * `lib/constants.ts` (the same in 11.4 and 12.0), so `@nestjs/swagger` stays optional.
 */
export const OPENAPI_METADATA = {
  operation: 'swagger/apiOperation',
  tags: 'swagger/apiUseTags',
  /** `[{ [scheme]: scopes }]`, from `@ApiSecurity` / `@ApiBearerAuth` / `@ApiOAuth2`. */
  security: 'swagger/apiSecurity',
  excludeEndpoint: 'swagger/apiExcludeEndpoint',
  excludeController: 'swagger/apiExcludeController',
} as const;
