import {
  AgentCardError,
  defineAgentCardWithFindings,
  formatFindings,
  type AgentCard,
  type AgentCardDefinition,
  type AgentSkill,
  type Finding,
  type CardRuleId,
} from '@agent-card/core';
import type { ValidationSettings } from './agent-card.options';
import type { SkillSource } from './skill-source';

/** A fully-built single card and what goes only into its extended card. */
export interface AgentCardBuild {
  card: AgentCard;
  extendedSkills: readonly AgentSkill[];
}

/** Input of {@link assembleAgentCard}. */
export interface AssembleAgentCardInput {
  definition: Omit<AgentCardDefinition, 'skills'>;
  /** A complete card to serve as given (its `skills` are already in `sources`). */
  card?: AgentCard;
  /** Static skills first, then decorated ones, in the order they are published. */
  sources: readonly SkillSource[];
  /** Whether extended-card requests can be authenticated (guards or `authenticate`). */
  canAuthenticate: boolean;
  settings: ValidationSettings;
}

const isBlank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';
const show = (value: unknown): string => (value === undefined ? 'missing' : (JSON.stringify(value) ?? String(value)));

/** A Nest-level finding: an error that names the decorator or option to fix. */
function error(rule: CardRuleId, path: string, message: string, hint: string): Finding {
  return { rule, severity: 'error', path, message, hint };
}

/**
 * Builds the public card and the extended skills from the collected skills; core validates the
 * complete card once, when the responder is created (a rejection is explained by
 * {@link explainBuildFailure}). The Nest-level checks run only when something failed: core
 * reports each of those problems too. Throws one `ERR_AGENT_CARD_INVALID` listing every problem.
 */
export function assembleAgentCard(input: AssembleAgentCardInput): AgentCardBuild & { sources: readonly SkillSource[] } {
  const { ordered, publicSkills, extendedSkills, firstExtended } = publicFirst(input.sources);
  const { capabilities, findings: extendedProblems } = extendedCardChecks(input, firstExtended);
  if (extendedProblems.length > 0) throw explainBuildFailure(input)!;
  if (input.card) {
    const unchanged =
      capabilities.extendedAgentCard === input.card.capabilities?.extendedAgentCard &&
      publicSkills.length === input.card.skills.length;
    const card = unchanged
      ? input.card
      : { ...input.card, capabilities: { ...input.card.capabilities, ...capabilities }, skills: publicSkills };
    return { card, extendedSkills, sources: ordered };
  }

  // defineAgentCard shapes the card-level fields and reports their problems; it sees at most one
  // skill, so a card with a thousand skills is not validated twice.
  const shaped = attempt({ ...input.definition, capabilities, skills: publicSkills.slice(0, 1) }, input.settings);
  if (!shaped.card) {
    const findings = shaped.findings.map((f) =>
      f.path === '/skills' && extendedSkills.length > 0
        ? { ...f, hint: `${f.hint} Every skill is extended: true; the public card needs at least one public skill.` }
        : annotate(f, ordered),
    );
    throw explainBuildFailure(input) ?? invalid(findings);
  }
  const card = publicSkills.length > 1 ? { ...shaped.card, skills: publicSkills } : shaped.card;
  return { card, extendedSkills, sources: ordered };
}

/**
 * The error for a card that could not be built or that core rejected when the Nest-level checks
 * find a problem (core's findings about the rest of the card join them); else `undefined`.
 */
export function explainBuildFailure(input: AssembleAgentCardInput): AgentCardError | undefined {
  const { ordered, publicSkills, extendedSkills, firstExtended } = publicFirst(input.sources);
  const { capabilities, findings: extendedProblems } = extendedCardChecks(input, firstExtended);
  const own = [...checkSources(ordered), ...extendedProblems];
  if (!own.some((f) => f.severity === 'error')) return undefined;
  const skills = [...publicSkills, ...extendedSkills];
  const full = input.card ? { findings: [] } : attempt({ ...input.definition, capabilities, skills }, input.settings);
  return invalid(joinFindings(own, full.findings, ordered));
}

