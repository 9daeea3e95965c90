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
      reason: z.enum([
        "hash_mismatch",
        "prev_hash_mismatch",
        "missing_event",
        "bad_signature",
        "checkpoint_mismatch",
        "unparseable",
      ]),
      message: z.string(),
    })
    .nullable(),
});

export const ZKeysResponse = z.object({
  /** The key signing new checkpoints first (`current: true`), then the keys rotated out, whose checkpoints still verify. */
  keys: z.array(
    z.object({
      key_id: z.string(),
      alg: z.literal("Ed25519"),
      public_key_pem: z.string(),
      public_key_hex: z.string(),
      current: z.boolean(),
    }),
  ),
});

export type TAppendRequest = z.infer<typeof ZAppendRequest>;
export type TAppendResponse = z.infer<typeof ZAppendResponse>;
export type TQueryRequest = z.input<typeof ZQueryRequest>;
export type TQueryResponse = z.infer<typeof ZQueryResponse>;
export type TCheckpoint = z.infer<typeof ZCheckpoint>;
export type TVerifyReport = z.infer<typeof ZVerifyReport>;
export type TKeysResponse = z.infer<typeof ZKeysResponse>;

/** Standard base64 of a 32-byte SHA-256 hash (RFC 6962 tree hashes). */
const ZHash64 = z.string().regex(/^[A-Za-z0-9+/]{43}=$/);
const ZCount = z.coerce.number().int().min(1);

/** `GET /v1/ledger/proof/inclusion`: where event `seq` sits in the tree of `size` leaves (default: now). */
export const ZInclusionQuery = z.strictObject({ tenant_id: ZTenantId, seq: ZCount, size: ZCount.optional() });
export const ZInclusionProof = z.object({
  leaf_index: z.number().int().nonnegative(),
  tree_size: z.number().int().min(1),
  /** RFC 6962 PATH: sibling hashes from the leaf up. */
  hashes: z.array(ZHash64),
});

/** `GET /v1/ledger/proof/consistency`: the tree of `from` leaves is a prefix of the tree of `to` leaves. */
export const ZConsistencyQuery = z.strictObject({ tenant_id: ZTenantId, from: ZCount, to: ZCount });
export const ZConsistencyProof = z.object({ from: z.number().int(), to: z.number().int(), hashes: z.array(ZHash64) });

/** `GET /v1/ledger/leaves`: the stored leaf bytes of events start..end (1-based tenant_seq, inclusive). */
export const ZLeavesQuery = z.strictObject({ tenant_id: ZTenantId, start: ZCount, end: ZCount });
export const ZLeavesResponse = z.object({
  start: z.number().int(),
  end: z.number().int(),
  /** base64 of each event's canonical JSON as stored, or null for an event the caller may not read. */
  leaves: z.array(z.string().nullable()),
  /** RFC 6962 leaf hash of each: enough to check the tree without reading what is not yours. */
  leaf_hashes: z.array(ZHash64),
});

/** `GET /v1/jobs/:job_id/receipt`: one job's events with proofs against one signed checkpoint. */
export const ZReceipt = z.object({
  format: z.literal("logline-receipt/v1"),
  tenant_id: ZTenantId,
  job_id: ZJobId,
  /** A C2SP tlog-checkpoint signed note. */
  checkpoint: z.string(),
  /** Verifier keys (signed-note form) the checkpoint may be signed by: the current one first. */
  verifier_keys: z.array(z.string()).min(1),
  events: z.array(
    z.object({
      tenant_seq: z.number().int().min(1),
      event_type: z.string(),
      /** base64 of the event's canonical JSON: the leaf bytes. */
      leaf: z.string(),
      /** Inclusion proof of leaf tenant_seq − 1 against the checkpoint's tree. */
      proof: z.array(ZHash64),
    }),
  ),
});

export type TReceipt = z.infer<typeof ZReceipt>;
