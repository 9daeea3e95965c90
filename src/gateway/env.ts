import { z } from "zod";
import { bool, int, oneOf } from "../shared/env.js";
import { checkTrustedProxies } from "./http/client-address.js";
import { parseAllowList } from "./previews/address.js";

/**
 * The gateway's settings: how much a client may ask of it (rates, streams, deadlines), who may
 * sign up and sign in, and what it fetches for people (link previews).
 */

/** A comma-separated list, each entry checked by `check`; unset means an empty list. */
const list = (check: (entries: string[]) => unknown, problem: (why: string) => string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean)
        : [],
    )
    .superRefine((entries, ctx) => {
      try {
        check(entries);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: problem((err as Error).message) });
      }
    });

export const GATEWAY_ENV = z.object({
  RATE_LIMIT_PER_MINUTE: int("RATE_LIMIT_PER_MINUTE", 1, 1_000_000).optional(),
  RATE_LIMIT_BURST: int("RATE_LIMIT_BURST", 1, 1_000_000).optional(),
  STREAMS_PER_TOKEN: int("STREAMS_PER_TOKEN", 1, 100_000).optional(),
  HTTP_HEADERS_TIMEOUT_MS: int("HTTP_HEADERS_TIMEOUT_MS", 1000, 600_000).optional(),
  HTTP_REQUEST_TIMEOUT_MS: int("HTTP_REQUEST_TIMEOUT_MS", 1000, 3_600_000).optional(),
  HTTP_KEEPALIVE_TIMEOUT_MS: int("HTTP_KEEPALIVE_TIMEOUT_MS", 100, 600_000).optional(),
  STREAMS_PER_TENANT: int("STREAMS_PER_TENANT", 1, 1_000_000).optional(),
  METRICS_TOKEN: z.string().trim().min(16, { message: "METRICS_TOKEN must be at least 16 characters" }).optional(),
  SIGNUP: oneOf("SIGNUP", ["open", "invite", "closed"]).optional(),
  TRUSTED_PROXIES: list(
    checkTrustedProxies,
    (why) => `TRUSTED_PROXIES must list IP addresses, CIDR ranges or loopback/linklocal/uniquelocal (${why})`,
  ),
  SIGNIN_LINK_TTL_MINUTES: int("SIGNIN_LINK_TTL_MINUTES", 1, 60).optional(),
  MESSAGE_EDIT_WINDOW_SECONDS: int("MESSAGE_EDIT_WINDOW_SECONDS", 1, 31_536_000).optional(),
  DIGEST_AFTER_MINUTES: int("DIGEST_AFTER_MINUTES", 1, 10_080).optional(),
  LINK_PREVIEWS: bool("LINK_PREVIEWS").optional(),
  LINK_PREVIEW_ALLOW_CIDRS: list(parseAllowList, (why) => `LINK_PREVIEW_ALLOW_CIDRS must list CIDR ranges: ${why}`),
});

type GatewayEnv = z.infer<typeof GATEWAY_ENV>;

export interface GatewaySettings {
  rateLimit: { perMinute: number; burst: number };
  /** Concurrent event streams allowed per token and per workspace. */
  streams: { perToken: number; perTenant: number };
  /** Deadlines for slow clients: headers, the whole request, idle keep-alive. */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** When set, `/metrics` also answers non-loopback callers that present it as a bearer token. */
  metricsToken?: string;
  /** Sign-up; unset: open until the first workspace exists, then invite. */
  signup?: "open" | "invite" | "closed";
  /** Proxies whose X-Forwarded-For is believed for client addresses. */
  trustedProxies: string[];
  /** How long a one-time sign-in link (another device, or by email) works. */
  signInLinkTtlMinutes: number;
  /** How long after sending a person may still edit a message (the policy pack enforces it). */
  messageEditWindowSeconds: number;
  /** The e-mail digest tells of what waited on a person at least this long (with mail configured). */
  digestAfterMinutes: number;
  /** Link previews: whether the server fetches them, and the non-public ranges it may reach all the same. */
  linkPreviews: { enabled: boolean; allowCidrs: string[] };
}

/** The gateway's checked variables → its settings, defaults filled. */
export function gatewaySettings(e: GatewayEnv): GatewaySettings {
  return {
    // Generous by default: 20 requests a second sustained, bursts of 120 per entity.
    rateLimit: { perMinute: e.RATE_LIMIT_PER_MINUTE ?? 1200, burst: e.RATE_LIMIT_BURST ?? 120 },
    streams: { perToken: e.STREAMS_PER_TOKEN ?? 20, perTenant: e.STREAMS_PER_TENANT ?? 5000 },
    httpTimeouts: {
      headersMs: e.HTTP_HEADERS_TIMEOUT_MS ?? 10_000,
      requestMs: e.HTTP_REQUEST_TIMEOUT_MS ?? 60_000,
      keepAliveMs: e.HTTP_KEEPALIVE_TIMEOUT_MS ?? 5_000,
    },
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    ...(e.SIGNUP ? { signup: e.SIGNUP } : {}),
    trustedProxies: e.TRUSTED_PROXIES,
    signInLinkTtlMinutes: e.SIGNIN_LINK_TTL_MINUTES ?? 10,
    messageEditWindowSeconds: e.MESSAGE_EDIT_WINDOW_SECONDS ?? 86_400,
    digestAfterMinutes: e.DIGEST_AFTER_MINUTES ?? 30,
    linkPreviews: { enabled: e.LINK_PREVIEWS ?? false, allowCidrs: e.LINK_PREVIEW_ALLOW_CIDRS },
  };
}
