// Nest applications for bench/nest-boot.mjs and bench/nest-http.mjs, written as plain ESM with
// the decorators applied by hand (the bench runs on the built packages, without a compiler).
import 'reflect-metadata';
import { Controller, Get, Module, Res } from '@nestjs/common';
import { AgentCardModule, AgentSkills, Skill } from '@agent-card/nest';

export const CARD_PATH = '/.well-known/agent-card.json';

/** The static card fields both benchmarks publish. */
export const cardOptions = {
  name: 'Bench Shop',
  description: 'A service with many controllers whose skills come from @Skill() decorators.',
  version: '1.0.0',
  url: 'https://bench.acme-corp.io/a2a',
  binding: 'JSONRPC',
  provider: { organization: 'Acme Corp', url: 'https://acme-corp.io' },
  profile: 'development',
  logger: { warn() {} },
};

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
 */
export function featureModules(controllers = 200, methods = 5) {
  const modules = [];
  for (let first = 0; first < controllers; first += 10) {
    const group = [];
    for (let c = first; c < Math.min(first + 10, controllers); c++) {
      const Ctrl = { [`Feature${c}Controller`]: class {} }[`Feature${c}Controller`];
      for (let m = 0; m < methods; m++) {
        const key = `action${m}`;
        Ctrl.prototype[key] = () => ({ controller: c, method: m });
        decorateMethod(
          [
            Get(key),
            Skill({
              id: `feature-${c}-action-${m}`,
              description: `Runs action ${m} of feature ${c}.`,
              examples: [`Run action ${m}`],
            }),
          ],
          Ctrl.prototype,
          key,
        );
      }
      group.push(decorateClass([AgentSkills({ tags: [`feature-${c}`] }), Controller(`feature-${c}`)], Ctrl));
    }
    const Feature = { [`Feature${first / 10}Module`]: class {} }[`Feature${first / 10}Module`];
    modules.push(decorateClass([Module({ controllers: group })], Feature));
  }
  return modules;
}

/** The application module: the feature modules, with or without AgentCardModule. */
export function appModule(features, withAgentCard) {
  const imports = withAgentCard ? [AgentCardModule.forRoot(cardOptions), ...features] : [...features];
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
