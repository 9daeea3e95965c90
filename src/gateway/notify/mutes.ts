import type { Clock } from "../../shared/clock.js";
import type { AuthRows } from "../auth/auth-rows.js";

/**
 * Per-person, per-conversation mutes (table gateway_conversation_mutes), held in memory: every
 * notification decision asks. When other processes share the rows, the memory is read again
 * every couple of seconds, so a mute set through another process applies here soon after.
 */
export interface MuteStore {
  isMuted(tenantId: string, entityId: string, conversationId: string): boolean;
  set(tenantId: string, entityId: string, conversationId: string, muted: boolean): void;
  close(): void;
}

const RELOAD_MS = 2000;

export function createMuteStore(deps: { rows: AuthRows; clock: Clock; onError: (err: unknown) => void }): MuteStore {
  const { rows } = deps;
  const key = (t: string, e: string, c: string) => `${t}\0${e}\0${c}`;
  let muted = new Set<string>();
  const load = async () => {
    // What this process wrote is in the table before it is read back.
    await rows.settled();
    const all = await rows.all<{ tenant_id: string; entity_id: string; conversation_id: string }>(
      "SELECT tenant_id, entity_id, conversation_id FROM gateway_conversation_mutes",
      [],
    );
    muted = new Set(all.map((r) => key(r.tenant_id, r.entity_id, r.conversation_id)));
  };
  load().catch(deps.onError);
  const reload = rows.shared ? setInterval(() => void load().catch(deps.onError), RELOAD_MS) : undefined;
  reload?.unref();
  return {
    isMuted: (t, e, c) => muted.has(key(t, e, c)),
    set(t, e, c, on) {
      if (on) {
        rows.write(
          "INSERT INTO gateway_conversation_mutes (tenant_id, entity_id, conversation_id, muted_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
          [t, e, c, deps.clock.iso()],
        );
        muted.add(key(t, e, c));
      } else {
        rows.write(
          "DELETE FROM gateway_conversation_mutes WHERE tenant_id = ? AND entity_id = ? AND conversation_id = ?",
          [t, e, c],
        );
        muted.delete(key(t, e, c));
      }
    },
    close() {
      clearInterval(reload);
    },
  };
}