/** The card's capabilities (`extendedAgentCard: true` added when needed), and the problems of that combination. */
function extendedCardChecks(
  input: AssembleAgentCardInput,
  first: SkillSource | undefined,
): { capabilities: NonNullable<AgentCard['capabilities']>; findings: Finding[] } {
  const findings: Finding[] = [];
  const declared = input.definition.capabilities?.extendedAgentCard;
  const at = '/capabilities/extendedAgentCard';
  if (first !== undefined && declared === false) {
    const message = `AgentCardModule: ${first.origin} is extended: true but capabilities.extendedAgentCard is false.`;
    const hint =
      'Remove capabilities.extendedAgentCard: false from the module options, or drop extended: true from the skill.';
    findings.push(error('extended-card-disabled', at, message, hint));
  }
  if (first !== undefined && !input.canAuthenticate) {
    const message = `AgentCardModule: ${first.origin} is extended: true but nothing authenticates extended-card requests.`;
    const hint =
      'Add extended: { guards: [YourAuthGuard] } or extended: { authenticate } to AgentCardModule.forRoot().';
    findings.push(error('extended-card-authentication', at, message, hint));
  }
  const extendedWanted = first !== undefined || input.canAuthenticate;
  const capabilities = {
    ...input.definition.capabilities,
    ...(extendedWanted && declared === undefined ? { extendedAgentCard: true } : {}),
  };
  return { capabilities, findings };
}

/** Rewrites core's `ERR_AGENT_CARD_INVALID` so each finding about `/skills/N` names who declared skill N. */
export function annotateSkillErrors(error: unknown, ordered: readonly SkillSource[]): unknown {
  if (!(error instanceof AgentCardError) || error.code !== 'ERR_AGENT_CARD_INVALID') return error;
  return invalid(error.findings.map((f) => annotate(f, ordered)));
}

/**
 * For a per-request card: checks the skills at start-up (core validates each variant) and splits
 * them into public and extended ones; the Nest-level checks run only when core finds an error.
 */
export function checkSkills(
  sources: readonly SkillSource[],
  settings: ValidationSettings,
  logger: Pick<Console, 'warn'>,
): { publicSkills: AgentSkill[]; extendedSkills: AgentSkill[] } {
  const { ordered, publicSkills, extendedSkills } = publicFirst(sources);
  const probed: Finding[] = [];
  if (ordered.length > 0) {
    // Any card would do: only the findings about the skills are kept.
    const card = { name: 'Skills', description: 'Skills', version: '1', url: 'https://agent.invalid/a2a' };
    const probe = attempt({ ...card, binding: 'JSONRPC', skills: [...publicSkills, ...extendedSkills] }, settings);
    for (const f of probe.findings) if (f.path.startsWith('/skills/')) probed.push(f);
  }
  const own = probed.some((f) => f.severity === 'error') ? checkSources(ordered) : [];
  const findings = joinFindings(own, probed, ordered);
  if (findings.some((f) => f.severity === 'error')) throw invalid(findings);
  for (const f of findings) {
    if (f.severity === 'warning') logger.warn(`${f.message} ${f.hint}`.trim());
  }
  return { publicSkills, extendedSkills };
}

/** The sources with the public skills first, then the extended ones (the order of the extended card). */
function publicFirst(sources: readonly SkillSource[]) {
  const publicSources = sources.filter((source) => !source.extended);
  const count = publicSources.length;
  const ordered = count === sources.length ? sources : [...publicSources, ...sources.filter((s) => s.extended)];
  const skills = ordered.map((source) => source.skill);
  return {
    ordered,
    publicSkills: skills.slice(0, count),
    extendedSkills: skills.slice(count),
    firstExtended: ordered[count],
  };
}

function attempt(
  definition: AgentCardDefinition,
  settings: ValidationSettings,
): { card?: AgentCard; findings: readonly Finding[] } {
  try {
    return defineAgentCardWithFindings(definition, settings);
  } catch (error) {
    if (error instanceof AgentCardError && error.code === 'ERR_AGENT_CARD_INVALID') return { findings: error.findings };
    throw error;
  }
}

