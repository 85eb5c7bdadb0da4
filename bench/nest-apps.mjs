// Nest applications for bench/nest-boot.mjs and bench/nest-http.mjs, written as plain ESM with
// the decorators applied by hand (the bench runs on the built packages, without a compiler).
import 'reflect-metadata';
import { Controller, Get, Module, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, DocumentBuilder } from '@nestjs/swagger';
import { AgentCardModule, AgentSkills, Skill } from '@agent-card/nest';

export const CARD_PATH = '/.well-known/agent-card.json';

/** The module options both benchmarks use: the static card fields they publish. */
export const cardOptions = {
  definition: {
    name: 'Bench Shop',
    description: 'A service with many controllers whose skills come from @Skill() decorators.',
    version: '1.0.0',
    url: 'https://bench.acme-corp.io/a2a',
    binding: 'JSONRPC',
    provider: { organization: 'Acme Corp', url: 'https://acme-corp.io' },
  },
  profile: 'development',
  logger: { warn() {} },
};

/**
 * The card fields of an app documented for OpenAPI: the scheme `@ApiBearerAuth()` names is
 * declared, since the module turns that decorator into each skill's `securityRequirements`.
 */
export const openApiCardOptions = {
  ...cardOptions,
  definition: {
    ...cardOptions.definition,
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } } },
  },
};

/** The `SwaggerModule.createDocument` configuration of the documented app. */
export const openApiConfig = () =>
  new DocumentBuilder()
    .setTitle('Bench Shop')
    .setDescription(cardOptions.definition.description)
    .setVersion('1.0.0')
    .addBearerAuth()
    .build();

/** Applies decorators the way TypeScript's legacy decorators do (last one first). */
function decorateMethod(decorators, prototype, key) {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  for (const decorator of [...decorators].reverse()) decorator(prototype, key, descriptor);
}
function decorateClass(decorators, target) {
  return [...decorators].reverse().reduce((cls, decorator) => decorator(cls) ?? cls, target);
}

/**
 * Feature modules with `controllers` controllers of `methods` routes each, every route with a
 * `@Skill()`; ten controllers per module.
 *
 * With `openApi: true` the routes are documented for OpenAPI as a real app documents them:
 * `@ApiTags()` and `@ApiBearerAuth()` on the controller, `@ApiOperation({ summary, description })`
 * and `@ApiOkResponse()` on each route; `@Skill()` then gives only the id and examples, and the
 * module takes the name, description, tags and security requirements from those decorators.
 * Without it, `@Skill()` and `@AgentSkills()` say everything.
 */
export function featureModules(controllers = 200, methods = 5, { openApi = false } = {}) {
  const modules = [];
  for (let first = 0; first < controllers; first += 10) {
    const group = [];
    for (let c = first; c < Math.min(first + 10, controllers); c++) {
      const Ctrl = { [`Feature${c}Controller`]: class {} }[`Feature${c}Controller`];
      for (let m = 0; m < methods; m++) {
        const key = `action${m}`;
        Ctrl.prototype[key] = () => ({ controller: c, method: m });
        const id = `feature-${c}-action-${m}`;
        const examples = [`Run action ${m}`];
        decorateMethod(
          openApi
            ? [
                Get(key),
                ApiOperation({
                  summary: `Action ${m} of feature ${c}`,
                  description: `Runs action ${m} of feature ${c}.`,
                }),
                ApiOkResponse({ description: 'The result of the action.' }),
                Skill({ id, examples }),
              ]
            : [Get(key), Skill({ id, description: `Runs action ${m} of feature ${c}.`, examples })],
          Ctrl.prototype,
          key,
        );
      }
      const tag = `feature-${c}`;
      const decorators = openApi
        ? [ApiTags(tag), ApiBearerAuth(), Controller(tag)]
        : [AgentSkills({ tags: [tag] }), Controller(tag)];
      group.push(decorateClass(decorators, Ctrl));
    }
    const Feature = { [`Feature${first / 10}Module`]: class {} }[`Feature${first / 10}Module`];
    modules.push(decorateClass([Module({ controllers: group })], Feature));
  }
  return modules;
}

/**
 * The application module: the feature modules, with or without AgentCardModule (given these
 * module options).
 */
export function appModule(features, withAgentCard, options = cardOptions) {
  const imports = withAgentCard ? [AgentCardModule.forRoot(options), ...features] : [...features];
  return decorateClass([Module({ imports })], class AppModule {});
}

/**
 * The hand-written alternative: a Nest route at the well-known path that writes a precomputed
 * buffer with precomputed headers.
 */
export function handWrittenModule(features, body, headers) {
  class CardController {
    card(res) {
      res.writeHead(200, headers);
      res.end(body);
    }
  }
  Res()(CardController.prototype, 'card', 0);
  decorateMethod([Get(CARD_PATH.slice(1))], CardController.prototype, 'card');
  const Ctrl = decorateClass([Controller()], CardController);
  return decorateClass([Module({ imports: [...features], controllers: [Ctrl] })], class HandWrittenAppModule {});
}
