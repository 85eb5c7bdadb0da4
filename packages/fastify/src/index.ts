import { AgentCardError, closeAgentCard } from '@agent-card/core';
import { createAgentCardNodeHandler, createAgentCardResponder, writeFastifyReply } from '@agent-card/core/http';
import type { AgentCardOptions as CoreAgentCardOptions, AgentCardResponder } from '@agent-card/core/http';
import type {
  FastifyInstance,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import fp from 'fastify-plugin';

/**
 * The card options of {@link agentCard}: core's `AgentCardOptions` with the `FastifyRequest` that
 * `authenticate` and a dynamic `card` receive filled in, so an options object typed on its own
 * (`const options = { … } satisfies FastifyAgentCardOptions`) gives its functions a typed `request`.
 */
export type FastifyAgentCardOptions<Req = FastifyRequest> = CoreAgentCardOptions<Req>;
/** The same as {@link FastifyAgentCardOptions}, under core's name. */
export type AgentCardOptions<Req = FastifyRequest> = CoreAgentCardOptions<Req>;

/**
 * The options of {@link agentCard}: those of every adapter, plus Fastify's own `register`
 * options (`prefix`, `logLevel`, `logSerializers`), which are not passed on to the card.
 */
export type AgentCardPluginOptions = FastifyAgentCardOptions & {
  /**
   * Serves the card under this path prefix, as `app.use('/api', …)` does in Express:
   * `/api/.well-known/agent-card.json`. Other paths go to the app untouched.
   * @default '' (the root of the app, where A2A clients look)
   */
  prefix?: string;
  /**
   * The name of the instance decorator that changes the card at run time
   * (`app.agentCard.update(card)`); each registration on one instance needs its own. `false`
   * decorates nothing. A name other than `agentCard` is not typed on `FastifyInstance`: declare it
   * in your app (`declare module 'fastify' { interface FastifyInstance { billingCard: AgentCardDecorator } }`).
   * @default 'agentCard'
   */
  decorator?: string | false;
};

/**
 * What `app.agentCard` holds: `update(card)`, core's `responder.update`. The new card is
 * validated as at start-up, then swapped in at once; an invalid card throws `AgentCardError` and
 * the served card stays as it was. And `responder`, what `getExtendedAgentCard` and
 * `agentResponderOf` of `@agent-card/core` read: `getExtendedAgentCard(app.agentCard, request)`.
 */
export type AgentCardDecorator = Pick<AgentCardResponder<FastifyRequest>, 'update'> & {
  readonly responder: AgentCardResponder<FastifyRequest>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Set by `@agent-card/fastify`: `app.agentCard.update(card)` changes the served card at run
     * time (validated as at start-up; an invalid card throws and the served one stays).
     */
    agentCard: AgentCardDecorator;
  }
}

// Fastify's own `register` options, which Fastify hands to the plugin with ours, and ours that
// are not the card's.
const REGISTER_KEYS = new Set(['prefix', 'logLevel', 'logSerializers', 'decorator']);

/**
 * The options without Fastify's `register` keys, for the core responder; warnings go to the app's
 * logger (`fastify.log`, pino: each finding with its `rule` as a field) unless `logger` is given,
 * or to `console` when the app logs nothing (`Fastify()` without `logger`), so none is lost.
 */
function cardOptions(options: AgentCardPluginOptions, fastify: FastifyInstance): AgentCardOptions<FastifyRequest> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options ?? {})) if (!REGISTER_KEYS.has(key)) out[key] = value;
  if (out.logger === undefined) out.logger = typeof fastify.log.level === 'string' ? fastify.log : console;
  return out as AgentCardOptions<FastifyRequest>;
}

/** `app.agentCard` (or the name given as `decorator`): the responder's `update`. */
function decorate(
  fastify: FastifyInstance,
  name: string | false | undefined,
  responder: AgentCardResponder<FastifyRequest>,
): void {
  if (name === false) return;
  const decorator = name === undefined ? 'agentCard' : name;
  if (typeof decorator !== 'string' || decorator === '') {
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      `options.decorator: must be a non-empty string or false (${JSON.stringify(decorator)}). Name the decorator, e.g. decorator: 'billingCard', or pass false for none.`,
    );
  }
  if (fastify.hasDecorator(decorator)) {
    throw new AgentCardError(
      'ERR_AGENT_CARD_OPTIONS',
      `options.decorator: the instance already has a decorator named ${decorator} (is the plugin registered twice on it?). Give each registration its own name, e.g. register(agentCard, { decorator: 'billingCard', … }), or pass decorator: false.`,
    );
  }
  const value: AgentCardDecorator = Object.freeze({ update: responder.update, responder });
  fastify.decorate(decorator, value);
}

