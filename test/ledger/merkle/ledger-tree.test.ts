import { afterEach, describe, expect, it } from "vitest";
import { openNote, parseCheckpoint, parseVerifierKey } from "../../../src/ledger/merkle/note.js";
import { verifyConsistency, verifyInclusion, leafHash } from "../../../src/ledger/merkle/rfc6962.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "../helpers.js";
import { mth } from "./reference.js";

/**
 * The ledger's own tree: nodes written with the events in the append transaction, the frontier
 * reloaded on boot, rows from before the tree filled in once, and the log's answers checked
 * against a naive tree of the stored payloads.
 */
let t: TestLedger;
afterEach(() => t?.cleanup());

const payloads = (l: TestLedger, tenant: string) =>
  (l.db.prepare("SELECT payload FROM ledger_events WHERE tenant_id = ? ORDER BY tenant_seq").pluck().all(tenant) as string[]).map((p) => Buffer.from(p, "utf8"));

async function seed(l: TestLedger, tenant: string, batches: number[]): Promise<void> {
  await l.ledger.append({ tenant_id: tenant, events: setupTenant(tenant) });
  for (const [b, n] of batches.entries()) await l.ledger.append({ tenant_id: tenant, events: Array.from({ length: n }, (_, i) => messageSent(tenant, `m${b}-${i}`)) });
}

describe("the ledger's Merkle tree", () => {
  it("its signed checkpoint names the tree of exactly the stored events; proofs verify against it", async () => {
    t = openTestLedger({ logName: "chat.example.com" });
    await seed(t, "ten_a", [5, 1, 17]);
    await seed(t, "ten_b", [3]);
    const leaves = payloads(t, "ten_a");
    const cp = t.ledger.tlog.checkpointNote("ten_a")!;
    const [key] = t.ledger.tlog.verifierKeys();
    const text = openNote(cp.note, parseVerifierKey(key!));
    expect(text).not.toBeNull();
    expect(parseCheckpoint(text!)).toEqual({ origin: "chat.example.com/ten_a", size: leaves.length, root: mth(leaves) });
    for (let seq = 1; seq <= leaves.length; seq++) {
      const p = t.ledger.tlog.inclusion("ten_a", seq);
      expect(
        verifyInclusion(
          leafHash(leaves[seq - 1]!),
          p.leaf_index,
          p.tree_size,
          p.hashes.map((h) => Buffer.from(h, "base64")),
          cp.root,
        ),
      ).toBe(true);
    }
    for (let from = 1; from <= leaves.length; from++) {
      const c = t.ledger.tlog.consistency("ten_a", from, leaves.length);
      expect(
        verifyConsistency(
          from,
          leaves.length,
          c.hashes.map((h) => Buffer.from(h, "base64")),
          mth(leaves.slice(0, from)),
          cp.root,
        ),
      ).toBe(true);
    }
    // The other tenant's tree is its own.
    expect(t.ledger.tlog.checkpointNote("ten_b")!.root).toEqual(mth(payloads(t, "ten_b")));
    expect(t.ledger.tlog.leaves("ten_a", 3, 5).map((s) => Buffer.from(s, "utf8"))).toEqual(leaves.slice(2, 5));
  });

  it("after a restart the frontier comes back from the stored nodes and the tree grows on", async () => {
    t = openTestLedger();
    await seed(t, "ten_a", [6, 7]);
    const before = t.ledger.tlog.checkpointNote("ten_a")!;
    t = t.reopen();
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(before.root);
    await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "after restart")] });
    const leaves = payloads(t, "ten_a");
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(mth(leaves));
    const c = t.ledger.tlog.consistency("ten_a", before.size, leaves.length);
    expect(
      verifyConsistency(
        before.size,
        leaves.length,
        c.hashes.map((h) => Buffer.from(h, "base64")),
        before.root,
        mth(leaves),
      ),
    ).toBe(true);
  });

  it("a log written before the tree existed is filled in once at boot, and then only appended", async () => {
    t = openTestLedger();
    await seed(t, "ten_a", [9]);
    const root = t.ledger.tlog.checkpointNote("ten_a")!.root;
    // Simulate the old format: the tree column was added empty. (Dropping the trigger is the
    // only way to clear it; the restored trigger allows exactly one fill per row.)
    t.db.exec("DROP TRIGGER ledger_events_no_update; UPDATE ledger_events SET merkle = NULL;");
    t.db.exec(
      "CREATE TRIGGER `ledger_events_no_update` BEFORE UPDATE ON `ledger_events` WHEN NOT (OLD.merkle IS NULL AND NEW.merkle IS NOT NULL AND NEW.payload IS OLD.payload AND NEW.hash IS OLD.hash) BEGIN SELECT RAISE(ABORT, 'ledger_events is append-only: UPDATE refused'); END;",
    );
    t = t.reopen();
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(root);
    expect(t.db.prepare("SELECT COUNT(*) FROM ledger_events WHERE merkle IS NULL").pluck().get()).toBe(0);
    expect(() => t.db.prepare("UPDATE ledger_events SET merkle = x'00' WHERE tenant_seq = 1").run()).toThrow(/append-only: UPDATE refused/);
  });

  it("refused and rolled-back batches leave no nodes behind", async () => {
    t = openTestLedger();
    await seed(t, "ten_a", [3]);
    const bad = { ...messageSent("ten_a", "x"), conversation_id: "cnv_nowhere" };
    await expect(t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "ok"), bad] })).rejects.toThrow();
    await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "y")] });
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(mth(payloads(t, "ten_a")));
    t = t.reopen();
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(mth(payloads(t, "ten_a")));
  });

  it("answers bad sizes and ranges with clear errors", async () => {
    t = openTestLedger();
    await seed(t, "ten_a", [2]);
    const n = t.ledger.head("ten_a").tenant_seq;
    expect(() => t.ledger.tlog.inclusion("ten_a", 0)).toThrow(/seq must be/);
    expect(() => t.ledger.tlog.inclusion("ten_a", n + 1)).toThrow(/seq must be/);
    expect(() => t.ledger.tlog.inclusion("ten_a", 1, n + 1)).toThrow(/no tree of size/);
    expect(() => t.ledger.tlog.consistency("ten_a", 3, 2)).toThrow(/from must be/);
    expect(() => t.ledger.tlog.leaves("ten_a", 2, 1)).toThrow(/start must be/);
    expect(t.ledger.tlog.checkpointNote("ten_nobody")).toBeNull();
  });
});
