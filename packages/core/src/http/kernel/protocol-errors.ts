/**
 * A2A error shapes for the extended card: REST `google.rpc.Status` bodies (spec §11.6) and
 * JSON-RPC error objects (spec §9.5), both carrying a `google.rpc.ErrorInfo` with the A2A reason.
 * @packageDocumentation
 */

/** `google.rpc.ErrorInfo` as ProtoJSON `Any` (spec §9.5, §11.6). */
export interface A2AErrorInfo {
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo';
  /** The A2A error type in UPPER_SNAKE_CASE without `Error`, e.g. `UNSUPPORTED_OPERATION`. */
  reason: string;
  /** Always `a2a-protocol.org`. */
  domain: 'a2a-protocol.org';
}

/** A JSON-RPC 2.0 error object as A2A uses it (spec §9.5). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data: A2AErrorInfo[];
}

/** The REST error body: `google.rpc.Status` JSON (spec §11.6). */
export interface RestErrorBody {
  error: { code: number; status: string; message: string; details: A2AErrorInfo[] };
}

/** One A2A error and its mapping to every binding (spec §5.4). */
export interface A2AErrorKind {
  /** JSON-RPC code. */
  code: number;
  /** HTTP status of the REST binding. */
  httpStatus: number;
  /** Canonical `google.rpc.Code` name for the REST body's `status`. */
  status: string;
  /** ErrorInfo reason. */
  reason: string;
  /** Fixed, client-safe message. */
  message: string;
}

/** `UnsupportedOperationError`: the card does not declare `capabilities.extendedAgentCard`. */
export const UNSUPPORTED_OPERATION: A2AErrorKind = {
  code: -32004,
  httpStatus: 400,
  status: 'FAILED_PRECONDITION',
  reason: 'UNSUPPORTED_OPERATION',
  message: 'This agent does not support the extended agent card (capabilities.extendedAgentCard is not true).',
};

/** `ExtendedAgentCardNotConfiguredError`: declared, but the server has no extended card. */
export const EXTENDED_AGENT_CARD_NOT_CONFIGURED: A2AErrorKind = {
  code: -32007,
  httpStatus: 400,
  status: 'FAILED_PRECONDITION',
  reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  message: 'The agent declares an extended agent card but none is configured.',
};

/**
 * Missing or rejected credentials. The spec has no A2A error type for it (§3.3.2 says "HTTP 401,
 * JSON-RPC custom error"); JSON-RPC uses -32000, the first implementation-defined server error
 * code outside A2A's own -32001…-32099 range.
 */
export const UNAUTHENTICATED: A2AErrorKind = {
  code: -32000,
  httpStatus: 401,
  status: 'UNAUTHENTICATED',
  reason: 'UNAUTHENTICATED',
  message: 'Authentication is required to read the extended agent card.',
};

/** The extended card could not be produced right now (its provider failed or was invalid). */
export const EXTENDED_CARD_UNAVAILABLE: A2AErrorKind = {
  code: -32603,
  httpStatus: 503,
  status: 'UNAVAILABLE',
  reason: 'EXTENDED_AGENT_CARD_UNAVAILABLE',
  message: 'The extended agent card is temporarily unavailable. Retry later.',
};

function errorInfo(kind: A2AErrorKind): A2AErrorInfo {
  return { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: kind.reason, domain: 'a2a-protocol.org' };
}

/** The REST (`google.rpc.Status`) body of an A2A error. */
export function toRestErrorBody(kind: A2AErrorKind): RestErrorBody {
  return { error: { code: kind.httpStatus, status: kind.status, message: kind.message, details: [errorInfo(kind)] } };
}

/** The JSON-RPC error object of an A2A error. */
export function toJsonRpcError(kind: A2AErrorKind): JsonRpcErrorObject {
  return { code: kind.code, message: kind.message, data: [errorInfo(kind)] };
}
