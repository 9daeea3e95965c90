import { createRoute, z } from "@hono/zod-openapi";
import type { Context, Env } from "hono";
import type { TStoredEvent } from "../../contracts/events.js";
import {
  ZAppendRequest,
  ZAppendResponse,
  ZCheckpoint,
  ZConsistencyProof,
  ZConsistencyQuery,
  ZInclusionProof,
  ZInclusionQuery,
  ZKeysResponse,
  ZLeavesQuery,
  ZLeavesResponse,
  ZQueryRequest,
  ZQueryResponse,
  ZVerifyReport,
} from "../../contracts/ledger.js";
import { ZTenantId } from "../../contracts/primitives.js";
import { ZPolicySettings } from "../../contracts/admin.js";
import { limitBody } from "../shared/body-limit.js";
import { AppError } from "../shared/errors.js";
import { createRouter, errors, json, jsonBody, route, SIGNED_IN } from "../shared/openapi.js";
import type { LedgerDoorApi } from "./ledger-api.js";
import { loopbackOnly, MAX_BODY_BYTES } from "./http-guards.js";
import { streamTenant } from "./sse.js";
import { textLeafHash } from "./merkle/rfc6962.js";
import { toStoredEvent } from "./stored-event.js";

export interface LedgerRoutesOptions<E extends Env = Env> {
  /** Default true: answer loopback clients only (403 otherwise) until auth sits in front. */
  loopbackOnly?: boolean;
  /** SSE heartbeat comment interval; 15 s by default. */
  heartbeatMs?: number;
  /**
   * Which events the caller may read (query pages and stream frames), decided per request by
   * whoever sits in front (the gateway's membership rule); undefined reads everything.
   */
  readFilter?: (c: Context<E>) => ((e: TStoredEvent) => boolean) | undefined;
}

const ZTenantQuery = z.strictObject({ tenant_id: ZTenantId });

/** Whether the client asked for text over JSON (the checkpoint's two forms). */
function prefersText(accept: string | undefined): boolean {
  if (!accept) return false;
  const q = (type: string) => {
    for (const part of accept.toLowerCase().split(",")) {
      const [t, ...params] = part.trim().split(";");
      if (t?.trim() !== type) continue;
      const qp = params.map((x) => x.trim()).find((x) => x.startsWith("q="));
      return qp ? Number(qp.slice(2)) || 0 : 1;
    }
    return -1;
  };
  const text = q("text/plain");
  return text > 0 && text > q("application/json");
}

