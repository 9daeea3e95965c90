import { createRoute, z } from "@hono/zod-openapi";
import contentDisposition from "content-disposition";
import { LIMITS } from "../../../contracts/facts.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import { ZWriteResult } from "../../../contracts/gateway-responses.js";
import { AppError } from "../../shared/errors.js";
import { createRouter, errors, IDEMPOTENCY_HEADER, json, route, WRITE_ERRORS } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/**
 * `attachment` with the name in filename* (UTF-8, RFC 5987) and a plain-ASCII filename for old
 * clients (accents dropped, other characters as "_"); control characters never reach the header.
 */
function attachmentDisposition(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "") || "file";
  const ascii = clean
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_");
  return contentDisposition(clean, { type: "attachment", fallback: ascii });
}

/** The optional caption: text, trimmed, within a message's length; blank is no caption. */
function readCaption(value: FormDataEntryValue | null): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== "string")
    throw new AppError("VALIDATION_ERROR", "Field `caption` must be text", { field: "caption" });
  const text = value.trim();
  if (text.length > LIMITS.messageChars)
    throw new AppError("VALIDATION_ERROR", `The caption is longer than ${LIMITS.messageChars} characters`, {
      field: "caption",
      max: LIMITS.messageChars,
    });
  return text || undefined;
}

/**
 * The one byte range a `Range: bytes=…` header asks for within `size` bytes, or null to send the
 * whole file (no header, several ranges, or one that cannot be met: RFC 9110 lets a server
 * ignore Range). Media players ask for ranges to seek.
 */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = header ? /^bytes=([0-9]{0,15})-([0-9]{0,15})$/.exec(header.trim()) : null;
  if (!m || size === 0 || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    // The last N bytes.
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/** The optional `duration_ms` of a recording: whole milliseconds, at least 1, at most a day. */
function readDuration(value: FormDataEntryValue | null): number | undefined {
  if (value === null) return undefined;
  const ms = typeof value === "string" && /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(ms) || ms < 1 || ms > LIMITS.audioMs)
    throw new AppError(
      "VALIDATION_ERROR",
      `Field \`duration_ms\` must be whole milliseconds from 1 to ${LIMITS.audioMs}`,
      {
        field: "duration_ms",
        max: LIMITS.audioMs,
      },
    );
  return ms;
}

export function createFileRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  // A multipart upload and a file download are not JSON: they spell out their own bodies.
  const { auth, security } = signedInRoutes(core.tokens);
  const common = { tags: ["Conversations"], security, middleware: auth };

  // The body is described, not validated by the router: the multipart bytes are hashed as sent
  // for the Idempotency-Key, so they are read once, here.
  const upload = createRoute({
    ...common,
    method: "post",
    path: "/v1/conversations/{id}/attachments",
    summary:
      "Attach a file (multipart/form-data: one `file` up to 8 MiB, an optional `caption`, for audio an optional `duration_ms`); a PNG, JPEG, GIF or WebP picture gets its width and height, audio (Ogg, WebM, MP3, MP4/M4A, WAV, FLAC, read from its bytes) its type and length",
    parameters: [IDEMPOTENCY_HEADER],
    request: {
      params: z.object({ id: ZConversationId }),
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: { type: "string", format: "binary" },
                caption: { type: "string", maxLength: LIMITS.messageChars },
                duration_ms: { type: "integer", minimum: 1, maximum: LIMITS.audioMs },
              },
              required: ["file"],
            },
          },
        },
      },
    },
    responses: { 202: json(ZWriteResult, "Accepted: an `artifact` message"), ...errors(...WRITE_ERRORS) },
  });
  route(app, upload, async (c) => {
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    if (!type.startsWith("multipart/form-data"))
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Upload the file as multipart/form-data (field `file`)");
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
    const files = form.getAll("file");
    const file = files[0];
    if (!(file instanceof File)) throw new AppError("VALIDATION_ERROR", "Field `file` is required", { field: "file" });
    // One file per request, so each has its own progress, cancel and idempotency key.
    if (files.length > 1)
      throw new AppError("VALIDATION_ERROR", `Send one file per request (this one has ${files.length})`, {
        field: "file",
        max: 1,
        received: files.length,
      });
    const caption = readCaption(form.get("caption"));
    const durationMs = readDuration(form.get("duration_ms"));
    return idempotentWrite(core, c, raw, (idem) =>
      api.attachFile(c.get("principal"), c.req.valid("param").id, file, idem, caption, durationMs),
    );
  });

  // Downloads never render in our origin: attachment disposition, nosniff, and a sandbox CSP.
  const download = createRoute({
    ...common,
    method: "get",
    path: "/v1/artifacts/{id}",
    summary: "Download a file of a conversation I am in (or one byte range of it)",
    request: { params: z.object({ id: z.string().min(1).max(128) }) },
    responses: {
      // Served with the type it was uploaded (or made) with: any media type.
      200: {
        description: "The file, as an attachment, with its own content type",
        content: { "*/*": { schema: { type: "string", format: "binary" } } },
      },
      // A `Range: bytes=…` header (one range) answers with that part: what media players seek with.
      206: {
        description: "The part of the file a single `Range: bytes=…` asked for, with `Content-Range`",
        content: { "*/*": { schema: { type: "string", format: "binary" } } },
      },
      ...errors(401, 404),
    },
  });
  route(app, download, async (c) => {
    const found = await api.artifact(c.get("principal"), c.req.valid("param").id);
    const all = typeof found.bytes === "string" ? new TextEncoder().encode(found.bytes) : new Uint8Array(found.bytes);
    const range = byteRange(c.req.header("range"), all.length);
    return new Response(range ? all.subarray(range.start, range.end + 1) : all, {
      status: range ? 206 : 200,
      headers: {
        ...(range ? { "content-range": `bytes ${range.start}-${range.end}/${all.length}` } : {}),
        "accept-ranges": "bytes",
        "content-type": found.mime,
        // RFC 6266: an ASCII fallback plus filename* (RFC 5987, UTF-8) for any Unicode name.
        "content-disposition": attachmentDisposition(found.filename),
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox; default-src 'none'",
        "cache-control": "private, no-store",
      },
    });
  });
  return app;
}
