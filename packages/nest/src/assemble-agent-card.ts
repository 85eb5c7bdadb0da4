import {
  AgentCardError,
  defineAgentCardWithFindings,
  formatFindings,
  type AgentCard,
  type AgentCardDefinition,
  type AgentSkill,
  type Finding,
  type ValidationProfile,
} from '@agent-card/core';
import type { AgentCardBuild } from './extended-card';
import type { SkillSource } from './skill-source';

/** Input of {@link assembleAgentCard}. */
export interface AssembleAgentCardInput {
  /** Every card field except `skills`. */
  definition: Omit<AgentCardDefinition, 'skills'>;
  /**
   * A complete card to serve as given (its `skills` are already in `sources`): it is not rebuilt
   * by `defineAgentCard`, so its bytes keep the caller's key order; core validates it when the
   * responder is created (see {@link annotateSkillErrors}).
   */
  card?: AgentCard;
  /** Static skills first, then decorated ones, in the order they are published. */
  sources: readonly SkillSource[];
  /** Whether extended-card requests can be authenticated (guards or `authenticate`). */
  canAuthenticate: boolean;
  profile?: ValidationProfile;
}

const isBlank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';
const error = (rule: string, path: string, message: string, hint: string): Finding => ({
  rule,
  severity: 'error',
  path,
  message,
  hint,
});
const show = (value: unknown): string => (value === undefined ? 'missing' : (JSON.stringify(value) ?? String(value)));

/**
 * Builds the public card and the extended skills from the collected skills. Core validates the
 * complete card once, when the responder is created; a card it rejects is explained by
 * {@link explainBuildFailure}.
 *
 * The Nest-level checks of every skill (blank id or description, no tags, a duplicate id) run
 * only when something failed: core reports each of those problems as an error too, in every
 * profile, so a card core accepts has none of them. Throws one `AgentCardError`
 * (`ERR_AGENT_CARD_INVALID`) that lists every problem, each naming the `Controller#method` (or
 * option) that declared it and the decorator to fix.
 */
export function assembleAgentCard(input: AssembleAgentCardInput): AgentCardBuild & { sources: readonly SkillSource[] } {
  const { definition } = input;
  const { ordered, publicCount } = publicFirst(input.sources);
  const { capabilities, findings: extendedProblems } = extendedCardChecks(input, ordered, publicCount);
  if (extendedProblems.length > 0) throw explainBuildFailure(input)!;

  const publicSkills = skillsOf(ordered, 0, publicCount);
  const extendedSkills = skillsOf(ordered, publicCount);
  if (input.card) {
    const unchanged =
      capabilities.extendedAgentCard === input.card.capabilities?.extendedAgentCard &&
      publicSkills.length === input.card.skills.length;
    const card = unchanged
      ? input.card
      : { ...input.card, capabilities: { ...input.card.capabilities, ...capabilities }, skills: publicSkills };
    return { card, extendedSkills, sources: ordered };
  }

  // defineAgentCard shapes the card-level fields (shorthand, defaults, key order) and reports
  // their problems; it sees at most one skill, so a card with a thousand skills is not validated
  // twice. The complete card is validated once, by the core responder.
  const shaped = attempt({ ...definition, capabilities, skills: publicSkills.slice(0, 1) }, input.profile);
  if (!shaped.card) {
    const explained = explainBuildFailure(input);
    if (explained) throw explained;
    const findings = shaped.findings.map((f) =>
      f.path === '/skills' && extendedSkills.length > 0
        ? { ...f, hint: `${f.hint} Every skill is extended: true; the public card needs at least one public skill.` }
        : annotate(f, ordered),
    );
    throw invalid(findings);
  }
  const card = publicSkills.length > 1 ? { ...shaped.card, skills: publicSkills } : shaped.card;
  return { card, extendedSkills, sources: ordered };
}

/**
 * The error to report for a card that could not be built or that core rejected, when the
 * Nest-level checks find a problem: those findings name the decorator to fix, and core's
 * findings about the rest of the card join them. `undefined` when they find nothing; the caller
 * then reports core's own error with {@link annotateSkillErrors}.
 */
