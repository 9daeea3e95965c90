import { cpSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/shared/db.js";
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
const MIGRATIONS = fileURLToPath(new URL("../../../src/ledger/migrations", import.meta.url));
afterEach(() => t?.cleanup());

const payloads = (l: TestLedger, tenant: string) =>
  (
    l.db
      .prepare("SELECT payload FROM ledger_events WHERE tenant_id = ? ORDER BY tenant_seq")
      .pluck()
      .all(tenant) as string[]
  ).map((p) => Buffer.from(p, "utf8"));

async function seed(l: TestLedger, tenant: string, batches: number[]): Promise<void> {
  await l.ledger.append({ tenant_id: tenant, events: setupTenant(tenant) });
  for (const [b, n] of batches.entries())
    await l.ledger.append({
      tenant_id: tenant,
      events: Array.from({ length: n }, (_, i) => messageSent(tenant, `m${b}-${i}`)),
    });
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
    expect(parseCheckpoint(text!)).toEqual({
      origin: "chat.example.com/ten_a",
      size: leaves.length,
      root: mth(leaves),
    });
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
    // Simulate the old format: no tree rows at all. (Dropping the trigger is the only way to
    // clear them; the tree stays append-only after the fill.)
    t.db.exec("DROP TRIGGER ledger_tree_no_delete; DELETE FROM ledger_tree;");
    t.db.exec(
      "CREATE TRIGGER `ledger_tree_no_delete` BEFORE DELETE ON `ledger_tree` BEGIN SELECT RAISE(ABORT, 'ledger_tree is append-only: DELETE refused'); END;",
    );
    t = t.reopen();
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(root);
    expect(
      t.db
        .prepare("SELECT COUNT(*) FROM ledger_events e LEFT JOIN ledger_tree n ON n.seq = e.seq WHERE n.seq IS NULL")
        .pluck()
        .get(),
    ).toBe(0);
    expect(() => t.db.prepare("UPDATE ledger_tree SET nodes = x'00' WHERE seq = 1").run()).toThrow(
      /append-only: UPDATE refused/,
    );
    expect(() => t.db.prepare("DELETE FROM ledger_tree WHERE seq = 1").run()).toThrow(/append-only: DELETE refused/);
  });

  it("a database whose tree nodes sit in the event rows migrates on boot: the nodes move, proofs and checkpoints stay the same", async () => {
    t = openTestLedger({ logName: "chat.example.com" });
    await seed(t, "ten_a", [7, 6]);
    const before = {
      note: t.ledger.tlog.checkpointNote("ten_a")!,
      checkpoint: t.ledger.checkpoint("ten_a"),
      proof: t.ledger.tlog.inclusion("ten_a", 5),
    };
    const dir = t.dir;
    t.close();
    // The same log in the previous layout (migrations up to 0003, nodes in ledger_events.merkle).
    const current = join(dir, "current.sqlite");
    renameSync(join(dir, "logline.sqlite"), current);
    const oldMigrations = join(dir, "old-migrations");
    cpSync(MIGRATIONS, oldMigrations, { recursive: true });
    const journalPath = join(oldMigrations, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
    journal.entries = journal.entries.filter((e) => e.tag <= "0003");
    writeFileSync(journalPath, JSON.stringify(journal));
    const old = openDatabase({ path: join(dir, "logline.sqlite") });
    migrate(drizzle(old), { migrationsFolder: oldMigrations, migrationsTable: "__ledger_migrations" });
    old.exec(`ATTACH '${current}' AS cur`);
    old.exec(
      "INSERT INTO ledger_events SELECT e.*, n.nodes FROM cur.ledger_events e LEFT JOIN cur.ledger_tree n ON n.seq = e.seq; INSERT INTO ledger_checkpoints SELECT * FROM cur.ledger_checkpoints;",
    );
    old.exec("DETACH cur");
    expect(old.prepare("SELECT COUNT(*) FROM ledger_events WHERE merkle IS NOT NULL").pluck().get()).toBe(
      t.ledger.head("ten_a").tenant_seq,
    );
    old.close();

    t = openTestLedger({ logName: "chat.example.com" }, dir);
    const columns = t.db.prepare("SELECT name FROM pragma_table_info('ledger_events')").pluck().all();
    expect(columns).not.toContain("merkle");
    expect(t.db.prepare("SELECT COUNT(*) FROM ledger_tree").pluck().get()).toBe(t.ledger.head("ten_a").tenant_seq);
    expect(t.ledger.tlog.checkpointNote("ten_a")).toEqual(before.note);
    expect(t.ledger.checkpoint("ten_a")).toEqual(before.checkpoint);
    expect(t.ledger.tlog.inclusion("ten_a", 5)).toEqual(before.proof);
    expect(t.ledger.verify("ten_a").ok).toBe(true);
    expect(() => t.db.prepare("UPDATE ledger_events SET payload = '{}' WHERE tenant_seq = 1").run()).toThrow(
      /append-only: UPDATE refused/,
    );
    // and it goes on appending in the new layout
    await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "after")] });
    expect(t.ledger.tlog.checkpointNote("ten_a")!.root).toEqual(mth(payloads(t, "ten_a")));
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
