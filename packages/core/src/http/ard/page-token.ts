// The page tokens of the registry API, `GET {base}/agents` and `POST {base}/search` alike: an
// offset sealed with a digest of the listing it points into and of what was asked, so a token is
// followed only by the listing (and the query) that gave it.
import { sha256 } from '@noble/hashes/sha2';
import { encodeBase64url } from '../../sign/base64url';
import { encodeJson } from '../kernel/encode';
import { computeEtag } from '../kernel/etag';

/** `{offset in base 36}.{16 base64url characters}`; the offset has at most 7 digits (36⁷ > 7·10¹⁰). */
const TOKEN = /^([1-9a-z][0-9a-z]{0,6})\.([A-Za-z0-9_-]{16})$/;

/** Issues and checks the page tokens of one listing. */
export interface PageSeal {
  /** The token of `offset` into the answers to `scope` (what was asked: a route and its query). */
  tokenOf(scope: string, offset: number): string;
  /** The offset `token` names, if this listing gave it for `scope` and it lies in `1 … total - 1`. */
  offsetOf(scope: string, token: string, total: number): number | undefined;
}

/**
 * The page seal of a listing, its digest taken once here (when the host's documents are
 * prepared): every entry and the registry that holds it. A token altered, made up, cut short, of
 * another scope, of another tenant or of the listing before a change is refused (`undefined`).
 * A digest, not a secret: anyone can read a listing, and a token only says where a page starts.
 *
 * @example
 *   const seal = createPageSeal(agents.map((a) => [a.entry, a.source]));
 *   seal.offsetOf('agents', seal.tokenOf('agents', 20), 45); // 20
 */
export function createPageSeal(listing: unknown): PageSeal {
  const digest = computeEtag(encodeJson(listing));
  const encoder = new TextEncoder();
  const seal = (scope: string, offset: number) =>
    encodeBase64url(sha256(encoder.encode(`${digest}\n${offset}\n${scope}`)).subarray(0, 12));
  return {
    tokenOf: (scope, offset) => `${offset.toString(36)}.${seal(scope, offset)}`,
    offsetOf(scope, token, total) {
      const m = TOKEN.exec(token);
      if (m === null) return undefined;
      const offset = Number.parseInt(m[1]!, 36);
      return offset < total && m[2] === seal(scope, offset) ? offset : undefined;
    },
  };
}
