import support from '../../../examples/cards/support.json' with { type: 'json' };
import booking from '../../../examples/cards/booking.json' with { type: 'json' };
import shopping from '../../../examples/cards/shopping.json' with { type: 'json' };
import coding from '../../../examples/cards/coding.json' with { type: 'json' };
import research from '../../../examples/cards/research.json' with { type: 'json' };
import workflow from '../../../examples/cards/workflow.json' with { type: 'json' };

/**
 * Starter cards for `agent-card init`: the realistic example cards of the repository, inlined at
 * build time so the binary needs no files beside it.
 */
export const TEMPLATES = { support, booking, shopping, coding, research, workflow } as const;
export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];
