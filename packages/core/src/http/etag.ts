// The entity tags of the kernel, where the conformance suite imports them from.
export { computeEtag, ifNoneMatchMatches } from './kernel/etag';
