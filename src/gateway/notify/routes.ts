import { createRoute, z } from "@hono/zod-openapi";
import {
  ZMuteRequest,
  ZMuteState,
  ZPushSubscribed,
  ZPushSubscribeRequest,
  ZPushUnsubscribed,
  ZPushUnsubscribeRequest,
  ZVapidPublicKey,
} from "../../../contracts/notifications.js";
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

/** Web Push subscriptions and per-conversation mutes: a person's own notification settings. */
export function createNotificationRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Notifications"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/push/vapid-public-key",
      summary: "The server's VAPID public key, to subscribe a browser with",
      responses: { 200: json(ZVapidPublicKey, "The key (base64url)"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.vapidPublicKey(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/push/subscriptions",
      summary: "Send my notifications to this browser (its PushSubscription)",
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: jsonBody(ZPushSubscribeRequest) },
      responses: { 201: json(ZPushSubscribed, "Subscribed"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.subscribePush(c.get("principal"), body, idem));
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "delete",
      path: "/v1/push/subscriptions",
      summary: "Stop sending my notifications to a browser",
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: jsonBody(ZPushUnsubscribeRequest) },
      responses: {
        200: json(ZPushUnsubscribed, "Whether one of my subscriptions had that endpoint"),
        ...errors(...WRITE_ERRORS),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.unsubscribePush(c.get("principal"), body, idem),
      );
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "put",
      path: "/v1/conversations/{id}/mute",
      summary: "Mute or unmute a conversation for me",
      parameters: [IDEMPOTENCY_HEADER],
      request: { params: z.object({ id: ZConversationId }), body: jsonBody(ZMuteRequest) },
      responses: { 200: json(ZMuteState, "My setting for it now"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setMute(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  return app;
}
