import type { ResolvedSigning } from '../sign/signing-options';
import { type CorsSetting, type PreparedDocument, prepareDocument } from './documents';
import { encodeJson } from './encode';
import { comparablePath } from './paths';

/** The media type of a JWK Set (RFC 7517 §8.5). */
export const JWK_SET_MEDIA_TYPE = 'application/jwk-set+json';

/**
 * The JWK Set of the signing keys and the published ones, prepared once like a card: the bytes,
 * a strong ETag, and every answer (200, HEAD, 304, 204, 405) for every CORS outcome.
 */
export function prepareJwksRoute(
  signing: ResolvedSigning | undefined,
  settings: { cacheControl: string | false; cors: CorsSetting },
): { path: string; document: PreparedDocument; matches(path: string): boolean } | undefined {
  if (signing?.jwks === undefined) return undefined;
  const { path, keys } = signing.jwks;
  const document = prepareDocument(encodeJson({ keys }), {
    contentType: JWK_SET_MEDIA_TYPE,
    cacheControl: settings.cacheControl,
    cors: settings.cors,
  });
  return {
    path,
    document,
    // The exact path first; a query string or a trailing slash still matches, like the card.
    matches: (requested) => requested === path || (requested.startsWith(path) && comparablePath(requested) === path),
  };
}