/** Thin HTTP adapters over a ledger (LedgerDoorApi) under /v1/ledger: parse with the contract, one call, answer. */
export function createLedgerRoutes<E extends Env = Env>(ledger: LedgerDoorApi, opts: LedgerRoutesOptions<E> = {}) {
  const app = createRouter<E>();
  if (opts.loopbackOnly ?? true) app.use("/v1/ledger/*", loopbackOnly());
  const common = { tags: ["Ledger"], security: SIGNED_IN };

  const append = createRoute({
    ...common,
    method: "post",
    path: "/v1/ledger/append",
    summary: "Append a batch of events: all or none, each checked by the policy pack",
    // Counts the bytes as they stream in, so a chunked body without Content-Length is capped too.
    middleware: limitBody(MAX_BODY_BYTES, (c) =>
      c.json(new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than 1 MiB").toBody(), 413),
    ),
    request: { body: jsonBody(ZAppendRequest) },
    responses: {
      200: json(ZAppendResponse, "Committed (durable when answered)"),
      ...errors(400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 507),
    },
  });
  route(app, append, async (c) => c.json(await ledger.append(c.req.valid("json"))));

  const query = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/query",
    summary: "A page of a tenant's events (only those the caller may read; the cursor pages past the rest)",
    request: { query: ZQueryRequest },
    responses: {
      200: json(ZQueryResponse, "Events in order and the cursor to continue from"),
      ...errors(400, 401, 403),
    },
  });
  route(app, query, async (c) => {
    const page = await ledger.query(c.req.valid("query"));
    const visible = opts.readFilter?.(c);
    // The page keeps its cursor: a reader who may not see some events still pages past them.
    return c.json(visible ? { ...page, events: page.events.filter((e) => visible(e as TStoredEvent)) } : page);
  });

  const stream = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/stream",
    summary: "A tenant's events as they commit (server-sent events; resume with Last-Event-ID or ?cursor=)",
    request: { query: z.object({ tenant_id: ZTenantId, cursor: z.string().optional() }) },
    responses: {
      200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } },
      ...errors(400, 401, 403, 429),
    },
  });
  route(app, stream, (c) => {
    const visible = opts.readFilter?.(c);
    return streamTenant(ledger, c, { heartbeatMs: opts.heartbeatMs ?? 15_000, ...(visible ? { visible } : {}) });
  });

  const keys = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/keys",
    summary: "The public keys checkpoints are signed with",
    responses: { 200: json(ZKeysResponse, "Ed25519 public keys"), ...errors(401) },
  });
  route(app, keys, (c) => c.json(ledger.keys()));

  const checkpoint = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/checkpoint",
    summary: "The tenant's latest signed checkpoint (Accept: text/plain → the Merkle tree's C2SP signed note)",
    request: { query: ZTenantQuery },
    responses: {
      200: {
        description:
          "The chain checkpoint as JSON, or with Accept: text/plain the tlog-checkpoint signed note (origin, tree size, base64 root hash, Ed25519 signature line)",
        content: { "application/json": { schema: ZCheckpoint }, "text/plain": { schema: z.string() } },
      },
      ...errors(400, 401, 403, 404),
    },
  });
  route(app, checkpoint, async (c) => {
    const { tenant_id } = c.req.valid("query");
    if (prefersText(c.req.header("accept"))) {
      const note = await ledger.tlog.checkpointNote(tenant_id);
      if (!note) throw new AppError("NOT_FOUND", `No checkpoint yet for tenant ${tenant_id}`);
      return c.text(note.note, 200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    }
    const cp = await ledger.checkpoint(tenant_id);
    if (!cp) throw new AppError("NOT_FOUND", `No checkpoint yet for tenant ${tenant_id}`);
    return c.json(cp);
  });

  const verifierKey = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/verifier-key",
    summary:
      "The keys that sign checkpoint notes, one signed-note verifier key per line (current first, then rotated-out keys)",
    responses: {
      200: { description: "`<name>+<key id>+<base64 key>` lines", content: { "text/plain": { schema: z.string() } } },
      ...errors(401),
    },
  });
  route(app, verifierKey, async (c) =>
    c.text(`${(await ledger.tlog.verifierKeys()).join("\n")}\n`, 200, { "content-type": "text/plain; charset=utf-8" }),
  );

  const inclusion = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/proof/inclusion",
    summary:
      "RFC 6962 inclusion proof of event `seq` in the tenant's tree of `size` events (default: the current tree)",
    request: { query: ZInclusionQuery },
    responses: {
      200: json(ZInclusionProof, "leaf index (seq − 1), tree size and the audit path, base64"),
      ...errors(400, 401, 403, 404),
    },
  });
  route(app, inclusion, async (c) => {
    const q = c.req.valid("query");
    return c.json(await ledger.tlog.inclusion(q.tenant_id, q.seq, q.size ?? ledger.head(q.tenant_id).tenant_seq));
  });

  const consistency = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/proof/consistency",
    summary: "RFC 6962 consistency proof: the tree of `from` events is a prefix of the tree of `to` events",
    request: { query: ZConsistencyQuery },
    responses: { 200: json(ZConsistencyProof, "The proof hashes, base64"), ...errors(400, 401, 403, 404) },
  });
  route(app, consistency, async (c) => {
    const q = c.req.valid("query");
    return c.json(await ledger.tlog.consistency(q.tenant_id, q.from, q.to));
  });

  const leaves = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/leaves",
    summary:
      "The exact leaf bytes of events start..end (at most 1,000); events the caller may not read come as their leaf hash only",
    request: { query: ZLeavesQuery },
    responses: { 200: json(ZLeavesResponse, "Leaves (base64) and leaf hashes"), ...errors(400, 401, 403, 404) },
  });
  route(app, leaves, async (c) => {
    const q = c.req.valid("query");
    const raw = await ledger.tlog.leaves(q.tenant_id, q.start, q.end);
    const visible = opts.readFilter?.(c);
    return c.json({
      start: q.start,
      end: q.end,
      leaves: raw.map((p, i) =>
        !visible || visible(toStoredEvent([q.start + i, p, "", ""])) ? Buffer.from(p, "utf8").toString("base64") : null,
      ),
      leaf_hashes: raw.map((p) => textLeafHash(p).toString("base64")),
    });
  });

  const verify = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/verify",
    summary: "Recompute the tenant's chain and checkpoint signatures (admins and auditors)",
    request: { query: ZTenantQuery },
    responses: { 200: json(ZVerifyReport, "The report (ok, or the first break)"), ...errors(400, 401, 403) },
  });
  route(app, verify, async (c) => c.json(await ledger.verify(c.req.valid("query").tenant_id)));

  const policies = createRoute({
    ...common,
    method: "get",
    path: "/v1/ledger/policies",
    summary:
      "How the policy pack judges a tenant: each policy's pack mode, mode in force and allowed modes, and the tunable parameters (admins and auditors)",
    request: { query: ZTenantQuery },
    responses: { 200: json(ZPolicySettings, "Every policy and tunable parameter"), ...errors(400, 401, 403, 503) },
  });
  route(app, policies, (c) => {
    const settings = ledger.policySettings(c.req.valid("query").tenant_id);
    if (!settings) throw new AppError("SERVICE_UNAVAILABLE", "This ledger's policy engine does not list its policies");
    return c.json(settings);
  });

  return app;
}
