import type { Context } from "hono";
import type { z } from "zod";
import { AppError, validationError } from "../shared/errors.js";

/** Reads a JSON body once, keeping the raw bytes (for the idempotency request hash). */
export async function readJson(c: Context): Promise<{ raw: string; value: unknown }> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json", { content_type: type || null });
  const raw = await c.req.text();
  try {
    return { raw, value: JSON.parse(raw) };
  } catch (e) {
    throw new AppError("INVALID_JSON", "The request body is not valid JSON", { reason: (e as Error).message });
  }
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues, what);
  return r.data;
}
