import { LIMITS } from "../../contracts/facts.js";
import type { MiddlewareHandler } from "hono";
import type { IncomingMessage } from "node:http";
import { AppError } from "../shared/errors.js";

export const MAX_BODY_BYTES = LIMITS.bodyBytes;

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
      throw new AppError(
        "FORBIDDEN",
        "The ledger API answers only loopback clients until authentication is configured",
      );
    }
    await next();
  };
}
