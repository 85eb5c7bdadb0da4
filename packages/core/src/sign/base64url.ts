/** Base64url without padding (RFC 4648 §5), as JWS writes every part (RFC 7515 §2). */

/** Encodes UTF-8 text or bytes. */
export function encodeBase64url(input: string | Uint8Array): string {
  const bytes =
    typeof input === 'string'
      ? Buffer.from(input, 'utf8')
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  return bytes.toString('base64url');
}

/** Decodes a string the caller has checked is base64url (`/^[A-Za-z0-9_-]*$/`). */
export function decodeBase64url(input: string): Uint8Array {
  return Buffer.from(input, 'base64url');
}
