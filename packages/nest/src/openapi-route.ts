import type { SecurityRequirement } from '@agent-card/core';
import { OPENAPI_METADATA as keys } from './agent-card.constants';

/**
 * What the `@nestjs/swagger` decorators of one route say, in the terms of a skill: read by the
 * accessor from the metadata keys of {@link OPENAPI_METADATA}, so `@nestjs/swagger` is never
 * imported. Every value is optional; `@Skill()` and `@AgentSkills()` values win over all of them.
 */
export interface OpenApiRoute {
  /** `@ApiOperation({ summary })`, when not blank. */
  summary?: string;
  /** `@ApiOperation({ description })`, when not blank. */
  description?: string;
  /** `@ApiOperation({ deprecated: true })`. */
  deprecated: boolean;
  /** `@ApiTags()` of the controller, then of the method, each once (as in the OpenAPI operation). */
  tags?: readonly string[];
  /** `@ApiSecurity()` / `@ApiBearerAuth()` / `@ApiOAuth2()` of the controller, then of the method. */
  securityRequirements?: readonly SecurityRequirement[];
  /** The decorator that hides the route from the OpenAPI document, if one does. */
  excludedBy?: '@ApiExcludeEndpoint()' | '@ApiExcludeController()';
}

/** Reads one metadata key of a class or method (`Reflector.get`). */
export type MetadataReader = (key: string, target: Function) => unknown;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The tag names of a class and a method, each once, class first. */
function tagsOf(...lists: unknown[]): string[] | undefined {
  const tags: string[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const tag of list) if (typeof tag === 'string' && !tags.includes(tag)) tags.push(tag);
  }
  return tags.length > 0 ? tags : undefined;
}

/**
 * OpenAPI security requirement objects (`{ name: scopes }`, alternatives in a list) as A2A
 * `SecurityRequirement`s (`{ schemes: { name: { list: scopes } } }`). Scopes that are not a list
 * are passed on for validation to report against the method.
 * @see A2A spec §4.5.1 `SecurityRequirement`
 */
function securityOf(list: unknown): SecurityRequirement[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const requirements: SecurityRequirement[] = [];
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue;
    const schemes: SecurityRequirement['schemes'] = {};
    for (const name in entry as Record<string, unknown>) {
      if (!Object.hasOwn(entry, name)) continue;
      const scopes = (entry as Record<string, unknown>)[name];
      const value = { list: Array.isArray(scopes) ? scopes.slice() : (scopes as string[]) };
      // Defined, not assigned: a scheme named "__proto__" stays a scheme (for validation to
      // report) instead of replacing the prototype of the requirement. Any other name is a
      // plain assignment, which costs far less for every route of a large app.
      if (name === '__proto__')
        Object.defineProperty(schemes, name, { value, enumerable: true, writable: true, configurable: true });
      else schemes[name] = value;
    }
    requirements.push({ schemes });
  }
  return requirements.length > 0 ? requirements : undefined;
}

/**
 * What the `@nestjs/swagger` decorators of a controller class say, read and converted once per
 * controller rather than once per route: a controller of many routes then costs three look-ups,
 * not three per route.
 */
export interface OpenApiController {
  /** `@ApiExcludeController()`'s value, as stored. */
  readonly excluded: unknown;
  /**
   * The class's security requirements as A2A ones, first in every route's (the usual
   * `@ApiBearerAuth()` on the class). Each skill gets its own copy of the list
   * (`skillFromDecorator`); the requirements in it are frozen, so the skills can share them.
   */
  readonly requirements: readonly SecurityRequirement[] | undefined;
  /** The class's tag names, each once, first in every route's (copied for each skill too). */
  readonly tagNames: readonly string[] | undefined;
}

/**
 * Freezes the requirements the routes of a controller share (each skill copies the list itself);
 * scopes that are not a list are the metadata's own value, passed on for validation, and left alone.
 */
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

/** The class's requirements, then those the method's own `@ApiSecurity()` adds. */
function withMethodSecurity(
  onClass: readonly SecurityRequirement[] | undefined,
  onMethod: unknown,
): readonly SecurityRequirement[] | undefined {
  const own = securityOf(onMethod);
  if (own === undefined) return onClass;
  return onClass === undefined ? own : [...onClass, ...own];
}

/**
 * The OpenAPI view of `controller#method`, or `undefined` when neither carries a swagger
 * decorator (the usual case without `@nestjs/swagger`: a few look-ups, nothing allocated).
 * `controller` is the class, or what {@link readOpenApiController} read from it.
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
  if (
    onClass === undefined &&
    operation === undefined &&
    methodTags === undefined &&
    methodSecurity === undefined &&
    endpoint === undefined
  ) {
    return undefined;
  }
  const route: OpenApiRoute = { deprecated: operation?.deprecated === true };
  const summary = text(operation?.summary);
  const description = text(operation?.description);
  const tags = methodTags === undefined ? onClass?.tagNames : tagsOf(onClass?.tagNames, methodTags);
  const securityRequirements = withMethodSecurity(onClass?.requirements, methodSecurity);
  if (summary !== undefined) route.summary = summary;
  if (description !== undefined) route.description = description;
  if (tags !== undefined) route.tags = tags;
  if (securityRequirements !== undefined) route.securityRequirements = securityRequirements;
  // As @nestjs/swagger decides: the controller's first value, the endpoint's `disable`.
  const excluded = onClass?.excluded;
  if (Array.isArray(excluded) && excluded[0] === true) route.excludedBy = '@ApiExcludeController()';
  else if (endpoint?.disable === true) route.excludedBy = '@ApiExcludeEndpoint()';
  return route;
}
