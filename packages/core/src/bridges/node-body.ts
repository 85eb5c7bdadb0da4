// The body of a Node request, for the routes that take one: what the framework's own parser
// already made of it when it ran first (Express `express.json()`, Koa's body parser, Nest's), or
// the stream itself, read within a byte and a time bound. Structural: no `node:http` import.
import { concatBytes } from '../bytes';
import type { RequestBodyLimits, RequestBodyRead } from '../http/kernel/body';

/** The part of Node's `IncomingMessage` read here. */
interface BodyStream {
  on(event: string, listener: (chunk: Uint8Array | string) => void): unknown;
  removeListener(event: string, listener: (chunk: Uint8Array | string) => void): unknown;
  pause?(): unknown;
  readonly readableEnded?: boolean;
  readonly httpVersionMajor?: number;
  /** Set by body-parser (Express, Nest on Express) once it has read the body into `body`. */
  readonly _body?: boolean;
  readonly body?: unknown;
  /** Nest's `rawBody: true`, and others that keep the bytes as read. */
  readonly rawBody?: unknown;
}

function isStream(value: unknown): value is BodyStream {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BodyStream).on === 'function' &&
    typeof (value as BodyStream).removeListener === 'function'
  );
}

function rawBytes(value: unknown): Uint8Array | string | undefined {
  return typeof value === 'string' || value instanceof Uint8Array ? value : undefined;
}

/**
 * What a framework already read: the bytes it kept (Nest's `rawBody`, Koa's `request.rawBody`),
 * else the value its parser made (Koa `ctx.request.body`, Fastify `request.body`, body-parser's
 * `req.body` once it has set `req._body`); `undefined` when the stream is still unread.
 */
/** The members of a framework's request object (or Koa context) read here. */
interface FrameworkRequest {
  readonly req?: unknown;
  readonly raw?: unknown;
  readonly request?: { readonly body?: unknown; readonly rawBody?: unknown } | null;
  readonly body?: unknown;
  readonly rawBody?: unknown;
}

function alreadyRead(req: FrameworkRequest, stream: BodyStream): RequestBodyRead | undefined {
  const koa = typeof req.request === 'object' && req.request !== null && req.req === stream ? req.request : undefined;
  const raw = rawBytes(req.rawBody) ?? rawBytes(koa?.rawBody) ?? rawBytes(stream.rawBody);
  if (raw !== undefined) return { kind: 'bytes', bytes: raw };
  if (koa !== undefined) return koa.body === undefined ? undefined : { kind: 'parsed', value: koa.body };
  if (req !== stream && req.body !== undefined) return { kind: 'parsed', value: req.body };
  // body-parser 1 marks what it read with `_body`; body-parser 2 (Express 5) leaves the stream ended
  // and the value in `body`.
  if (stream._body === true || (stream.readableEnded === true && stream.body !== undefined))
    return { kind: 'parsed', value: stream.body };
  return undefined;
}

function readStream(stream: BodyStream, limits: RequestBodyLimits): Promise<RequestBodyRead> {
  if (stream.readableEnded === true) return Promise.resolve({ kind: 'unavailable' });
  // A refused body is left unread: on HTTP/1 the answer closes the connection rather than keep
  // reading what the client still sends.
  const http1 = stream.httpVersionMajor === undefined || stream.httpVersionMajor < 2;
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const finish = (read: RequestBodyRead) => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('aborted', onError);
      if (read.kind !== 'bytes') stream.pause?.();
      resolve(read);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      total += bytes.byteLength;
      if (total > limits.maxBytes) return finish({ kind: 'too-large', closeConnection: http1 });
      chunks.push(bytes);
    };
    const onEnd = () => finish({ kind: 'bytes', bytes: concatBytes(chunks, total) });
    // A client that goes away has nobody to answer; what it sent is not a body.
    const onError = () => finish({ kind: 'timeout', closeConnection: http1 });
    const timer = setTimeout(() => finish({ kind: 'timeout', closeConnection: http1 }), limits.timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('aborted', onError);
  });
}

/**
 * Reads the body of `req`: Node's `IncomingMessage` (Express, Nest on Express), a Koa context
 * (`ctx.req`) or a Fastify request (`request.raw`).
 */
export function readNodeBody(req: unknown, limits: RequestBodyLimits): Promise<RequestBodyRead> {
  if (typeof req !== 'object' || req === null) return Promise.resolve({ kind: 'unavailable' });
  const r = req as FrameworkRequest;
  const stream: unknown = isStream(r.req) ? r.req : isStream(r.raw) ? r.raw : r;
  if (!isStream(stream)) return Promise.resolve({ kind: 'unavailable' });
  return Promise.resolve(alreadyRead(r, stream) ?? readStream(stream, limits));
}
