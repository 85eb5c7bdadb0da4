import { severalAgents } from './features/agents';
import { aiCatalog, aiCatalogDidWeb } from './features/catalog';
import { fallThrough, publicCard } from './features/card';
import { cors } from './features/cors';
import { discoveryDocuments } from './features/discovery';
import { dynamicCard } from './features/dynamic';
import { extendedCard } from './features/extended';
import { signedCard } from './features/jwks';
import { legacyPath } from './features/legacy';
import { serveEvents } from './features/observe';
import { registrySearch } from './features/registry';
import { viewerPage } from './features/viewer';
import { runConformanceFeatures } from './runner';
import type { AgentCardConformanceOptions } from './server';

/**
 * Runs the shared HTTP conformance suite (the behaviour table of docs/serving.md) against an adapter,
 * over real sockets with `fetch`. Every adapter must pass it unchanged; it needs vitest.
 *
 * Each feature is a table of cases in `features/`; the runner starts one host per fixture the
 * cases use and closes them all after the suite.
 */
export function runAgentCardConformanceSuite(config: AgentCardConformanceOptions): void {
  runConformanceFeatures(config, 'agent card conformance', [
    publicCard,
    legacyPath,
    fallThrough,
    cors,
    extendedCard,
    viewerPage,
    signedCard,
    dynamicCard,
    discoveryDocuments,
    serveEvents,
  ]);
  runConformanceFeatures(config, 'several agents and the AI catalog', [severalAgents, aiCatalog, aiCatalogDidWeb]);
  runConformanceFeatures(config, 'the ARD registry of a store', [registrySearch]);
}
