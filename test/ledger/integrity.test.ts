import { afterEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { canonicalize } from "../../src/ledger/canonical-json.js";
import { chainHash } from "../../src/ledger/chain.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "./helpers.js";
import { built } from "../support/built.js";

let t: TestLedger;
afterEach(() => t?.cleanup());

/** Ten events for ten_a in three commits (so three checkpoints), plus another tenant. */
async function seed(): Promise<TestLedger> {
  const l = openTestLedger();
  await l.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
  await l.ledger.append({
    tenant_id: "ten_a",
    events: Array.from({ length: 4 }, (_, i) => messageSent("ten_a", `a${i}`)),
  });
  await l.ledger.append({
    tenant_id: "ten_a",
    events: Array.from({ length: 4 }, (_, i) => messageSent("ten_a", `b${i}`)),
  });
  await l.ledger.append({ tenant_id: "ten_b", events: setupTenant("ten_b") });
  return l;
}

describe("append-only triggers", () => {
  it("refuse UPDATE and DELETE of events and checkpoints", async () => {
    t = await seed();
    expect(() => t.db.prepare("UPDATE ledger_events SET payload = '{}' WHERE tenant_seq = 1").run()).toThrow(
      /append-only: UPDATE refused/,
    );
    expect(() => t.db.prepare("DELETE FROM ledger_events WHERE tenant_seq = 1").run()).toThrow(
      /append-only: DELETE refused/,
    );
    expect(() => t.db.prepare("UPDATE ledger_checkpoints SET signature = 'x'").run()).toThrow(
      /append-only: UPDATE refused/,
    );
    expect(() => t.db.prepare("DELETE FROM ledger_checkpoints").run()).toThrow(/append-only: DELETE refused/);
    expect(t.ledger.verify("ten_a").ok).toBe(true);
  });
});

describe("verify", () => {
  it("passes an untouched ledger and counts what it checked", async () => {
    t = await seed();
    const r = t.ledger.verify("ten_a");
    expect(r).toMatchObject({
      ok: true,
      events_checked: 10,
      checkpoints_checked: 3,
      first_break: null,
      head: { tenant_seq: 10, hash: t.ledger.head("ten_a").hash },
    });
    expect(t.ledger.verify("ten_b").ok).toBe(true);
  });

  it("names exactly the seq whose stored payload was edited in SQLite", async () => {
    t = await seed();
    t.db.exec("DROP TRIGGER ledger_events_no_update");
    const row = t.db
      .prepare("SELECT payload FROM ledger_events WHERE tenant_id = 'ten_a' AND tenant_seq = 5")
      .pluck()
      .get() as string;
    t.db
      .prepare("UPDATE ledger_events SET payload = ? WHERE tenant_id = 'ten_a' AND tenant_seq = 5")
      .run(row.replace("a2", "zz"));
    const r = t.ledger.verify("ten_a");
    expect(r.ok).toBe(false);
    expect(r.first_break).toMatchObject({ tenant_seq: 5, reason: "hash_mismatch" });
    expect(r.events_checked).toBe(4);
    expect(t.ledger.verify("ten_b").ok).toBe(true);
  });

  it("reports a deleted row as the missing seq", async () => {
    t = await seed();
    t.db.exec("DROP TRIGGER ledger_events_no_delete");
    t.db.prepare("DELETE FROM ledger_events WHERE tenant_id = 'ten_a' AND tenant_seq = 7").run();
    expect(t.ledger.verify("ten_a").first_break).toMatchObject({ tenant_seq: 7, reason: "missing_event" });
  });

  it("catches events cut from the end through the signed checkpoint", async () => {
    t = await seed();
    t.db.exec("DROP TRIGGER ledger_events_no_delete");
    t.db.prepare("DELETE FROM ledger_events WHERE tenant_id = 'ten_a' AND tenant_seq >= 9").run();
    expect(t.ledger.verify("ten_a").first_break).toMatchObject({ tenant_seq: 9, reason: "missing_event" });
  });

  it("catches a rewritten row whose hash was recomputed too, through the checkpoint", async () => {
    t = await seed();
    t.db.exec("DROP TRIGGER ledger_events_no_update");
    const [payload, prev] = t.db
      .prepare("SELECT payload, prev_hash FROM ledger_events WHERE tenant_id = 'ten_a' AND tenant_seq = 10")
      .raw()
      .get() as [string, string];
    const forged = canonicalize({
      ...JSON.parse(payload),
      payload: { ...JSON.parse(payload).payload, body_text: "forged" },
    });
    t.db
      .prepare("UPDATE ledger_events SET payload = ?, hash = ? WHERE tenant_id = 'ten_a' AND tenant_seq = 10")
      .run(forged, chainHash(prev, forged));
    expect(t.ledger.verify("ten_a").first_break).toMatchObject({ tenant_seq: 10, reason: "checkpoint_mismatch" });
  });

  it("reports a tampered checkpoint signature at its seq", async () => {
    t = await seed();
    t.db.exec("DROP TRIGGER ledger_checkpoints_no_update");
    const sig = t.db
      .prepare("SELECT signature FROM ledger_checkpoints WHERE tenant_id = 'ten_a' AND tenant_seq = 6")
      .pluck()
      .get() as string;
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    t.db
      .prepare("UPDATE ledger_checkpoints SET signature = ? WHERE tenant_id = 'ten_a' AND tenant_seq = 6")
      .run(flipped);
    expect(t.ledger.verify("ten_a").first_break).toMatchObject({ tenant_seq: 6, reason: "bad_signature" });
  });

  it("refuses checkpoints signed by a key it does not know", async () => {
    t = await seed();
    const other = t.reopen({ dataDir: undefined }); // an ephemeral key: the stored checkpoints are foreign to it
    t = other;
    expect(t.ledger.verify("ten_a").first_break).toMatchObject({ tenant_seq: 2, reason: "bad_signature" });
  });
});

describe("npm run verify (CLI)", () => {
  const run = promisify(execFile);
  const cli = (dir: string, ...args: string[]) =>
    run(process.execPath, [built("src/cli/verify.ts"), "--data-dir", dir, ...args]).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );

  it("prints a line per tenant and exits 1 on a break", async () => {
    t = await seed();
    t.close();
    const ok = await cli(t.dir);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^ok +ten_a +10 events, 3 checkpoints/m);
    expect(ok.out).toMatch(/^ok +ten_b/m);

    t = t.reopen();
    t.db.exec("DROP TRIGGER ledger_events_no_delete");
    t.db.prepare("DELETE FROM ledger_events WHERE tenant_id = 'ten_a' AND tenant_seq = 3").run();
    t.close();
    const broken = await cli(t.dir, "--tenant", "ten_a");
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/BROKEN ten_a +first break at seq:3 \(missing_event\)/);
    expect(broken.out).not.toMatch(/ten_b/);
  }, 60_000);
});
