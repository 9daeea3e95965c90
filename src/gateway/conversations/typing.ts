import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import { toGroup } from "../stream/delta-log.js";
import { memberConversation } from "./conversations.js";

/** A typing signal is shown this long unless another one (or the message) follows. */
const TYPING_SHOWN_MS = 6_000;
/** One person's signals in one conversation reach the others at most this often. */
const TYPING_EVERY_MS = 2_000;

/** When each (tenant, person, conversation) last signalled, for the throttle. */
export type TypingThrottle = Map<string, number>;

/**
 * "I am typing here": a `typing` frame to the conversation's other members, throttled per person
 * and conversation. Nothing is stored: it is news for the people looking now, not history.
 */
export function signalTyping(core: Core, seen: TypingThrottle, p: Principal, conversationId: string): { ok: true } {
  const conv = memberConversation(core, p, conversationId);
  const me = core.me(p);
  const now = core.clock.now();
  const key = `${p.tenantId}\u0000${p.entityId}\u0000${conversationId}`;
  if (now - (seen.get(key) ?? -Infinity) < TYPING_EVERY_MS) return { ok: true };
  if (seen.size > 10_000) for (const [k, at] of seen) if (now - at >= TYPING_EVERY_MS) seen.delete(k);
  seen.set(key, now);
  const audience = new Set([...conv.participants].filter((id) => id !== p.entityId));
  const data = {
    tenant_id: p.tenantId,
    conversation_id: conversationId,
    entity_id: p.entityId,
    display_name: me.display_name,
    until: new Date(now + TYPING_SHOWN_MS).toISOString(),
  };
  core.hub.publish(p.tenantId, toGroup(null, [{ event: "typing", data, audience }]));
  return { ok: true };
}
