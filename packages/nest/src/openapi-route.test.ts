// The swagger metadata is read without @nestjs/swagger's types, so anything can be under its keys
// (another library's shape, a hand-written Reflect.defineMetadata, an older major): reading it
// must never throw, and must take only what has the shape the decorators write.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { OPENAPI_METADATA } from './agent-card.constants';
import { readOpenApiRoute } from './openapi-route';

const read = (key: string, target: Function) => Reflect.getMetadata(key, target);

function route(onClass: Record<string, unknown>, onMethod: Record<string, unknown>) {
  class Controller {}
  function method() {}
  for (const [key, value] of Object.entries(onClass)) Reflect.defineMetadata(key, value, Controller);
  for (const [key, value] of Object.entries(onMethod)) Reflect.defineMetadata(key, value, method);
  return readOpenApiRoute(read, Controller, method);
}

describe('readOpenApiRoute', () => {
  it('reads nothing (and allocates no route) without swagger metadata', () => {
    expect(route({}, {})).toBeUndefined();
  });

  it.each([
    ['a string where tags belong', { [OPENAPI_METADATA.tags]: 'orders' }, {}],
    ['a number where the operation belongs', {}, { [OPENAPI_METADATA.operation]: 42 }],
    ['null security', { [OPENAPI_METADATA.security]: null }, { [OPENAPI_METADATA.security]: [null, 'x', 7] }],
    ['a non-array excludeController', { [OPENAPI_METADATA.excludeController]: true }, {}],
    ['a string disable', {}, { [OPENAPI_METADATA.excludeEndpoint]: { disable: 'yes' } }],
    ['non-string summary and description', {}, { [OPENAPI_METADATA.operation]: { summary: 1, description: {} } }],
  ])('ignores %s', (_label, onClass, onMethod) => {
    expect(route(onClass, onMethod)).toEqual({ deprecated: false });
  });

  it('takes blank summaries and descriptions (the ApiOperation default is "") as absent', () => {
    expect(route({}, { [OPENAPI_METADATA.operation]: { summary: '', description: '   ' } })).toEqual({
      deprecated: false,
    });
  });

  it('keeps string tags only, class first, each once', () => {
    expect(
      route({ [OPENAPI_METADATA.tags]: ['orders', 3, 'shop'] }, { [OPENAPI_METADATA.tags]: ['shop', null, 'track'] }),
    ).toEqual({ deprecated: false, tags: ['orders', 'shop', 'track'] });
  });

  it('passes scopes that are not a list on for validation to report against the method', () => {
    expect(route({}, { [OPENAPI_METADATA.security]: [{ oauth: 'orders:write' }] })?.securityRequirements).toEqual([
      { schemes: { oauth: { list: 'orders:write' } } },
    ]);
  });

  it('keeps a scheme named __proto__ as a scheme, without touching any prototype', () => {
    const security = route({}, { [OPENAPI_METADATA.security]: [{ ['__proto__']: ['x'] }] })?.securityRequirements;
    const schemes = security?.[0]?.schemes as Record<string, unknown>;
    expect(Object.getPrototypeOf(schemes)).toBe(Object.prototype);
    expect(JSON.stringify(security)).toBe('[{"schemes":{"__proto__":{"list":["x"]}}}]');
  });

  it('excludes only on the values @nestjs/swagger itself treats as excluded', () => {
    expect(route({ [OPENAPI_METADATA.excludeController]: [false, true] }, {})?.excludedBy).toBeUndefined();
    expect(route({ [OPENAPI_METADATA.excludeController]: [true] }, {})?.excludedBy).toBe('@ApiExcludeController()');
    expect(route({}, { [OPENAPI_METADATA.excludeEndpoint]: { disable: true } })?.excludedBy).toBe(
      '@ApiExcludeEndpoint()',
    );
  });
});
