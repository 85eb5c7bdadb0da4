// The body of a web-standard `Request`, for the routes that take one, read within a byte and a
// time bound; a refused body's stream is cancelled.
import { concatBytes } from '../bytes';
import type { RequestBodyLimits, RequestBodyRead } from '../http/kernel/body';

/** Reads `request.body` (or the stream `given` returns): its bytes, or why there are none to read. */
export async function readWebBody(
  request: Request,
  limits: RequestBodyLimits,
  given?: () => ReadableStream<Uint8Array> | null | undefined,
): Promise<RequestBodyRead> {
  if (given === undefined && request.bodyUsed) return { kind: 'unavailable' };
  const body = given === undefined ? request.body : (given() ?? null);
  if (body === null) return { kind: 'bytes', bytes: new Uint8Array(0) };
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), limits.timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stop = (read: RequestBodyRead): RequestBodyRead => {
    reader.cancel().then(undefined, () => undefined);
    return read;
  };
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === 'timeout') return stop({ kind: 'timeout' });
      if (next.done) return { kind: 'bytes', bytes: concatBytes(chunks, total) };
      const chunk = next.value as Uint8Array;
      total += chunk.byteLength;
      if (total > limits.maxBytes) return stop({ kind: 'too-large' });
      chunks.push(chunk);
    }
  } catch {
    // The client went away or the stream broke: what arrived is not a body.
    return { kind: 'timeout' };
  } finally {
    clearTimeout(timer);
  }
}
