import { LIMITS } from "../../../contracts/facts.js";
import type { Context, MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { IncomingMessage } from "node:http";
import { limitBody } from "../../shared/body-limit.js";
import { AppError } from "../../shared/errors.js";

const { bodyBytes: MAX_BODY_BYTES, attachmentBytes: MAX_ATTACHMENT_BYTES } = LIMITS;

/**
 * Strict CSP: only our own scripts, styles and connections; images may also be data: URLs and
 * blob: URLs (the composer previews a picture from the person's own file before it is sent).
 * No inline script is allowed, so injected markup cannot run code.
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", "data:", "blob:"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: "no-referrer",
    crossOriginEmbedderPolicy: false,
  });
}

/** How much of a refused body is read and dropped so the 413 reaches the client; beyond this the connection is cut. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/** Reads and discards what is left of a request body; resolves when it ended or a bound was hit. */
function drain(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", done);
      req.off("error", done);
      req.off("close", done);
      req.off("pause", keepFlowing);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done();
    };
    const timer = setTimeout(done, maxMs);
    // The request may still be wired to a body stream nobody reads any more, which pauses it
    // when its queue fills; keep it flowing until the end.
    const keepFlowing = () => setImmediate(() => req.resume());
    req.on("pause", keepFlowing);
    req.on("data", onData);
    req.once("end", done);
    req.once("error", done);
    req.once("close", done);
    req.resume();
  });
}

/**
 * A request refused before its body was read (401, 403, 404, 415 …) would leave the body's bytes
 * on the connection, and the next request on it would be reset. Here the rest of such a body is
 * read and dropped (within the same bounds as a 413's) and the answer says `Connection: close`.
 */
export function closeUnreadBodies(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // Only refusals: an accepted request's body was the route's to read, and its answer may
    // already be on its way.
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.res.status < 400) return;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming || incoming.complete || incoming.destroyed) return;
    await drain(incoming, DRAIN_MAX_BYTES, DRAIN_MAX_MS);
    c.res.headers.set("Connection", "close");
  };
}

/**
 * 1 MiB for every request body (8 MiB for attachment and profile picture uploads). bodyLimit counts bytes as they
 * stream in, so a chunked body without Content-Length is cut off just the same.
 */
export function bodyLimits(): MiddlewareHandler {
  const onError = async (c: Context) => {
    // The client is usually still sending. Closing on it now would reset the connection and
    // lose our answer, so the rest of the body is read and dropped (within bounds) first, and
    // the connection is closed after the 413 has gone out.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming) await drain(incoming, DRAIN_MAX_BYTES, DRAIN_MAX_MS);
    c.header("Connection", "close");
    return c.json(new AppError("PAYLOAD_TOO_LARGE", "Request body is too large").toBody(), 413);
  };
  const small = limitBody(MAX_BODY_BYTES, onError);
  const large = limitBody(MAX_ATTACHMENT_BYTES, onError);
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (await readJsonBody(c, MAX_BODY_BYTES)) return next();
    // A profile picture is refused past LIMITS.avatarBytes with its own words, after this bound.
    return /^\/v1\/(?:conversations\/[^/]+\/attachments|me\/avatar)$/.test(c.req.path)
      ? large(c, next)
      : small(c, next);
  };
}

/**
 * The common write, a JSON body with its Content-Length within the bound, is read here straight
 * from Node's request into Hono's body cache (`c.req.text()` and `c.req.json()` read it from
 * there): no web Request, stream and reader built around each request's few hundred bytes. The
 * text is the bytes decoded as a web Request decodes them. False (nothing read) for anything
 * else, which takes the general path.
 */
async function readJsonBody(c: Context, max: number): Promise<boolean> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded || incoming.readableFlowing !== null) return false;
  const { headers } = incoming;
  const declared = headers["content-length"];
  if (declared === undefined || headers["transfer-encoding"] !== undefined) return false;
  if (!isJsonType(headers["content-type"])) return false;
  const length = Number(declared);
  if (!Number.isSafeInteger(length) || length > max) return false;
  const bytes = await new Promise<Buffer | null>((resolve) => {
    const chunks: Buffer[] = [];
    const done = (b: Buffer | null) => {
      incoming.off("data", onData).off("end", onEnd).off("error", onFail).off("aborted", onFail);
      resolve(b);
    };
    const onData = (chunk: Buffer) => void chunks.push(chunk);
    const onEnd = () => done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    const onFail = () => done(null);
    incoming.on("data", onData).on("end", onEnd).on("error", onFail).on("aborted", onFail);
  });
  // A body cut short (the client went away): the general path answers it as before.
  if (!bytes) return false;
  // Hono keeps each body reading's promise in this cache (its type names the resolved values).
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
  cache.text = Promise.resolve(utf8.decode(bytes));
  cache.arrayBuffer = Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return true;
}
const utf8 = new TextDecoder();

