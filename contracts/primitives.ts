import { z } from "zod";

/** ISO-8601 timestamp with a timezone designator (Z or an offset). */
export const ZIsoTime = z.iso.datetime({ offset: true });

/** Ids are opaque strings; we bound their size so no id can carry a payload. */
const id = (label: string) => z.string().min(1, `${label} is required`).max(128, `${label} is too long`);

export const ZTenantId = id("tenant_id");
export const ZEntityId = id("entity_id");
export const ZConversationId = id("conversation_id");
export const ZJobId = id("job_id");
export const ZEventId = id("event_id");
export const ZTraceId = id("trace_id");
export const ZCardId = id("card_id");
export const ZButtonId = id("button_id");

export const ZActorType = z.enum(["human", "agent", "system"]);
export const ZSeverity = z.enum(["info", "success", "warning", "error"]);

export const JOB_STATES = [
  "draft",
  "proposed",
  "approved",
  "in_progress",
  "waiting_input",
  "completed",
  "rejected",
  "cancelled",
  "failed",
] as const;
export const ZJobState = z.enum(JOB_STATES);

export const TERMINAL_JOB_STATES = ["completed", "rejected", "cancelled", "failed"] as const;
export const ACTIVE_JOB_STATES = ["proposed", "approved", "in_progress", "waiting_input"] as const;

export const ZPriority = z.enum(["low", "normal", "high", "urgent"]);

/** Cursor over a tenant's ledger: `seq:N`, N being the gapless per-tenant sequence. */
export const ZCursor = z.string().regex(/^seq:(0|[1-9][0-9]{0,14})$/, "cursor must look like seq:N");

export const ZActor = z.object({
  entity_id: ZEntityId,
  actor_type: ZActorType,
});

export type TActorType = z.infer<typeof ZActorType>;
export type TJobState = z.infer<typeof ZJobState>;
export type TPriority = z.infer<typeof ZPriority>;
export type TActor = z.infer<typeof ZActor>;

export function parseCursor(cursor: string): number | null {
  const m = /^seq:(0|[1-9][0-9]{0,14})$/.exec(cursor);
  return m ? Number(m[1]) : null;
}

export function formatCursor(seq: number): string {
  return `seq:${seq}`;
}

/** A value that was sensitive: the ledger keeps a redacted preview, a salted hash and a vault pointer. */
export const ZRedactedValue = z.object({
  redacted: z.string().max(200),
  hash: z
    .string()
    .regex(/^blake3:[0-9a-f]{16,64}$/)
    .optional(),
  vault_ref: z
    .string()
    .regex(/^vault_ref:[A-Za-z0-9_-]{1,100}$/)
    .optional(),
});
