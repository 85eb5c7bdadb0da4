export { AGENT_CARD_CANONICAL_FORMS, canonicalizeAgentCard, MAX_SIGNED_DEPTH } from './canonicalize';
export type { AgentCardCanonicalForm, CanonicalizeAgentCardOptions } from './canonicalize';
export { signAgentCard } from './sign';
export type { SignAgentCardOptions } from './sign';
export { verifyAgentCard } from './verify';
export type { AgentCardSignatureCheck, VerifyAgentCardOptions, VerifyAgentCardResult } from './verify';
export { AGENT_CARD_SIGNING_ALGORITHMS } from './algorithms';
export type { AgentCardSigningAlgorithm } from './algorithms';
export type { AgentCardPrivateKey, AgentCardPublicKey } from './keys';
