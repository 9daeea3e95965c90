import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../../contracts/events.js";
import { createPgLedger } from "../../../src/ledger/pg/pg-ledger.js";
import { loadOrCreateSigner } from "../../../src/ledger/signing.js";
import { createManualClock } from "../../../src/shared/clock.js";
import type { IdGenerator } from "../../../src/shared/ids.js";
import {
  conversationCreated,
  entityRegistered,
  messageSent,
  openTestLedger,
  setupTenant,
  tempDir,
  type TestLedger,
} from "../helpers.js";
import { openPgLedger, stopSharedPostgres, type TestPgLedger } from "./pg-helpers.js";

afterAll(stopSharedPostgres);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The same ids in the same order on both sides (the policy.violation events the ledgers make themselves). */
const counterIds = (): IdGenerator => {
  let n = 0;
  return (prefix) => `${prefix}_${(++n).toString(16).padStart(32, "0")}`;
};

async function pgLedger(extra: Parameters<typeof openPgLedger>[0] = {}): Promise<TestPgLedger> {
  const t = await openPgLedger(extra);
  cleanups.push(() => t.cleanup());
  return t;
}

describe("the ledger on PostgreSQL", () => {
  it("stores what SQLite stores for the same events: payloads, chain, Merkle nodes, checkpoints, proofs", async () => {
    const keys = tempDir("pg-eq-keys-");
    cleanups.push(keys.cleanup);
    const signer = loadOrCreateSigner(keys.dir);
    const deps = () => ({
      signer,
      clock: createManualClock(Date.parse("2026-06-10T09:00:00.000Z")),
      ids: counterIds(),
    });
    const lite: TestLedger = openTestLedger(deps());
    cleanups.push(() => lite.cleanup());
    const pgl = await pgLedger(deps());

    // Batches of several shapes, two tenants, one refusal (which writes a policy.violation).
    const outsider = {
      ...messageSent("ten_a", "let me in"),
      actor: { entity_id: "ent_bob", actor_type: "human" as const },
    };
    const batches = [
      { tenant_id: "ten_a", events: setupTenant("ten_a") },
      { tenant_id: "ten_b", events: setupTenant("ten_b") },
      { tenant_id: "ten_a", events: [entityRegistered("ten_a", "ent_bob")] },
      { tenant_id: "ten_a", events: [outsider] },
      ...Array.from({ length: 6 }, (_, i) => ({
        tenant_id: i % 2 ? "ten_b" : "ten_a",
        events: Array.from({ length: i + 1 }, (_, j) => messageSent(i % 2 ? "ten_b" : "ten_a", `m${i}.${j} ✓ ü`)),
      })),
      { tenant_id: "ten_a", events: [conversationCreated("ten_a", "cnv_second")] },
    ];
    const outcomes: Array<[string, unknown]> = [];
    for (const b of batches) {
      const results = await Promise.allSettled([lite.ledger.append(b), pgl.ledger.append(b)]);
      outcomes.push(
        ...results.map((r, i): [string, unknown] => [
          i ? "pg" : "sqlite",
          r.status === "fulfilled" ? r.value : (r.reason as { code: string; details: unknown }).code,
        ]),
      );
      expect(results[1]).toEqual(results[0]);
    }
    expect(outcomes.filter(([, o]) => o === "NOT_A_MEMBER")).toHaveLength(2);

    for (const tenant of ["ten_a", "ten_b"]) {
      const liteRows = lite.db
        .prepare(
          `SELECT e.tenant_seq, e.event_id, e.payload, e.prev_hash, e.hash, t.nodes FROM ledger_events e
           JOIN ledger_tree t ON t.seq = e.seq WHERE e.tenant_id = ? ORDER BY e.tenant_seq`,
        )
        .raw(true)
        .all(tenant) as unknown[][];
      const { rows: pgRows } = await pgl.owner.query({
        text: `SELECT tenant_seq::float8, event_id, payload, prev_hash, hash, merkle FROM ledger.events
               WHERE tenant_id = $1 ORDER BY tenant_seq`,
        values: [tenant],
        rowMode: "array",
      });
      expect(liteRows.length).toBeGreaterThan(5);
      expect(pgRows).toEqual(liteRows);

      const liteCps = lite.db
        .prepare(
          `SELECT tenant_seq, head_hash, signature, key_id, ts FROM ledger_checkpoints WHERE tenant_id = ? ORDER BY id`,
        )
        .raw(true)
        .all(tenant);
      const { rows: pgCps } = await pgl.owner.query({
        text: `SELECT tenant_seq::float8, head_hash, signature, key_id, ts FROM ledger.checkpoints WHERE tenant_id = $1 ORDER BY id`,
        values: [tenant],
        rowMode: "array",
      });
      expect(pgCps).toEqual(liteCps);

      const size = lite.ledger.head(tenant).tenant_seq;
      expect(pgl.ledger.head(tenant)).toEqual(lite.ledger.head(tenant));
      expect(await pgl.ledger.tlog.checkpointNote(tenant)).toEqual(lite.ledger.tlog.checkpointNote(tenant));
      expect(await pgl.ledger.tlog.rootAt(tenant, 3)).toEqual(lite.ledger.tlog.rootAt(tenant, 3));
      for (let seq = 1; seq <= size; seq++)
        expect(await pgl.ledger.tlog.inclusion(tenant, seq)).toEqual(lite.ledger.tlog.inclusion(tenant, seq));
      expect(await pgl.ledger.tlog.consistency(tenant, 2, size)).toEqual(lite.ledger.tlog.consistency(tenant, 2, size));
      expect(await pgl.ledger.tlog.leaves(tenant, 1, size)).toEqual(lite.ledger.tlog.leaves(tenant, 1, size));
      expect(await pgl.ledger.verify(tenant)).toEqual(lite.ledger.verify(tenant));
      expect(await pgl.ledger.checkpoint(tenant)).toEqual(lite.ledger.checkpoint(tenant));
    }
    expect(pgl.ledger.keys()).toEqual(lite.ledger.keys());
  });

  it("refuses to rewrite history: triggers stop the owner, privileges stop the server's login", async () => {
    const t = await pgLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const refusal = (q: pg.Pool, sql: string) =>
      q.query(sql).then(
        () => null,
        (e: { code: string }) => e.code,
      );
    // The owner may do anything the triggers allow: nothing that changes what is stored.
    expect(await refusal(t.owner, "UPDATE ledger.events SET payload = '{}'")).toBe("23001");
    expect(await refusal(t.owner, "DELETE FROM ledger.events")).toBe("23001");
    expect(await refusal(t.owner, "TRUNCATE ledger.events")).toBe("23001");
    expect(await refusal(t.owner, "DELETE FROM ledger.checkpoints")).toBe("23001");
    expect(await refusal(t.owner, "TRUNCATE ledger.checkpoints")).toBe("23001");
    expect(await refusal(t.owner, "UPDATE ledger.heads SET tenant_seq = 1")).toBe("23001");
    expect(await refusal(t.owner, "DELETE FROM ledger.heads")).toBe("23001");
    // The server's login holds SELECT and INSERT (and moving heads) only.
    expect(await refusal(t.pool, "UPDATE ledger.events SET payload = '{}'")).toBe("42501");
    expect(await refusal(t.pool, "DELETE FROM ledger.events")).toBe("42501");
    expect(await refusal(t.pool, "TRUNCATE ledger.events")).toBe("42501");
    expect(await refusal(t.pool, "DELETE FROM ledger.heads")).toBe("42501");
    expect(await refusal(t.pool, "DROP TABLE ledger.events")).toBe("42501");
    expect(await t.ledger.verify("ten_a")).toMatchObject({ ok: true, events_checked: 2 });
  });

  it("two ledgers on one database append to one tenant in turn: each judges against the other's commits", async () => {
    const a = await pgLedger();
    const url = a.pool.options.connectionString!;
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // Not following: what b learns of a's commits, it learns inside its own append's transaction.
    const b = await createPgLedger({ pool, migrate: false, dataDir: a.dir, follow: false });
    cleanups.push(async () => (await b.close(), await pool.end()));

    await a.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    // b booted before ten_a existed: only folding a's commits lets Alice (a member now) speak.
    const seen: TStoredEvent[] = [];
    b.subscribe((e) => seen.push(e));
    await b.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "from b")] });
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3]);
    // …and a policy refusal on b is judged on a's history too: Bob is registered through a only.
    await a.ledger.append({ tenant_id: "ten_a", events: [entityRegistered("ten_a", "ent_bob")] });
    const bob = { ...messageSent("ten_a", "outsider"), actor: { entity_id: "ent_bob", actor_type: "human" as const } };
    await expect(b.append({ tenant_id: "ten_a", events: [bob] })).rejects.toMatchObject({ code: "NOT_A_MEMBER" });

    // Both at once, many times: the row lock makes them take turns; the chain has no gap or fork.
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      const side = i % 2 ? a.ledger : b;
      writes.push(side.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `race ${i}`)] }));
    }
    await Promise.all(writes);
    const { rows } = await a.owner.query<{ n: string; max: string; head: string }>(
      `SELECT count(*) AS n, max(tenant_seq) AS max, (SELECT tenant_seq FROM ledger.heads WHERE tenant_id = 'ten_a') AS head
       FROM ledger.events WHERE tenant_id = 'ten_a'`,
    );
    // 2 setup, 1 message, Bob, the violation in place of his message, 40 racing.
    expect(rows[0]).toEqual({ n: "45", max: "45", head: "45" });
    const report = await a.ledger.verify("ten_a");
    expect(report).toMatchObject({ ok: true, events_checked: 45, first_break: null });
    expect(report.checkpoints_checked).toBeGreaterThan(3);
  });

  it("a ledger restarted on the same database picks up its heads, fold and signing key", async () => {
    const a = await pgLedger();
    await a.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    await a.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "before restart")] });
    const note = await a.ledger.tlog.checkpointNote("ten_a");
    const pool = new pg.Pool({ connectionString: a.pool.options.connectionString!, max: 2 });
    const again = await createPgLedger({ pool, migrate: false, dataDir: a.dir });
    cleanups.push(async () => (await again.close(), await pool.end()));
    expect(again.head("ten_a")).toEqual(a.ledger.head("ten_a"));
    expect(again.tenants()).toEqual(["ten_a"]);
    expect(again.facts.isMember("ten_a", "cnv_general", "ent_alice")).toBe(true);
    expect(await again.tlog.checkpointNote("ten_a")).toEqual(note);
    // A different key cannot take over a signed log.
    const stranger = tempDir("pg-other-key-");
    cleanups.push(stranger.cleanup);
    await expect(createPgLedger({ pool, migrate: false, dataDir: stranger.dir })).rejects.toThrow(/was signed with/);
  });

  it("a ledger follows what another commits: it folds and publishes it in order, and a lost listener costs a sweep, not an event", async () => {
    const a = await pgLedger();
    const pool = new pg.Pool({ connectionString: a.pool.options.connectionString!, max: 2 });
    const b = await createPgLedger({ pool, migrate: false, dataDir: a.dir, sweepMs: 200 });
    cleanups.push(async () => (await b.close(), await pool.end()));
    const seen: number[] = [];
    b.subscribe((e) => e.tenant_id === "ten_a" && seen.push(e.seq));

    await a.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    await a.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "one"), messageSent("ten_a", "two")] });
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([1, 2, 3, 4]);
    expect(b.head("ten_a")).toEqual(a.ledger.head("ten_a"));
    expect(b.tenants()).toEqual(["ten_a"]);
    expect(b.facts.isMember("ten_a", "cnv_general", "ent_alice")).toBe(true);
    expect(await b.tlog.checkpointNote("ten_a")).toEqual(await a.ledger.tlog.checkpointNote("ten_a"));

    // The listening connection dies (a restarted server, a proxy's idle cut): the sweep still finds what was committed.
    const { rows } = await a.owner.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
       WHERE usename = 'logline_app' AND query = 'LISTEN ledger'`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    await a.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "three")] });
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([1, 2, 3, 4, 5]);
    // …and b, now current, appends after it without a fork.
    await b.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "from b")] });
    expect(await a.ledger.verify("ten_a")).toMatchObject({ ok: true, events_checked: 6 });
  });
});
