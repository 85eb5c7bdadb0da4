/*
 * The start-up messages of the module that are its own (core's findings carry the rest), in the
 * shape `where: what is wrong (value). How to fix.`
 */

/** A public `@Skill()` on a route that `@nestjs/swagger` hides from the OpenAPI document. */
export const excludedSkill = (origin: string, excludedBy: string): string =>
  `${origin}: @Skill() publishes the route in the public agent card, but ${excludedBy} hides it from the OpenAPI document. Remove one of the two, or add extended: true to the @Skill() to publish it only in the extended card.`;

/** The heading of the error that lists every {@link excludedSkill}. */
export const excludedSkills = (lines: readonly string[]): string =>
  `AgentCardModule: ${lines.length === 1 ? '1 public skill is' : `${lines.length} public skills are`} on routes hidden from the OpenAPI document. Fix each one below.\n${lines.map((line) => `  - ${line}`).join('\n')}`;

/** A `@Skill()` on an operation that `@ApiOperation({ deprecated: true })` marks deprecated. */
export const deprecatedSkill = (origin: string, id: unknown): string =>
  `AgentCardModule: ${origin}: the skill ${JSON.stringify(id)} is on an operation marked deprecated (@ApiOperation({ deprecated: true })); the card still lists it, and agents cannot tell. Remove @Skill() when agents should stop choosing it.`;
