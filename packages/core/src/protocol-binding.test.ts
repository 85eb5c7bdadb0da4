import { describe, expectTypeOf, it } from 'vitest';
import { defineAgentCard, type AgentInterface, type ProtocolBinding } from './index';

describe('ProtocolBinding', () => {
  it('accepts the three spec spellings and custom binding URIs', () => {
    expectTypeOf<'JSONRPC'>().toExtend<ProtocolBinding>();
    expectTypeOf<'GRPC'>().toExtend<ProtocolBinding>();
    expectTypeOf<'HTTP+JSON'>().toExtend<ProtocolBinding>();
    expectTypeOf<'https://acme.io/bindings/mqtt'>().toExtend<ProtocolBinding>();
    expectTypeOf<'urn:acme:binding:mqtt'>().toExtend<ProtocolBinding>();
  });

  it('refuses a misspelt binding at compile time', () => {
    expectTypeOf<'JSON-RPC'>().not.toExtend<ProtocolBinding>();
    expectTypeOf<'jsonrpc'>().not.toExtend<ProtocolBinding>();
    expectTypeOf<'REST'>().not.toExtend<ProtocolBinding>();
    // The user's mistake, as written: each line fails to compile (tsc checks the directives).
    const typo: AgentInterface = {
      url: 'https://api.acme.io/a2a',
      // @ts-expect-error 'JSON-RPC' is not a binding: the spec spells it JSONRPC.
      protocolBinding: 'JSON-RPC',
      protocolVersion: '1.0',
    };
    void typo;
    const define = () =>
      defineAgentCard({
        name: 'Acme Orders',
        description: 'Answers questions about Acme orders.',
        url: 'https://api.acme.io/a2a',
        // @ts-expect-error 'jsonrpc' is not a binding: bindings are case-sensitive.
        binding: 'jsonrpc',
        version: '1.0.0',
        skills: [{ id: 'status', name: 'Order status', description: 'Looks up an order.', tags: ['orders'] }],
      });
    void define;
  });
});
