/**
 * Decoding of JWS protected headers (base64url JSON), shared by the signature rules and the
 * publishing rules so that a signature's header is decoded once per validation.
 */
import { readJsonText } from '../../json/read';

// One entry: both rule modules ask for the same header one after the other.
let lastText: string | undefined;
let lastValue: unknown;

/**
 * base64url → JSON value, or `undefined` when it is not base64url-encoded UTF-8 JSON. The value
 * may be shared with the other caller of the same header: read it, never change it.
 * @example decodeJwsHeader('eyJhbGciOiJFUzI1NiJ9') // { alg: 'ES256' }
 */
export function decodeJwsHeader(b64url: string): unknown {
  if (b64url === lastText) return lastValue;
  let value: unknown;
  try {
    const b64 = b64url.replaceAll('-', '+').replaceAll('_', '/');
    const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const read = readJsonText(bytes, { maxDepth: Number.POSITIVE_INFINITY, duplicates: 0, inexactNumbers: 0 });
    value = read.ok ? read.value : undefined;
  } catch {
    value = undefined;
  }
  lastText = b64url;
  lastValue = value;
  return value;
}
