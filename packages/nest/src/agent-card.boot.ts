import { AgentCardError, type AgentCard, type AgentSkill } from '@agent-card/core';
import {
  createAgentCardResponder,
  mergeExtendedCard,
  type AgentCardOptions,
  type AgentCardResponder,
  type ExtendedAgentCardOptions,
  type Principal,
} from '@agent-card/core/http';
import * as messages from './agent-card.messages';
import { coreOptions, type AgentCardModuleOptions, type CardFunction } from './agent-card.options';
import {
  annotateSkillErrors,
  assembleAgentCard,
  checkSkills,
  explainBuildFailure,
  type AgentCardBuild,
  type AssembleAgentCardInput,
} from './assemble-agent-card';
import { skillFromOptions, type SkillSource } from './skill-source';

/** What core merges over the public card for the extended card (`extended.card`). */
export type ExtendedContent = ExtendedAgentCardOptions<any>['card'];

/** What the module boots from: its options, the decorated skills, and who reads the extended card. */
export interface BootInput {
  options: AgentCardModuleOptions;
  /** Every `@Skill()` the explorer found, in card order. */
  decorated: readonly SkillSource[];
  logger: Pick<Console, 'warn'>;
  /** Guards then `extended.authenticate`; `undefined` when nothing authenticates extended-card requests. */
  authenticate: ((request: object) => Promise<Principal | undefined>) | undefined;
}

/** A booted card: the responder, and for a single card the build the run-time changes start from. */
export interface BootedCard {
  responder: AgentCardResponder<any>;
  build?: AgentCardBuild;
  /** The extended card core serves, when something authenticates extended-card requests. */
  extended?: ExtendedContent;
}

/** Builds and validates the card in the mode the options ask for, after the OpenAPI checks. */
export async function bootAgentCard(input: BootInput): Promise<BootedCard> {
  const boot = { ...input, logger: input.options.logger ?? input.logger };
  checkOpenApi(boot.decorated, boot.logger);
  if (boot.options.store !== undefined) return { responder: bootStore(boot) };
  if (boot.options.agents !== undefined) return { responder: bootSeveralAgents(boot) };
  if (typeof boot.options.card === 'function') return { responder: bootPerRequestCard(boot, boot.options.card) };
  return bootSingleCard(boot);
}

/** The extended card of a single card for core to serve: the public card, its extended skills, then `extra`. */
export function extendedContentOf({ card, extendedSkills }: AgentCardBuild, extra: ExtendedContent): ExtendedContent {
  const merge = (content: Partial<AgentCard> | readonly AgentSkill[] | undefined) =>
    mergeExtendedCard(extendedSkills.length > 0 ? mergeExtendedCard(card, extendedSkills) : card, content);
  return typeof extra === 'function' ? async (principal) => merge(await extra(principal)) : merge(extra);
}

/** The responder's `extended` option, when something authenticates extended-card requests. */
function extendedOption(input: BootInput, card: ExtendedContent): Pick<AgentCardOptions<any>, 'extended'> {
  if (input.authenticate === undefined) return {};
  const { authenticate: _authenticate, guards: _guards, card: _card, ...rest } = input.options.extended ?? {};
  return { extended: { ...rest, authenticate: input.authenticate, ...(card === undefined ? {} : { card }) } };
}

/** One card, from `definition` or a complete `card`, with the static and decorated skills. */
function bootSingleCard(input: BootInput): BootedCard {
  const { options } = input;
  const base = options.card as AgentCard | undefined;
  const assemble: AssembleAgentCardInput = {
    definition: base ?? ((options.definition ?? {}) as AssembleAgentCardInput['definition']),
    ...(base ? { card: base } : {}),
    sources: [...[...(base?.skills ?? []), ...(options.skills ?? [])].map(skillFromOptions), ...input.decorated],
    canAuthenticate: input.authenticate !== undefined,
    settings: options,
  };
  const build = assembleAgentCard(assemble);
  try {
    const extended = input.authenticate ? extendedContentOf(build, options.extended?.card) : undefined;
    const responder = createAgentCardResponder({
      ...coreOptions(options, input.logger),
      card: build.card,
      ...extendedOption(input, extended),
    });
    return { responder, build, extended };
  } catch (error) {
    // Core rejected the card: the Nest-level checks name the decorator or option to fix.
    throw explainBuildFailure(assemble) ?? annotateSkillErrors(error, build.sources);
  }
}

