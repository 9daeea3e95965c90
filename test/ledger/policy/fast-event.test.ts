import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ZUblEvent } from "../../../contracts/events.js";
import { fastParseEvent } from "../../../src/ledger/policy/fast-event.js";

/** Keys of every object, in order, all the way down: the fast path must build the same shapes. */
const keyOrder = (v: unknown): unknown =>
  v && typeof v === "object"
    ? Array.isArray(v)
      ? v.map(keyOrder)
      : Object.entries(v).map(([k, x]) => [k, keyOrder(x)])
    : typeof v;

const base = () => ({
  event_id: "evt_1",
  ts: "2026-01-05T09:00:00.000Z",
  tenant_id: "ten_1",
  trace_id: "trc_1",
  conversation_id: "cnv_1",
  actor: { entity_id: "ent_1", actor_type: "human" },
  event_type: "message.sent",
  payload: { message_id: "msg_1", kind: "text", body_text: "hello" },
});

const str = fc.oneof(
  fc.constantFrom(
    "",
    "x",
    "a".repeat(128),
    "a".repeat(129),
    "b".repeat(8000),
    "b".repeat(8001),
    "😀".repeat(64),
    "😀".repeat(65),
  ),
  fc.string({ maxLength: 20 }),
);
const ts = fc.constantFrom(
  "2026-01-05T09:00:00.000Z",
  "2026-01-05T09:00:00Z",
  "2026-01-05T09:00:00+02:00",
  "2026-01-05 09:00:00",
  "2026-13-05T09:00:00Z",
  "2026-01-05T09:00:00",
  "",
  "yesterday",
);
const anyValue = fc.oneof(
  str,
  ts,
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.constantFrom("human", "agent", "system", "robot", "text", "card", "system", "artifact", "voice"),
);
const envelopeKey = fc.constantFrom(
  "event_id",
  "ts",
  "tenant_id",
  "trace_id",
  "conversation_id",
  "job_id",
  "causation_id",
  "correlation_id",
  "seq",
  "integrity",
  "event_type",
  "extra",
  "__proto__",
);
const payloadKey = fc.constantFrom(
  "message_id",
  "kind",
  "body_text",
  "reply_to_message_id",
  "card",
  "preview",
  "pii_refs",
  "unknown",
);
const actorKey = fc.constantFrom("entity_id", "actor_type", "role");

type Edit = { where: "envelope" | "payload" | "actor"; key: string; op: "set" | "delete"; value: unknown };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    where: fc.constant("envelope" as const),
    key: envelopeKey,
    op: fc.constantFrom("set" as const, "delete" as const),
    value: fc.oneof(anyValue, ts, fc.constantFrom("message.sent", "message.delivered")),
  }),
  fc.record({
    where: fc.constant("payload" as const),
    key: payloadKey,
    op: fc.constantFrom("set" as const, "delete" as const),
    value: anyValue,
  }),
  fc.record({
    where: fc.constant("actor" as const),
    key: actorKey,
    op: fc.constantFrom("set" as const, "delete" as const),
    value: anyValue,
  }),
);

function build(edits: Edit[], odd: "none" | "null-proto" | "class" | "array-payload") {
  const e: Record<string, any> = base();
  for (const x of edits) {
    const target = x.where === "envelope" ? e : x.where === "payload" ? e.payload : e.actor;
    if (!target || typeof target !== "object") continue;
    if (x.op === "delete") delete target[x.key];
    else Object.defineProperty(target, x.key, { value: x.value, enumerable: true, writable: true, configurable: true });
  }
  if (odd === "null-proto") return Object.assign(Object.create(null), e);
  if (odd === "class") return Object.assign(new (class Ev {})(), e);
  if (odd === "array-payload") e.payload = Object.assign([], e.payload);
  return e;
}

describe("fastParseEvent (the contract parse's fast path for plain message.sent)", () => {
  it("accepts only what ZUblEvent accepts, and returns exactly what it returns", () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(edit, { maxLength: 4 }),
        fc.constantFrom("none", "none", "none", "null-proto", "class", "array-payload"),
        (edits, odd) => {
          runs++;
          const raw = build(edits, odd as "none");
          const before = JSON.stringify(raw);
          const fast = fastParseEvent(raw);
          const slow = ZUblEvent.safeParse(raw);
          expect(JSON.stringify(raw)).toBe(before); // never touches its input
          if (fast === null) return;
          accepted++;
          expect(slow.success).toBe(true);
          expect(fast).toStrictEqual(slow.data);
          expect(keyOrder(fast)).toEqual(keyOrder(slow.data));
          expect(fast).not.toBe(raw);
          expect((fast as { payload: unknown }).payload).not.toBe((raw as { payload: unknown }).payload);
        },
      ),
      { numRuns: 8_000 },
    );
    // The property must have been exercised on both sides.
    expect(accepted).toBeGreaterThan(runs / 20);
    expect(accepted).toBeLessThan(runs);
  });

  it("takes the common cases and leaves everything else to the contract parse", () => {
    expect(fastParseEvent(base())).not.toBeNull();
    expect(fastParseEvent({ ...base(), job_id: "job_1", causation_id: "evt_0", correlation_id: "" })).not.toBeNull();
    expect(fastParseEvent({ ...base(), payload: { message_id: "m", kind: "card", card: {} } })).toBeNull();
    expect(fastParseEvent({ ...base(), seq: 3 })).toBeNull();
    expect(fastParseEvent({ ...base(), event_type: "message.delivered" })).toBeNull();
    expect(fastParseEvent(null)).toBeNull();
  });
});
