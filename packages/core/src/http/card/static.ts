// The responder of a static card: one prepared variant, swapped whole by update().
import { AgentCardError } from '../../errors';
import type { Finding } from '../../findings';
import type { AgentCard } from '../../model';
import { answerDocument } from '../kernel/documents';
import { AGENT_CARD_PATH, comparablePath, LEGACY_AGENT_CARD_PATH, WELL_KNOWN_PREFIX } from '../kernel/paths';
import { type AgentCardResponder, sealResponder } from '../kernel/responder';
import { prepareVariant, type VariantSettings, warnAboutExtended } from './variant';

/** Whether `path` starts with one of `prefixes` (a card has one or two extended-card paths). */
export function startsWithOneOf(path: string, prefixes: readonly string[]): boolean {
  for (let i = 0; i < prefixes.length; i++) if (path.startsWith(prefixes[i]!)) return true;
  return false;
}

/** Whether `path` is the card's (a query string or trailing slash still matches). */
export function isCardPath(path: string): boolean {
  return path === AGENT_CARD_PATH || comparablePath(path) === AGENT_CARD_PATH;
}

/**
 * Serves one card prepared now: `respond` compares the path, reads the method and
 * `If-None-Match`, and returns a prebuilt, frozen response.
 */
export function createStaticResponder<Req>(
  card: AgentCard,
  initial: VariantSettings,
  warn: (f: Finding[]) => void,
): AgentCardResponder<Req> {
  let settings = initial;
  let current = prepareVariant(card, settings, warn);
  warnAboutExtended(card, current, settings);
  const responder: AgentCardResponder<Req> = {
    respond(request) {
      // One read of the current variant: a request is answered wholly from the old card or the
      // new one, with that card's bytes and ETag, however update() interleaves with it.
      const { main, legacy, extended } = current;
      const path = request.path;
      // The exact path is by far the most common request; skip normalisation for it.
      if (path === AGENT_CARD_PATH) return answerDocument(main, request);
      // Pass-through requests (the app's own routes) leave after one prefix check, allocation-free.
      if (!path.startsWith(WELL_KNOWN_PREFIX) && !startsWithOneOf(path, extended.paths)) return undefined;
      const p = comparablePath(path);
      if (p === AGENT_CARD_PATH) return answerDocument(main, request);
      if (p === LEGACY_AGENT_CARD_PATH) return legacy === undefined ? undefined : answerDocument(legacy, request);
      if (extended.paths.includes(p)) return extended.handle(request);
      return undefined;
    },
    update(next, changes) {
      let changed = settings;
      if (changes?.extendedCard !== undefined) {
        if (settings.extended === undefined) {
          throw new AgentCardError(
            'ERR_AGENT_CARD_OPTIONS',
            'update: extendedCard is given but the responder has no extended option. Create the responder with extended: { authenticate } to serve an extended card.',
          );
        }
        changed = { ...settings, extended: { ...settings.extended, card: changes.extendedCard } };
      }
      // Validated, signed, serialised and hashed before the swap: a card that throws here leaves
      // the served one as it was.
      const variant = prepareVariant(next, changed, warn);
      warnAboutExtended(next, variant, changed);
      settings = changed;
      current = variant;
    },
  };
  return sealResponder(responder, {
    extended: (request) => current.extended.resolve(request),
    variant: (request) => (isCardPath(request.path) ? current.variant : undefined),
    paths: () => (current.legacy === undefined ? [AGENT_CARD_PATH] : [AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH]),
  });
}
