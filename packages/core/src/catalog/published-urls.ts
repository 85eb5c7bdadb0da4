// The URL rules for what an AI Catalog publishes (its host's URLs, each entry's): one list, which
// the middleware applies to its own catalog at start-up and `validateAiCatalog` to anyone's.
import type { ValidationProfile } from '../findings';
import { classifyHost, redactUrl } from '../validate/urls';

/** One broken rule: what is wrong, the value to show (never a password), and the fix. */
export interface PublishedUrlProblem {
  problem: string;
  value: string;
  fix: string;
}

/**
 * What is wrong with a URL a catalog publishes (`value` as written, `url` as parsed): credentials
 * in every profile; in `production` and `strict` also a scheme other than http(s) (`data:`,
 * `javascript:`, `file:`…: catalog readers follow http(s) only) and a loopback or link-local host.
 */
export function publishedUrlProblems(value: string, url: URL, profile: ValidationProfile): PublishedUrlProblem[] {
  const problems: PublishedUrlProblem[] = [];
  const shown = redactUrl(value);
  if (url.username !== '' || url.password !== '')
    problems.push({
      problem: 'carries credentials in the URL userinfo',
      value: shown,
      fix: 'Remove "user:password@"; the catalog is public.',
    });
  if (profile === 'development') return problems;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push({
      problem: `uses the ${url.protocol.slice(0, -1)} scheme; catalog readers follow http(s) URLs only`,
      value: shown,
      fix: 'Use an https:// URL.',
    });
    return problems;
  }
  const host = classifyHost(url.hostname);
  if (host.kind === 'loopback')
    problems.push({
      problem: `host is ${host.reason}, which other machines cannot reach`,
      value: url.hostname,
      fix: 'Use the public host name of the agent.',
    });
  else if (host.reason.includes('link-local'))
    problems.push({
      problem: `host is ${host.reason}, which no client outside the machine's link reaches`,
      value: url.hostname,
      fix: 'Use the public host name of the agent.',
    });
  return problems;
}
