import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";

/** Per-person, per-conversation mutes (table gateway_conversation_mutes), cached in memory: every notification decision asks. */
export interface MuteStore {
  isMuted(tenantId: string, entityId: string, conversationId: string): boolean;
  set(tenantId: string, entityId: string, conversationId: string, muted: boolean): void;
}

export function createMuteStore(deps: { db: Db; clock: Clock }): MuteStore {
  const key = (t: string, e: string, c: string) => `${t}\0${e}\0${c}`;
  const muted = new Set<string>();
  for (const r of deps.db
    .prepare("SELECT tenant_id, entity_id, conversation_id FROM gateway_conversation_mutes")
    .all() as Array<{
    tenant_id: string;
    entity_id: string;
    conversation_id: string;
  }>) {
    muted.add(key(r.tenant_id, r.entity_id, r.conversation_id));
  }
  const insert = deps.db.prepare(
    "INSERT OR IGNORE INTO gateway_conversation_mutes (tenant_id, entity_id, conversation_id, muted_at) VALUES (?, ?, ?, ?)",
  );
  const remove = deps.db.prepare(
    "DELETE FROM gateway_conversation_mutes WHERE tenant_id = ? AND entity_id = ? AND conversation_id = ?",
  );
  return {
    isMuted: (t, e, c) => muted.has(key(t, e, c)),
    set(t, e, c, on) {
      if (on) {
        insert.run(t, e, c, deps.clock.iso());
        muted.add(key(t, e, c));
      } else {
        remove.run(t, e, c);
        muted.delete(key(t, e, c));
      }
    },
  };
}
