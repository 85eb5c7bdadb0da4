// Cards the browser tests serve: one that uses every part of the model a page shows, and a host of
// several agents.
import type { AgentCard } from '@agent-card/core';

/** A card with every security scheme kind, two interfaces, an extension and three skills. */
export const SHOWCASE_CARD: AgentCard = {
  name: 'Harbourline Travel Agent',
  description: 'Plans trips, books ferries and hotels, and changes or cancels bookings for Harbourline travellers.',
  version: '3.2.0',
  provider: { organization: 'Harbourline Travel', url: 'https://harbourline-travel.com' },
  documentationUrl: 'https://developers.harbourline-travel.com/agents/travel',
  supportedInterfaces: [
    { url: 'https://agents.harbourline-travel.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    {
      url: 'https://agents.harbourline-travel.com/a2a/rest',
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
      tenant: 'harbourline',
    },
  ],
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [
      {
        uri: 'https://a2a-protocol.org/extensions/timestamp/v1',
        description: 'Adds server timestamps to messages.',
        required: false,
      },
    ],
  },
  securitySchemes: {
    partnerToken: {
      oauth2SecurityScheme: {
        description: 'Machine-to-machine access for partner agencies.',
        flows: {
          clientCredentials: {
            tokenUrl: 'https://id.harbourline-travel.com/oauth2/token',
            scopes: { 'bookings:read': 'Read bookings', 'bookings:write': 'Create and change bookings' },
          },
        },
      },
    },
    partnerKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
    travellerToken: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    staffSso: {
      openIdConnectSecurityScheme: {
        openIdConnectUrl: 'https://id.harbourline-travel.com/.well-known/openid-configuration',
      },
    },
    agencyCertificate: { mtlsSecurityScheme: { description: 'Client certificates issued to partner agencies.' } },
  },
  securityRequirements: [
    { schemes: { partnerToken: { list: ['bookings:read'] } } },
    { schemes: { partnerKey: { list: [] } } },
    { schemes: { travellerToken: { list: [] } } },
  ],
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    {
      id: 'plan-trip',
      name: 'Plan a trip',
      description: 'Suggests ferry crossings and hotels for the given dates and budget.',
      tags: ['travel', 'planning'],
      examples: ['Two nights in Bergen in May for two adults', 'Cheapest crossing to Kiel next Friday'],
    },
    {
      id: 'book-crossing',
      name: 'Book a crossing',
      description: 'Books a ferry crossing and returns the booking reference.',
      tags: ['travel', 'booking'],
      examples: ['Book the 08:30 to Kiel on 12 May for one car and two adults'],
      outputModes: ['application/json'],
      securityRequirements: [{ schemes: { partnerToken: { list: ['bookings:write'] } } }],
    },
    {
      id: 'cancel-booking',
      name: 'Cancel a booking',
      description: 'Cancels a booking and says what is refunded.',
      tags: ['travel', 'refunds'],
      inputModes: ['application/json'],
    },
  ],
};

const common = {
  provider: { organization: 'Acme Corp', url: 'https://acme.example' },
  version: '2.0.0',
  capabilities: { streaming: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
};

/** The agents of a host, each under its own path on `origin`. */
export function hostAgents(origin: string): { id: string; path: string; card: AgentCard }[] {
  return [
    {
      id: 'billing',
      path: '/agents/billing',
      card: {
        ...common,
        name: 'Acme Billing Agent',
        description: 'Answers questions about invoices and payments of Acme customers.',
        supportedInterfaces: [
          { url: `${origin}/agents/billing/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ],
        securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
        securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
        skills: [
          {
            id: 'invoice-status',
            name: 'Invoice status',
            description: 'Says whether an invoice is paid.',
            tags: ['billing', 'invoices'],
          },
        ],
      },
    },
    {
      id: 'support',
      path: '/agents/support',
      card: {
        ...common,
        name: 'Acme Support Agent',
        description: 'Answers product questions and opens support tickets.',
        supportedInterfaces: [
          { url: `${origin}/agents/support/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        securitySchemes: {
          sso: {
            openIdConnectSecurityScheme: {
              openIdConnectUrl: 'https://id.acme.example/.well-known/openid-configuration',
            },
          },
        },
        skills: [
          {
            id: 'open-ticket',
            name: 'Open a ticket',
            description: 'Opens a support ticket.',
            tags: ['support', 'tickets'],
          },
        ],
      },
    },
  ];
}
