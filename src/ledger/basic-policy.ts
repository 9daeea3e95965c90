import { ZUblEvent, EVENT_TYPES, type TUblEvent } from "../../contracts/events.js";
import type { LedgerFold, PolicyEngine, PolicyViolation } from "./policy/types.js";

/**
 * A schema-only engine and a minimal fold: the envelope must parse and event ids must be new.
 * It is the floor every ledger enforces, used by tests of the storage layer that must not
 * depend on the policy pack's rules, and by tools that only read.
 */
export function createBasicEngine(): PolicyEngine {
  return {
    check(fold, raw) {
      const type = (raw as { event_type?: unknown } | null)?.event_type;
      if (typeof type !== "string" || !(EVENT_TYPES as string[]).includes(type)) {
        return refuse({ policy_id: null, code: "UNKNOWN_EVENT_TYPE", message_safe: `Unknown event_type ${JSON.stringify(type ?? null)}` });
      }
      const parsed = ZUblEvent.safeParse(raw);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        return refuse({ policy_id: "policy.envelope_required_fields", code: "INVALID_ENVELOPE", message_safe: `Invalid ${type}: ${i?.path.join(".")}: ${i?.message}` });
      }
      if ((fold as BasicFold).hasSeen?.(parsed.data.tenant_id, parsed.data.event_id)) {
        return refuse({ policy_id: "policy.unique_event_id", code: "DUPLICATE_EVENT_ID", message_safe: `event_id ${parsed.data.event_id} already exists` });
      }
      return { ok: true, event: parsed.data, warnings: [] };
    },
    setTenantMode() {},
    violationEvent(raw, violation, ctx) {
      const r = (raw ?? {}) as Partial<TUblEvent>;
      return ZUblEvent.parse({
        event_id: ctx.event_id,
        ts: ctx.ts,
        tenant_id: r.tenant_id,
        trace_id: typeof r.trace_id === "string" ? r.trace_id : ctx.event_id,
        conversation_id: typeof r.conversation_id === "string" ? r.conversation_id : "cnv_workspace",
        actor: { entity_id: "system_policy_agent", actor_type: "system" },
        event_type: "policy.violation",
        payload: {
          violated_policy_id: violation.policy_id ?? "policy.schema",
          code: violation.code,
          event_type: String(r.event_type ?? "unknown").slice(0, 64),
          event_id: String(r.event_id ?? "unknown").slice(0, 128),
          message_safe: violation.message_safe.slice(0, 500),
          mode: ctx.mode,
        },
      });
    },
  };
}

function refuse(violation: PolicyViolation) {
  return { ok: false as const, violation, warnings: [] };
}

interface BasicFold extends LedgerFold {
  hasSeen(tenantId: string, eventId: string): boolean;
}

/** Seen ids, entities and memberships, with an undo log for refused batches and failed commits. */
export function createBasicFold(): BasicFold {
  const seen = new Set<string>();
  const entities = new Map<string, { actor_type: "human" | "agent"; roles: string[]; display_name: string }>();
  const members = new Set<string>();
  const undo: Array<() => void> = [];
  let base = 0; // undo entries released so far
  const setOnce = <T>(set: Set<T>, v: T) => {
    if (set.has(v)) return;
    set.add(v);
    undo.push(() => set.delete(v));
  };
  return {
    hasSeen: (t, id) => seen.has(`${t}\u0000${id}`),
    apply(e) {
      setOnce(seen, `${e.tenant_id}\u0000${e.event_id}`);
      if (e.event_type === "entity.registered") {
        const key = `${e.tenant_id}\u0000${e.payload.entity_id}`;
        const before = entities.get(key);
        entities.set(key, { actor_type: e.payload.actor_type, roles: e.payload.roles ?? [], display_name: e.payload.display_name });
        undo.push(() => (before ? entities.set(key, before) : entities.delete(key)));
      } else if (e.event_type === "conversation.created") {
        for (const p of e.payload.participants) setOnce(members, `${e.tenant_id}\u0000${e.payload.conversation_id}\u0000${p.entity_id}`);
      }
    },
    mark: () => base + undo.length,
    rollbackTo(mark) {
      while (base + undo.length > mark) undo.pop()!();
    },
    release(mark) {
      const n = Math.min(mark - base, undo.length);
      if (n > 0) (undo.splice(0, n), (base += n));
    },
    jobState: () => undefined,
    jobConversation: () => undefined,
    isMember: (t, c, id) => members.has(`${t}\u0000${c}\u0000${id}`),
    entity: (t, id) => entities.get(`${t}\u0000${id}`),
  };
}
