import contentDisposition from "content-disposition";
import { Hono } from "hono";
import { readFile } from "node:fs/promises";
import { AppError } from "../../shared/errors.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import { attachFile, findArtifact } from "../commands/attachments.js";
import type { Core } from "../core.js";
import { idempotentWrite } from "./write.js";

/**
 * `attachment` with the name in filename* (UTF-8, RFC 5987) and a plain-ASCII filename for old
 * clients (accents dropped, other characters as "_"); control characters never reach the header.
 */
function attachmentDisposition(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "") || "file";
  const ascii = clean.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "_");
  return contentDisposition(clean, { type: "attachment", fallback: ascii });
}

export function createFileRoutes(core: Core): Hono<GwEnv> {
  const app = new Hono<GwEnv>();
  const auth = authenticate(core.tokens);

  app.post("/v1/conversations/:id/attachments", auth, async (c) => {
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    if (!type.startsWith("multipart/form-data")) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Upload the file as multipart/form-data (field `file`)");
    const raw = new Uint8Array(await c.req.arrayBuffer());
    let form: FormData;
    try {
      form = await new Request("http://local/", { method: "POST", headers: { "content-type": c.req.header("content-type")! }, body: raw }).formData();
    } catch {
      throw new AppError("VALIDATION_ERROR", "The multipart body could not be read", { field: "file" });
    }
    const file = form.get("file");
    if (!(file instanceof File)) throw new AppError("VALIDATION_ERROR", "Field `file` is required", { field: "file" });
    return idempotentWrite(core, c, raw, (idem) => attachFile(core, c.get("principal"), c.req.param("id"), file, idem));
  });

  // Downloads never render in our origin: attachment disposition, nosniff, and a sandbox CSP.
  app.get("/v1/artifacts/:id", auth, async (c) => {
    const found = findArtifact(core, c.get("principal"), c.req.param("id"));
    const bytes = "path" in found ? await readFile(found.path) : found.bytes;
    return new Response(typeof bytes === "string" ? bytes : new Uint8Array(bytes), {
      headers: {
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
