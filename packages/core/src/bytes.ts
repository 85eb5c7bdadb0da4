/** Node's (and Bun's) `Buffer`, as far as this package uses it. */
export interface NodeBufferClass {
  isBuffer(value: unknown): boolean;
  byteLength(text: string, encoding: 'utf8'): number;
  from(input: string, encoding: string): Uint8Array & { toString(encoding: string): string };
  from(input: ArrayBufferLike, offset: number, length: number): Uint8Array & { toString(encoding: string): string };
}

/**
 * `Buffer` where the runtime has one (Node, Bun), else `undefined`. Read from the global object,
 * never imported: the package must load where there is no `Buffer` (Deno, Cloudflare Workers).
 */
export const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;

/**
 * `bytes` as the bytes the runtime's own HTTP server writes as they are: on Node and Bun a
 * `Buffer` over the same memory (no copy), since Node's streams wrap any other `Uint8Array` in a
 * new `Buffer` on every write; elsewhere `bytes` itself. For bodies prepared once and sent many
 * times.
 */
export function nativeBytes(bytes: Uint8Array): Uint8Array {
  if (NodeBuffer === undefined || NodeBuffer.isBuffer(bytes)) return bytes;
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Joins byte chunks read from a stream into one array (no copy when there is a single chunk). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a response body up to `maxBytes`. Resolves to its bytes, or to `undefined` once the body
 * passes the cap (the rest of the stream is cancelled, never buffered).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}
