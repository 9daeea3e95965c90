import { afterEach, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "./helpers.js";

let t: TestLedger;
afterEach(() => t?.cleanup());

const count = (l: TestLedger, sql: string, ...args: unknown[]) =>
  l.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;

describe("group commit", () => {
  it("refuses an event id the log holds, from the same batch, an earlier batch of the group, or before a restart", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const first = messageSent("ten_a", "first");
    await t.ledger.append({ tenant_id: "ten_a", events: [first] });
    t = t.reopen();
    const again = await t.ledger.append({ tenant_id: "ten_a", events: [{ ...first }] }).catch((e) => e);
    expect(again).toMatchObject({ code: "DUPLICATE_EVENT_ID", details: { event_index: 0, event_id: first.event_id } });
    const second = messageSent("ten_a", "second");
    const [a, b] = await Promise.allSettled([
      t.ledger.append({ tenant_id: "ten_a", events: [second] }),
      t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "x"), { ...second }] }),
    ]);
    expect(a).toMatchObject({ status: "fulfilled" });
    expect(b).toMatchObject({
      status: "rejected",
      reason: { code: "DUPLICATE_EVENT_ID", details: { event_index: 1 } },
    });
    // A refused batch's events were rolled back: their ids are free again.
    const rolledBack = messageSent("ten_a", "rolled back");
    const refused = await t.ledger
      .append({ tenant_id: "ten_a", events: [rolledBack, { ...rolledBack }] })
      .catch((e) => e);
    expect(refused).toMatchObject({ code: "DUPLICATE_EVENT_ID", details: { event_index: 1 } });
    await expect(t.ledger.append({ tenant_id: "ten_a", events: [rolledBack] })).resolves.toMatchObject({ ok: true });
  });

  it("commits concurrent appends in one transaction yet answers each batch on its own", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const checkpointsBefore = count(t, "SELECT count(*) FROM ledger_checkpoints");

    const good1 = [messageSent("ten_a", "one"), messageSent("ten_a", "two")];
    const dup = messageSent("ten_a", "dup");
    const refused = [messageSent("ten_a", "ok but its batch fails"), dup, { ...dup }]; // third repeats an event_id
    const good2 = [messageSent("ten_a", "three")];
    const results = await Promise.allSettled([
      t.ledger.append({ tenant_id: "ten_a", events: good1 }),
      t.ledger.append({ tenant_id: "ten_a", events: refused }),
      t.ledger.append({ tenant_id: "ten_a", events: good2 }),
    ]);

    expect(results[0]).toMatchObject({
      status: "fulfilled",
      value: { ok: true, accepted_event_ids: good1.map((e) => e.event_id), cursor: "seq:4" },
    });
    expect(results[1]).toMatchObject({
      status: "rejected",
      reason: { code: "DUPLICATE_EVENT_ID", status: 409, details: { event_index: 2, event_id: dup.event_id } },
    });
    expect(results[2]).toMatchObject({
      status: "fulfilled",
      value: { accepted_event_ids: [good2[0]!.event_id], cursor: "seq:6" },
    });

    // one transaction: one checkpoint for the tenant, over the group's last event
    expect(count(t, "SELECT count(*) FROM ledger_checkpoints") - checkpointsBefore).toBe(1);
    expect(t.ledger.checkpoint("ten_a")!.tenant_seq).toBe(6);

    const types = (t.ledger.query({ tenant_id: "ten_a", after_cursor: "seq:2" }).events as TStoredEvent[]).map((e) => [
      e.seq,
      e.event_type,
    ]);
    expect(types).toEqual([
      [3, "message.sent"],
      [4, "message.sent"],
      [5, "policy.violation"],
      [6, "message.sent"],
    ]);
    expect(
      count(t, "SELECT count(*) FROM ledger_events WHERE event_id IN (?, ?)", refused[0]!.event_id, dup.event_id),
    ).toBe(0);
    expect(t.ledger.verify("ten_a").ok).toBe(true);
  });

  it("refuses a whole batch for one bad event: none written, a policy.violation in its place", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const batch = [
      messageSent("ten_a", "a"),
      messageSent("ten_a", "b"),
      { ...messageSent("ten_a"), event_type: "message.exploded" },
    ];
    const err = await t.ledger.append({ tenant_id: "ten_a", events: batch }).catch((e) => e);
    expect(err).toMatchObject({ code: "UNKNOWN_EVENT_TYPE", status: 400, details: { event_index: 2 } });

    const rows = t.ledger.query({ tenant_id: "ten_a", after_cursor: "seq:2" }).events as TStoredEvent[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      seq: 3,
      event_type: "policy.violation",
      event_id: err.details.violation_event_id,
      payload: { code: "UNKNOWN_EVENT_TYPE", event_id: batch[2]!.event_id, mode: "enforce" },
    });
    // The refused events' ids are not burned: the same good events go through afterwards.
    await expect(t.ledger.append({ tenant_id: "ten_a", events: batch.slice(0, 2) })).resolves.toMatchObject({
      cursor: "seq:5",
    });
  });

  it("refuses an event claiming another tenant and records the violation in the sender's ledger", async () => {
    t = openTestLedger();
    const err = await t.ledger.append({ tenant_id: "ten_a", events: [setupTenant("ten_b")[0]!] }).catch((e) => e);
    expect(err).toMatchObject({ code: "TENANT_SCOPE_VIOLATION" });
    expect(t.ledger.head("ten_b").tenant_seq).toBe(0);
    expect((t.ledger.query({ tenant_id: "ten_a" }).events[0] as TStoredEvent).event_type).toBe("policy.violation");
  });

  it("runs withinCommit inside the transaction: the caller's row commits with the events, a throw undoes only that batch", async () => {
    t = openTestLedger();
    t.db.exec("CREATE TABLE caller_rows (cursor TEXT)");
    const insert = t.db.prepare("INSERT INTO caller_rows VALUES (?)");
    const [ok, failed] = await Promise.allSettled([
      t.ledger.append(
        { tenant_id: "ten_a", events: setupTenant("ten_a") },
        { withinCommit: (r) => void insert.run(r.cursor) },
      ),
      t.ledger.append(
        { tenant_id: "ten_a", events: [messageSent("ten_a")] },
        {
          withinCommit: (r) => {
            insert.run(r.cursor);
            throw new Error("caller changed its mind");
          },
        },
      ),
    ]);
    expect(ok.status).toBe("fulfilled");
    expect(failed).toMatchObject({ status: "rejected", reason: { message: "caller changed its mind" } });
    expect(t.db.prepare("SELECT cursor FROM caller_rows").pluck().all()).toEqual(["seq:2"]);
    expect(t.ledger.head("ten_a").tenant_seq).toBe(2);
    expect(t.ledger.verify("ten_a").ok).toBe(true);
  });

  it("gathers appends made while waiting when maxBatchWaitMs is set", async () => {
    t = openTestLedger({ maxBatchWaitMs: 20 });
    const a = t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    await new Promise((r) => setTimeout(r, 5));
    const b = t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a")] });
    await Promise.all([a, b]);
    expect(count(t, "SELECT count(*) FROM ledger_checkpoints")).toBe(1);
  });

  it("says when appends wait for the next commit, and not once it ran", async () => {
    t = openTestLedger();
    expect(t.ledger.commitPending()).toBe(false);
    const a = t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    expect(t.ledger.commitPending()).toBe(true);
    let during: boolean | undefined;
    const off = t.ledger.subscribe(() => (during ??= t.ledger.commitPending()));
    await a;
    off();
    expect(during).toBe(false);
    expect(t.ledger.commitPending()).toBe(false);
  });
  it("writes a batch as multi-row inserts with the rows and tree nodes one event per request writes", async () => {
    // 150 events go in as chunks of 64, 64, 16, 4 and 1 rows; the same events one per request
    // go in a row at a time. Every event row and every tree row must come out the same.
    const events = [...setupTenant("ten_a"), ...Array.from({ length: 150 }, (_, i) => messageSent("ten_a", `m${i}`))];
    t = openTestLedger();
    const single = openTestLedger();
    try {
      await t.ledger.append({ tenant_id: "ten_a", events });
      for (const e of events) await single.ledger.append({ tenant_id: "ten_a", events: [e] });
      const rows = (l: TestLedger) => ({
        events: l.db.prepare("SELECT * FROM ledger_events ORDER BY seq").raw(true).all(),
        tree: l.db.prepare("SELECT * FROM ledger_tree ORDER BY seq").raw(true).all(),
      });
      const batched = rows(t);
      expect(batched.events).toHaveLength(events.length);
      expect(batched.tree).toHaveLength(events.length);
      expect(batched).toEqual(rows(single));
      expect(t.ledger.verify("ten_a").ok).toBe(true);
    } finally {
      single.cleanup();
    }
  });
});