export function explainBuildFailure(input: AssembleAgentCardInput): AgentCardError | undefined {
  const { ordered, publicCount } = publicFirst(input.sources);
  const { capabilities, findings: extendedProblems } = extendedCardChecks(input, ordered, publicCount);
  const own = [...checkSources(ordered), ...extendedProblems];
  if (!own.some((f) => f.severity === 'error')) return undefined;
  // Report everything at once: core's findings about the whole card join the Nest-level ones.
  const full = input.card
    ? { findings: [] }
    : attempt({ ...input.definition, capabilities, skills: ordered.map((s) => s.skill) }, input.profile);
  return invalid(joinFindings(own, full.findings, ordered));
}

/**
 * The card's capabilities (`extendedAgentCard: true` added when extended skills or an
 * authenticator need it), and the problems of that combination.
 */
function extendedCardChecks(
  input: AssembleAgentCardInput,
  ordered: readonly SkillSource[],
  publicCount: number,
): { capabilities: NonNullable<AgentCard['capabilities']>; findings: Finding[] } {
  const findings: Finding[] = [];
  const hasExtendedSkills = ordered.length > publicCount;
  const extendedWanted = hasExtendedSkills || input.canAuthenticate;
  const declared = input.definition.capabilities?.extendedAgentCard;
  if (hasExtendedSkills && declared === false) {
    findings.push(
      error(
        'extended-card-disabled',
        '/capabilities/extendedAgentCard',
        `AgentCardModule: ${ordered[publicCount]!.origin} is extended: true but capabilities.extendedAgentCard is false.`,
        'Remove capabilities.extendedAgentCard: false from the module options, or drop extended: true from the skill.',
      ),
    );
  }
  if (hasExtendedSkills && !input.canAuthenticate) {
    findings.push(
      error(
        'extended-card-authentication',
        '/capabilities/extendedAgentCard',
        `AgentCardModule: ${ordered[publicCount]!.origin} is extended: true but nothing authenticates extended-card requests.`,
        'Add extended: { guards: [YourAuthGuard] } or extended: { authenticate } to AgentCardModule.forRoot().',
      ),
    );
  }
  const capabilities = {
    ...input.definition.capabilities,
    ...(extendedWanted && declared === undefined ? { extendedAgentCard: true } : {}),
  };
  return { capabilities, findings };
}

/**
 * Rewrites a core `ERR_AGENT_CARD_INVALID` (thrown when the responder validates the card) so that
 * each finding about `/skills/N` names the `Controller#method` or option that declared skill N.
 */
export function annotateSkillErrors(error: unknown, ordered: readonly SkillSource[]): unknown {
  if (!(error instanceof AgentCardError) || error.code !== 'ERR_AGENT_CARD_INVALID') return error;
  const findings = error.findings.map((f) => annotate(f, ordered));
  return invalid(findings);
}

/** Input of {@link checkSkills}. */
export interface CheckSkillsInput {
  sources: readonly SkillSource[];
  profile?: ValidationProfile;
  logger?: { warn(message: string): void };
}

/**
 * For a per-request card: checks the collected skills at start-up (the card itself is validated
 * per variant by core) and splits them into public and extended ones. As in
 * {@link assembleAgentCard}, the Nest-level checks run only when core finds an error in a skill.
 */
export function checkSkills(input: CheckSkillsInput): { publicSkills: AgentSkill[]; extendedSkills: AgentSkill[] } {
  const { ordered, publicCount: split } = publicFirst(input.sources);
  const probed: Finding[] = [];
  if (ordered.length > 0) {
    // Any card would do: only the findings about the skills are kept.
    const probe = attempt(
      {
        name: 'Skills',
        description: 'Skills',
        version: '1',
        url: 'https://agent.invalid/a2a',
        binding: 'JSONRPC',
        skills: ordered.map((s) => s.skill),
      },
      input.profile,
    );
    for (const f of probe.findings) if (f.path.startsWith('/skills/')) probed.push(f);
  }
  const own = probed.some((f) => f.severity === 'error') ? checkSources(ordered) : [];
  const findings = joinFindings(own, probed, ordered);
  if (findings.some((f) => f.severity === 'error')) throw invalid(findings);
  for (const f of findings) {
    if (f.severity === 'warning') input.logger?.warn(`${f.message} ${f.hint}`.trim());
  }
  return { publicSkills: skillsOf(ordered, 0, split), extendedSkills: skillsOf(ordered, split) };
}

