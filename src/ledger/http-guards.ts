import type { Context, MiddlewareHandler } from "hono";
import type { IncomingMessage } from "node:http";
import { AppError } from "../shared/errors.js";

export const MAX_BODY_BYTES = 1024 * 1024;

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * Until the gateway puts authentication in front of the ledger, its routes answer only clients
 * on this machine: anyone who can reach the port from outside could otherwise append or read
 * every tenant's events. Requests without a socket (in-process `app.request`) are local by
 * construction.
 */
export function loopbackOnly(): MiddlewareHandler {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const addr = incoming?.socket?.remoteAddress;
    if (incoming && (!addr || !LOOPBACK.has(addr))) {
      throw new AppError("FORBIDDEN", "The ledger API answers only loopback clients until authentication is configured");
    }
    await next();
  };
}

/** Reads a JSON body: 415 for another content type, INVALID_JSON when it does not parse. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json", { content_type: type || null });
  }
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("INVALID_JSON", "The request body is not valid JSON", { reason: (e as Error).message });
  }
}