/** A per-request card: the skills are checked now, each variant by core on first use. */
function bootPerRequestCard(input: BootInput, card: CardFunction): AgentCardResponder<any> {
  const { options } = input;
  const sources = [...(options.skills ?? []).map(skillFromOptions), ...input.decorated];
  const { publicSkills, extendedSkills } = checkSkills(sources, options, input.logger);
  if (extendedSkills.length > 0 && input.authenticate === undefined)
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.extendedWithoutAuthentication);
  const extended = input.authenticate ? withExtendedSkills(options.extended?.card, extendedSkills) : undefined;
  return createAgentCardResponder({
    ...coreOptions(options, input.logger),
    card: withSkills(card, publicSkills),
    ...extendedOption(input, extended),
  });
}

/** `forRoot({ store, tenant })`: the cards of a store, per tenant; the module has no card of its own. */
function bootStore(input: BootInput): AgentCardResponder<any> {
  const { options } = input;
  const problems: string[] = [];
  for (const key of ['definition', 'card', 'skills', 'agents'] as const)
    if (options[key] !== undefined) problems.push(messages.notWithStore(`forRoot({ ${key} })`));
  if (input.decorated.length > 0)
    problems.push(messages.notWithStore(input.decorated.map((d) => d.declaredBy).join(', ')));
  throwProblems(problems);
  return createAgentCardResponder(coreOptions(options, input.logger));
}

/** `forRoot({ agents })`: each decorated skill goes to the (extended) card of the agent it names. */
function bootSeveralAgents(input: BootInput): AgentCardResponder<any> {
  const { agents = [], default: defaultId } = input.options;
  const ids = new Set(agents.map((a) => a.id));
  const problems: string[] = [];
  const byAgent = new Map<string, { public: AgentSkill[]; extended: AgentSkill[] }>();
  for (const source of input.decorated) {
    const id = source.agent ?? defaultId;
    if (id === undefined || !ids.has(id)) {
      problems.push(messages.unknownAgent(source.declaredBy, id, ids));
      continue;
    }
    const list = byAgent.get(id) ?? { public: [], extended: [] };
    byAgent.set(id, list);
    (source.extended ? list.extended : list.public).push(source.skill);
  }
  throwProblems(problems);
  return createAgentCardResponder({
    ...coreOptions(input.options, input.logger),
    agents: agents.map((agent) => {
      const skills = byAgent.get(agent.id);
      if (skills === undefined) return agent;
      const card =
        typeof agent.card === 'function'
          ? withSkills(agent.card, skills.public)
          : mergeExtendedCard(agent.card, skills.public);
      if (skills.extended.length === 0) return { ...agent, card };
      if (agent.extended === undefined)
        throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.agentWithoutExtended(agent.id));
      const extended = { ...agent.extended, card: withExtendedSkills(agent.extended.card, skills.extended) };
      return { ...agent, card, extended };
    }),
  });
}

function throwProblems(problems: readonly string[]): void {
  if (problems.length > 0)
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', `AgentCardModule:\n  - ${problems.join('\n  - ')}`);
}

/** Appends the decorated public skills to every variant of a per-request card. */
function withSkills(card: CardFunction, skills: readonly AgentSkill[]): CardFunction {
  if (skills.length === 0) return card;
  const add = (variant: AgentCard): AgentCard => ({ ...variant, skills: [...(variant.skills ?? []), ...skills] });
  return (ctx) => {
    const variant = card(ctx);
    return variant instanceof Promise ? variant.then(add) : add(variant);
  };
}

/** For a per-request card: the extended skills, then what `extended.card` returns. */
function withExtendedSkills(extra: ExtendedContent, skills: readonly AgentSkill[]): ExtendedContent {
  if (skills.length === 0) return extra;
  const combine = (content: Partial<AgentCard> | readonly AgentSkill[] | undefined) => {
    if (content === undefined) return skills;
    if (Array.isArray(content)) return [...skills, ...(content as readonly AgentSkill[])];
    throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.partialExtendedPerRequest);
  };
  if (typeof extra === 'function') return async (principal: Principal) => combine(await extra(principal));
  return combine(extra);
}

/** A public skill on a route OpenAPI hides fails start-up; a skill on a deprecated operation gets one warning. */
function checkOpenApi(sources: readonly SkillSource[], logger: Pick<Console, 'warn'>): void {
  const excluded: string[] = [];
  for (const source of sources) {
    const route = source.openApi;
    if (route === undefined) continue;
    if (route.excludedBy !== undefined && !source.extended)
      excluded.push(messages.excludedSkill(source.origin, route.excludedBy));
    if (route.deprecated) logger.warn(messages.deprecatedSkill(source.origin, source.skill.id));
  }
  if (excluded.length > 0) throw new AgentCardError('ERR_AGENT_CARD_OPTIONS', messages.excludedSkills(excluded));
}
