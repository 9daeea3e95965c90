import { z } from "@hono/zod-openapi";
import { ZAcceptedResponse, ZJobActionSubmit, ZJobDrawerResponse } from "../../../contracts/gateway.js";
import { ZHandOverRequest, ZHandOverResponse, ZWhyResponse } from "../../../contracts/people.js";
import { ZJobId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import { checkIdentity, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { signedInRoutes } from "../http/signed-in-routes.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { ZReceipt } from "../../../contracts/ledger.js";
import { jobReceipt } from "../jobs/receipt.js";

const jobParams = z.object({ job_id: ZJobId });

/** A job: its drawer, its receipt, a card click, handing it over and why it did what it did. */
export function createJobRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read } = signedInRoutes(core.tokens);

  route(
    app,
    read({
      path: "/v1/jobs/{job_id}",
      summary: "The Job Drawer: header, actions, timeline, artifacts, raw events",
      tags: ["Jobs"],
      schema: ZJobDrawerResponse,
      params: jobParams,
    }),
    async (c) => c.json(await api.getJob(c.get("principal"), c.req.valid("param").job_id)),
  );

  route(
    app,
    read({
      path: "/v1/jobs/{job_id}/receipt",
      summary:
        "The job's receipt: its events with RFC 6962 inclusion proofs against a signed checkpoint, checkable offline",
      tags: ["Jobs"],
      schema: ZReceipt,
      params: jobParams,
    }),
    async (c) => {
      const receipt = await jobReceipt(core, c.get("principal"), c.req.valid("param").job_id);
      c.header("content-disposition", `attachment; filename="receipt-${receipt.job_id}.json"`);
      return c.json(receipt);
    },
  );

  route(
    app,
    write({
      path: "/v1/jobs/{job_id}/actions",
      summary: "Click a card button (checked before anything is written)",
      tags: ["Jobs"],
      body: ZJobActionSubmit,
      ok: { 202: json(ZAcceptedResponse, "Accepted; Office carries it out") },
      params: jobParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const p = c.get("principal");
      checkIdentity(p, body);
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.submitJobAction(p, c.req.valid("param").job_id, body, idem),
      );
    },
  );

  route(
    app,
    write({
      path: "/v1/jobs/{job_id}/hand-over",
      summary: "Hand a job over to a person of its conversation (who asked for it, approvers, admins, its holder)",
      tags: ["Jobs"],
      body: ZHandOverRequest,
      ok: { 200: json(ZHandOverResponse, "Handed over") },
      params: jobParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.handOver(c.get("principal"), c.req.valid("param").job_id, body, idem),
      );
    },
  );
  route(
    app,
    read({
      path: "/v1/jobs/{job_id}/why",
      summary: "Why the job did what it did: the message that started it, approvals, policy decisions and tool results",
      tags: ["Jobs"],
      schema: ZWhyResponse,
      described: "The job's causal chain",
      params: jobParams,
    }),
    async (c) => c.json(await api.why(c.get("principal"), c.req.valid("param").job_id)),
  );
  return app;
}
