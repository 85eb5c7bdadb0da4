import type { SecurityRequirement } from '@agent-card/core';
import { OPENAPI_METADATA as keys } from './agent-card.constants';

/**
 * What the `@nestjs/swagger` decorators of one route say, in the terms of a skill (read from
 * their metadata keys: `@nestjs/swagger` is never imported). `@Skill()` values win over them.
 */
export interface OpenApiRoute {
  /** `@ApiOperation({ summary, description })`, when not blank. */
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** `@ApiTags()` / `@ApiSecurity()` and its shorthands: the controller's, then the method's. */
  tags?: readonly string[];
  securityRequirements?: readonly SecurityRequirement[];
  /** The decorator that hides the route from the OpenAPI document, if one does. */
  excludedBy?: '@ApiExcludeEndpoint()' | '@ApiExcludeController()';
}

/** Reads one metadata key of a class or method (`Reflector.get`). */
export type MetadataReader = (key: string, target: Function) => unknown;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The tag names of a class and a method, each once, class first. */
function tagsOf(first: unknown, second?: unknown): string[] | undefined {
  const tags: string[] = [];
  addTagNames(tags, first);
  addTagNames(tags, second);
  return tags.length > 0 ? tags : undefined;
}

/** Indexed loops: this runs once per route at boot, mostly before the JIT has optimised it. */
function addTagNames(tags: string[], list: unknown): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const tag: unknown = list[i];
    if (typeof tag === 'string' && !tags.includes(tag)) tags.push(tag);
  }
}

/**
 * OpenAPI security requirements (`{ name: scopes }`) as A2A ones (`{ schemes: { name: { list:
 * scopes } } }`); scopes that are not a list are passed on for validation to report.
 */
function securityOf(list: unknown): SecurityRequirement[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const requirements: SecurityRequirement[] = [];
  for (let i = 0; i < list.length; i++) {
    const entry: unknown = list[i];
    if (entry === null || typeof entry !== 'object') continue;
    const schemes: SecurityRequirement['schemes'] = {};
    for (const name in entry as Record<string, unknown>) {
      if (!Object.hasOwn(entry, name)) continue;
      const scopes = (entry as Record<string, unknown>)[name];
      const value = { list: Array.isArray(scopes) ? scopes.slice() : (scopes as string[]) };
      // Defined, not assigned: a scheme named "__proto__" stays a scheme (for validation to
      // report) instead of replacing the prototype; any other name is a cheaper assignment.
      if (name === '__proto__')
        Object.defineProperty(schemes, name, { value, enumerable: true, writable: true, configurable: true });
      else schemes[name] = value;
    }
    requirements.push({ schemes });
  }
  return requirements.length > 0 ? requirements : undefined;
}

/** What the `@nestjs/swagger` decorators of a controller class say, read once per controller, not per route. */
export interface OpenApiController {
  /** `@ApiExcludeController()`'s value, as stored. */
  readonly excluded: unknown;
  readonly requirements: readonly SecurityRequirement[] | undefined;
  readonly tagNames: readonly string[] | undefined;
}

/** Freezes the requirements the routes of a controller share; scopes that are not a list are left alone. */
function shareable(list: SecurityRequirement[] | undefined): readonly SecurityRequirement[] | undefined {
  for (const requirement of list ?? []) {
    for (const entry of Object.values(requirement.schemes ?? {})) {
      if (Array.isArray(Object.freeze(entry).list)) Object.freeze(entry.list);
    }
    Object.freeze(Object.freeze(requirement).schemes);
  }
  return list;
}

/** The class-level swagger metadata of `controller`; `undefined` when it has none. */
export function readOpenApiController(read: MetadataReader, controller: Function): OpenApiController | undefined {
  const tags = read(keys.tags, controller);
  const security = read(keys.security, controller);
  const excluded = read(keys.excludeController, controller);
  if (tags === undefined && security === undefined && excluded === undefined) return undefined;
  return { excluded, requirements: shareable(securityOf(security)), tagNames: tagsOf(tags) };
}

/**
 * The OpenAPI view of `controller#method` (`controller`: the class, or what
 * {@link readOpenApiController} read from it), or `undefined` when neither carries a swagger decorator.
 */
export function readOpenApiRoute(
  read: MetadataReader,
  controller: Function | OpenApiController | undefined,
  method: Function,
): OpenApiRoute | undefined {
  const onClass = typeof controller === 'function' ? readOpenApiController(read, controller) : controller;
  const operation = read(keys.operation, method) as Record<string, unknown> | undefined;
  const methodTags = read(keys.tags, method);
  const methodSecurity = read(keys.security, method);
  const endpoint = read(keys.excludeEndpoint, method) as { disable?: unknown } | undefined;
  // Without swagger decorators (the usual case): a few look-ups, nothing allocated.
  const none = onClass === undefined && operation === undefined && methodTags === undefined;
  if (none && methodSecurity === undefined && endpoint === undefined) return undefined;
  const route: OpenApiRoute = { deprecated: operation?.deprecated === true };
  const summary = text(operation?.summary);
  const description = text(operation?.description);
  const tags = methodTags === undefined ? onClass?.tagNames : tagsOf(onClass?.tagNames, methodTags);
  const own = securityOf(methodSecurity);
  const onClassSecurity = onClass?.requirements;
  const securityRequirements = own && onClassSecurity ? [...onClassSecurity, ...own] : (own ?? onClassSecurity);
  if (summary !== undefined) route.summary = summary;
  if (description !== undefined) route.description = description;
  if (tags !== undefined) route.tags = tags;
  if (securityRequirements !== undefined) route.securityRequirements = securityRequirements;
  // As @nestjs/swagger decides: the controller's first value (`[disable, …]`), the endpoint's `{ disable }`.
  const excluded = onClass?.excluded;
  if (Array.isArray(excluded) && excluded[0] === true) route.excludedBy = '@ApiExcludeController()';
  else if (endpoint?.disable === true) route.excludedBy = '@ApiExcludeEndpoint()';
  return route;
}
