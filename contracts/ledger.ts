import { z } from "zod";
import { EVENT_TYPES } from "./events.js";
import { ZConversationId, ZCursor, ZEventId, ZJobId, ZTenantId } from "./primitives.js";

/** `POST /v1/ledger/append`: all-or-nothing. Events are validated one by one by the ledger. */
export const ZAppendRequest = z.strictObject({
  tenant_id: ZTenantId,
  events: z.array(z.unknown()).min(1).max(1000),
});
export const ZAppendResponse = z.object({
  ok: z.literal(true),
  accepted_event_ids: z.array(ZEventId),
  cursor: ZCursor,
});

/** `GET /v1/ledger/query` */
export const ZQueryRequest = z.strictObject({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId.optional(),
  job_id: ZJobId.optional(),
  event_type: z.enum(EVENT_TYPES as [string, ...string[]]).optional(),
  after_cursor: ZCursor.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const ZQueryResponse = z.object({
  tenant_id: ZTenantId,
  events: z.array(z.record(z.string(), z.unknown())),
  next_cursor: ZCursor.nullable(),
});

/** A signed checkpoint: Ed25519 over canonical JSON of {tenant_id, tenant_seq, head_hash}. */
export const ZCheckpoint = z.object({
  tenant_id: ZTenantId,
  tenant_seq: z.number().int().nonnegative(),
  head_hash: z.string(),
  signature: z.string(),
  key_id: z.string(),
  ts: z.string(),
});

export const ZVerifyReport = z.object({
  tenant_id: ZTenantId,
  ok: z.boolean(),
  events_checked: z.number().int(),
  checkpoints_checked: z.number().int(),
  head: z.object({ tenant_seq: z.number().int(), hash: z.string() }).nullable(),
  /** The first broken tenant_seq and why, when ok is false. */
  first_break: z
    .object({
      tenant_seq: z.number().int(),
      reason: z.enum(["hash_mismatch", "prev_hash_mismatch", "missing_event", "bad_signature", "checkpoint_mismatch", "unparseable"]),
      message: z.string(),
    })
    .nullable(),
});

export const ZKeysResponse = z.object({
  /** The key signing new checkpoints first (`current: true`), then the keys rotated out, whose checkpoints still verify. */
  keys: z.array(z.object({ key_id: z.string(), alg: z.literal("Ed25519"), public_key_pem: z.string(), public_key_hex: z.string(), current: z.boolean() })),
});

export type TAppendRequest = z.infer<typeof ZAppendRequest>;
export type TAppendResponse = z.infer<typeof ZAppendResponse>;
export type TQueryRequest = z.input<typeof ZQueryRequest>;
export type TQueryResponse = z.infer<typeof ZQueryResponse>;
export type TCheckpoint = z.infer<typeof ZCheckpoint>;
export type TVerifyReport = z.infer<typeof ZVerifyReport>;
export type TKeysResponse = z.infer<typeof ZKeysResponse>;
