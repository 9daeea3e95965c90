import { createRoute, z } from "@hono/zod-openapi";
import type { Context, Env } from "hono";
import {
  ZAffordancesResponse,
  ZIngestMessageRequest,
  ZJobActionRequest,
  ZOfficeResponse,
} from "../../contracts/office.js";
import { ZEntityId, ZTenantId } from "../../contracts/primitives.js";
import { createRouter, errors, json, jsonBody, route, SIGNED_IN } from "../shared/openapi.js";
import type { OfficeApi } from "./office-api.js";

export interface OfficeRoutesOptions<E extends Env = Env> {
  /** Which conversations the caller may read, decided by whoever sits in front (the gateway); undefined reads all. */
  conversationFilter?: (c: Context<E>) => ((conversationId: string) => boolean) | undefined;
}

const ZTrajectory = z.looseObject({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  display_name: z.string(),
  capabilities: z.array(z.string()),
  allowed_tools: z.array(z.string()),
  jobs: z.array(
    z.looseObject({ job_id: z.string(), title: z.string(), state: z.string(), conversation_id: z.string() }),
  ),
  open_commitments: z.array(z.looseObject({ job_id: z.string(), title: z.string(), state: z.string() })),
});

/** Thin REST adapters over OfficeApi; auth and tenancy are the gateway's job in front of them. */
export function createOfficeRoutes<E extends Env = Env>(office: OfficeApi, opts: OfficeRoutesOptions<E> = {}) {
  const app = createRouter<E>();
  const common = { tags: ["Office"], security: SIGNED_IN };
  const refusals = errors(400, 401, 403, 404, 409, 415, 422, 429, 503, 507);

  const ingest = createRoute({
    ...common,
    method: "post",
    path: "/v1/office/ingest_message",
    summary: "Hand a message to Office and wait for its answer (events written)",
    request: { body: jsonBody(ZIngestMessageRequest) },
    responses: { 200: json(ZOfficeResponse, "What Office wrote"), ...refusals },
  });
  route(app, ingest, async (c) => c.json(await office.ingestMessage(c.req.valid("json"))));

  const action = createRoute({
    ...common,
    method: "post",
    path: "/v1/office/job_action",
    summary: "Act on a job as a card click would",
    request: { body: jsonBody(ZJobActionRequest) },
    responses: { 200: json(ZOfficeResponse, "What Office wrote"), ...refusals },
  });
  route(app, action, async (c) => c.json(await office.jobAction(c.req.valid("json"))));

  const affordances = createRoute({
    ...common,
    method: "get",
    path: "/v1/office/affordances",
    summary: "What an entity can do now (its jobs' offered actions, its tools)",
    request: { query: z.object({ tenant_id: ZTenantId, entity_id: ZEntityId }) },
    responses: { 200: json(ZAffordancesResponse, "Affordances"), ...errors(400, 401, 403, 404) },
  });
  route(app, affordances, async (c) => c.json(await office.affordances(c.req.valid("query"))));

  const trajectory = createRoute({
    ...common,
    method: "get",
    path: "/v1/agents/{entity_id}/trajectory",
    summary: "An agent's record: jobs, approvals, disputes, open commitments (jobs I may read)",
    request: { params: z.object({ entity_id: z.string().min(1).max(128) }), query: z.object({ tenant_id: ZTenantId }) },
    responses: { 200: json(ZTrajectory, "The trajectory"), ...errors(400, 401, 404) },
  });
  route(app, trajectory, async (c) =>
    c.json(
      await office.trajectory(
        c.req.valid("query").tenant_id,
        c.req.valid("param").entity_id,
        opts.conversationFilter?.(c),
      ),
    ),
  );
  return app;
}
