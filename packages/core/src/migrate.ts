/**
 * `migrateAgentCard`: a v0.3, ≤0.2 or mixed Agent Card rewritten as an A2A v1.0 card. The
 * conversion itself lives with the legacy rules (`validate/convert.ts`), whose hints quote it.
 *
 * @packageDocumentation
 */
import { type MigrationChange, type MigrationResult, migrateWithKinds } from './validate/convert';

export type { MigrationChange, MigrationResult };

/**
 * Turns a v0.3, ≤0.2 or mixed ("superset") Agent Card into an A2A v1.0 card and lists every
 * change. It never throws and never mutates its input.
 *
 * Conversions:
 * - top-level `url` + `preferredTransport` + `protocolVersion` → `supportedInterfaces[0]`, and
 *   `additionalInterfaces[]` → further `supportedInterfaces` entries (duplicates dropped). The
 *   interface `protocolVersion` keeps the version the card declared, as `Major.Minor`;
 * - `security: [{name: [scopes]}]` (card and skill level) →
 *   `securityRequirements: [{schemes: {name: {list: [scopes]}}}]`;
 * - `securitySchemes` entries with a `type` → the v1.0 wrappers (`in` → `location`); an OAuth
 *   scheme with several flows becomes one scheme per flow (`name`, `name-<flow>`), and the
 *   requirements that used it get one alternative per flow;
 * - `supportsAuthenticatedExtendedCard` → `capabilities.extendedAgentCard`;
 * - `capabilities.stateTransitionHistory` is removed; v0.2 `authentication` becomes HTTP schemes;
 * - snake_case keys of known fields become camelCase.
 *
 * Keys come out in the model's order; unknown keys are kept after them.
 *
 * @example
 * ```ts
 * const { card, changes } = migrateAgentCard(JSON.parse(legacyJson));
 * for (const c of changes) console.log(`${c.path}: ${c.change}`);
 * ```
 * @see https://a2a-protocol.org/latest/whats-new-v1/
 */
export function migrateAgentCard(value: unknown): MigrationResult {
  const { card, changes } = migrateWithKinds(value);
  return { card, changes: changes.map(({ kind: _kind, ...change }) => change) };
}
