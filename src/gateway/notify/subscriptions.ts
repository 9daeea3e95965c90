import type { Clock } from "../../shared/clock.js";
import type { IdGenerator } from "../../shared/ids.js";
import type { AuthRows } from "../auth/auth-rows.js";

/** One browser's Web Push subscription, as the push service handed it to that browser. */
export interface PushSubscriptionRow {
  subscription_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  expires_at: number | null;
}

export interface SubscriptionStore {
  /** Saves a subscription for a person; the same endpoint again replaces the old row (and its owner). */
  save(
    p: { tenantId: string; entityId: string },
    sub: { endpoint: string; p256dh: string; auth: string; expiresAt: number | null },
  ): Promise<{ subscription_id: string; created: boolean }>;
  /** Removes one of the person's own subscriptions; false when they had none with that endpoint. */
  remove(p: { tenantId: string; entityId: string }, endpoint: string): Promise<boolean>;
  /** Removes a subscription the push service says is gone (404/410), whoever owns it. */
  drop(subscriptionId: string): void;
  /** The person's subscriptions that have not expired at `nowMs`. */
  forEntity(tenantId: string, entityId: string, nowMs: number): Promise<PushSubscriptionRow[]>;
}

/**
 * When other processes share the rows, a person's subscriptions are read again after this long
 * (real time), so one made through another process is pushed to soon after.
 */
const SHARED_CACHE_MS = 1000;

export function createSubscriptionStore(deps: { rows: AuthRows; clock: Clock; ids: IdGenerator }): SubscriptionStore {
  const { rows } = deps;
  const cacheMs = rows.shared ? SHARED_CACHE_MS : Number.POSITIVE_INFINITY;
  // Every notification asks for its person's subscriptions, and most people have none: the
  // rows are kept per person until a subscription changes here (or, shared, for a second).
  const cache = new Map<string, { rows: PushSubscriptionRow[]; at: number }>();
  const CACHE_MAX = 10_000;
  return {
    async save(p, sub) {
      cache.clear();
      const before = await rows.one<{ subscription_id: string; tenant_id: string; entity_id: string }>(
        "SELECT subscription_id, tenant_id, entity_id FROM gateway_push_subscriptions WHERE endpoint = ?",
        [sub.endpoint],
      );
      const id = before?.subscription_id ?? deps.ids("psub");
      await rows.change(
        `INSERT INTO gateway_push_subscriptions (subscription_id, endpoint, tenant_id, entity_id, p256dh, auth, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (endpoint) DO UPDATE SET tenant_id = excluded.tenant_id, entity_id = excluded.entity_id,
           p256dh = excluded.p256dh, auth = excluded.auth, expires_at = excluded.expires_at`,
        [id, sub.endpoint, p.tenantId, p.entityId, sub.p256dh, sub.auth, sub.expiresAt, deps.clock.iso()],
      );
      cache.clear();
      const created = !before || before.tenant_id !== p.tenantId || before.entity_id !== p.entityId;
      return { subscription_id: id, created };
    },
    async remove(p, endpoint) {
      cache.clear();
      const n = await rows.change(
        "DELETE FROM gateway_push_subscriptions WHERE tenant_id = ? AND entity_id = ? AND endpoint = ?",
        [p.tenantId, p.entityId, endpoint],
      );
      cache.clear();
      return n > 0;
    },
    drop(subscriptionId) {
      cache.clear();
      rows.write("DELETE FROM gateway_push_subscriptions WHERE subscription_id = ?", [subscriptionId]);
    },
    async forEntity(tenantId, entityId, nowMs) {
      const key = `${tenantId}\0${entityId}`;
      let hit = cache.get(key);
      if (!hit || performance.now() - hit.at >= cacheMs) {
        const found = await rows.all<PushSubscriptionRow>(
          "SELECT subscription_id, endpoint, p256dh, auth, expires_at FROM gateway_push_subscriptions WHERE tenant_id = ? AND entity_id = ?",
          [tenantId, entityId],
        );
        if (cache.size >= CACHE_MAX) cache.clear();
        hit = {
          rows: found.map((r) => ({ ...r, expires_at: r.expires_at === null ? null : Number(r.expires_at) })),
          at: performance.now(),
        };
        cache.set(key, hit);
      }
      return hit.rows.filter((r) => r.expires_at === null || r.expires_at > nowMs);
    },
  };
}
