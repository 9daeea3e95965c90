import { z } from "@hono/zod-openapi";
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
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** Web Push subscriptions and per-conversation mutes: a person's own notification settings. */
export function createNotificationRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read } = signedInRoutes(core.tokens);
  const tags = ["Notifications"];
  route(
    app,
    read({
      path: "/v1/push/vapid-public-key",
      summary: "The server's VAPID public key, to subscribe a browser with",
      tags,
      schema: ZVapidPublicKey,
      described: "The key (base64url)",
    }),
    (c) => c.json(api.vapidPublicKey(c.get("principal"))),
  );
  route(
    app,
    write({
      path: "/v1/push/subscriptions",
      summary: "Send my notifications to this browser (its PushSubscription)",
      tags,
      body: ZPushSubscribeRequest,
      ok: { 201: json(ZPushSubscribed, "Subscribed") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.subscribePush(c.get("principal"), body, idem));
    },
  );
  route(
    app,
    write({
      method: "delete",
      path: "/v1/push/subscriptions",
      summary: "Stop sending my notifications to a browser",
      tags,
      body: ZPushUnsubscribeRequest,
      ok: { 200: json(ZPushUnsubscribed, "Whether one of my subscriptions had that endpoint") },
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
    write({
      method: "put",
      path: "/v1/conversations/{id}/mute",
      summary: "Mute or unmute a conversation for me",
      tags,
      body: ZMuteRequest,
      ok: { 200: json(ZMuteState, "My setting for it now") },
      params: z.object({ id: ZConversationId }),
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
