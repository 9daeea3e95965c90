import type { Context } from "hono";
import { AppError } from "../../shared/errors.js";
import type { GwEnv } from "../auth/middleware.js";
import type { Core } from "../core.js";
import { hashRequest, parseIdempotencyKey, type IdemScope, type StoredResponse } from "../idempotency.js";

/** Anonymous writes (new workspace, accepting an invite) share one scope, so their keys must be unguessable. */
const ANON_MIN_KEY = 16;

/**
 * How long a refused write is held before its 429 goes out. A client that floods with many
 * requests in flight is slowed to a few requests per second per connection instead of spinning
 * the server on refusals, so other workspaces keep their latency.
 */
const REFUSAL_HOLD_MS = 500;

/** 429 with Retry-After when either bucket (the caller's, the workspace's) is empty, after holding the refusal briefly. */
export async function refuseOverLimit(c: Context, ...waits: number[]): Promise<void> {
  const wait = Math.max(0, ...waits);
  if (wait === 0) return;
  await new Promise((r) => setTimeout(r, Math.min(REFUSAL_HOLD_MS, wait * 1000)));
  c.header("Retry-After", String(wait));
  throw new AppError("RATE_LIMITED", `Too many writes; retry in ${wait} s`, { retry_after_seconds: wait });
}

/**
 * Rate limit for writes that do not go through `idempotentWrite` (the ledger's and Office's own
 * routes): the caller's bucket and the workspace's, `cost` tokens each (one per event appended).
 */
export async function chargeWrite(core: Core, c: Context<GwEnv>, cost = 1): Promise<void> {
  const p = c.get("principal");
  await refuseOverLimit(
    c,
    await core.limiter.take(`${p.tenantId}\0${p.entityId}`, cost),
    await core.tenantLimiter.take(p.tenantId, cost),
  );
}

/**
 * The one path every write takes: rate limit, Idempotency-Key, then either the stored response
 * (same key, same request) or the command, whose response is stored in its own commit.
 */
export async function idempotentWrite(
  core: Core,
  c: Context<GwEnv>,
  raw: string | Uint8Array,
  run: (idem: IdemScope) => Promise<StoredResponse> | StoredResponse,
  opts: { anonymous?: boolean } = {},
): Promise<Response> {
  const p = opts.anonymous ? undefined : c.get("principal");
  const limiterKey = p ? `${p.tenantId}\0${p.entityId}` : `ip\0${core.clientAddress(c)}`;
  await refuseOverLimit(c, await core.limiter.take(limiterKey), p ? await core.tenantLimiter.take(p.tenantId) : 0);
  const key = parseIdempotencyKey(c.req.header("idempotency-key"));
  if (!p && key.length < ANON_MIN_KEY) {
    throw new AppError(
      "VALIDATION_ERROR",
      `Idempotency-Key must be a random value of at least ${ANON_MIN_KEY} characters here`,
      { field: "Idempotency-Key" },
    );
  }
  const scope: IdemScope = {
    tenantId: p?.tenantId ?? "",
    entityId: p?.entityId ?? "",
    key,
    requestHash: hashRequest(c.req.method, c.req.path, raw),
  };
  const begun = await core.idem.begin(scope);
  if (begun.kind === "replay") {
    c.header("Idempotent-Replayed", "true");
    return c.json(begun.response.body as object, begun.response.status as 200);
  }
  let succeeded = false;
  try {
    const res = await run(scope);
    succeeded = true;
    return c.json(res.body as object, res.status as 200);
  } finally {
    await begun.release(succeeded);
  }
}
