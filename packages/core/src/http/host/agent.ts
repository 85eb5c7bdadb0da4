// An agent of a host, once its options are checked: what every document about the host (the AI
// Catalog, the ARD manifest, the viewer's host page) reads of it.
import type { AgentCard } from '../../model';
import type { AgentCardResponder } from '../kernel/responder';
import type { AgentOptions } from '../types';

/** What an agent becomes once its options are checked. */
export interface Agent<Req> {
  readonly id: string;
  /** `options.agents[i] (agent "id")`: how errors name it. */
  readonly name: string;
  readonly path: string;
  /** Its options as they stand (the card and extended card of the last accepted update). */
  readonly options: AgentOptions<Req>;
  readonly responder: AgentCardResponder<Req>;
  /** Static card (undefined for a card function). */
  readonly card: AgentCard | undefined;
  readonly entry: AgentOptions<Req>['catalogEntry'];
  /** REST extended-card paths known at start-up (static cards). */
  readonly extendedPaths: readonly string[];
}

/** A static card of a host's agent: its id, where its card is served, and the card as validated. */
export interface HostAgentCard {
  readonly id: string;
  readonly path: string;
  readonly card: AgentCard;
}

/** A discovery document of the host a page names in a `<link>`: its relation, path and type. */
export interface PageLink {
  readonly rel: string;
  /** A path on the mount point, or an absolute URL (under `catalog.baseUrl`). */
  readonly path: string;
  readonly type: string;
}
