import { newId } from "../../src/shared/ids.js";

/** Shared shapes for the ledger benchmarks: one tenant, one conversation, ~1 KB chat messages. */
export const TENANT = "ten_bench";
const CONV = "cnv_bench";
const ACTOR = { entity_id: "ent_bench_human", actor_type: "human" as const };
const T0 = Date.parse("2026-01-05T09:00:00.000Z");
let n = 0;

const BODY = "Quarterly planning notes: please review the agenda before the meeting and add your topics below. ".repeat(
  9,
);

export function setupEvents() {
  return [
    {
      event_id: newId("evt"),
      ts: new Date(T0).toISOString(),
      tenant_id: TENANT,
      trace_id: "trc_bench_setup",
      conversation_id: "cnv_workspace",
      actor: { entity_id: "system", actor_type: "system" },
      event_type: "entity.registered",
      payload: { entity_id: ACTOR.entity_id, actor_type: "human", display_name: "Bench Person", roles: ["member"] },
    },
    {
      event_id: newId("evt"),
      ts: new Date(T0 + 1).toISOString(),
      tenant_id: TENANT,
      trace_id: "trc_bench_setup",
      conversation_id: CONV,
      actor: ACTOR,
      event_type: "conversation.created",
      payload: { conversation_id: CONV, title: "Bench", participants: [{ entity_id: ACTOR.entity_id }] },
    },
  ];
}

// Ids shaped like newId's (prefix + 32 hex, increasing) but from a counter: newId draws random
// bytes per id, which would dominate building the 1M-event replay fixture.
const RUN = Date.now().toString(16).padStart(12, "0");
const idOf = (prefix: string) => `${prefix}_${RUN}7${n.toString(16).padStart(19, "0")}`;

/** A message.sent whose canonical JSON is ≈ 1 KB. */
export function benchMessage() {
  n++;
  return {
    event_id: idOf("evt"),
    ts: new Date(T0 + 1000 + n).toISOString(),
    tenant_id: TENANT,
    trace_id: idOf("trc"),
    conversation_id: CONV,
    actor: ACTOR,
    event_type: "message.sent",
    payload: { message_id: idOf("msg"), kind: "text", body_text: BODY.slice(0, 640) },
  };
}
