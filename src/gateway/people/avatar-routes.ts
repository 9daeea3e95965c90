import { createRoute, z } from "@hono/zod-openapi";
import { LIMITS } from "../../../contracts/facts.js";
import { ZDigestSettings, ZProfileView } from "../../../contracts/people.js";
import { AppError } from "../../shared/errors.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  READ_ERRORS,
  route,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** My profile picture (upload, remove, fetch) and my e-mail digest setting. */
export function createAvatarRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { auth, security, emptyWrite, read } = signedInRoutes(core.tokens);
  const tags = ["People"];
  // The upload and the picture itself are not JSON, so they spell out their own bodies.
  const common = { tags, security, middleware: auth };

  // As for attachments, the multipart bytes are hashed as sent for the Idempotency-Key, so they are read once, here.
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/me/avatar",
      summary: `Set my profile picture (multipart/form-data: one \`file\`, a PNG, JPEG, GIF or WebP up to ${LIMITS.avatarBytes / 1024 / 1024} MiB and ${LIMITS.avatarSide} px a side)`,
      parameters: [IDEMPOTENCY_HEADER],
      request: {
        body: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: { file: { type: "string", format: "binary" } },
                required: ["file"],
              },
            },
          },
        },
      },
      responses: {
        200: json(ZProfileView, "My profile now, its avatar_url on this server"),
        ...errors(...WRITE_ERRORS),
      },
    }),
    async (c) => {
      const type = (c.req.header("content-type") ?? "").toLowerCase();
      if (!type.startsWith("multipart/form-data"))
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Upload the picture as multipart/form-data (field `file`)");
      const raw = new Uint8Array(await c.req.arrayBuffer());
      let form: FormData;
      try {
        form = await new Request("http://local/", {
          method: "POST",
          headers: { "content-type": c.req.header("content-type") ?? "" },
          body: raw,
        }).formData();
      } catch {
        throw new AppError("VALIDATION_ERROR", "The multipart body could not be read", { field: "file" });
      }
      const file = form.get("file");
      if (!(file instanceof File))
        throw new AppError("VALIDATION_ERROR", "Field `file` is required", { field: "file" });
      return idempotentWrite(core, c, raw, (idem) => api.setAvatar(c.get("principal"), file, idem));
    },
  );

  route(
    app,
    emptyWrite({
      method: "delete",
      path: "/v1/me/avatar",
      summary: "Remove my profile picture (initials again)",
      tags,
      ok: { 200: json(ZProfileView, "My profile now, without avatar_url") },
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.removeAvatar(c.get("principal"), idem)),
  );

  // A picture is shown in our pages only as an <img>; were it opened on its own, the sandbox and
  // nosniff keep it from being anything but the picture type its bytes were checked to be.
  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/avatars/{id}",
      summary: "A profile picture of someone in my workspace",
      request: { params: z.object({ id: z.string().min(1).max(128) }) },
      responses: {
        200: {
          description: "The picture, in the type its bytes were checked to be",
          content: Object.fromEntries(
            ["image/png", "image/jpeg", "image/gif", "image/webp"].map((type) => [
              type,
              { schema: { type: "string" as const, format: "binary" } },
            ]),
          ),
        },
        ...errors(...READ_ERRORS),
      },
    }),
    async (c) => {
      const found = await api.avatar(c.get("principal"), c.req.valid("param").id);
      return new Response(new Uint8Array(found.bytes), {
        headers: {
          "content-type": found.mime,
          "x-content-type-options": "nosniff",
          "content-security-policy": "sandbox; default-src 'none'",
          // A new picture gets a new id, so a picture never changes under its address.
          "cache-control": "private, max-age=31536000, immutable",
        },
      });
    },
  );

  route(
    app,
    read({
      path: "/v1/me/digest",
      summary:
        "My e-mail digest: whether I asked for it, and whether this server can send it (mail configured, my email on file)",
      tags,
      schema: ZDigestSettings,
      described: "The setting",
    }),
    (c) => c.json(api.digestSettings(c.get("principal"))),
  );
  return app;
}
