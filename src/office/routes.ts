import { Hono, type Context } from "hono";
import { ZAffordancesRequest, ZIngestMessageRequest, ZJobActionRequest } from "../../contracts/office.js";
import { AppError, validationError } from "../shared/errors.js";
import type { OfficeApi } from "./office-api.js";

async function body(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError("INVALID_JSON", "Body is not valid JSON.");
  }
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: any[] } } }, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues);
  return r.data;
}

export interface OfficeRoutesOptions {
  /** Which conversations the caller may read, decided by whoever sits in front (the gateway); undefined reads all. */
  conversationFilter?: (c: Context) => ((conversationId: string) => boolean) | undefined;
}

/** Thin REST adapters over OfficeApi; auth and tenancy are the gateway's job in front of them. */
export function createOfficeRoutes(office: OfficeApi, opts: OfficeRoutesOptions = {}): Hono {
  const app = new Hono();
  app.post("/v1/office/ingest_message", async (c) => c.json(await office.ingestMessage(parse(ZIngestMessageRequest, await body(c)))));
  app.post("/v1/office/job_action", async (c) => c.json(await office.jobAction(parse(ZJobActionRequest, await body(c)))));
  app.get("/v1/office/affordances", async (c) => c.json(await office.affordances(parse(ZAffordancesRequest, { tenant_id: c.req.query("tenant_id"), entity_id: c.req.query("entity_id") }))));
  app.get("/v1/agents/:entity_id/trajectory", async (c) => {
    const tenantId = c.req.query("tenant_id");
    if (!tenantId) throw new AppError("VALIDATION_ERROR", "Invalid request: tenant_id: required", { field: "tenant_id" });
    return c.json(await office.trajectory(tenantId, c.req.param("entity_id"), opts.conversationFilter?.(c)));
  });
  return app;
}
