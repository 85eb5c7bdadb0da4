// The module's own messages (core's findings carry the rest), each `where: what is wrong (value). How to fix.`

/** A public `@Skill()` on a route that `@nestjs/swagger` hides from the OpenAPI document. */
export const excludedSkill = (origin: string, excludedBy: string): string =>
  `${origin}: @Skill() publishes the route in the public agent card, but ${excludedBy} hides it from the OpenAPI document. Remove one of the two, or add extended: true to the @Skill() to publish it only in the extended card.`;

export const excludedSkills = (lines: readonly string[]): string =>
  `AgentCardModule: ${lines.length === 1 ? '1 public skill is' : `${lines.length} public skills are`} on routes hidden from the OpenAPI document. Fix each one below.\n${lines.map((line) => `  - ${line}`).join('\n')}`;

export const deprecatedSkill = (origin: string, id: unknown): string =>
  `AgentCardModule: ${origin}: the skill ${JSON.stringify(id)} is on an operation marked deprecated (@ApiOperation({ deprecated: true })); the card still lists it, and agents cannot tell. Remove @Skill() when agents should stop choosing it.`;

export const extendedWithoutAuthentication =
  'AgentCardModule: some skills are extended: true but nothing authenticates extended-card requests. Add extended: { guards: [YourAuthGuard] } or extended: { authenticate } to AgentCardModule.forRoot().';

/** A decorated skill that names no agent, or an unknown one, with `forRoot({ agents })`. */
export const unknownAgent = (declaredBy: string, id: string | undefined, ids: ReadonlySet<string>): string =>
  id === undefined
    ? `${declaredBy}: names no agent (none). Add agent: '<id>' to @Skill() or @AgentSkills(), or set default in forRoot({ agents }).`
    : `${declaredBy}: names an unknown agent (${JSON.stringify(id)}). Use one of the agent ids: ${[...ids].join(', ')}.`;

/** An agent that gets `extended: true` skills but serves no extended card. */
export const agentWithoutExtended = (id: string): string =>
  `AgentCardModule: agent "${id}" has extended: true skills but no extended option. Add extended: { authenticate } to that agent.`;

export const skillExists = (id: string): string =>
  `AgentCardService.addSkill: the card already has a skill with the id ${JSON.stringify(id)}; the served card is unchanged. Remove it first with removeSkill(${JSON.stringify(id)}), or give the new skill another id.`;

export const noSuchSkill = (id: string, skills: readonly { id: unknown }[]): string =>
  `AgentCardService.removeSkill: no skill has the id ${JSON.stringify(id)}. Use one of: ${skills.map((s) => JSON.stringify(s.id)).join(', ')}.`;

export const changeRefused = (operation: string, count: number, lines: string): string =>
  `AgentCardService.${operation}: the card after this change has ${count === 1 ? '1 error' : `${count} errors`}, so the served card is unchanged. Fix each one below.\n${lines}`;

/** `extended.card` gave a partial card where only a skill list can be merged into each variant. */
export const partialExtendedPerRequest =
  'AgentCardModule: extended.card returned a partial card while card is a function and some skills are extended: true. Return a list of extra skills from extended.card instead.';

export const notInitialisedForRequest =
  'AgentCardModule: a request arrived before the module initialised. Call app.init() or app.listen() before serving requests.';

/** Why the service has no single card to read or change: not booted yet, or the mode of `options`. */
export const noSingleCard = (booted: boolean, options: { store?: unknown; agents?: unknown }): string =>
  !booted
    ? 'AgentCardService: the card is not built yet (the module has not initialised). Call it after app.init(), e.g. in onApplicationBootstrap or a request handler.'
    : options.store !== undefined
      ? 'AgentCardService: the module serves the cards of a store (forRoot({ store })), one set per tenant, so there is no single card to read or change. Write through the store: await service.store().put(tenant, agent, card).'
      : options.agents !== undefined
        ? 'AgentCardService: the module serves several agents (forRoot({ agents })), so there is no single card to read or change. Use respond(), or give each agent its card in agents.'
        : 'AgentCardService: the card is built per request (card is a function), so there is no single card. Use respond() or getExtendedAgentCard(request).';

/** Decorated skills, or a card of the module's own, next to `store`. */
export const notWithStore = (what: string): string =>
  `${what}: cannot be used with store: the cards are the records of the store. Write each tenant's cards (with their skills) through agentCardStore(…).put(tenant, agent, card), or remove store.`;

export const unsupportedAdapter = (type: unknown): string =>
  `AgentCardModule: the HTTP adapter (${JSON.stringify(type)}) is not supported. Use @nestjs/platform-express or @nestjs/platform-fastify, or set serve: false and answer requests with AgentCardService.respond().`;

export const noAgentCardModule =
  'buildAgentCard: the module does not import AgentCardModule. Pass the application module that imports AgentCardModule.forRoot() or forRootAsync().';

/** What each kind of served document is called in the start-up lines. */
const DOCUMENTS: Record<string, string> = {
  card: 'agent card',
  alias: 'agent card (legacy path)',
  extended: 'extended agent card',
  jwks: 'JWK Set of the card signing keys',
  viewer: 'agent card page',
  catalog: 'AI Catalog',
};

/** The start-up line of one served path, in the shape of Nest's own "Mapped {/path, GET} route". */
export const mappedLine = (path: string, kind: string) => `Mapped {${path}, GET} ${DOCUMENTS[kind] ?? kind}`;