const plugin: FastifyPluginCallback<AgentCardPluginOptions> = (
  fastify: FastifyInstance,
  options: AgentCardPluginOptions,
  done: (error?: Error) => void,
) => {
  let responder: AgentCardResponder<FastifyRequest>;
  try {
    responder = createAgentCardResponder<FastifyRequest>(cardOptions(options, fastify));
    decorate(fastify, options?.decorator, responder);
  } catch (error) {
    // Fastify rejects `ready()` and `listen()` with it: the app does not start.
    done(error as Error);
    return;
  }
  // Fastify's `request.url` carries the mount prefix: the scope the plugin is registered in plus
  // `register(…, { prefix })`. `request` is what `authenticate` and a dynamic card receive; the
  // socket's peer is read, not `request.ip` (which follows Fastify's own trustProxy).
  const handle = createAgentCardNodeHandler<FastifyRequest, FastifyReply, undefined>(responder, {
    basePath: `${fastify.prefix}${options?.prefix ?? ''}`,
    write: writeFastifyReply,
  });
  fastify.addHook(
    'onRequest',
    function agentCardHook(request: FastifyRequest, reply: FastifyReply, next: HookHandlerDoneFunction) {
      // Nothing returned: Fastify would take a promise for an async hook's and call `next` twice.
      handle(request, reply, next as (error?: unknown) => undefined);
    },
  );
  // The watch of agent-card.json (`watch`) ends with the app.
  fastify.addHook('onClose', (_instance, closed) => {
    closeAgentCard(responder);
    closed();
  });
  done();
};

/**
 * A Fastify 4 or 5 plugin that serves the A2A Agent Card: `/.well-known/agent-card.json`, the
 * legacy `/.well-known/agent.json` alias and, when the card declares it, the extended card.
 * Every other request goes on to the app untouched.
 *
 * It answers from an `onRequest` hook on the instance it is registered on (wrapped with
 * `fastify-plugin`, so registered on the root instance it sees every request of the app, even
 * those no route matches); the app's routes, prefixes and `setNotFoundHandler` are left alone.
 * The card is validated, serialized and hashed once, when the plugin loads: an invalid card or
 * option rejects `ready()` / `listen()` with an `AgentCardError`, never a request. HTTP behaviour
 * (ETag, 304, HEAD, CORS, 405, caching) is decided by `@agent-card/core`, identically for every
 * framework.
 *
 * `register(agentCard, { prefix: '/api', … })` serves `/api/.well-known/agent-card.json`, as an
 * Express mount path does; paths are matched relative to the prefix. `authenticate` and a
 * dynamic `card` receive Fastify's `request` (after the `onRequest` hooks registered before this
 * plugin, so their decorations, e.g. `request.user`, are set).
 *
 * The plugin decorates the instance with `agentCard`: `app.agentCard.update(card)` replaces the
 * served card at run time (see `responder.update` in `@agent-card/core`). Registered more than
 * once on one instance, give each registration its own `decorator` name (or `false`).
 *
 * @param options - see `AgentCardOptions` in `@agent-card/core`; all optional. With no `card`,
 *   `agent-card.json` and `package.json` are read from the working directory.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { agentCard } from '@agent-card/fastify';
 *
 * const app = Fastify();
 * await app.register(agentCard, { card });
 * await app.listen({ port: 3000 });
 * app.agentCard.update({ ...card, skills: [...card.skills, newSkill] }); // later, at run time
 * ```
 * @see https://a2a-protocol.org/latest/specification/#8-agent-discovery-the-agent-card
 */
export const agentCard: FastifyPluginCallback<AgentCardPluginOptions> = fp(plugin, {
  name: '@agent-card/fastify',
  fastify: '4.x || 5.x',
});
