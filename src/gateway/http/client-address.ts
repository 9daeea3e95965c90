import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";

/**
 * The address a request came from. It is the socket's peer, unless that peer is one of
 * TRUSTED_PROXIES (IPs, CIDRs, or `loopback` / `linklocal` / `uniquelocal`), in which case it is
 * read from X-Forwarded-For through the trusted hops (proxy-addr, as Express does). Without a
 * trust list no header is believed, so a client cannot pick its own rate-limit bucket.
 */
export function createClientAddress(trusted: readonly string[]): (c: Context) => string {
  const trust = proxyaddr.compile([...trusted]);
  return (c) => {
    const req = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    // In-process requests (app.request) have no socket; a socket already closed has no address.
    if (!req?.socket) return "local";
    return (proxyaddr(req, trust) as string | undefined) ?? "local";
  };
}

/** Throws on a list proxy-addr cannot read (config validation uses it). */
export function checkTrustedProxies(list: readonly string[]): void {
  proxyaddr.compile([...list]);
}
