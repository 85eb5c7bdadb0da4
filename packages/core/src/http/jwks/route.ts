// The signing keys' JWK Set at `/.well-known/jwks.json` (or `sign.jwksPath`), in front of the
// card, when `sign` publishes one.
import type { ResolvedSigning } from '../../sign/signing-options';
import type { CorsSetting } from '../kernel/cors';
import { answerDocument, type PreparedDocument, prepareDocument } from '../kernel/documents';
import { encodeJson } from '../kernel/encode';
import { comparablePath } from '../kernel/paths';
import { type AgentCardResponder, internalsOf, sealResponder, withPaths } from '../kernel/responder';

/** The media type of a JWK Set (RFC 7517 §8.5). */
const JWK_SET_MEDIA_TYPE = 'application/jwk-set+json';

/**
 * The JWK Set of the signing keys and the published ones, prepared once like a card: the bytes,
 * a strong ETag, and every answer (200, HEAD, 304, 204, 405) for every CORS outcome.
 */
function prepareJwksRoute(
  signing: ResolvedSigning | undefined,
  settings: { cacheControl: string | false; cors: CorsSetting; agent?: string | undefined },
): { path: string; document: PreparedDocument; matches(path: string): boolean } | undefined {
  if (signing?.jwks === undefined) return undefined;
  const { path, keys } = signing.jwks;
  const document = prepareDocument(encodeJson({ keys }), {
    served: { kind: 'jwks', agent: settings.agent },
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

/** Serves the signing keys' JWK Set in front of `responder`, when `sign` publishes one. */
export function withJwksRoute<Req>(
  responder: AgentCardResponder<Req>,
  signing: ResolvedSigning | undefined,
  settings: { cacheControl: string | false; cors: CorsSetting; agent?: string | undefined },
): AgentCardResponder<Req> {
  const jwks = prepareJwksRoute(signing, settings);
  if (jwks === undefined) return responder;
  const inner = responder.respond;
  return sealResponder(
    {
      respond: (request) => (jwks.matches(request.path) ? answerDocument(jwks.document, request) : inner(request)),
      update: responder.update,
    },
    withPaths(internalsOf(responder)!, () => [jwks.path]),
  );
}
