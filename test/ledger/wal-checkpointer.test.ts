import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/shared/db.js";
import { startWalCheckpointer } from "../../src/shared/wal-checkpointer.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(): { db: Db; path: string } {
  const dir = mkdtempSync(join(tmpdir(), "wal-ckpt-"));
  dirs.push(dir);
  const path = join(dir, "x.sqlite");
  const db = openDatabase({ path, sync: "full" });
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  return { db, path };
}

/** ≈ 2 MB of rows, one commit per 20 rows (≈ 500 pages in the log). */
function write(db: Db, from: number): void {
  const insert = db.prepare("INSERT INTO t (id, v) VALUES (?, ?)");
  const batch = db.transaction((start: number) => {
    for (let i = start; i < start + 20; i++) insert.run(i, "x".repeat(1000));
  });
  for (let i = from; i < from + 2000; i += 20) batch(i);
}

async function until(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}

describe("WAL checkpoints on their own thread", () => {
  it("copies committed pages into the database file while the main connection only commits", async () => {
    const { db, path } = fresh();
    const c = startWalCheckpointer(db, { path, sync: "full", everyMs: 10 });
    // The main connection now checkpoints only past its backstop, far above what is written here.
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(10_000);
    const before = statSync(path).size;
    write(db, 0);
    // Only a checkpoint writes pages into the database file itself.
    expect(await until(() => statSync(path).size > before + 1_500_000)).toBe(true);
    write(db, 2000);
    await c.stop();
    // The rows are all there, and the main connection keeps working after the thread stops.
    expect(db.prepare("SELECT COUNT(*) FROM t").pluck().get()).toBe(4000);
    db.prepare("INSERT INTO t (id, v) VALUES (?, ?)").run(4000, "last");
    db.close();
    const again = openDatabase({ path });
    expect(again.prepare("SELECT COUNT(*) FROM t").pluck().get()).toBe(4001);
    again.close();
  });

  it("leaves the file alone without the thread: the log holds the pages until SQLite's own threshold", () => {
    const { db, path } = fresh();
    db.pragma("wal_autocheckpoint = 10000");
    const before = statSync(path).size;
    write(db, 0);
    expect(statSync(path).size).toBe(before);
    db.close();
  });
});
