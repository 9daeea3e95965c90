import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import type { IdGenerator } from "../../shared/ids.js";

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
  ): { subscription_id: string; created: boolean };
  /** Removes one of the person's own subscriptions; false when they had none with that endpoint. */
  remove(p: { tenantId: string; entityId: string }, endpoint: string): boolean;
  /** Removes a subscription the push service says is gone (404/410), whoever owns it. */
  drop(subscriptionId: string): void;
  /** The person's subscriptions that have not expired at `nowMs`. */
  forEntity(tenantId: string, entityId: string, nowMs: number): PushSubscriptionRow[];
}

export function createSubscriptionStore(deps: { db: Db; clock: Clock; ids: IdGenerator }): SubscriptionStore {
  const { db } = deps;
  const byEndpoint = db.prepare<[string], { subscription_id: string; tenant_id: string; entity_id: string }>(
    "SELECT subscription_id, tenant_id, entity_id FROM gateway_push_subscriptions WHERE endpoint = ?",
  );
  const upsert = db.prepare(
    `INSERT INTO gateway_push_subscriptions (subscription_id, endpoint, tenant_id, entity_id, p256dh, auth, expires_at, created_at)
     VALUES (@id, @endpoint, @tenant, @entity, @p256dh, @auth, @expires, @now)
     ON CONFLICT (endpoint) DO UPDATE SET tenant_id = excluded.tenant_id, entity_id = excluded.entity_id,
       p256dh = excluded.p256dh, auth = excluded.auth, expires_at = excluded.expires_at`,
  );
  const removeOwn = db.prepare(
    "DELETE FROM gateway_push_subscriptions WHERE tenant_id = ? AND entity_id = ? AND endpoint = ?",
  );
  const dropOne = db.prepare("DELETE FROM gateway_push_subscriptions WHERE subscription_id = ?");
  // Every notification asks for its person's subscriptions, and most people have none: the
  // rows are kept per person until a subscription changes (only this store writes the table).
  const ofEntityAll = db.prepare<[string, string], PushSubscriptionRow>(
    "SELECT subscription_id, endpoint, p256dh, auth, expires_at FROM gateway_push_subscriptions WHERE tenant_id = ? AND entity_id = ?",
  );
  const cache = new Map<string, PushSubscriptionRow[]>();
  const CACHE_MAX = 10_000;
  return {
    save(p, sub) {
      cache.clear();
      const before = byEndpoint.get(sub.endpoint);
      const id = before?.subscription_id ?? deps.ids("psub");
      upsert.run({
        id,
        endpoint: sub.endpoint,
        tenant: p.tenantId,
        entity: p.entityId,
        p256dh: sub.p256dh,
        auth: sub.auth,
        expires: sub.expiresAt,
        now: deps.clock.iso(),
      });
      const created = !before || before.tenant_id !== p.tenantId || before.entity_id !== p.entityId;
      return { subscription_id: id, created };
    },
    remove(p, endpoint) {
      cache.clear();
      return removeOwn.run(p.tenantId, p.entityId, endpoint).changes > 0;
    },
    drop(subscriptionId) {
      cache.clear();
      dropOne.run(subscriptionId);
    },
    forEntity(tenantId, entityId, nowMs) {
      const key = `${tenantId}\0${entityId}`;
      let rows = cache.get(key);
      if (!rows) {
        if (cache.size >= CACHE_MAX) cache.clear();
        cache.set(key, (rows = ofEntityAll.all(tenantId, entityId)));
      }
      return rows.filter((r) => r.expires_at === null || r.expires_at > nowMs);
    },
  };
}
