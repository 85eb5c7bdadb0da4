import { sha256 } from '@noble/hashes/sha2';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeBase64url } from '../../sign/base64url';
import { computeEtag } from './etag';

const jsEtag = (bytes: Uint8Array) => `"${encodeBase64url(sha256(bytes))}"`;
const getBuiltinModule = process.getBuiltinModule;

describe('computeEtag', () => {
  afterEach(() => {
    process.getBuiltinModule = getBuiltinModule;
  });

  it('is the quoted base64url SHA-256 of the bytes', () => {
    expect(computeEtag(new TextEncoder().encode('{}'))).toBe('"RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"');
  });

  it('gives the tag of the JavaScript hash, with node:crypto, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(computeEtag(bytes)).toBe(jsEtag(bytes));
      }),
    );
  });

  it('gives the same tag on a runtime without node:crypto (Workers, the edge runtime)', () => {
    const bytes = new TextEncoder().encode('{"name":"Edge"}');
    const native = computeEtag(bytes);
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    expect(computeEtag(bytes)).toBe(native);
    expect(computeEtag(bytes)).toBe(jsEtag(bytes));
  });
});
