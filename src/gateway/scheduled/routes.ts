import { createRoute, z } from "@hono/zod-openapi";
import {
  ZEditScheduleRequest,
  ZRemindRequest,
  ZScheduledList,
  ZScheduledMessage,
  ZScheduleMessageRequest,
} from "../../../contracts/scheduled.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  READ_ERRORS,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

const scheduleParams = z.object({ schedule_id: z.string().min(1).max(128) });

/**
 * Send later and Remind me: my own schedule (nobody else sees it); when one falls due the server
 * sends it as a message (a reminder to my Reminders conversation), once, also after a restart.
 */
export function createScheduledRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const reading = { tags: ["Conversations"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const writing = { ...reading, parameters: [IDEMPOTENCY_HEADER] };
  route(
    app,
    createRoute({
      ...writing,
      method: "post",
      path: "/v1/conversations/{id}/scheduled",
      summary: "Send a message here later, as me (a time in my zone, or with an offset)",
      request: { params: z.object({ id: ZConversationId }), body: jsonBody(ZScheduleMessageRequest) },
      responses: { 201: json(ZScheduledMessage, "Scheduled"), ...errors(...WRITE_ERRORS) },
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
    createRoute({
      ...writing,
      method: "post",
      path: "/v1/conversations/{id}/messages/{message_id}/remind",
      summary: "Remind me of this message at a time (posted to my Reminders conversation, for me alone)",
      request: {
        params: z.object({ id: ZConversationId, message_id: z.string().min(1).max(128) }),
        body: jsonBody(ZRemindRequest),
      },
      responses: { 201: json(ZScheduledMessage, "Reminder set"), ...errors(...WRITE_ERRORS) },
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
    createRoute({
      ...reading,
      method: "get",
      path: "/v1/scheduled",
      summary: "My scheduled messages and reminders, waiting ones first",
      responses: { 200: json(ZScheduledList, "Mine"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.listScheduled(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...writing,
      method: "patch",
      path: "/v1/scheduled/{schedule_id}",
      summary: "Change the text or time of one of mine still waiting",
      request: { params: scheduleParams, body: jsonBody(ZEditScheduleRequest) },
      responses: { 200: json(ZScheduledMessage, "Changed"), ...errors(...WRITE_ERRORS) },
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
    createRoute({
      ...writing,
      method: "delete",
      path: "/v1/scheduled/{schedule_id}",
      summary: "Cancel one of mine still waiting",
      request: { params: scheduleParams },
      responses: { 200: json(ZScheduledMessage, "Cancelled"), ...errors(...WRITE_ERRORS) },
    }),
    (c) =>
      idempotentWrite(core, c, "", (idem) =>
        api.cancelScheduled(c.get("principal"), c.req.valid("param").schedule_id, idem),
      ),
  );
  return app;
}
