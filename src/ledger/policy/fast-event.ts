import { LIMITS } from "../../../contracts/facts.js";
import type { TUblEvent } from "../../../contracts/events.js";
import { ZIsoTime } from "../../../contracts/primitives.js";

/**
 * A hand-checked fast path for the commonest event, a plain chat `message.sent` (text, card-less,
 * nothing but strings), equivalent to `ZUblEvent.safeParse` for the events it accepts.
 *
 * It never refuses: it returns the object the contract parse would return (fresh objects, the
 * contract's key order), or null when the event is anything else or anything about it is
 * unusual (other keys, undefined members, non-plain objects, a failing check), and the caller then
 * runs the contract parse, which gives the verdict and the message. So every refusal still comes
 * from the contracts; test/ledger/policy/fast-event.test.ts checks on random events that whatever
 * this accepts the contract accepts with an identical result.
 */
const REQUIRED = [
  "event_id",
  "ts",
  "tenant_id",
  "trace_id",
  "conversation_id",
  "actor",
  "event_type",
  "payload",
] as const;
const ENVELOPE_OPTIONAL = ["job_id", "causation_id", "correlation_id"] as const;
const ACTOR_TYPES = new Set(["human", "agent", "system"]);
const MESSAGE_KINDS = new Set(["text", "card", "system", "artifact"]);

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
/** ZEventId/ZTenantId/…: a string of 1–128 UTF-16 units. */
const isId = (v: unknown): v is string => typeof v === "string" && v.length >= 1 && v.length <= 128;
const isShort = (v: unknown, max: number): v is string => typeof v === "string" && v.length <= max;

// ZIsoTime's check is its own regex (zod's datetime format runs nothing else on a string): the
// same RegExp object tested directly saves a zod parse (≈ 1 µs) per event. Should the schema
// ever carry no such pattern, the parse itself runs.
const isoPattern: unknown = Reflect.get(ZIsoTime._zod.def, "pattern");
const isoRegex = isoPattern instanceof RegExp && !isoPattern.global && !isoPattern.sticky ? isoPattern : null;
/** `ZIsoTime.safeParse(ts).success`, without the parse when the schema's pattern is at hand. */
export const isIsoTime = (ts: string): boolean => (isoRegex ? isoRegex.test(ts) : ZIsoTime.safeParse(ts).success);

export function fastParseEvent(raw: unknown): TUblEvent | null {
  if (!isPlain(raw) || raw.event_type !== "message.sent") return null;
  const keys = Object.keys(raw);
  // the 8 required keys plus any of the 3 optional ones, nothing else
  if (keys.length < 8 || keys.length > 11) return null;
  for (const k of keys) {
    switch (k) {
      case "event_id":
      case "ts":
      case "tenant_id":
      case "trace_id":
      case "conversation_id":
      case "actor":
      case "event_type":
      case "payload":
      case "job_id":
      case "causation_id":
      case "correlation_id":
        break;
      default:
        return null;
    }
  }
  for (const k of REQUIRED) if (!Object.hasOwn(raw, k)) return null;
  const { event_id, ts, tenant_id, trace_id, conversation_id, actor, payload } = raw;
  if (!isId(event_id) || !isId(tenant_id) || !isId(trace_id) || !isId(conversation_id)) return null;
  if (typeof ts !== "string" || !isIsoTime(ts)) return null;
  if (!isPlain(actor)) return null;
  const actorKeys = Object.keys(actor);
  if (
    actorKeys.length !== 2 ||
    !Object.hasOwn(actor, "entity_id") ||
    !Object.hasOwn(actor, "actor_type") ||
    !isId(actor.entity_id) ||
    typeof actor.actor_type !== "string" ||
    !ACTOR_TYPES.has(actor.actor_type)
  )
    return null;
  if (!isPlain(payload)) return null;
  const p = fastMessagePayload(payload);
  if (!p) return null;

  const out: Record<string, unknown> = { event_id, ts, tenant_id, trace_id, conversation_id };
  // ZActor is a stripping object: only these two keys survive (and are the only two present).
  const a = { entity_id: actor.entity_id, actor_type: actor.actor_type };
  for (const k of ENVELOPE_OPTIONAL) {
    if (!(k in raw)) {
      if (k === "job_id") out.actor = a;
      continue;
    }
    if (!Object.hasOwn(raw, k)) return null; // inherited: leave it to the contract parse
    const v = raw[k];
    if (k === "correlation_id" ? !isShort(v, 128) : !isId(v)) return null;
    out[k] = v;
    if (k === "job_id") out.actor = a;
  }
  out.event_type = "message.sent";
  out.payload = p;
  // Every member was checked above, one by one, against what the contract parse would accept.
  return out as TUblEvent;
}

/** `ZMessageSentPayload` restricted to message_id, kind, body_text, reply_to_message_id. */
function fastMessagePayload(payload: Record<string, unknown>): Record<string, unknown> | null {
  let n = 0;
  for (const k of Object.keys(payload)) {
    if (k !== "message_id" && k !== "kind" && k !== "body_text" && k !== "reply_to_message_id") return null;
    n++;
  }
  const { message_id, kind, body_text, reply_to_message_id } = payload;
  if (!isId(message_id) || typeof kind !== "string" || !MESSAGE_KINDS.has(kind)) return null;
  const out: Record<string, unknown> = { message_id, kind };
  let seen = 2;
  if (!Object.hasOwn(payload, "message_id") || !Object.hasOwn(payload, "kind")) return null;
  if ("body_text" in payload) {
    if (!isShort(body_text, LIMITS.messageChars)) return null;
    out.body_text = body_text;
    seen++;
  }
  if ("reply_to_message_id" in payload) {
    if (!isShort(reply_to_message_id, 128)) return null;
    out.reply_to_message_id = reply_to_message_id;
    seen++;
  }
  return seen === n ? out : null;
}
