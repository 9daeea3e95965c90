import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createBackup } from "../../src/ops/backup.js";
import { RestoreRefused, restoreBackup } from "../../src/ops/restore.js";
import { PID_FILE, processStartTime } from "../../src/ops/data-dir.js";
import { messageSent, openTestLedger, setupTenant, tempDir, type TestLedger } from "../ledger/helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function track<T extends { cleanup(): void }>(x: T): T {
  cleanups.push(() => x.cleanup());
  return x;
}

async function seeded(events = 200): Promise<TestLedger> {
  const t = track(openTestLedger());
  await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
  await t.ledger.append({ tenant_id: "ten_b", events: setupTenant("ten_b") });
  for (let i = 0; i < events; i += 100) {
    await t.ledger.append({
      tenant_id: "ten_a",
      events: Array.from({ length: 100 }, (_, j) => messageSent("ten_a", `m${i + j}`, { size: 1000 })),
    });
  }
  return t;
}

/** Every stored hash of a tenant, by tenant_seq, straight from a database file. */
function hashes(dbPath: string, tenant: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare("SELECT hash FROM ledger_events WHERE tenant_id = ? ORDER BY tenant_seq")
      .pluck()
      .all(tenant) as string[];
  } finally {
    db.close();
  }
}

describe("backup during concurrent writes", () => {
  it("restores to a verifiable prefix of what the live ledger committed", async () => {
    const live = await seeded(3000);
    // Attachments and keys travel with the backup.
    mkdirSync(join(live.dir, "attachments", "ten_a"), { recursive: true });
    writeFileSync(join(live.dir, "attachments", "ten_a", "att_1"), "file bytes");

    let writing = true;
    let acked = 0;
    const writer = (async () => {
      let i = 0;
      while (writing) {
        await live.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `w${i++}`, { size: 500 })] });
        acked++;
      }
    })();
    // Let the writer get going so the backup starts mid-stream.
    while (acked < 20) await new Promise((r) => setImmediate(r));
    const headBefore = live.ledger.head("ten_a").tenant_seq;

    const work = track(tempDir("backup-"));
    const report = await createBackup({ dataDir: live.dir, target: join(work.dir, "nightly.sqlite") });
    const ackedDuringBackup = live.ledger.head("ten_a").tenant_seq - headBefore;
    writing = false;
    await writer;

    expect(report.ok).toBe(true);
    expect(report.integrity).toBe("ok");
    expect(report.ledger.map((r) => [r.tenant_id, r.ok])).toEqual([
      ["ten_a", true],
      ["ten_b", true],
    ]);
    expect(report.files).toBeGreaterThanOrEqual(2); // signing key + attachment
    expect(ackedDuringBackup).toBeGreaterThan(0); // the backup really raced with commits
    expect(readdirSync(work.dir)).toEqual(["nightly.sqlite"]); // one self-contained file

    // Restore into an empty data dir and open it the way the server would.
    const target = track(tempDir("restored-"));
    const restored = restoreBackup({ file: report.file, dataDir: target.dir });
    expect(restored.previous).toBeNull();
    expect(readFileSync(join(target.dir, "attachments", "ten_a", "att_1"), "utf8")).toBe("file bytes");

    const liveHashes = hashes(live.dbPath, "ten_a");
    const copyHashes = hashes(join(target.dir, "logline.sqlite"), "ten_a");
    expect(copyHashes.length).toBeGreaterThanOrEqual(headBefore);
    expect(copyHashes.length).toBeLessThanOrEqual(liveHashes.length);
    expect(copyHashes).toEqual(liveHashes.slice(0, copyHashes.length)); // a prefix, nothing invented

    live.close();
    const reopened = track(openTestLedger({}, target.dir));
    expect(reopened.ledger.verify("ten_a").ok).toBe(true);
    expect(reopened.ledger.head("ten_a").tenant_seq).toBe(copyHashes.length);
    // The restored ledger takes new appends on top of the restored chain.
    await reopened.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", "after restore")] });
    expect(reopened.ledger.verify("ten_a").ok).toBe(true);
  });
});

describe("restore", () => {
  it("refuses a copy that fails verify and leaves the data dir untouched", async () => {
    const live = await seeded(100);
    const work = track(tempDir("backup-"));
    const report = await createBackup({ dataDir: live.dir, target: join(work.dir, "b.sqlite") });
    expect(report.ok).toBe(true);

    // Tamper with one stored event inside the backup file.
    const db = new Database(report.file);
    db.exec("DROP TRIGGER ledger_events_no_update");
    const payload = db
      .prepare("SELECT payload FROM ledger_events WHERE tenant_id = 'ten_a' AND tenant_seq = 40")
      .pluck()
      .get() as string;
    db.prepare("UPDATE ledger_events SET payload = ? WHERE tenant_id = 'ten_a' AND tenant_seq = 40").run(
      payload.replace("m37", "m99"),
    );
    db.close();

    const target = track(tempDir("restored-"));
    writeFileSync(join(target.dir, "keep.txt"), "previous data");
    let refused: RestoreRefused | undefined;
    try {
      restoreBackup({ file: report.file, dataDir: target.dir });
    } catch (err) {
      refused = err as RestoreRefused;
    }
    expect(refused).toBeInstanceOf(RestoreRefused);
    expect(refused!.problems.join("\n")).toMatch(/ledger ten_a: first break at seq:40 \(hash_mismatch\)/);
    expect(readdirSync(target.dir)).toEqual(["keep.txt"]);
  });

  it("refuses a file that is not a LogLine backup", () => {
    const target = track(tempDir("restored-"));
    const bogus = join(target.dir, "..", `bogus-${process.pid}.sqlite`);
    writeFileSync(bogus, "not sqlite at all, just text that is long enough to look like a header....");
    cleanups.push(() => rmSync(bogus, { force: true }));
    expect(() => restoreBackup({ file: bogus, dataDir: target.dir })).toThrow(
      /not a SQLite database|not a LogLine backup/,
    );
  });

  it("refuses while a server is running on the data dir, and moves old data aside otherwise", async () => {
    const live = await seeded(100);
    const work = track(tempDir("backup-"));
    const report = await createBackup({ dataDir: live.dir, target: join(work.dir, "b.sqlite") });

    const target = track(tempDir("restored-"));
    writeFileSync(join(target.dir, "old.txt"), "old");
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    cleanups.push(() => sleeper.kill());
    await new Promise((r) => sleeper.once("spawn", r));
    // As a server writes it: its pid and when it started.
    writeFileSync(join(target.dir, PID_FILE), `${sleeper.pid} ${processStartTime(sleeper.pid!)}`);
    expect(() => restoreBackup({ file: report.file, dataDir: target.dir })).toThrow(
      new RegExp(`pid ${sleeper.pid}\\) is running`),
    );
    sleeper.kill();
    await new Promise((r) => sleeper.once("exit", r));

    const r = restoreBackup({ file: report.file, dataDir: target.dir, now: () => new Date("2026-02-01T03:00:00Z") });
    expect(r.previous).toBe(`${target.dir}.pre-restore-2026-02-01T03-00-00-000Z`);
    cleanups.push(() => rmSync(r.previous!, { recursive: true, force: true }));
    expect(readFileSync(join(r.previous!, "old.txt"), "utf8")).toBe("old");
    expect(r.check.ledger.every((x) => x.ok)).toBe(true);
  });
});
