import { LIMITS } from "./facts.js";
import { z } from "zod";
import { ZCardAction } from "./cards.js";
import { ZButtonId, ZCardId, ZConversationId, ZEntityId, ZEventId, ZJobId, ZTenantId, ZTraceId } from "./primitives.js";

const ZInputValue = z.union([z.string().max(5000), z.number(), z.boolean()]);

/** `POST /v1/office/ingest_message`: a person said something in a conversation with an agent. */
export const ZIngestMessageRequest = z.strictObject({
  tenant_id: ZTenantId,
  trace_id: ZTraceId,
  conversation_id: ZConversationId,
  actor_entity_id: ZEntityId,
  kind: z.literal("text").default("text"),
  body_text: z.string().min(1).max(LIMITS.messageChars),
  /** The ledger event of the person's message; Office's events name it as their cause. */
  message_event_id: ZEventId.optional(),
  /** Who the message mentions (as its ledger event says): in a group, an agent answers only when it is one of them. */
  mentions: z.array(ZEntityId).max(50).optional(),
  /** The message it replies to (as its ledger event says): replying to an agent's message asks that agent. */
  reply_to_message_id: z.string().min(1).max(128).optional(),
});

/** `POST /v1/office/job_action`: a person clicked a card button. */
export const ZJobActionRequest = z.strictObject({
  tenant_id: ZTenantId,
  trace_id: ZTraceId,
  conversation_id: ZConversationId,
  job_id: ZJobId,
  actor_entity_id: ZEntityId,
  card_id: ZCardId,
  button_id: ZButtonId,
  action: ZCardAction,
  input: z.record(z.string().max(64), ZInputValue).optional(),
  causation_id: ZEventId.optional(),
});

export const ZOfficeResponse = z.object({
  ok: z.literal(true),
  emitted_event_ids: z.array(ZEventId),
  notes: z.string().optional(),
  job_id: ZJobId.optional(),
});

/** `GET /v1/office/affordances?tenant_id=&entity_id=`: what an entity can do, for UI hints. */
export const ZAffordancesRequest = z.strictObject({ tenant_id: ZTenantId, entity_id: ZEntityId });
export const ZAffordancesResponse = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  actor_type: z.enum(["human", "agent"]),
  roles: z.array(z.string()),
  tools: z.array(
    z.object({ name: z.string(), version: z.string(), description: z.string(), side_effects: z.boolean() }),
  ),
  actions: z.array(z.string()),
  quick_actions: z.array(z.object({ label: z.string(), prompt_text: z.string() })),
});

export type TIngestMessageRequest = z.input<typeof ZIngestMessageRequest>;
export type TJobActionRequest = z.infer<typeof ZJobActionRequest>;
export type TOfficeResponse = z.infer<typeof ZOfficeResponse>;
export type TAffordancesRequest = z.infer<typeof ZAffordancesRequest>;
export type TAffordancesResponse = z.infer<typeof ZAffordancesResponse>;
