import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { AppError } from "../shared/errors.js";

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024;

/**
 * Strict CSP: only our own scripts, styles and connections; images may also be data: URLs.
 * No inline script is allowed, so injected markup cannot run code.
 */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
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

/**
 * 1 MiB for every request body (8 MiB for attachment uploads). bodyLimit counts bytes as they
 * stream in, so a chunked body without Content-Length is cut off just the same.
 */
export function bodyLimits(): MiddlewareHandler {
  const onError: Parameters<typeof bodyLimit>[0]["onError"] = (c) => c.json(new AppError("PAYLOAD_TOO_LARGE", "Request body is too large").toBody(), 413);
  const small = bodyLimit({ maxSize: MAX_BODY_BYTES, onError });
  const large = bodyLimit({ maxSize: MAX_ATTACHMENT_BYTES, onError });
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return /^\/v1\/conversations\/[^/]+\/attachments$/.test(c.req.path) ? large(c, next) : small(c, next);
  };
}
