/**
 * `@agent-card/core/testing`: the conformance suite every adapter runs over a real socket, and
 * the fixtures it uses.
 *
 * @example
 * // packages/express/src/conformance.test.ts
 * import { runAgentCardConformanceSuite } from '@agent-card/core/testing'
 * runAgentCardConformanceSuite({
 *   name: 'express 5',
 *   async start(options) {
 *     const app = express()
 *     app.use(agentCard(options))
 *     app.get('/api/ping', (_req, res) => res.send('pong'))
 *     app.get('/.well-known/other', (_req, res) => res.send('other'))
 *     const server = app.listen(0)
 *     await once(server, 'listening')
 *     return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(() => r())) }
 *   },
 * })
 * @packageDocumentation
 */
export { runAgentCardConformanceSuite } from './conformance';
export { readRequestHeader } from './request-header';
export type { AgentCardConformanceOptions, ConformanceServer, StartConformanceServer } from './server';
export { runAgentCardUpdateSuite } from './update-conformance';
export { listenOnLoopback } from './loopback';
export type { AgentCardUpdateSuiteOptions, UpdatableConformanceServer } from './update-conformance';
export {
  CONFORMANCE_CARD,
  CONFORMANCE_EXTENDED_PATH,
  CONFORMANCE_TOKEN,
  EXTENDED_ONLY_SKILL,
  conformanceAgentCard,
} from './cards';
