/**
 * Reading untrusted JSON text: {@link readJsonText} and what it returns.
 *
 * @packageDocumentation
 */
export { readJsonText } from './read';
export type { JsonTextFailure, JsonTextOptions, JsonTextRead, JsonTextResult } from './read';
export type { InexactNumber, JsonPath } from './text';
