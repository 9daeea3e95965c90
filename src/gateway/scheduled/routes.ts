import { z } from "@hono/zod-openapi";
import {
  ZEditScheduleRequest,
  ZRemindRequest,
  ZScheduledList,
  ZScheduledMessage,
  ZScheduleMessageRequest,
} from "../../../contracts/scheduled.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

const scheduleParams = z.object({ schedule_id: z.string().min(1).max(128) });

/**
 * Send later and Remind me: my own schedule (nobody else sees it); when one falls due the server
 * sends it as a message (a reminder to my Reminders conversation), once, also after a restart.
 */
export function createScheduledRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, emptyWrite, read } = signedInRoutes(core.tokens);
  const tags = ["Conversations"];
  route(
    app,
    write({
      path: "/v1/conversations/{id}/scheduled",
      summary: "Send a message here later, as me (a time in my zone, or with an offset)",
      tags,
      body: ZScheduleMessageRequest,
      ok: { 201: json(ZScheduledMessage, "Scheduled") },
      params: z.object({ id: ZConversationId }),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.scheduleMessage(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  route(
    app,
    write({
      path: "/v1/conversations/{id}/messages/{message_id}/remind",
      summary: "Remind me of this message at a time (posted to my Reminders conversation, for me alone)",
      tags,
      body: ZRemindRequest,
      ok: { 201: json(ZScheduledMessage, "Reminder set") },
      params: z.object({ id: ZConversationId, message_id: z.string().min(1).max(128) }),
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.remindMe(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  route(
    app,
    read({
      path: "/v1/scheduled",
      summary: "My scheduled messages and reminders, waiting ones first",
      tags,
      schema: ZScheduledList,
      described: "Mine",
    }),
    (c) => c.json(api.listScheduled(c.get("principal"))),
  );
  route(
    app,
    write({
      method: "patch",
      path: "/v1/scheduled/{schedule_id}",
      summary: "Change the text or time of one of mine still waiting",
      tags,
      body: ZEditScheduleRequest,
      ok: { 200: json(ZScheduledMessage, "Changed") },
      params: scheduleParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.editScheduled(c.get("principal"), c.req.valid("param").schedule_id, body, idem),
      );
    },
  );
  route(
    app,
    emptyWrite({
      method: "delete",
      path: "/v1/scheduled/{schedule_id}",
      summary: "Cancel one of mine still waiting",
      tags,
      ok: { 200: json(ZScheduledMessage, "Cancelled") },
      params: scheduleParams,
    }),
    (c) =>
      idempotentWrite(core, c, "", (idem) =>
        api.cancelScheduled(c.get("principal"), c.req.valid("param").schedule_id, idem),
      ),
  );
  return app;
}
