/**
 * Defensive readers for untrusted card JSON, shared by the cross-field and publishing rules.
 * Own properties only: an input may carry `__proto__`, `constructor` or `toString` keys, or have
 * no prototype at all.
 */
import { isObject, type JsonObject } from '../context';
import { describePath } from '../shape';

/** Path segments as passed to `RuleContext.report`. */
export type Segments = readonly (string | number)[];

/** An own property of an object, or `undefined`. Never reads through the prototype chain. */
export function own(obj: unknown, key: string): unknown {
  return isObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** An own property if it is an object. */
export function ownObject(obj: unknown, key: string): JsonObject | undefined {
  const value = own(obj, key);
  return isObject(value) ? value : undefined;
}

/** An own property if it is an array. */
export function ownArray(obj: unknown, key: string): readonly unknown[] | undefined {
  const value = own(obj, key);
  return Array.isArray(value) ? value : undefined;
}

/** An own property if it is a non-blank string. */
export function ownString(obj: unknown, key: string): string | undefined {
  const value = own(obj, key);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export { keysOf } from '../context';

/**
 * A readable location for messages: `supportedInterfaces[0].url`, `securitySchemes["my scheme"]`.
 * The empty path reads `card`.
 */
export const where: (path: Segments) => string = describePath;

export { quote } from '../../util';
