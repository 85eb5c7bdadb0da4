/**
 * Base64 and base64url without padding (RFC 4648 §4, §5), as JWS writes every part (RFC 7515
 * §2), done by Node's `Buffer` where the runtime has one (Node, Bun) rather than jose's
 * `base64url`: on Node 20, which has no `Uint8Array.prototype.toBase64`, jose encodes a 1.1 MB
 * payload in about 93 ms of CPU against 12 ms for `Buffer` (decodes in 21 against 5 ms), and a
 * verification encodes the card's payload once per form; and a protected header is read before
 * jose, which is loaded on first use, is there. Runtimes without `Buffer` (Deno, Cloudflare
 * Workers) use `btoa` and `atob`, which every runtime has.
 */
import { NodeBuffer } from '../bytes';

/** Binary string chunks small enough for `String.fromCharCode.apply`. */
const CHUNK = 0x8000;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

/** Standard base64 with padding, as a CSP hash source or an `sha256-` integrity value takes it. */
export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return toBase64(bytes);
}

/** Encodes UTF-8 text or bytes. */
export function encodeBase64url(input: string | Uint8Array): string {
  if (NodeBuffer) {
    const bytes =
      typeof input === 'string'
        ? NodeBuffer.from(input, 'utf8')
        : NodeBuffer.from(input.buffer, input.byteOffset, input.byteLength);
    return bytes.toString('base64url');
  }
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  return toBase64(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Decodes a string the caller has checked is base64url (`/^[A-Za-z0-9_-]*$/`). */
export function decodeBase64url(input: string): Uint8Array {
  if (NodeBuffer) return NodeBuffer.from(input, 'base64url');
  // atob refuses a length of 4n+1, which no encoder writes; Buffer ignores the stray character.
  const usable = input.length % 4 === 1 ? input.slice(0, -1) : input;
  const binary = atob(usable.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
