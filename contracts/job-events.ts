import { z } from "zod";
import { ZArtifactRef, ZCardAction, ZFinishedCard, ZFormalizeCard, ZTrackingCard } from "./cards.js";
import {
  ZButtonId,
  ZCardId,
  ZConversationId,
  ZEntityId,
  ZIsoTime,
  ZJobId,
  ZJobState,
  ZRedactedValue,
} from "./primitives.js";
import { ZWhen } from "./when.js";

/**
 * The payloads of a job's life and of the tool calls it makes: proposed, approved, progressing,
 * handed over, answered, completed; a tool called and its result. The envelope that carries them,
 * and every other event type, is in ./events.ts.
 */

const short = (max: number) => z.string().max(max);

/**
 * A human click that caused an event. Carried by every human job event so the ledger can check
 * that the button was really offered on a card of that job (`policy.card_provenance`).
 */
const provenance = {
  card_id: ZCardId.optional(),
  button_id: ZButtonId.optional(),
  action: ZCardAction.optional(),
};

export const ZJobCreatedPayload = z.strictObject({
  job_id: ZJobId,
  title: z.string().min(1).max(120),
  conversation_id: ZConversationId,
  owner_entity_id: ZEntityId,
  parent_job_id: ZJobId.optional(),
  /** The person who asked for the job (a job started without an approval waits on them when it needs someone). */
  requested_by: ZEntityId.optional(),
});

export const ZJobProposedPayload = z.strictObject({ job_id: ZJobId, proposed_card: ZFormalizeCard });

export const ZJobApprovedPayload = z.strictObject({ job_id: ZJobId, ...provenance });

export const ZJobRejectedPayload = z.strictObject({
  job_id: ZJobId,
  reason_code: short(64).optional(),
  reason_text: short(1000).optional(),
  ...provenance,
});

export const ZJobStateChangedPayload = z.strictObject({
  job_id: ZJobId,
  prev_state: ZJobState,
  next_state: ZJobState,
  reason_code: short(64).optional(),
  note: short(500).optional(),
  artifact_refs: z.array(ZArtifactRef).max(20).optional(),
  ...provenance,
});

export const ZJobProgressPayload = z.strictObject({ job_id: ZJobId, tracking_card: ZTrackingCard });

export const ZJobArtifactAttachedPayload = z.strictObject({ job_id: ZJobId, artifact: ZArtifactRef });

export const ZJobCompletedPayload = z.strictObject({ job_id: ZJobId, finished_card: ZFinishedCard });

/** A job given to a person: they become its owner, and its agent stops acting on it. */
export const ZJobHandedOverPayload = z.strictObject({
  job_id: ZJobId,
  from_entity_id: ZEntityId,
  to_entity_id: ZEntityId,
  note: short(500).optional(),
  ...provenance,
});

export const ZJobAcknowledgedPayload = z.strictObject({ job_id: ZJobId, ...provenance });

export const ZJobDisputedPayload = z.strictObject({
  job_id: ZJobId,
  reason_text: short(2000),
  reason_code: short(64).optional(),
  ...provenance,
});

export const ZJobChangesRequestedPayload = z.strictObject({
  job_id: ZJobId,
  changes_text: short(2000),
  ...provenance,
});

export const ZJobInputProvidedPayload = z.strictObject({
  job_id: ZJobId,
  /**
   * Sanitized: plain values are previews, sensitive ones are redacted with a vault pointer; a
   * time window also carries the structured window Office resolved from it (`when`).
   */
  inputs: z.record(short(64), z.union([short(500), z.number(), z.boolean(), ZRedactedValue, ZWhen])),
  ...provenance,
});

/** How an invitee answered a meeting invitation (iMIP REPLY: PARTSTAT; COUNTER: a proposed time). */
export const INVITE_ANSWERS = ["accepted", "declined", "tentative", "counter"] as const;

/**
 * An invitee's answer to the job's invitation arrived by mail (iMIP REPLY or COUNTER, RFC 6047)
 * and matched the event's UID and an invited attendee whose own address sent it. The ledger
 * keeps the attendee's name and redacted address, their words (scrubbed), a proposed time, and
 * the SHA-256 of the mail's Message-ID; never the address itself.
 */
export const ZJobReplyReceivedPayload = z.strictObject({
  job_id: ZJobId,
  event_uid: short(200).min(1),
  attendee: z.strictObject({
    name: z.string().min(1).max(120),
    email_redacted: short(200),
    email_hash: short(100).optional(),
  }),
  answer: z.enum(INVITE_ANSWERS),
  /** The invitee's COMMENT, scrubbed of addresses and numbers. */
  comment: short(300).optional(),
  /** A counter-proposal's time. */
  proposed: z.strictObject({ start: ZIsoTime, end: ZIsoTime, timezone: short(64) }).optional(),
  sequence: z.number().int().min(0).max(100_000),
  message_id_sha256: z.string().regex(/^sha256:[0-9a-f]{64}$/),
});

export const ZToolCalledPayload = z.strictObject({
  tool_call_id: short(128).min(1),
  tool_name: short(128).min(1),
  tool_version: short(32).min(1),
  purpose: short(300).optional(),
  inputs: z.record(z.string(), z.unknown()),
  pii_policy: z.object({
    redactions_applied: z.array(short(64)).max(20),
    hashes_applied: z.array(short(64)).max(20),
    raw_pii_stored: z.literal(false),
  }),
  idempotency_key: short(300).min(1),
  attempt: z.number().int().min(1).max(100).optional(),
  retry_of_tool_call_id: short(128).optional(),
});

export const ZToolError = z.object({
  error_code: short(64),
  message_safe: short(500),
  retryable: z.boolean(),
  suggested_wait_seconds: z.number().nonnegative().optional(),
});

export const ZToolResultPayload = z.strictObject({
  tool_call_id: short(128).min(1),
  tool_name: short(128).min(1),
  status: z.enum(["success", "error"]),
  latency_ms: z.number().nonnegative(),
  output: z.record(z.string(), z.unknown()).optional(),
  artifacts: z.array(ZArtifactRef).max(20).optional(),
  error: ZToolError.optional(),
  safety: z.object({ pii_leak_detected: z.boolean(), redaction_summary: z.array(short(200)).max(10) }).optional(),
  attempt: z.number().int().min(1).max(100).optional(),
  retryable: z.boolean().optional(),
});