/** `String.prototype.isWellFormed` (Node 20; newer than the TypeScript library this project targets). */
const isWellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const isJsonType = (type: string | undefined) => !!type && /^application\/(?:[\w.+-]*\+)?json\b/i.test(type.trim());

/** The path to the first string (value or key) that is not well-formed UTF-16, or null. Iterative: no depth can overflow it. */
function illFormedAt(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === "string") {
      if (!isWellFormed(v)) return at;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], at ? `${at}.${i}` : String(i)]);
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (!isWellFormed(k)) return at;
        stack.push([x, at ? `${at}.${k}` : k]);
      }
    }
  }
  return null;
}

/**
 * Text in a JSON body must be well-formed: a lone surrogate (`"\ud800"`) in any string or key is
 * refused here with `400 INVALID_INPUT`, for every route at once, before anything stores it,
 * hashes it or hands it to a library that cannot take it. A body that is not JSON passes on (its
 * route answers INVALID_JSON).
 */
export function wellFormedText(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || !isJsonType(c.req.header("content-type"))) return next();
    const text = await c.req.text();
    // Only an escape can make a lone surrogate: decoded UTF-8 never does.
    if (!text.includes("\\u")) return next();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return next();
    }
    const at = illFormedAt(parsed);
    if (at === null) return next();
    const refusal = new AppError(
      "INVALID_INPUT",
      `Text must be well-formed Unicode${at ? ` (${at})` : ""}: it has a lone surrogate`,
      { field: at, reason: "ill_formed_text" },
    );
    return c.json(refusal.toBody(), refusal.status as 400);
  };
}

/** The longest path segment (an id, a file name) and query value a request may carry, in characters. */
const MAX_SEGMENT_CHARS = 256;
const MAX_QUERY_VALUE_CHARS = 2048;

/** Why a piece of the URL is refused, or null: escapes that are not UTF-8, a control character, too long. */
function badUrlText(
  raw: string,
  max: number,
  plusIsSpace: boolean,
): "ill_formed_text" | "control_character" | "too_long" | null {
  let text: string;
  try {
    text = decodeURIComponent(plusIsSpace ? raw.replaceAll("+", " ") : raw);
  } catch {
    return "ill_formed_text";
  }
  if (text.length > max) return "too_long";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return "control_character";
  }
  return null;
}

const URL_REASONS = {
  ill_formed_text: "is not well-formed UTF-8",
  control_character: "has a control character",
  too_long: "is too long",
} as const;

/**
 * Text in the URL must be well-formed too: each path segment (ids, file names) and each query
 * name and value must decode as UTF-8, hold no control character, and stay within bounds
 * (256 characters a segment, 2,048 a query value). Anything else is refused here with
 * `400 INVALID_INPUT` naming the part, for every route at once, before a route looks anything up.
 */
export function wellFormedUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = url.indexOf("?", pathStart);
    const path = url.slice(pathStart, queryStart < 0 ? undefined : queryStart);
    const query = queryStart < 0 ? "" : url.slice(queryStart + 1);
    let field: string | undefined;
    let reason: keyof typeof URL_REASONS | null = null;
    for (const segment of path.split("/")) {
      reason = badUrlText(segment, MAX_SEGMENT_CHARS, false);
      if (reason) {
        field = "path";
        break;
      }
    }
    if (!reason && query) {
      for (const pair of query.split("&")) {
        const eq = pair.indexOf("=");
        const name = eq < 0 ? pair : pair.slice(0, eq);
        reason =
          badUrlText(name, MAX_SEGMENT_CHARS, true) ??
          (eq < 0 ? null : badUrlText(pair.slice(eq + 1), MAX_QUERY_VALUE_CHARS, true));
        if (reason) {
          const readable = badUrlText(name, MAX_SEGMENT_CHARS, true)
            ? ""
            : decodeURIComponent(name.replaceAll("+", " "));
          field = readable ? `query.${readable}` : "query";
          break;
        }
      }
    }
    if (!reason) return next();
    const refusal = new AppError(
      "INVALID_INPUT",
      `The ${field === "path" ? "path" : field === "query" ? "query" : `query parameter ${field?.slice(6)}`} ${URL_REASONS[reason]}`,
      {
        field,
        reason,
      },
    );
    return c.json(refusal.toBody(), refusal.status as 400);
  };
}
