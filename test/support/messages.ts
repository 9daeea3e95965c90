import type { TUblEvent } from "../../contracts/events.js";
import type { TestServer } from "./server.js";

const T = "tnt_acme_001";
let n = 0;

/** A person's `message.sent` event as the ledger takes it (for appending many at once). */
export function textEvent(
  conversationId: string,
  entityId: string,
  text: string,
  messageId = `msg_t${Date.now()}_${n++}`,
): TUblEvent {
  return {
    event_id: `evt_t${Date.now()}_${n++}`,
    event_type: "message.sent",
    ts: new Date().toISOString(),
    tenant_id: T,
    trace_id: `trc_t${n++}`,
    conversation_id: conversationId,
    actor: { entity_id: entityId, actor_type: "human" },
    payload: { message_id: messageId, kind: "text", body_text: text },
  } as TUblEvent;
}

/** Appends `count` numbered messages ("<prefix> 1" …) straight through the ledger, in batches. */
export async function appendNumbered(
  t: TestServer,
  conversationId: string,
  entityId: string,
  count: number,
  prefix: string,
): Promise<void> {
  for (let i = 0; i < count; i += 500) {
    const events = [];
    for (let k = i; k < Math.min(count, i + 500); k++)
      events.push(textEvent(conversationId, entityId, `${prefix} ${k + 1}`));
    await t.server.ledger.append({ tenant_id: T, events });
  }
}