/** The Nest-level checks of every skill (an id, a description, some tags), then the duplicate ids. */
function checkSources(ordered: readonly SkillSource[]): Finding[] {
  const findings: Finding[] = [];
  const seen = new Map<string, SkillSource>();
  ordered.forEach((source, index) => {
    const { skill, origin, declaredBy, controller } = source;
    const at = `/skills/${index}`;
    const named = typeof skill.id === 'string' ? ` (skill ${JSON.stringify(skill.id)})` : '';
    if (isBlank(skill.id)) {
      const message = `${origin}: the skill id is not a non-blank string (${show(skill.id)}).`;
      const hint = `Give ${declaredBy} an id such as 'create-order'.`;
      findings.push(error('skill-required-fields', `${at}/id`, message, hint));
    }
    if (isBlank(skill.description)) {
      const message = `${origin}: the skill has no description${named}.`;
      const hint = `Add description: 'What the skill does' to ${declaredBy}.`;
      findings.push(error('skill-required-fields', `${at}/description`, message, hint));
    }
    if (skill.tags === undefined || (Array.isArray(skill.tags) && skill.tags.length === 0)) {
      const hint = `Add tags: ['keyword'] to ${controller ? `${declaredBy}, or to @AgentSkills() on ${controller}` : declaredBy}.`;
      findings.push(error('skill-tags-required', `${at}/tags`, `${origin}: the skill has no tags${named}.`, hint));
    }
    if (typeof skill.id !== 'string') return;
    const first = seen.get(skill.id);
    if (!first) {
      seen.set(skill.id, source);
      return;
    }
    const fix = declaredBy.startsWith('@Skill()') ? "@Skill({ id: '…' })" : `id in ${declaredBy}`;
    const message = `Duplicate skill id ${JSON.stringify(skill.id)}: declared by ${first.origin} and by ${origin}.`;
    findings.push(error('skill-id-unique', `${at}/id`, message, `Give one of them another id, e.g. ${fix}.`));
  });
  return findings;
}

/**
 * The Nest-level findings, then core's, each prefixed with the origin of its skill. Core's error
 * on a spot a Nest-level finding already covers is left out, so each problem is listed once.
 */
function joinFindings(own: readonly Finding[], core: readonly Finding[], ordered: readonly SkillSource[]): Finding[] {
  const covered = new Set(own.map((f) => f.path));
  const findings = [...own];
  for (const f of core) if (!(f.severity === 'error' && covered.has(f.path))) findings.push(annotate(f, ordered));
  return findings;
}

/** Prefixes a core finding about `/skills/N/...` with the skill's origin. */
function annotate(finding: Finding, ordered: readonly SkillSource[]): Finding {
  const match = /^\/skills\/(\d+)(?:\/|$)/.exec(finding.path);
  const source = match ? ordered[Number(match[1])] : undefined;
  if (!source) return finding;
  const security = /^\/skills\/\d+\/securityRequirements(?:\/|$)/.test(finding.path);
  const declaredBy = security ? (source.securityDeclaredBy ?? source.declaredBy) : source.declaredBy;
  return {
    ...finding,
    message: `${source.origin}: ${finding.message}`,
    hint: `${finding.hint} (declared by ${declaredBy})`.trim(),
  };
}

/** One `ERR_AGENT_CARD_INVALID` listing the errors among `findings`; its findings put those errors first. */
function invalid(findings: readonly Finding[]): AgentCardError {
  const errors = findings.filter((f) => f.severity === 'error');
  const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
  return new AgentCardError(
    'ERR_AGENT_CARD_INVALID',
    `AgentCardModule: the agent card built from the module options and @Skill() decorators has ${count}. Fix each one below.\n${formatFindings(errors, { max: 20, rest: 'error.findings' })}`,
    { findings: [...errors, ...findings.filter((f) => f.severity !== 'error')] },
  );
}
