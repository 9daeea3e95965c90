import { isIP } from "node:net";
import { AppError } from "../../shared/errors.js";

/**
 * Whether the server may POST to a push endpoint a browser gave it. The server makes that
 * request itself, so an endpoint is a server-side request on a person's behalf: only https to a
 * public host name is accepted (push services are all such), never an address on this machine
 * or its network. Tests, which serve their own push service on loopback, turn on `allowLoopback`.
 */
export function checkPushEndpoint(raw: string, opts: { allowLoopback: boolean }): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid("is not a URL");
  }
  if (url.username || url.password) throw invalid("must not carry credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (opts.allowLoopback && (url.protocol === "http:" || url.protocol === "https:") && isLoopback(host)) return url;
  if (url.protocol !== "https:") throw invalid("must be an https URL");
  if (isIP(host) !== 0 || host === "localhost" || host.endsWith(".localhost") || !host.includes("."))
    throw invalid("must name a public push service by its host name");
  return url;
}

const isLoopback = (host: string) => host === "127.0.0.1" || host === "::1" || host === "localhost";

function invalid(why: string): AppError {
  return new AppError("VALIDATION_ERROR", `endpoint ${why}`, { field: "endpoint" });
}