/** The public skills first, then the extended ones (the order of the extended card). */
function publicFirst(sources: readonly SkillSource[]): { ordered: readonly SkillSource[]; publicCount: number } {
  const publicSources = sources.filter((source) => !source.extended);
  if (publicSources.length === sources.length) return { ordered: sources, publicCount: sources.length };
  return { ordered: [...publicSources, ...sources.filter((s) => s.extended)], publicCount: publicSources.length };
}

/** The skills of `sources[from..to)`. */
const skillsOf = (sources: readonly SkillSource[], from: number, to?: number): AgentSkill[] =>
  sources.slice(from, to).map((source) => source.skill);

/** ` (skill "id")` for a message, when the skill has a string id. */
const skillLabel = (skill: AgentSkill): string =>
  typeof skill.id === 'string' ? ` (skill ${JSON.stringify(skill.id)})` : '';

function attempt(
  definition: AgentCardDefinition,
  profile: ValidationProfile | undefined,
): { card?: AgentCard; findings: readonly Finding[] } {
  try {
    return defineAgentCardWithFindings(definition, profile === undefined ? {} : { profile });
  } catch (error) {
    if (error instanceof AgentCardError && error.code === 'ERR_AGENT_CARD_INVALID') return { findings: error.findings };
    throw error;
  }
}

/** The Nest-level checks: they name the decorator to fix, which core cannot know. */
function checkSources(ordered: readonly SkillSource[]): Finding[] {
  const findings: Finding[] = [];
  const seen = new Map<string, SkillSource>();
  ordered.forEach((source, index) => {
    // origin and declaredBy are read only for a message: most skills have none.
    const { skill } = source;
    if (isBlank(skill.id)) {
      findings.push(
        error(
          'skill-required-fields',
          `/skills/${index}/id`,
          `${source.origin}: the skill id is not a non-blank string (${show(skill.id)}).`,
          `Give ${source.declaredBy} an id such as 'create-order'.`,
        ),
      );
    }
    if (isBlank(skill.description)) {
      findings.push(
        error(
          'skill-required-fields',
          `/skills/${index}/description`,
          `${source.origin}: the skill has no description${skillLabel(skill)}.`,
          `Add description: 'What the skill does' to ${source.declaredBy}.`,
        ),
      );
    }
    if (!Array.isArray(skill.tags) || skill.tags.length === 0) {
      const where = source.controller
        ? `${source.declaredBy}, or to @AgentSkills() on ${source.controller}`
        : source.declaredBy;
      findings.push(
        error(
          'skill-tags-required',
          `/skills/${index}/tags`,
          `${source.origin}: the skill has no tags${skillLabel(skill)}.`,
          `Add tags: ['keyword'] to ${where}.`,
        ),
      );
    }
    if (typeof skill.id === 'string') {
      const first = seen.get(skill.id);
      if (first) {
        findings.push(
          error(
            'skill-id-unique',
            `/skills/${index}/id`,
            `Duplicate skill id ${JSON.stringify(skill.id)}: declared by ${first.origin} and by ${source.origin}.`,
            `Give one of them another id, e.g. ${source.declaredBy.startsWith('@Skill()') ? "@Skill({ id: '…' })" : `id in ${source.declaredBy}`}.`,
          ),
        );
      } else {
        seen.set(skill.id, source);
      }
    }
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
  const declaredBy =
    source.securityDeclaredBy !== undefined && /^\/skills\/\d+\/securityRequirements(?:\/|$)/.test(finding.path)
      ? source.securityDeclaredBy
      : source.declaredBy;
  return {
    ...finding,
    message: `${source.origin}: ${finding.message}`,
    hint: `${finding.hint} (declared by ${declaredBy})`.trim(),
  };
}

/** One `ERR_AGENT_CARD_INVALID` whose message lists the errors among `findings`; its findings put those errors first. */
function invalid(findings: readonly Finding[]): AgentCardError {
  const errors = findings.filter((f) => f.severity === 'error');
  const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
  return new AgentCardError(
    'ERR_AGENT_CARD_INVALID',
    `AgentCardModule: the agent card built from the module options and @Skill() decorators has ${count}. Fix each one below.\n${formatFindings(errors)}`,
    { findings: [...errors, ...findings.filter((f) => f.severity !== 'error')] },
  );
}
