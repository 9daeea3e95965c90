import { afterAll, afterEach, describe, expect, it } from "vitest";
import { replayThenFollow } from "../../../src/ledger/index.js";
import { createPgLedger } from "../../../src/ledger/pg/pg-ledger.js";
import { messageSent, setupTenant } from "../helpers.js";
import { openPgLedger, stopSharedPostgres } from "./pg-helpers.js";

afterAll(stopSharedPostgres);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("replayThenFollow on a ledger whose replay answers later", () => {
  it("hands on every event once, in order, while this and another process commit during the replay", async () => {
    const a = await openPgLedger({ sweepMs: 100 });
    cleanups.push(() => a.cleanup());
    const b = await createPgLedger({ pool: a.pool, migrate: false, dataDir: a.dir, sweepMs: 100 });
    cleanups.push(() => b.close());
    await a.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    await a.ledger.append({ tenant_id: "ten_b", events: setupTenant("ten_b") });
    for (let i = 0; i < 30; i++)
      await a.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `before ${i}`)] });

    const got = new Map<string, number[]>();
    let replayedAt: Map<string, number> | undefined;
    // Appends from both processes, queued before the replay starts and committing while it reads.
    const during = [a.ledger, b].flatMap((l, n) =>
      Array.from({ length: 15 }, (_, i) =>
        l.append({
          tenant_id: i % 2 ? "ten_a" : "ten_b",
          events: [messageSent(i % 2 ? "ten_a" : "ten_b", `${n}/${i}`)],
        }),
      ),
    );
    // Half of them are committed before the replay reads (so it reads them, and they are also
    // published live), the other half after it has read and before it returns (live only).
    const [firstHalf, secondHalf] = [during.filter((_, i) => i % 2 === 0), during.filter((_, i) => i % 2 === 1)];
    const ledger: typeof a.ledger = Object.create(a.ledger, {
      replay: {
        value: async (...args: Parameters<typeof a.ledger.replay>) => {
          await Promise.all(firstHalf);
          await a.ledger.replay(...args);
          await Promise.all(secondHalf);
          // …and until this process has followed b's commits too.
          await expect.poll(() => a.ledger.head("ten_b").tenant_seq, { timeout: 5000 }).toBe(2 + 16);
        },
      },
    });
    const following = replayThenFollow(ledger, (e) => got.set(e.tenant_id, [...(got.get(e.tenant_id) ?? []), e.seq]), {
      onReplayed: () => (replayedAt = new Map([...got].map(([t, s]) => [t, s.length]))),
    });
    expect(following).toBeInstanceOf(Promise);
    const unsubscribe = await following;
    cleanups.push(unsubscribe);
    await Promise.all(during);
    expect(replayedAt?.get("ten_a")).toBeGreaterThanOrEqual(32);

    // Once this process has followed everything, each tenant's events came exactly once, 1..head.
    const heads = async () =>
      (
        await a.owner.query<{ tenant_id: string; n: number }>(
          "SELECT tenant_id, tenant_seq::int AS n FROM ledger.heads",
        )
      ).rows;
    await expect
      .poll(async () => (await heads()).every((h) => got.get(h.tenant_id)?.length === h.n), { timeout: 5000 })
      .toBe(true);
    for (const h of await heads()) expect(got.get(h.tenant_id)).toEqual(Array.from({ length: h.n }, (_, i) => i + 1));
  });
});
