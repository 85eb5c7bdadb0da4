/**
 * `sdk-in-memory-shape` (RULES.md §6.5): a card in the in-memory shape of `@a2a-js/sdk` (its
 * `AgentCard` type, where a security scheme is `{ scheme: { $case, value } }`) is not the card's
 * JSON, and the SDK's own client cannot read it back once served. It is what a card passed
 * through `AgentCard.fromJSON`, or built with the SDK's types, looks like when written out as is.
 *
 * Each such scheme gets this one finding, which names the converter, instead of the generic
 * `security-scheme-shape` error and the `unknown-field` warning on its `scheme` member: those say
 * that something is wrong, not what happened.
 */
import type { Finding } from '../../findings';
import { toPointer } from '../../findings';
import type { JsonObject, RuleContext } from '../context';
import { keysOf, own, ownObject, where } from './read-json';

/** The generic findings the specific one stands for, on an SDK-shaped scheme. */
const REPLACED = new Set(['security-scheme-shape', 'unknown-field']);

/**
 * Reports an `sdk-in-memory-shape` error for every security scheme in the SDK's in-memory shape
 * (within the per-rule bound of `ctx`), and drops from `findings` the generic findings it
 * replaces (see {@link REPLACED}) under each such scheme.
 */
export function replaceSdkShapeFindings(
  card: JsonObject,
  ctx: Pick<RuleContext, 'report'> & { findings: Finding[] },
): void {
  const findings = ctx.findings;
  const schemes = ownObject(card, 'securitySchemes');
  if (schemes === undefined) return;
  const shaped = new Set<string>();
  for (const name of keysOf(schemes)) {
    const kind = own(ownObject(ownObject(schemes, name), 'scheme'), '$case');
    if (typeof kind !== 'string') continue;
    const at = toPointer(['securitySchemes', name]);
    shaped.add(at);
    ctx.report(
      'sdk-in-memory-shape',
      'error',
      ['securitySchemes', name, 'scheme'],
      `${where(['securitySchemes', name])}: is in the in-memory shape of @a2a-js/sdk ({"scheme": {"$case": ${JSON.stringify(kind.slice(0, 64))}, "value": …}}), not the JSON of an Agent Card.`,
      'Convert the card first: fromA2aJsCard(card) from @agent-card/a2a-js (it runs AgentCard.toJSON of @a2a-js/sdk).',
    );
  }
  if (shaped.size === 0) return;
  let kept = 0;
  for (const finding of findings) {
    if (!(REPLACED.has(finding.rule) && shaped.has(schemeOf(finding.path)))) findings[kept++] = finding;
  }
  findings.length = kept;
}

/** `/securitySchemes/<name>` of a pointer at or below a scheme, `''` for any other. */
function schemeOf(pointer: string): string {
  if (!pointer.startsWith('/securitySchemes/')) return '';
  const end = pointer.indexOf('/', '/securitySchemes/'.length);
  return end === -1 ? pointer : pointer.slice(0, end);
}
