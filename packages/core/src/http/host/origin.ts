import type { AgentCard } from '../../model';

/** The origin of a card's first interface URL: where a document about the host finds it. */
export function originOfCard(card: AgentCard | undefined): string | undefined {
  const url = card?.supportedInterfaces?.[0]?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
