import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * Hono's bodyLimit, made to hold for every reader. A body with Content-Length is checked by its
 * header; a chunked one is read here, counted, and handed on with its length — the request
 * validators turn a body stream that fails mid-read into "malformed JSON", which would hide the
 * 413. At most `max` bytes are held in memory.
 */
export function limitBody(max: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const limit = bodyLimit({ maxSize: max, onError });
  return async (c, next) => {
    if (c.req.raw.body && !c.req.raw.headers.has("content-length")) {
      const bytes = await readCapped(c.req.raw.body, max);
      if (!bytes) return onError(c);
      const headers = new Headers(c.req.raw.headers);
      headers.delete("transfer-encoding");
      headers.set("content-length", String(bytes.byteLength));
      c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, body: bytes });
    }
    return limit(c, next);
  };
}

/** The whole body, or null as soon as it passes `max` bytes (what was read so far is dropped). */
async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
