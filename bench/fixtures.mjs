// What every benchmark server serves: one realistic card (a few skills, two interfaces, an
// API-key scheme), and the ordinary JSON route of the pass-through comparison.

export const CARD_PATH = '/.well-known/agent-card.json';
export const API_PATH = '/api/orders';
export const EXTENDED_PATH = '/a2a/extendedAgentCard';
export const API_KEY = 'bench-key';

const skill = (id, name, description, tags) => ({
  id,
  name,
  description,
  tags,
  examples: [`${name} for order 1001`, `${name} for customer c-42`],
  inputModes: ['application/json', 'text/plain'],
  outputModes: ['application/json'],
});

export const card = {
  name: 'Orders Agent',
  description: 'Looks up and tracks customer orders of the Northwind shop, and answers delivery questions.',
  version: '1.4.0',
  provider: { organization: 'Northwind Traders', url: 'https://github.com/northwind-traders' },
  documentationUrl: 'https://github.com/northwind-traders/orders-agent#readme',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:8080/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: 'http://127.0.0.1:8080/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: true },
  securitySchemes: {
    apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key', description: 'Partner API key' } },
  },
  securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
  defaultInputModes: ['application/json', 'text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [
    skill('order-status', 'Order status', 'Reports where an order is and when it should arrive.', [
      'orders',
      'tracking',
    ]),
    skill('list-orders', 'List orders', 'Lists the recent orders of a customer.', ['orders']),
    skill('change-address', 'Change address', 'Changes the delivery address of an order not yet shipped.', [
      'orders',
      'delivery',
    ]),
    skill('delivery-slots', 'Delivery slots', 'Lists the delivery slots available for a postcode.', ['delivery']),
    skill('returns', 'Start a return', 'Opens a return for items of a delivered order.', ['orders', 'returns']),
  ],
};

export const extendedSkills = [
  skill('refund-order', 'Refund an order', 'Issues a full or partial refund for a delivered order.', [
    'orders',
    'refunds',
  ]),
];

export const orders = [
  { id: '1001', customer: 'c-42', status: 'shipped', total: 59.9 },
  { id: '1002', customer: 'c-42', status: 'delivered', total: 20 },
  { id: '1003', customer: 'c-7', status: 'processing', total: 112.5 },
];

/** The options every "ours" server passes to the middleware or responder. */
export const options = {
  card,
  profile: 'development',
  logger: { warn() {} },
  extended: {
    // Express and node:http pass the request, Koa the context: both have `headers`.
    authenticate: (req) => (req.headers['x-api-key'] === API_KEY ? { partner: 'bench' } : undefined),
    card: extendedSkills,
  },
};

/** The multi-agent comparisons: this many agents, the last one's card is the one fetched. */
export const AGENT_COUNT = 100;
export const LAST_AGENT_CARD_PATH = `/agents/agent-${AGENT_COUNT}${CARD_PATH}`;

/**
 * `AGENT_COUNT` agents, each with the fixture card under its own path and interface URLs, its
 * own extended card, and the first one as the default.
 */
export function agentsOptions(count = AGENT_COUNT) {
  const { card: _card, extended, ...shared } = options;
  return {
    ...shared,
    default: 'agent-1',
    catalog: { publisher: 'northwind.example', host: { displayName: 'Northwind Traders' } },
    agents: Array.from({ length: count }, (_, i) => {
      const id = `agent-${i + 1}`;
      return {
        id,
        path: `/agents/${id}`,
        card: {
          ...card,
          name: `Orders Agent ${i + 1}`,
          supportedInterfaces: card.supportedInterfaces.map((intf) => ({
            ...intf,
            url: intf.url.replace('/a2a', `/agents/${id}/a2a`),
          })),
        },
        extended,
      };
    }),
  };
}
