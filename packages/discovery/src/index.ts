// The public surface of @agent-card/discovery: discoverAgentCard and the types of its options
// and report. It reads cards, catalogs and key sets through @agent-card/core's public API only.
export type {
  DiscoveryAgentReport,
  DiscoveryAgentSkip,
  DiscoveryCatalogReport,
  DiscoveryConditional,
  DiscoveryConsistency,
  DiscoveryDisagreement,
  DiscoveryDocument,
  DiscoveryDocumentsReport,
  DiscoveryGrade,
  DiscoveryFailure,
  DiscoveryFailureKind,
  DiscoveryFetch,
  DiscoveryFinding,
  DiscoveryHead,
  DiscoveryHeaderName,
  DiscoveryHeaders,
  DiscoveryHttpProbe,
  DiscoveryKeyOptions,
  DiscoveryOptions,
  DiscoveryPath,
  DiscoveryPathReport,
  DiscoveryPreflight,
  DiscoveryRedirect,
  DiscoveryReport,
  DiscoverySignature,
  DiscoveryVersioned,
} from './types';
export { discoverAgentCard } from './discover';
export { DEFAULT_MAX_CARD_BYTES } from './target';
export type { ProbeAgentCardOptions, ProbeInterfaceReport, ProbeReport } from './probe';
export { probeAgentCard } from './probe';
